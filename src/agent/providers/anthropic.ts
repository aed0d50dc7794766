// Anthropic Messages API (`POST /v1/messages`) with tools: `tool_use` blocks out, `tool_result`
// blocks back, streaming as SSE events — docs.anthropic.com/en/api/messages, …/messages-streaming.

import { isObject } from "../../common/json.ts";
import { clipText } from "../../common/preview.ts";
import type { LlmToolSchema } from "../../registry/types.ts";
import { AnswerAssembly } from "./answer-assembly.ts";
import {
  AlternatingTurns,
  argumentsObject,
  callApi,
  isJsonAnswer,
  joinUrl,
  madeUpCallId,
  objectSchema,
  parseArguments,
  parseObject,
  type ProviderConnection,
  readJson,
  readSse,
  streamedError,
  whole,
} from "./http.ts";
import { HttpProvider } from "./http-provider.ts";
import { type ChatMessage, type ChatRequest, type ChatResponse, type ModelToolCall, ProviderError } from "./types.ts";

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** The API version header every request carries. */
export const ANTHROPIC_VERSION = "2023-06-01";
/** `max_tokens` is required by the API; this is sent when the request gives none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Json = Record<string, unknown>;

export interface AnthropicOptions {
  /** `max_tokens` when a request has no maxTokens. Default 4096. */
  defaultMaxTokens?: number;
}

/** The Anthropic Messages API as a Provider. */
export class AnthropicProvider extends HttpProvider {
  readonly #defaultMaxTokens: number;

  constructor(connection: ProviderConnection, options: AnthropicOptions = {}) {
    super("anthropic", connection, {
      unreachableHint: "check your network connection (or base_url, if you set one)",
      keyHint: "ANTHROPIC_API_KEY or api_key in the config",
    });
    this.#defaultMaxTokens = options.defaultMaxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const stream = request.onText !== undefined;
    const body: Json = {
      model: this.model,
      max_tokens: request.maxTokens ?? this.#defaultMaxTokens,
      messages: toAnthropicMessages(request.messages),
    };
    // the system prompt is a top-level field, not a message
    if (request.system !== undefined && request.system !== "") body.system = request.system;
    if (request.tools.length > 0) body.tools = request.tools.map(toAnthropicTool);
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (stream) body.stream = true;
    const headers = { "anthropic-version": ANTHROPIC_VERSION, ...this.headers("x-api-key") };
    return await callApi(
      this.http,
      { url: joinUrl(this.connection.baseUrl, "v1/messages"), headers, body, signal: request.signal },
      async (chunks, response) => {
        if (!stream || isJsonAnswer(response)) return whole(fromMessage(this.name, await readJson(this.name, chunks)), request.onText);
        const assembly = new StreamAssembly(this.name, request.onText);
        await readSse(chunks, (_type, data) => assembly.push(data));
        return assembly.finish();
      },
    );
  }
}

/**
 * The neutral history as Messages API turns. Tool results answer in a user turn, all the
 * results of one assistant turn in the same user message; consecutive turns of one role are
 * joined, as the API wants user and assistant turns to alternate.
 */
export function toAnthropicMessages(messages: ChatMessage[]): Json[] {
  const turns = new AlternatingTurns<"user" | "assistant">();
  for (const message of messages) {
    switch (message.role) {
      case "user":
        // the API refuses empty text blocks
        turns.add("user", message.content === "" ? [] : [{ type: "text", text: message.content }]);
        break;
      case "assistant":
        turns.add("assistant", [
          ...(message.content === "" ? [] : [{ type: "text", text: message.content }]),
          ...(message.toolCalls ?? []).map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: argumentsObject(call.arguments) })),
        ]);
        break;
      case "tool": {
        const result: Json = { type: "tool_result", tool_use_id: message.toolCallId, content: message.content };
        if (message.isError === true) result.is_error = true;
        turns.add("user", [result]);
        break;
      }
    }
  }
  return turns.as("content");
}

/** A registry tool as `{name, description, input_schema}`; input_schema must be an object schema. */
export function toAnthropicTool(tool: LlmToolSchema): Json {
  return { name: tool.name, description: tool.description, input_schema: objectSchema(tool.parameters) };
}

