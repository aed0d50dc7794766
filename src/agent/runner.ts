// The Runner: an LLM tool-calling loop over the registry. Each step sends the history and
// registry.list() to the model; tool calls go through registry.dispatch (after approval and
// hooks) and their results go back to the model, until it answers with text — the host side
// of spec 2025-11-25 server/tools ("User Interaction Model", "Security Considerations").

import { OutputValidators } from "../client/output-validator.ts";
import type { JsonObject } from "../client/types.ts";
import type { Progress } from "../jsonrpc/peer.ts";
import { errorString } from "../registry/result-format.ts";
import type { ToolRegistry } from "../registry/tool-registry.ts";
import type { RegisteredTool } from "../registry/types.ts";
import type { ApprovalAnswer, ApproveFunction } from "./approval.ts";
import { type HookEventName, type HookInput, type HookOutcome, Hooks, NO_HOOKS } from "./hooks.ts";
import { type ChatMessage, type ChatResponse, type ModelToolCall, type Provider, ProviderError } from "./providers/types.ts";

export const DEFAULT_MAX_STEPS = 20;

/** Retries of a retryable provider error: 1 s doubling to 30 s, at most 5, Retry-After honoured. */
export interface RetryOptions {
  /** Default 5. */
  maxRetries?: number;
  /** Delay before the first retry, ms. Default 1000. */
  initialDelayMs?: number;
  /** Cap of the doubling, ms. Default 30 000. */
  maxDelayMs?: number;
  /** A Retry-After longer than this ends the run instead of waiting. Default 120 000 ms. */
  maxRetryAfterMs?: number;
  /** How to wait; tests pass one that does not sleep. Rejects when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What the registry must offer the Runner (a ToolRegistry, or anything shaped like one). */
export type RunnerRegistry = Pick<ToolRegistry, "list" | "get" | "dispatch">;

export interface RunnerOptions {
  provider: Provider;
  registry: RunnerRegistry;
  systemPrompt?: string;
  /** Model requests per run(), at most. Default 20. */
  maxSteps?: number;
  /** Every step's events, in order (the CLI draws from them). A throwing listener is ignored. */
  onEvent?: (event: RunnerEvent) => void;
  /** Asked before each tool call. Default: every call runs (the embedder decides; see approval.ts). */
  approve?: ApproveFunction;
  /** PreToolUse / PostToolUse / UserPromptSubmit / Stop commands. Default none. */
  hooks?: Hooks;
  /** Cancels the current run: the model request and the tool calls in flight. */
  signal?: AbortSignal;
  retry?: RetryOptions;
  /** Passed to the provider on every request. */
  maxTokens?: number;
  temperature?: number;
  /** Idle timeout of each tool call (MCP: progress restarts it). Default: the server's. */
  toolTimeoutMs?: number;
}

/** What happened, step by step. `step` counts model requests within one run(), from 1. */
export type RunnerEvent =
  | { type: "request"; step: number; messages: number; tools: number }
  | { type: "text"; step: number; chunk: string }
  | { type: "response"; step: number; text: string; toolCalls: ModelToolCall[]; stopReason?: string; model?: string }
  | { type: "retry"; step: number; attempt: number; delayMs: number; error: ProviderError }
  | { type: "tool-call"; step: number; call: ModelToolCall; arguments: JsonObject }
  | { type: "tool-progress"; step: number; call: ModelToolCall; progress: Progress }
  | { type: "tool-result"; step: number; call: ModelToolCall; content: string; isError: boolean; durationMs: number }
  | { type: "tool-rejected"; step: number; call: ModelToolCall; content: string }
  | { type: "approval-refused"; step: number; call: ModelToolCall; reason: string }
  | { type: "hook-blocked"; step: number; event: HookEventName; call?: ModelToolCall; reason: string; command?: string }
  | { type: "done"; step: number; text: string };

export type RunnerErrorKind =
  /** The model still asked for tools after maxSteps requests. */
  | "max-steps"
  /** The provider failed (not retryable, or retries used up). `cause` is the ProviderError. */
  | "provider"
  /** The signal aborted the run. */
  | "cancelled"
  /** A UserPromptSubmit hook blocked the prompt. */
  | "blocked"
  /** run() was called while a run was in progress. */
  | "busy";

/** A run that did not end with an answer. The history keeps every complete step. */
export class RunnerError extends Error {
  override readonly name = "RunnerError";
  readonly kind: RunnerErrorKind;
  constructor(message: string, kind: RunnerErrorKind, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** A history that loadHistory() cannot take. */
export class HistoryError extends Error {
  override readonly name = "HistoryError";
}

/** The JSON saveHistory() writes. */
export interface SavedHistory {
  format: "mcpwire-history";
  version: 1;
  systemPrompt?: string;
  messages: ChatMessage[];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

export class Runner {
  readonly #provider: Provider;
  readonly #registry: RunnerRegistry;
  readonly #systemPrompt: string | undefined;
  readonly #maxSteps: number;
  readonly #onEvent: ((event: RunnerEvent) => void) | undefined;
  readonly #approve: ApproveFunction | undefined;
  readonly #hooks: Hooks;
  readonly #signal: AbortSignal | undefined;
  readonly #retry: Required<Omit<RetryOptions, "sleep">> & Pick<RetryOptions, "sleep">;
  readonly #options: RunnerOptions;
  /** Input-schema validators, compiled once per tool (the output-schema machinery, reused). */
  readonly #validators: OutputValidators;
  #history: ChatMessage[] = [];
  #running = false;
  #callCounter = 0;

  constructor(options: RunnerOptions) {
    if (options.provider === undefined || typeof options.provider.chat !== "function") {
      throw new TypeError("new Runner: `provider` must be a Provider (see src/agent/providers/; createProvider makes one from \"openai/gpt-4o\")");
    }
    if (options.registry === undefined || typeof options.registry.dispatch !== "function") {
      throw new TypeError("new Runner: `registry` must be a ToolRegistry (McpManager.registry has the servers' tools)");
    }
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new RangeError(`new Runner: maxSteps must be a whole number of at least 1 (got ${String(options.maxSteps)})`);
    }
    this.#options = options;
    this.#provider = options.provider;
    this.#registry = options.registry;
    this.#systemPrompt = options.systemPrompt;
    this.#maxSteps = maxSteps;
    this.#onEvent = options.onEvent;
    this.#approve = options.approve;
    this.#hooks = options.hooks ?? NO_HOOKS;
    this.#signal = options.signal;
    this.#retry = {
      maxRetries: options.retry?.maxRetries ?? 5,
      initialDelayMs: options.retry?.initialDelayMs ?? 1000,
      maxDelayMs: options.retry?.maxDelayMs ?? 30_000,
      maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 120_000,
      sleep: options.retry?.sleep,
    };
    this.#validators = new OutputValidators(() => {
      // A schema ajv cannot compile is not our argument check to make: the server checks.
    });
  }

