// The `mcpwire/host` entry: MCP servers from a config file (YAML `mcp_servers`, JSON
// `mcpServers`), started, supervised and closed by McpManager, their tools in one registry; and
// createSyncBridge, the same from synchronous code. Loads no model provider.
// The names: api/host.api.md. `Client` and the transports come from `mcpwire`, `ToolRegistry`
// and `Redactor` from `mcpwire/registry`.
//
// Reading order of src/host/ (its folder plan: docs/architecture.md "The host's folders"):
// 1. config/   a config file to an McpwireConfig: load.ts finds and reads it, parser.ts parses and
//              validates it (syntax.ts, validate.ts, schema.ts), server.ts and host-settings.ts build
//              each key (`${VAR}`: interpolate.ts) into types.ts; then other apps' servers
//              (imports.ts), project trust (project-trust.ts), editing and export (edit.ts, export-*.ts).
// 2. servers/  McpManager (manager.ts) and each server it supervises (server-connection.ts): the
//              transport of each connect (server-transport.ts over transport-factory.ts), its states,
//              events and errors (server-status.ts), retries (backoff.ts, start-failure.ts), its trace
//              (server-trace.ts), telemetry, result files, skills, the tool-list recorder.
// 3. sandbox/  a stdio server in bubblewrap: sandbox-plan.ts (what it may reach), sandbox.ts (bwrap's
//              command line), sandboxed-spawn.ts (the spawn wrapped), or Deno's flags (deno-permissions.ts).
// 4. store/    what the host keeps in files across runs: the era cache, the tool-list cache, the pin
//              lock file, and the inter-process lock (file-lock.ts) they write under.
// 5. trace/    trace files: written (trace-file.ts), read back (trace-reader.ts), answered again (replay*.ts).
// 6. bridge/   createSyncBridge (sync-bridge.ts) and the worker it starts beside itself (bridge-worker.ts).
// At the top, what the folders share: errors.ts (the host's error codes), secrets.ts (a config's
// secrets, for one Redactor), env.ts (the child-environment policy).

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
export { ManagerEvent, McpManager, ServerUnavailableError } from "./servers/manager.ts";
export type { ManagerEvents, ManagerEventType, McpManagerOptions, ServerState, ServerStatus } from "./servers/manager.ts";
export type { BackoffOptions } from "./servers/backoff.ts";
export { defaultEraCache, FileEraCache } from "./store/file-era-cache.ts";
export { eraCacheKey } from "../client/era-cache.ts";
// McpManagerOptions.trace takes a TraceSink of TraceEvents: exported from the root entry (ClientOptions.trace takes them too)

// the sync bridge
export { createSyncBridge, SyncBridgeError } from "./bridge/sync-bridge.ts";
export type { DispatchSyncOptions, SyncBridge, SyncBridgeManagerOptions, SyncBridgeOptions, SyncBridgeSource } from "./bridge/sync-bridge.ts";

// Skills (io.modelcontextprotocol/skills): here and not in the root entry, since verifying a
// SKILL.md parses its YAML frontmatter.
export { ServerSkills, SkillError } from "../client/skills/skills.ts";
export type { LoadedSkill, ServerSkillsOptions, Skill, SkillErrorCode, SkillFile, SkillListing, SkillsClient } from "../client/skills/skills.ts";
export { offerManagerSkills } from "./servers/manager-skills.ts";
export { registerMcpSkills } from "../registry/skill-tool.ts";
export type { McpSkillsOptions, McpSkillsRegistration } from "../registry/skill-tool.ts";
export { SkillCatalog, skillCatalogOf } from "../registry/skill-catalog.ts";
export type { OfferedSkill } from "../registry/skill-catalog.ts";
