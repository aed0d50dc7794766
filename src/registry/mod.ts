// The `mcpwire/registry` entry: ToolRegistry (built-in and MCP tools in one table, toolsets),
// registerMcpServer (discover → filter → name → register), tool names, and result formatting
// for an LLM. Loads no yaml and no model provider.

export { DEFAULT_TOOLSET, RegistryEvent, ToolCallError, ToolRegistry } from "./tool-registry.ts";
export type { ToolCallErrorKind } from "./tool-registry.ts";
export { registerMcpServer } from "./mcp-server.ts";
export { isAppOnlyTool, offeredToModel } from "./visibility.ts";
export type { ToolUi, ToolVisibility } from "../client/apps/apps.ts";
export { DEFAULT_NAMING, fitToolName, isValidToolName, MAX_TOOL_NAME_LENGTH, namingFormatProblem, sanitizeName, toolName } from "./naming.ts";
export { filterToolNames } from "./filters.ts";
export type { FilterOutcome, ToolFilter } from "./filters.ts";
export {
  DEFAULT_MAX_RESULT_CHARS,
  errorString,
  formatToolResultText,
  formatValueText,
  isCallToolResult,
  resultString,
} from "./result-format.ts";
export type { ResultFormatOptions, ResultTextOptions } from "./result-format.ts";
export {
  DEFAULT_MAX_RESULT_AGE_MS,
  DEFAULT_MAX_RESULT_FILES,
  defaultResultsDirectory,
  ResultFileError,
  ResultFiles,
} from "./result-files.ts";
export type { ResultFileErrorCode, ResultFilesOptions, SavedFile } from "./result-files.ts";
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
// A misspelt or missing option of a constructor (ToolRegistry, ResultFiles).
export { InvalidOptionsError } from "../common/options.ts";
// The redactor McpServerOptions.redactor takes (credentials kept out of error texts).
export { REDACTED, Redactor } from "../common/redact.ts";
