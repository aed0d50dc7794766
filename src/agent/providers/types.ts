// What the host's tool-calling loop needs of a model API. Ollama, OpenAI-style Chat
// Completions, Anthropic Messages and Gemini all share this shape: a history of messages plus
// a list of function schemas in, text and/or tool calls out. Each provider converts the
// neutral history below to its own wire format and back, so the Runner (src/agent/runner.ts)
// and the history it saves never depend on one provider.

import type { JsonObject } from "../../client/types.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import type { LlmToolSchema } from "../../registry/types.ts";

/** One tool call the model asked for. `id` is the provider's, or one we made up when it has none. */
export interface ModelToolCall {
  id: string;
  /** The registered name, exactly as offered in the tool list. */
  name: string;
  /** The arguments as the model sent them: an object, or the raw string when it was not JSON. */
  arguments: JsonObject | string;
  /**
   * An opaque token the API wants sent back with this call in later requests (Gemini's
   * `thoughtSignature`); absent for the APIs that have none.
   */
  signature?: string;
}

/** The provider-neutral history. Providers convert it to their wire format on every request. */
export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ModelToolCall[] }
  | {
    role: "tool";
    /** The ModelToolCall.id this answers. */
    toolCallId: string;
    /** The tool's registered name (Gemini and Ollama correlate by name). */
    name: string;
    /** What the model sees: registry.dispatch's string (`{"result": …}` / `{"error": …}`). */
    content: string;
    isError?: boolean;
  };

/** One request to a model: the history, the tools offered, and the limits. */
export interface ChatRequest {
  /** The system prompt, sent the way the API wants it (a message, a field, an instruction). */
  system?: string;
  messages: ChatMessage[];
  /** The tools offered: registry.list() as the Runner offers it (tool search, each definition capped); empty means none. */
  tools: LlmToolSchema[];
  maxTokens?: number;
  temperature?: number;
  /** Cancels the HTTP request. */
  signal?: AbortSignal;
  /** When given and the API streams, text arrives here chunk by chunk as it is generated. */
  onText?: (chunk: string) => void;
}

/** A model's answer: text, tool calls, and why it stopped. */
export interface ChatResponse {
  /** All the text of the answer ("" when the model only called tools). */
  text: string;
  /** The tool calls of this answer, in the model's order; empty for a final answer. */
  toolCalls: ModelToolCall[];
  /** The provider's own stop reason ("stop", "tool_calls", "end_turn", "STOP", …). */
  stopReason?: string;
  /** The model that answered, as the API reports it. */
  model?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
}

/** One model API behind one model name. Implementations live beside this file, one per API. */
export interface Provider {
  /** "ollama" | "openai" | "anthropic" | "google". */
  readonly name: string;
  /** The model part of `provider/model`. */
  readonly model: string;
  chat(request: ChatRequest): Promise<ChatResponse>;
}

/**
 * Why a provider call failed:
 * - `invalid-options`: a base URL that is not http(s), a timeout that is not positive, an
 *   OLLAMA_HOST that is not a host;
 * - `missing-api-key`: a hosted API and no key for it;
 * - `connect-failed`: the API could not be reached;
 * - `timeout`: no answer, or no further data, within the provider timeout;
 * - `body-broken`: the answer broke off (the connection failed while it was read);
 * - `api-error`: the API answered with an error — a non-2xx status (`status` has it) or an
 *   error reported inside a stream;
 * - `invalid-answer`: an answer that is not JSON, or lacks what every answer has (choices,
 *   content blocks, candidates);
 * - `incomplete-answer`: a streamed answer that ended before its last chunk;
 * - `prompt-blocked`: the API blocked the prompt (Gemini's blockReason);
 * - `empty-answer`: the model stopped (a safety or length stop) without text or tool calls.
 */
export type ProviderErrorCode =
  | "invalid-options"
  | "missing-api-key"
  | "connect-failed"
  | "timeout"
  | "body-broken"
  | "api-error"
  | "invalid-answer"
  | "incomplete-answer"
  | "prompt-blocked"
  | "empty-answer";

/** What a ProviderError carries besides its message and code. */
export interface ProviderErrorOptions {
  /** The provider's name ("openai", "anthropic", …). */
  provider: string;
  /** The HTTP status, when the API answered with one. */
  status?: number;
  /** Whether the Runner should retry (429, 503, 529, "overloaded"). Default false. */
  retryable?: boolean;
  /** The server's Retry-After, in ms. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A provider call that failed (`code` says why). `retryable` is true for 429, 503, 529 and
 * "overloaded" answers, with the server's `Retry-After` (in ms) when it gave one; the Runner
 * retries those with backoff and ends the run with `message` otherwise.
 */
export class ProviderError extends McpwireError<ProviderErrorCode> {
  override readonly name = "ProviderError";
  readonly provider: string;
  /** The HTTP status, when the API answered. */
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(message: string, code: ProviderErrorCode, options: ProviderErrorOptions) {
    super(message, code, options);
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}