  /** The conversation so far (a copy): user prompts, the model's answers and tool calls, tool results. */
  get history(): ChatMessage[] {
    return structuredClone(this.#history);
  }

  /** Forgets the conversation. */
  clearHistory(): void {
    this.#history = [];
  }

  /** The history as JSON text, for loadHistory() later (also by another provider). */
  saveHistory(): string {
    const saved: SavedHistory = {
      format: "mcpwire-history",
      version: 1,
      ...(this.#systemPrompt !== undefined ? { systemPrompt: this.#systemPrompt } : {}),
      messages: this.#history,
    };
    return JSON.stringify(saved, null, 2);
  }

  /**
   * Replaces the history with a saved one (saveHistory's JSON text, the parsed object, or a
   * bare array of messages). Everything is checked; a problem throws a HistoryError naming
   * the message and what is wrong, and the history stays as it was.
   */
  loadHistory(saved: string | SavedHistory | ChatMessage[]): void {
    this.#history = parseHistory(saved);
  }

  /**
   * Runs one prompt to the model's answer: resolves to its final text. Rejects with a
   * RunnerError when the run cannot end with an answer (maxSteps, a provider error, a
   * cancel, a blocking UserPromptSubmit hook). Tool failures never reject: the model sees them.
   */
  async run(prompt: string): Promise<string> {
    if (this.#running) {
      throw new RunnerError("Runner.run: a run is already in progress on this Runner; await it before starting the next", "busy");
    }
    this.#running = true;
    try {
      return await this.#run(prompt);
    } finally {
      this.#running = false;
    }
  }

  async #run(prompt: string): Promise<string> {
    this.#checkCancelled();
    const submitted = await this.#hook("UserPromptSubmit", { prompt }, 0);
    if (submitted.blocked) {
      throw new RunnerError(`the prompt was blocked by a UserPromptSubmit hook: ${submitted.reason}`, "blocked");
    }
    this.#history.push({ role: "user", content: prompt });
    const promptIndex = this.#history.length - 1;
    try {
      return await this.#steps();
    } catch (error) {
      // No step completed: take the prompt back, so the next run does not follow a prompt
      // that never got an answer (some APIs refuse two user messages in a row).
      if (this.#history.length - 1 === promptIndex) this.#history.pop();
      throw error;
    }
  }

  async #steps(): Promise<string> {
    for (let step = 1; step <= this.#maxSteps; step++) {
      const response = await this.#request(step);
      this.#emit({
        type: "response",
        step,
        text: response.text,
        toolCalls: response.toolCalls,
        stopReason: response.stopReason,
        model: response.model,
      });
      if (response.toolCalls.length === 0) {
        this.#history.push({ role: "assistant", content: response.text });
        const stop = await this.#hook("Stop", { response: response.text }, step);
        if (stop.blocked && step < this.#maxSteps) {
          // As in mcphost / Claude Code: a Stop hook that blocks sends the model on, with its reason.
          this.#history.push({ role: "user", content: `A Stop hook did not accept this answer: ${stop.reason}` });
          continue;
        }
        this.#emit({ type: "done", step, text: response.text });
        return response.text;
      }
      const calls = response.toolCalls.map((call) => call.id === "" ? { ...call, id: `call_${++this.#callCounter}` } : call);
      // Several calls in one answer run concurrently; results go back in the model's order.
      const results = await Promise.all(calls.map((call) => this.#runTool(call, step)));
      this.#checkCancelled();
      // The answer and its results enter the history together, so it never holds a call without its result.
      this.#history.push({ role: "assistant", content: response.text, toolCalls: calls }, ...results);
    }
    throw new RunnerError(
      `the model was still calling tools after ${this.#maxSteps} steps (maxSteps ${this.#maxSteps}); ` +
        "raise maxSteps (config max_steps, --max-steps) or ask for less in one prompt",
      "max-steps",
    );
  }

  // --- the model -----------------------------------------------------------------------

  async #request(step: number): Promise<ChatResponse> {
    const tools = this.#registry.list();
    for (let attempt = 0;; attempt++) {
      this.#checkCancelled();
      this.#emit({ type: "request", step, messages: this.#history.length, tools: tools.length });
      try {
        return await this.#provider.chat({
          ...(this.#systemPrompt !== undefined ? { system: this.#systemPrompt } : {}),
          messages: this.#history,
          tools,
          ...(this.#options.maxTokens !== undefined ? { maxTokens: this.#options.maxTokens } : {}),
          ...(this.#options.temperature !== undefined ? { temperature: this.#options.temperature } : {}),
          ...(this.#signal !== undefined ? { signal: this.#signal } : {}),
          onText: (chunk) => this.#emit({ type: "text", step, chunk }),
        });
      } catch (error) {
        this.#checkCancelled(error);
        const who = `${this.#provider.name}/${this.#provider.model}`;
        if (!(error instanceof ProviderError)) {
          throw new RunnerError(`model ${who}: the request failed: ${messageOf(error)}`, "provider", { cause: error });
        }
        if (!error.retryable) throw new RunnerError(`model ${who}: ${error.message}`, "provider", { cause: error });
        if (attempt >= this.#retry.maxRetries) {
          throw new RunnerError(
            `model ${who}: still failing after ${this.#retry.maxRetries} retries: ${error.message}; try again later`,
            "provider",
            { cause: error },
          );
        }
        const delayMs = this.#delay(attempt, error, who);
        this.#emit({ type: "retry", step, attempt: attempt + 1, delayMs, error });
        try {
          await (this.#retry.sleep ?? defaultSleep)(delayMs, this.#signal);
        } catch (reason) {
          this.#checkCancelled(reason);
          throw reason;
        }
      }
    }
  }

  /** Retry `attempt` (0-based): the server's Retry-After when it gave one, else 1 s · 2^attempt up to 30 s. */
  #delay(attempt: number, error: ProviderError, who: string): number {
    if (error.retryAfterMs !== undefined && error.retryAfterMs >= 0) {
      if (error.retryAfterMs > this.#retry.maxRetryAfterMs) {
        throw new RunnerError(
          `model ${who}: ${error.message}; the server asks to retry after ${seconds(error.retryAfterMs)}, ` +
            `longer than the ${seconds(this.#retry.maxRetryAfterMs)} we wait; try again later`,
          "provider",
          { cause: error },
        );
      }
      return error.retryAfterMs;
    }
    return Math.min(this.#retry.maxDelayMs, this.#retry.initialDelayMs * 2 ** attempt);
  }

  // --- tools ---------------------------------------------------------------------------

  /** One tool call to its tool message. Never throws: every failure is a result the model sees. */
  async #runTool(call: ModelToolCall, step: number): Promise<ChatMessage> {
    const reject = (message: string): ChatMessage => {
      const content = errorString(message);
      this.#emit({ type: "tool-rejected", step, call, content });
      return { role: "tool", toolCallId: call.id, name: call.name, content, isError: true };
    };
    const tool = this.#registry.get(call.name);
    const offered = this.#registry.list();
    if (tool === undefined || !offered.some((schema) => schema.name === call.name)) {
      const names = offered.map((schema) => schema.name);
      return reject(
        `unknown tool "${call.name}": no tool of that name is offered; call one of: ` +
          (names.length === 0 ? "(no tools are available)" : names.join(", ")),
      );
    }
    const parsed = parseToolArguments(tool, call.arguments);
    if (typeof parsed === "string") return reject(parsed);
    const args = parsed;

    const problems = this.#validators.check(`input:${tool.name}`, tool.inputSchema, args);
    if (problems !== undefined) {
      return reject(
        `${describeTool(tool)}: the arguments do not match its inputSchema: ${problems.map((problem) => problem.message).join("; ")}; ` +
          "call it again with arguments that match the schema",
      );
    }

    const pre = await this.#hook("PreToolUse", { toolName: tool.name, toolInput: args }, step, call);
    if (pre.blocked) return reject(`a PreToolUse hook blocked this call to "${tool.name}": ${pre.reason}`);

    if (this.#approve !== undefined) {
      let answer: ApprovalAnswer;
      try {
        answer = await this.#approve({ tool, call, arguments: args });
      } catch (error) {
        answer = { approved: false, reason: `the approval could not be asked (${messageOf(error)})` };
      }
      if (answer !== true) {
        const reason = typeof answer === "object" ? answer.reason : "the user said no";
        this.#emit({ type: "approval-refused", step, call, reason });
        const content = errorString(
          `the user declined this call to "${tool.name}" (${reason}); it did not run. Do not call it again for this; ` +
            "continue without it or tell the user what you would need",
        );
        return { role: "tool", toolCallId: call.id, name: call.name, content, isError: true };
      }
    }

    this.#checkCancelled();
    this.#emit({ type: "tool-call", step, call, arguments: args });
    const started = performance.now();
    let content = await this.#registry.dispatch(tool.name, args, {
      ...(this.#signal !== undefined ? { signal: this.#signal } : {}),
      ...(this.#options.toolTimeoutMs !== undefined ? { timeoutMs: this.#options.toolTimeoutMs } : {}),
      onProgress: (progress) => this.#emit({ type: "tool-progress", step, call, progress }),
    });
    const durationMs = performance.now() - started;
    let isError = content.startsWith('{"error"');
    this.#emit({ type: "tool-result", step, call, content, isError, durationMs });

    const post = await this.#hook("PostToolUse", { toolName: tool.name, toolInput: args, toolResponse: content }, step, call);
    if (post.blocked) {
      content = errorString(`"${tool.name}" ran, but a PostToolUse hook blocked its result: ${post.reason}`);
      isError = true;
    }
    return { role: "tool", toolCallId: call.id, name: call.name, content, ...(isError ? { isError: true } : {}) };
  }

  // --- hooks, events, cancellation -----------------------------------------------------

  async #hook(event: HookEventName, input: HookInput, step: number, call?: ModelToolCall): Promise<HookOutcome> {
    if (!this.#hooks.has(event)) return { blocked: false };
    const outcome = await this.#hooks.run(event, input);
    if (outcome.blocked) {
      this.#emit({
        type: "hook-blocked",
        step,
        event,
        ...(call !== undefined ? { call } : {}),
        reason: outcome.reason ?? "",
        ...(outcome.command !== undefined ? { command: outcome.command } : {}),
      });
    }
    return outcome;
  }

