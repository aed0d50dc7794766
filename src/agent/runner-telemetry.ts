// The Runner's spans, when telemetry is on — OpenTelemetry semantic conventions for generative AI
// (gen-ai/gen-ai-spans.md: an `invoke_agent` span per run, a `chat {gen_ai.request.model}` CLIENT
// span per model request with gen_ai.operation.name, gen_ai.provider.name, gen_ai.request.model,
// gen_ai.response.model, gen_ai.usage.input_tokens / output_tokens, gen_ai.response.finish_reasons;
// an `execute_tool {gen_ai.tool.name}` span per tool call with gen_ai.tool.call.id, arguments and
// results opt-in) and for MCP (the tool call's MCP requests are its children: gen-ai/mcp.md).
// Parentage is passed down explicitly (no context manager is needed): run → model request → the
// tool calls it asked for → their MCP requests (ToolCallContext.traceContext).

import { SPAN_KIND, type Telemetry, type TelemetryContext, type TelemetryOption, type TelemetrySpan } from "../client/telemetry.ts";
import { startTelemetry } from "../client/telemetry/telemetry-layer.ts";
import type { JsonObject } from "../client/types.ts";
import type { ChatMessage, ChatResponse, ModelToolCall, Provider } from "./providers/types.ts";

/** What a tool call's code tells its span. */
export interface ToolCallSpan {
  /** The span's context: the parent of the call's MCP requests. */
  context: TelemetryContext;
  /** The approval asked before the call (an event; the reason redacted). */
  approval(approved: boolean, reason: string | undefined): void;
  /** A hook blocked the call (an event). */
  blocked(hook: string): void;
  /** The arguments sent (an attribute only with capture.arguments, redacted). */
  arguments(args: JsonObject): void;
}

/** The telemetry of one Runner: its tracer and the contexts of the run and step under way. */
export class RunnerTelemetry {
  readonly #telemetry: Telemetry;
  readonly #provider: Provider;
  /** The run's span context while run() runs. */
  #runContext: TelemetryContext | undefined;
  /** The last model request's span context: the parent of the tool calls it asked for. */
  #stepContext: TelemetryContext | undefined;

  constructor(telemetry: Telemetry, provider: Provider) {
    this.#telemetry = telemetry;
    this.#provider = provider;
  }

  /** One run() in its `invoke_agent` span, a child of the context active at its start. */
  async run<T>(body: () => Promise<T>): Promise<T> {
    const telemetry = this.#telemetry;
    const parent = telemetry.active();
    const span = telemetry.start("invoke_agent mcpwire", SPAN_KIND.internal, {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "mcpwire",
      "gen_ai.provider.name": this.#provider.name,
      "gen_ai.request.model": this.#provider.model,
    }, parent);
    this.#runContext = telemetry.within(parent, span);
    this.#stepContext = undefined;
    try {
      const result = await body();
      span.end();
      return result;
    } catch (error) {
      telemetry.fail(span, error);
      throw error;
    } finally {
      this.#runContext = undefined;
      this.#stepContext = undefined;
    }
  }

  /** One model request (an attempt) in its `chat {model}` CLIENT span, with the usage the answer reports. */
  async modelRequest(body: () => Promise<ChatResponse>): Promise<ChatResponse> {
    const telemetry = this.#telemetry;
    const span = telemetry.start(`chat ${this.#provider.model}`, SPAN_KIND.client, {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": this.#provider.name,
      "gen_ai.request.model": this.#provider.model,
    }, this.#runContext);
    let response: ChatResponse;
    try {
      response = await body();
    } catch (error) {
      telemetry.fail(span, error);
      throw error;
    }
    telemetry.set(span, "gen_ai.response.model", response.model);
    telemetry.set(span, "gen_ai.usage.input_tokens", response.usage?.inputTokens);
    telemetry.set(span, "gen_ai.usage.output_tokens", response.usage?.outputTokens);
    if (response.stopReason !== undefined) span.setAttribute("gen_ai.response.finish_reasons", telemetry.redact(response.stopReason));
    span.setAttribute("mcpwire.tool_calls", response.toolCalls.length);
    span.end();
    this.#stepContext = telemetry.within(this.#runContext, span);
    return response;
  }

  /** One tool call in its `execute_tool {name}` span, a child of the model request that asked for it. */
  async toolCall(call: ModelToolCall, body: (span: ToolCallSpan) => Promise<ChatMessage>): Promise<ChatMessage> {
    const telemetry = this.#telemetry;
    const parent = this.#stepContext ?? this.#runContext;
    const span = telemetry.start(`execute_tool ${call.name}`, SPAN_KIND.internal, {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": call.name,
      "gen_ai.tool.call.id": call.id,
    }, parent);
    let message: ChatMessage;
    try {
      message = await body(this.#toolCallSpan(span, telemetry.within(parent, span)));
    } catch (error) {
      telemetry.fail(span, error);
      throw error;
    }
    if (message.role === "tool" && message.isError === true) {
      // gen-ai spans: a tool call that failed is recorded with error.type.
      span.setAttribute("error.type", "tool_error");
      span.setStatus({ code: 2, message: "the tool call failed" });
    }
    if (telemetry.captureResults && message.role === "tool") telemetry.set(span, "gen_ai.tool.call.result", message.content);
    span.end();
    return message;
  }

  #toolCallSpan(span: TelemetrySpan, context: TelemetryContext): ToolCallSpan {
    const telemetry = this.#telemetry;
    return {
      context,
      approval: (approved, reason) => telemetry.event(span, "mcpwire.approval", { "mcpwire.approval.approved": approved, "mcpwire.approval.reason": reason }),
      blocked: (hook) => telemetry.event(span, "mcpwire.hook_blocked", { "mcpwire.hook": hook }),
      arguments: (args) => {
        if (telemetry.captureArguments) telemetry.set(span, "gen_ai.tool.call.arguments", telemetry.json(args));
      },
    };
  }
}

/** The Runner's telemetry for RunnerOptions.telemetry (the API loaded), undefined when off. */
export async function startRunnerTelemetry(option: TelemetryOption, provider: Provider): Promise<RunnerTelemetry | undefined> {
  const telemetry = await startTelemetry(option, `Runner (${provider.name}/${provider.model})`);
  return telemetry === undefined ? undefined : new RunnerTelemetry(telemetry, provider);
}
