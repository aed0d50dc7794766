// The Runner: an LLM tool-calling loop over the registry. Each step sends the history and
// registry.list() to the model; tool calls go through registry.dispatch (after approval and
// hooks) and their results go back to the model, until it answers with text — the host side
// of spec 2025-11-25 server/tools ("User Interaction Model", "Security Considerations").

import { OutputValidators } from "../client/schema/output-validator.ts";
import type { JsonSchemaValidator } from "../client/schema/schema-validator.ts";
import type { TelemetryOption } from "../client/telemetry.ts";
import type { JsonObject } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { McpwireError } from "../common/mcpwire-error.ts";
import type { Progress } from "../jsonrpc/peer.ts";
import { errorString } from "../registry/result-format.ts";
import type { ToolRegistry } from "../registry/tool-registry.ts";
import type { LlmToolSchema, RegisteredTool } from "../registry/types.ts";
import type { ApprovalAnswer, ApproveFunction } from "./approval.ts";
import { historyText, parseHistory, type SavedHistory } from "./history.ts";
import { type HookEventName, type HookInput, type HookOutcome, type Hooks, NO_HOOKS } from "./hooks.ts";
import { ModelRetry, type RetryOptions } from "./model-retry.ts";
import { type ChatMessage, type ChatResponse, type ModelToolCall, type Provider, ProviderError } from "./providers/types.ts";
import { type RunnerTelemetry, startRunnerTelemetry, type ToolCallSpan } from "./runner-telemetry.ts";
import { systemWithSkills } from "./skills-prompt.ts";
import { ToolDefinitionCap, type ToolDefinitionLimits } from "./tool-definition-cap.ts";
import { ToolSearch, type ToolSearchOptions } from "./tool-search.ts";

export const DEFAULT_MAX_STEPS = 20;

/** What the registry must offer the Runner (a ToolRegistry, or anything shaped like one). */
export type RunnerRegistry = Pick<ToolRegistry, "list" | "get" | "dispatch">;

/** Options of a Runner: the provider, the registry, steps, retries, hooks, approval, tool search. */
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
  /**
   * Tool search (tool-search.ts): past a budget of tools, the model gets a search tool instead
   * of every MCP tool's schema. Default: mode "auto" (40 tools or 40,000 bytes); false: off.
   */
  toolSearch?: ToolSearchOptions | false;
  /**
   * What a model is offered of each tool, at most (tool-definition-cap.ts): its description
   * (default 2 KB, the cut marked) and its input schema (default 16 KB of JSON, else offered
   * reduced). The registry's definitions stay whole. false: no cap.
   */
  toolDefinitions?: ToolDefinitionLimits | false;
  /**
   * OpenTelemetry (docs/telemetry.md): each run an `invoke_agent` span, each model request a
   * `chat {model}` client span with its token usage, each tool call an `execute_tool {name}`
   * span (a child of the model request that asked for it) whose MCP requests are its children.
   * `true` uses the global tracer of @opentelemetry/api, loaded by the first run(); unset, nothing is loaded.
   */
  telemetry?: TelemetryOption;
  /**
   * Which JSON Schema validator checks a tool call's arguments against its inputSchema
   * (ClientOptions.jsonSchema): `ajv` or `interpreting`. Default: ajv where code generation works.
   */
  jsonSchema?: JsonSchemaValidator;
}

/** What happened, step by step. `step` counts model requests within one run(), from 1. */
export type RunnerEvent =
  | { type: "request"; step: number; messages: number; tools: number; deferredTools?: number }
  | { type: "text"; step: number; chunk: string }
  | { type: "response"; step: number; text: string; toolCalls: ModelToolCall[]; stopReason?: string; model?: string }
  | { type: "retry"; step: number; attempt: number; delayMs: number; error: ProviderError }
  | { type: "tool-call"; step: number; call: ModelToolCall; arguments: JsonObject }
  | { type: "tool-progress"; step: number; call: ModelToolCall; progress: Progress }
  | { type: "tool-result"; step: number; call: ModelToolCall; content: string; isError: boolean; durationMs: number }
  | { type: "tool-rejected"; step: number; call: ModelToolCall; content: string }
  | { type: "approval-refused"; step: number; call: ModelToolCall; reason: string }
  | { type: "hook-blocked"; step: number; event: HookEventName; call?: ModelToolCall; reason: string; command?: string }
  | { type: "done"; step: number; text: string }
  /** Something the user should know that is not an error of the run: a tool's definition cut for the model (once per tool). */
  | { type: "warning"; step: number; message: string };

/** Why a run ended without an answer. */
export type RunnerErrorCode =
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

/** A run that did not end with an answer (`code` says why). The history keeps every complete step. */
export class RunnerError extends McpwireError<RunnerErrorCode> {
  override readonly name = "RunnerError";
}

