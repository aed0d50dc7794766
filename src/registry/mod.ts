// The `mcpwire/registry` entry: ToolRegistry (built-in and MCP tools in one table, toolsets),
// registerMcpServer (discover → filter → name → register), tool names, and result formatting
// for an LLM. Loads no yaml and no model provider. The names: api/registry.api.md.

export { RegistryEvent, ToolRegistry } from "./tool-registry.ts";
export { ToolCallError } from "./tool-call-error.ts";
export { RegistrationError, ResultFileError, ToolPinsError } from "./registry-errors.ts";
export type { RegistryErrorCode, ResultFileErrorCode, ToolCallErrorCode } from "./registry-errors.ts";
// Tool pinning, trust on first use (McpServerOptions.pinning; the host's lock file is one ToolPinStore).
export { ToolPins } from "./tool-pins.ts";
export type { HeldTool, PinningMode, ToolPinsData, ToolPinStore } from "./tool-pins.ts";
export type {
  LlmToolSchema,
  McpServerOptions,
  McpServerRegistration,
  McpToolClient,
  McpToolEntry,
  RegisteredTool,
  RegistryEvents,
  RegistryEventType,
  ToolCallContext,
  ToolCaller,
  ToolDefinition,
  ToolOrigin,
  ToolOutput,
  ToolRegistryOptions,
  ToolsChange,
  ToolsetInfo,
} from "./types.ts";
export { registerMcpServer } from "./mcp-server.ts";
export { isAppOnlyTool, offeredToModel } from "./visibility.ts";
export { isValidToolName, toolName } from "./naming.ts";
export { filterToolNames } from "./filters.ts";
export type { FilterOutcome, ToolFilter } from "./filters.ts";
export { errorString, formatToolResultText, resultString } from "./result-format.ts";
export type { ResultFormatOptions, ResultTextOptions } from "./result-format.ts";
export { ResultFiles } from "./result-files.ts";
export type { ResultFilesOptions, SavedFile } from "./result-files.ts";
// The redactor McpServerOptions.redactor takes (credentials kept out of error texts); the host's
// McpManager.redactor is one too.
export { Redactor } from "../common/redact.ts";
