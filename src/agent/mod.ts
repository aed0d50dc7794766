// The `mcpwire/agent` entry: the LLM loop over a tool registry (Runner: history, retries,
// hooks, approval), the model providers (Ollama, OpenAI-compatible, Anthropic, Gemini), and
// MCP sampling answered through a provider.

export { DEFAULT_MAX_STEPS, Runner, RunnerError } from "./runner.ts";
export type { RunnerErrorKind, RunnerEvent, RunnerOptions, RunnerRegistry } from "./runner.ts";
export { HistoryError } from "./history.ts";
export type { SavedHistory } from "./history.ts";
export type { RetryOptions } from "./model-retry.ts";
export {
  DEFAULT_TOOL_SEARCH_MAX_BYTES,
  DEFAULT_TOOL_SEARCH_MAX_TOOLS,
  DEFAULT_TOOL_SEARCH_RESULTS,
  definitionBytes,
  TOOL_SEARCH_MODES,
  TOOL_SEARCH_NAME,
  ToolSearch,
} from "./tool-search.ts";
export type { ToolOffer, ToolSearchMode, ToolSearchOptions } from "./tool-search.ts";
export { DEFAULT_MAX_DESCRIPTION_BYTES, DEFAULT_MAX_TOOL_SCHEMA_BYTES, ToolDefinitionCap } from "./tool-definition-cap.ts";
export type { SchemaReduction, ToolDefinitionCut, ToolDefinitionLimits } from "./tool-definition-cap.ts";
export { APPROVAL_POLICIES, approvalPolicy, isReadOnly, parseApprovalPolicy, runsWithoutAsking } from "./approval.ts";
export type { ApprovalAnswer, ApprovalPolicy, ApprovalRequest, ApproveFunction } from "./approval.ts";
export { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS, HookConfigError, Hooks } from "./hooks.ts";
export type { HookCommand, HookEventName, HookInput, HookOutcome, HookProblem, HooksConfig, HooksOptions } from "./hooks.ts";
export { chooseModel, providerSamplingHandler } from "./provider-sampling.ts";
export type { ProviderSamplingOptions } from "./provider-sampling.ts";
export {
  AnthropicProvider,
  createProvider,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  GoogleProvider,
  ModelStringError,
  OllamaProvider,
  OpenAiProvider,
  parseModelString,
  PROVIDER_NAMES,
} from "./providers/mod.ts";
export type { CreateProviderOptions, FetchFunction, ProviderName, ProviderSettings } from "./providers/mod.ts";
export { ProviderError } from "./providers/types.ts";
export type { ChatMessage, ChatRequest, ChatResponse, ModelToolCall, Provider } from "./providers/types.ts";
