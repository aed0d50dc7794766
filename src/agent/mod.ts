// The `mcpwire/agent` entry: the LLM loop over a tool registry (Runner: history, retries,
// hooks, approval), the model providers (Ollama, OpenAI-compatible, Anthropic, Gemini), and
// MCP sampling answered through a provider. The names: api/agent.api.md.

// the runner
export { Runner, RunnerError } from "./runner.ts";
export type { RunnerEvent, RunnerOptions, RunnerRegistry } from "./runner.ts";
export type { AgentErrorCode } from "./errors.ts";
export { HistoryError } from "./history.ts";
export type { SavedHistory } from "./history.ts";
export type { RetryOptions } from "./model-retry.ts";
export type { ToolSearchMode, ToolSearchOptions } from "./tool-search.ts";
export type { ToolDefinitionLimits } from "./tool-definition-cap.ts";
export { approvalPolicy } from "./approval.ts";
export type { ApprovalAnswer, ApprovalPolicy, ApprovalRequest, ApproveFunction } from "./approval.ts";
export { HookConfigError, Hooks } from "./hooks.ts";
export type { HookCommand, HookEventName, HookInput, HookProblem, HooksConfig, HooksOptions } from "./hooks.ts";

// MCP sampling answered by a model
export { providerSamplingHandler } from "./provider-sampling.ts";
export type { ProviderSamplingOptions } from "./provider-sampling.ts";

// the providers
export { AnthropicProvider, createProvider, GoogleProvider, ModelStringError, OllamaProvider, OpenAiProvider } from "./providers/mod.ts";
export type { CreateProviderOptions, ProviderName, ProviderSettings } from "./providers/mod.ts";
export { ProviderError } from "./providers/types.ts";
export type { ChatMessage, ChatRequest, ChatResponse, ModelToolCall, Provider } from "./providers/types.ts";