  #emit(event: RunnerEvent): void {
    try {
      this.#onEvent?.(event);
    } catch {
      // A listener's bug must not end the run.
    }
  }

  #checkCancelled(cause?: unknown): void {
    if (this.#signal?.aborted) {
      const reason = this.#signal.reason;
      throw new RunnerError(`the run was cancelled${reason instanceof Error ? `: ${reason.message}` : ""}`, "cancelled", {
        cause: cause ?? reason,
      });
    }
  }
}

function describeTool(tool: RegisteredTool): string {
  return tool.origin.kind === "mcp" ? `server "${tool.origin.server}", tool "${tool.origin.tool}"` : `tool "${tool.name}"`;
}

/** The model's arguments as an object, or the message saying why they are not one. */
function parseToolArguments(tool: RegisteredTool, raw: JsonObject | string): JsonObject | string {
  let value: unknown = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return {};
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return `${describeTool(tool)}: the arguments are not valid JSON (${messageOf(error)}); send one JSON object matching the tool's inputSchema`;
    }
  }
  if (!isJsonObject(value)) {
    return `${describeTool(tool)}: the arguments must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`;
  }
  return value;
}

// --- history validation ----------------------------------------------------------------

function parseHistory(saved: unknown): ChatMessage[] {
  let value = saved;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch (error) {
      throw new HistoryError(`the history is not valid JSON (${messageOf(error)}); load what saveHistory() wrote`);
    }
  }
  let messages: unknown;
  if (Array.isArray(value)) {
    messages = value;
  } else if (isJsonObject(value)) {
    if (value.format !== "mcpwire-history") {
      throw new HistoryError(`the history has no "format": "mcpwire-history"; load what saveHistory() wrote`);
    }
    if (value.version !== 1) {
      throw new HistoryError(`the history has version ${JSON.stringify(value.version)}; this mcpwire reads version 1`);
    }
    messages = value.messages;
    if (!Array.isArray(messages)) throw new HistoryError(`the history's "messages" must be an array`);
  } else {
    throw new HistoryError("the history must be saveHistory()'s JSON object or an array of messages");
  }
  const result: ChatMessage[] = [];
  /** Tool-call ids of the latest assistant message that have no result yet. */
  let open = new Set<string>();
  (messages as unknown[]).forEach((message, index) => {
    const where = `history message ${index}`;
    if (!isJsonObject(message)) throw new HistoryError(`${where} is not an object`);
    const content = message.content;
    if (message.role !== "tool" && open.size > 0) {
      throw new HistoryError(`${where}: the tool calls ${[...open].join(", ")} of the assistant message before it have no result`);
    }
    if (typeof content !== "string") throw new HistoryError(`${where} (role ${JSON.stringify(message.role)}) needs a string "content"`);
    switch (message.role) {
      case "user":
        result.push({ role: "user", content });
        return;
      case "assistant": {
        const calls = message.toolCalls;
        if (calls === undefined) {
          result.push({ role: "assistant", content });
          return;
        }
        if (!Array.isArray(calls)) throw new HistoryError(`${where}: "toolCalls" must be an array`);
        const toolCalls: ModelToolCall[] = calls.map((call, callIndex) => {
          if (!isJsonObject(call) || typeof call.id !== "string" || typeof call.name !== "string" ||
            !(typeof call.arguments === "string" || isJsonObject(call.arguments))) {
            throw new HistoryError(`${where}: toolCalls[${callIndex}] needs a string "id", a string "name" and "arguments" (an object or a string)`);
          }
          return {
            id: call.id,
            name: call.name,
            arguments: call.arguments as JsonObject | string,
            ...(typeof call.signature === "string" ? { signature: call.signature } : {}),
          };
        });
        result.push({ role: "assistant", content, toolCalls });
        open = new Set(toolCalls.map((call) => call.id));
        return;
      }
      case "tool": {
        if (typeof message.toolCallId !== "string" || typeof message.name !== "string") {
          throw new HistoryError(`${where}: a tool message needs a string "toolCallId" and "name"`);
        }
        if (!open.has(message.toolCallId)) {
          throw new HistoryError(
            `${where}: tool result "${message.toolCallId}" answers no tool call of the assistant message before it`,
          );
        }
        open.delete(message.toolCallId);
        result.push({
          role: "tool",
          toolCallId: message.toolCallId,
          name: message.name,
          content,
          ...(message.isError === true ? { isError: true } : {}),
        });
        return;
      }
      default:
        throw new HistoryError(`${where} has role ${JSON.stringify(message.role)}; roles are "user", "assistant" and "tool"`);
    }
  });
  if (open.size > 0) throw new HistoryError(`the history ends with tool calls that have no result (${[...open].join(", ")})`);
  return result;
}