function fromMessage(provider: string, body: Json): ChatResponse {
  if (!Array.isArray(body.content)) {
    throw new ProviderError(`${provider}: the answer has no content blocks: ${clipText(JSON.stringify(body), 200)}`, "invalid-answer", { provider });
  }
  const text: string[] = [];
  const toolCalls: ModelToolCall[] = [];
  for (const block of body.content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") text.push(block.text);
    if (block.type === "tool_use") {
      toolCalls.push({
        id: typeof block.id === "string" && block.id !== "" ? block.id : madeUpCallId("toolu"),
        name: String(block.name ?? ""),
        arguments: isObject(block.input) ? block.input : parseArguments(String(block.input ?? "")),
      });
    }
  }
  return {
    text: text.join(""),
    toolCalls,
    stopReason: typeof body.stop_reason === "string" ? body.stop_reason : undefined,
    model: typeof body.model === "string" ? body.model : undefined,
    usage: usageOf(body.usage),
  };
}

function usageOf(usage: unknown): ChatResponse["usage"] {
  if (!isObject(usage)) return undefined;
  return {
    inputTokens: typeof usage.input_tokens === "number" ? usage.input_tokens : undefined,
    outputTokens: typeof usage.output_tokens === "number" ? usage.output_tokens : undefined,
  };
}

interface Block {
  type: string;
  text: string[];
  id: string;
  name: string;
  json: string[];
  /** A tool_use block's `input` as content_block_start gave it (filled in when no deltas follow). */
  input?: Json;
}

/**
 * A streamed message put together: message_start, then per block content_block_start →
 * content_block_delta (text_delta, or input_json_delta: pieces of the tool input's JSON) →
 * content_block_stop, then message_delta (stop_reason, output usage) and message_stop.
 * `ping` events are keep-alives; an `error` event ends the stream.
 */
class StreamAssembly extends AnswerAssembly<string> {
  readonly #blocks: Block[] = [];
  #inputTokens?: number;
  #outputTokens?: number;
  #stopped = false;

  push(data: string): void {
    const event = parseObject(this.provider, data, "a streamed event");
    switch (event.type) {
      case "message_start": {
        const message = isObject(event.message) ? event.message : {};
        if (typeof message.model === "string") this.model = message.model;
        const usage = usageOf(message.usage);
        this.#inputTokens = usage?.inputTokens;
        this.#outputTokens = usage?.outputTokens;
        break;
      }
      case "content_block_start": {
        const block = isObject(event.content_block) ? event.content_block : {};
        const index = typeof event.index === "number" ? event.index : this.#blocks.length;
        this.#blocks[index] = {
          type: String(block.type ?? ""),
          text: typeof block.text === "string" && block.text !== "" ? [block.text] : [],
          id: String(block.id ?? ""),
          name: String(block.name ?? ""),
          json: [],
          input: isObject(block.input) ? block.input : undefined,
        };
        break;
      }
      case "content_block_delta": {
        const delta = isObject(event.delta) ? event.delta : {};
        const block = this.#blocks[typeof event.index === "number" ? event.index : this.#blocks.length - 1];
        if (block === undefined) break;
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          block.text.push(delta.text);
          this.streamed(delta.text);
        } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
          block.json.push(delta.partial_json);
        }
        break;
      }
      case "message_delta": {
        const delta = isObject(event.delta) ? event.delta : {};
        if (typeof delta.stop_reason === "string") this.stopReason = delta.stop_reason;
        const usage = usageOf(event.usage);
        if (usage?.outputTokens !== undefined) this.#outputTokens = usage.outputTokens;
        break;
      }
      case "message_stop":
        this.#stopped = true;
        break;
      case "error": {
        const error = isObject(event.error) ? event.error : {};
        throw streamedError(this.provider, String(error.message ?? "unknown error"), typeof error.type === "string" ? error.type : undefined);
      }
        // ping, content_block_stop and event types added later need nothing
    }
  }

  finish(): ChatResponse {
    if (!this.#stopped) {
      throw new ProviderError(`${this.provider}: the streamed answer ended before message_stop; try again`, "incomplete-answer", { provider: this.provider });
    }
    const text: string[] = [];
    const toolCalls: ModelToolCall[] = [];
    for (const block of this.#blocks) {
      if (block === undefined) continue;
      if (block.type === "text") text.push(...block.text);
      if (block.type === "tool_use") {
        const json = block.json.join("");
        toolCalls.push({
          id: block.id !== "" ? block.id : madeUpCallId("toolu"),
          name: block.name,
          arguments: json === "" ? (block.input ?? {}) : parseArguments(json),
        });
      }
    }
    return {
      text: text.join(""),
      toolCalls,
      stopReason: this.stopReason,
      model: this.model,
      usage: this.#inputTokens === undefined && this.#outputTokens === undefined
        ? undefined
        : { inputTokens: this.#inputTokens, outputTokens: this.#outputTokens },
    };
  }
}