/** The LLM loop: sends the history and the registry's tools to a model, runs the tool calls it asks for, repeats. */
export class Runner {
  readonly #provider: Provider;
  readonly #registry: RunnerRegistry;
  readonly #systemPrompt: string | undefined;
  readonly #maxSteps: number;
  readonly #onEvent: ((event: RunnerEvent) => void) | undefined;
  readonly #approve: ApproveFunction | undefined;
  readonly #hooks: Hooks;
  readonly #signal: AbortSignal | undefined;
  readonly #retry: ModelRetry;
  readonly #options: RunnerOptions;
  /** Input-schema validators, compiled once per tool (the output-schema machinery, reused). */
  readonly #validators: OutputValidators;
  readonly #toolSearch: ToolSearch;
  readonly #cap: ToolDefinitionCap;
  /** The registry as the model sees it: each tool's definition capped (what tool search offers and searches). */
  readonly #offered: RunnerRegistry;
  #history: ChatMessage[] = [];
  #running = false;
  #callCounter = 0;
  /** RunnerOptions.telemetry, loaded by the first run() (runner-telemetry.ts); undefined when off. */
  #telemetry: Promise<RunnerTelemetry | undefined> | undefined;
  /** The telemetry of the run under way, when on. */
  #traced: RunnerTelemetry | undefined;

