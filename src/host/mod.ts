// The `mcpwire/host` entry: MCP servers from a config file (YAML `mcp_servers`, JSON
// `mcpServers`), started, supervised and closed by McpManager, their tools in one registry; and
// createSyncBridge, the same from synchronous code. Loads no model provider.

export { configSearchPaths, loadConfig } from "./config/load.ts";
export type { LoadConfigOptions } from "./config/load.ts";
export { parseConfig } from "./config/parse.ts";
export type { ParseConfigOptions } from "./config/parse.ts";
export type { ConfigFormat } from "./config/syntax.ts";
export type { Env as ConfigEnv } from "./config/context.ts";
export { ConfigError, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from "./config/types.ts";
export type { ConfigErrorCode } from "./config/types.ts";
export { defaultTrustFile, MAX_TRUSTED_PROJECTS, projectDigest, ProjectTrustStore } from "./config/project-trust.ts";
export type { ProjectApprover, ProjectTrust, TrustedProject } from "./config/project-trust.ts";
export type { ProjectConfigSummary, ProjectServerSummary } from "./config/project-summary.ts";
export type { McpwireConfig, ProviderSettings as ConfigProviderSettings, ServerConfig, TransportKind } from "./config/types.ts";
export { CONFIG_SCHEMA } from "./config/schema.ts";
export { IMPORT_APPS, importSources } from "./config/import-sources.ts";
export type { ImportApp, ImportScope, ImportSource } from "./config/import-sources.ts";
export { mergeImports, readImports } from "./config/imports.ts";
export type { ImportedFile, ReadImportsOptions } from "./config/imports.ts";
export type { ServerOrigin } from "./config/types.ts";
export { interpolate, InterpolationError } from "./interpolate.ts";
export {
  CHILD_ENV_BASELINE,
  CHILD_ENV_BASELINE_PREFIXES,
  CHILD_ENV_BASELINE_WINDOWS,
  childEnvironment,
  isBaselineVariable,
} from "./env.ts";
export type { ChildEnvironmentOptions } from "./env.ts";
export {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_CONNECT_RETRIES,
  DEFAULT_MAX_RECONNECT_ATTEMPTS,
  DEFAULT_PROBE_INTERVAL_MS,
  ManagerEvent,
  McpManager,
  ServerUnavailableError,
} from "./manager.ts";
export type { ManagerEvents, ManagerEventType, McpManagerOptions, ServerState, ServerStatus } from "./manager.ts";
export type { BackoffOptions } from "./backoff.ts";
export { defaultEraCache, defaultEraCacheFile, ERA_CACHE_ENV, FileEraCache, MAX_ERA_CACHE_ENTRIES } from "./era-cache.ts";
export {
  createSyncBridge,
  DEFAULT_BRIDGE_CLOSE_TIMEOUT_MS,
  DEFAULT_BRIDGE_START_TIMEOUT_MS,
  SyncBridgeError,
} from "./sync-bridge.ts";
export type {
  DispatchSyncOptions,
  SyncBridge,
  SyncBridgeManagerOptions,
  SyncBridgeOptions,
  SyncBridgeSource,
} from "./sync-bridge.ts";
// A misspelt or missing option of a constructor (McpManager, createSyncBridge, ServerSkills).
export { InvalidOptionsError } from "../common/options.ts";
// The redactor McpManager.redactor is (pass your own in McpManagerOptions.redactor to share it).
export { REDACTED, Redactor } from "../common/redact.ts";
export { configSecrets, redactorFor } from "./secrets.ts";
// Skills (io.modelcontextprotocol/skills): here and not in the root entry, since verifying a
// SKILL.md parses its YAML frontmatter.
export { ServerSkills, sha256Digest, SkillError } from "../client/skills/skills.ts";
export type { LoadedSkill, ServerSkillsOptions, Skill, SkillErrorCode, SkillFile, SkillFrontmatter, SkillListing, SkillResource, SkillsClient } from "../client/skills/skills.ts";
export { MAX_SKILL_BYTES, MAX_SKILL_RESOURCES, skillNameProblem } from "../client/skills/skill-entry.ts";
export { offerManagerSkills } from "./skills.ts";
export { registerMcpSkills } from "../registry/skills.ts";
export type { McpSkillsOptions, McpSkillsRegistration, SkillsClientSource } from "../registry/skills.ts";
export { existingSkillCatalog, SkillCatalog, skillCatalogOf } from "../registry/skill-catalog.ts";
export type { OfferedSkill } from "../registry/skill-catalog.ts";
