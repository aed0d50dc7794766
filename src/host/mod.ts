// The `mcpwire/host` entry: MCP servers from a config file (YAML `mcp_servers`, JSON
// `mcpServers`), started, supervised and closed by McpManager, their tools in one registry; and
// createSyncBridge, the same from synchronous code. Loads no model provider.
// The names: api/host.api.md. `Client` and the transports come from `mcpwire`, `ToolRegistry`
// and `Redactor` from `mcpwire/registry`.

// config files
export { configSearchPaths, loadConfig } from "./config/load.ts";
export type { LoadConfigOptions } from "./config/load.ts";
export { parseConfig } from "./config/parse.ts";
export type { ParseConfigOptions } from "./config/parse.ts";
export { ConfigError } from "./config/types.ts";
export type { McpwireConfig, ServerConfig, TransportKind } from "./config/types.ts";
export type { HostErrorCode } from "./errors.ts";
export { projectDigest, ProjectTrustStore } from "./config/project-trust.ts";
export type { ProjectApprover, ProjectTrust, TrustedProject } from "./config/project-trust.ts";
export type { ProjectConfigSummary, ProjectServerSummary } from "./config/project-summary.ts";
// servers of other apps (Claude, Cursor, VS Code, …), for a host that merges them itself
export { mergeImports, readImports } from "./config/imports.ts";
export type { ImportedFile } from "./config/imports.ts";
export type { ImportApp } from "./config/import-sources.ts";

// the server manager
export { ManagerEvent, McpManager, ServerUnavailableError } from "./manager.ts";
export type { ManagerEvents, ManagerEventType, McpManagerOptions, ServerState, ServerStatus } from "./manager.ts";
export type { BackoffOptions } from "./backoff.ts";
export { defaultEraCache, FileEraCache } from "./file-era-cache.ts";
export { eraCacheKey } from "../client/era-cache.ts";
// McpManagerOptions.trace takes a TraceSink of TraceEvents: exported from the root entry (ClientOptions.trace takes them too)

// the sync bridge
export { createSyncBridge, SyncBridgeError } from "./sync-bridge.ts";
export type { DispatchSyncOptions, SyncBridge, SyncBridgeManagerOptions, SyncBridgeOptions, SyncBridgeSource } from "./sync-bridge.ts";

// Skills (io.modelcontextprotocol/skills): here and not in the root entry, since verifying a
// SKILL.md parses its YAML frontmatter.
export { ServerSkills, SkillError } from "../client/skills/skills.ts";
export type { LoadedSkill, ServerSkillsOptions, Skill, SkillErrorCode, SkillFile, SkillListing, SkillsClient } from "../client/skills/skills.ts";
export { offerManagerSkills } from "./manager-skills.ts";
export { registerMcpSkills } from "../registry/skill-tool.ts";
export type { McpSkillsOptions, McpSkillsRegistration } from "../registry/skill-tool.ts";
export { SkillCatalog, skillCatalogOf } from "../registry/skill-catalog.ts";
export type { OfferedSkill } from "../registry/skill-catalog.ts";