  constructor(options: RunnerOptions) {
    if (options.provider === undefined || typeof options.provider.chat !== "function") {
      throw new TypeError('new Runner: `provider` must be a Provider (see src/agent/providers/; createProvider makes one from "openai/gpt-4o")');
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
    this.#retry = new ModelRetry(options.retry);
    this.#toolSearch = new ToolSearch(options.toolSearch);
    this.#cap = new ToolDefinitionCap(options.toolDefinitions);
    const registry = options.registry;
    this.#offered = {
      list: () => registry.list().map((schema) => this.#cap.apply(schema)),
      get: (name) => registry.get(name),
      dispatch: (...args) => registry.dispatch(...args),
    };
    this.#validators = new OutputValidators(() => {
      // A schema the validator cannot compile is not our argument check to make: the server checks.
    }, options.jsonSchema);
  }

  /** The conversation so far (a copy): user prompts, the model's answers and tool calls, tool results. */
  get history(): ChatMessage[] {
    return structuredClone(this.#history);
  }

  /** Forgets the conversation. */
  clearHistory(): void {
    this.#history = [];
    this.#toolSearch.reset();
  }

  /** The history as JSON text, for loadHistory() later (also by another provider). */
  saveHistory(): string {
    return historyText(this.#history, this.#systemPrompt);
  }

  /**
   * Replaces the history with a saved one (saveHistory's JSON text, the parsed object, or a
   * bare array of messages). Everything is checked; a problem throws a HistoryError naming
   * the message and what is wrong, and the history stays as it was.
   */
  loadHistory(saved: string | SavedHistory | ChatMessage[]): void {
    this.#history = parseHistory(saved);
    this.#toolSearch.reset();
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
      if (this.#options.telemetry === undefined || this.#options.telemetry === false) return await this.#run(prompt);
      this.#telemetry ??= startRunnerTelemetry(this.#options.telemetry, this.#provider);
      const traced = await this.#telemetry;
      this.#traced = traced;
      return await traced!.run(() => this.#run(prompt));
    } finally {
      this.#running = false;
      this.#traced = undefined;
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
    const { tools, deferred } = this.#toolSearch.offer(this.#offered);
    for (const tool of tools) this.#warnCut(tool.name, step);
    for (let attempt = 0;; attempt++) {
      this.#checkCancelled();
      this.#emit({ type: "request", step, messages: this.#history.length, tools: tools.length, ...(deferred > 0 ? { deferredTools: deferred } : {}) });
      try {
        const traced = this.#traced;
        return await (traced === undefined ? this.#chat(step, tools) : traced.modelRequest(() => this.#chat(step, tools)));
      } catch (error) {
        this.#checkCancelled(error);
        const who = `${this.#provider.name}/${this.#provider.model}`;
        if (!(error instanceof ProviderError)) {
          throw new RunnerError(`model ${who}: the request failed: ${messageOf(error)}`, "provider", { cause: error });
        }
        const next = this.#retry.next(attempt, error, who);
        if ("giveUp" in next) throw new RunnerError(next.giveUp, "provider", { cause: error });
        const { delayMs } = next;
        this.#emit({ type: "retry", step, attempt: attempt + 1, delayMs, error });
        try {
          await this.#retry.wait(delayMs, this.#signal);
        } catch (reason) {
          this.#checkCancelled(reason);
          throw reason;
        }
      }
    }
  }

  /** One model request of a step. */
  #chat(step: number, tools: LlmToolSchema[]): Promise<ChatResponse> {
    return this.#provider.chat({
      ...systemWithSkills(this.#systemPrompt, this.#registry, tools), // the prompt, and the skills on offer (skills-prompt.ts)
      messages: this.#history,
      tools,
      ...(this.#options.maxTokens !== undefined ? { maxTokens: this.#options.maxTokens } : {}),
      ...(this.#options.temperature !== undefined ? { temperature: this.#options.temperature } : {}),
      ...(this.#signal !== undefined ? { signal: this.#signal } : {}),
      onText: (chunk) => this.#emit({ type: "text", step, chunk }),
    });
  }

  // --- tools ---------------------------------------------------------------------------

  /** One tool call to its tool message, in its `execute_tool` span when telemetry is on. Never throws. */
  #runTool(call: ModelToolCall, step: number): Promise<ChatMessage> {
    const traced = this.#traced;
    if (traced === undefined) return this.#callTool(call, step, undefined);
    return traced.toolCall(call, (span) => this.#callTool(call, step, span));
  }

  /** One tool call to its tool message. Never throws: every failure is a result the model sees. */
  async #callTool(call: ModelToolCall, step: number, span: ToolCallSpan | undefined): Promise<ChatMessage> {
    const reject = (message: string): ChatMessage => {
      const content = errorString(message);
      this.#emit({ type: "tool-rejected", step, call, content });
      return { role: "tool", toolCallId: call.id, name: call.name, content, isError: true };
    };
    if (this.#toolSearch.handles(call.name)) return this.#search(call, step);
    const tool = this.#registry.get(call.name);
    const offered = this.#toolSearch.offer(this.#offered).tools;
    if (tool === undefined || !offered.some((schema) => schema.name === call.name)) {
      const held = this.#toolSearch.notYetOffered(call.name, this.#offered);
      if (held !== undefined) return reject(held);
      const names = offered.map((schema) => schema.name);
      return reject(
        `unknown tool "${call.name}": no tool of that name is offered; call one of: ` +
          (names.length === 0 ? "(no tools are available)" : names.join(", ")),
      );
    }
    const parsed = parseToolArguments(tool, call.arguments);
    if (typeof parsed === "string") return reject(parsed);
    const args = parsed;

    await this.#validators.load();
    const problems = this.#validators.check(`input:${tool.name}`, tool.inputSchema, args);
    if (problems !== undefined) {
      return reject(
        `${describeTool(tool)}: the arguments do not match its inputSchema: ${problems.map((problem) => problem.message).join("; ")}; ` +
          "call it again with arguments that match the schema",
      );
    }

    const pre = await this.#hook("PreToolUse", { toolName: tool.name, toolInput: args }, step, call);
    if (pre.blocked) {
      span?.blocked("PreToolUse");
      return reject(`a PreToolUse hook blocked this call to "${tool.name}": ${pre.reason}`);
    }

    if (this.#approve !== undefined) {
      let answer: ApprovalAnswer;
      try {
        answer = await this.#approve({ tool, call, arguments: args });
      } catch (error) {
        answer = { approved: false, reason: `the approval could not be asked (${messageOf(error)})` };
      }
      span?.approval(answer === true, typeof answer === "object" ? answer.reason : undefined);
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
      // The MCP request is a child of this tool call's span (telemetry on).
      ...(span !== undefined ? { traceContext: span.context } : {}),
    });
    span?.arguments(args);
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

  /** The search tool's call: answered here (it reads only the registry), reported like any tool call. */
  #search(call: ModelToolCall, step: number): ChatMessage {
    this.#emit({ type: "tool-call", step, call, arguments: typeof call.arguments === "string" ? {} : call.arguments });
    const started = performance.now();
    const { content, isError } = this.#toolSearch.answer(call.arguments, this.#offered);
    for (const name of this.#toolSearch.found()) this.#warnCut(name, step); // the tools it found, as the model is offered them
    this.#emit({ type: "tool-result", step, call, content, isError, durationMs: performance.now() - started });
    return { role: "tool", toolCallId: call.id, name: call.name, content, ...(isError ? { isError: true } : {}) };
  }

  /** The warning for a tool whose definition the model is offered cut, once per tool. */
  #warnCut(name: string, step: number): void {
    if (this.#cap.cutOf(name) === undefined) return;
    const tool = this.#registry.get(name);
    const message = this.#cap.warningOnce(name, tool === undefined ? `tool "${name}"` : describeTool(tool));
    if (message !== undefined) this.#emit({ type: "warning", step, message });
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
  if (!isObject(value)) {
    return `${describeTool(tool)}: the arguments must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`;
  }
  return value;
}
