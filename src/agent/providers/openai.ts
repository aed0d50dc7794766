// OpenAI Chat Completions (`POST {base_url}/chat/completions`) with function tools, and any
// server that speaks it (LM Studio, vLLM, llama.cpp server, …) — platform.openai.com/docs/api-reference/chat.

import { isObject } from "../../common/json.ts";
import { clipText } from "../../common/preview.ts";
import type { LlmToolSchema } from "../../registry/types.ts";
import { AnswerAssembly } from "./answer-assembly.ts";
import {
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
  roleMessages,
  streamedError,
  whole,
} from "./http.ts";
import { HttpProvider } from "./http-provider.ts";
import { type ChatMessage, type ChatRequest, type ChatResponse, type ModelToolCall, ProviderError } from "./types.ts";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

type Json = Record<string, unknown>;

/** An OpenAI-compatible chat completions API as a Provider. */
export class OpenAiProvider extends HttpProvider {
  /** api.openai.com itself, where newer parameter names apply; false for compatible servers. */
  readonly #official: boolean;

  constructor(connection: ProviderConnection) {
    const official = new URL(connection.baseUrl).hostname === "api.openai.com";
    super("openai", connection, {
      unreachableHint: official
        ? "check your network connection"
        : "is the OpenAI-compatible server (LM Studio, vLLM, llama.cpp, …) running there? start it or fix base_url",
      keyHint: official ? "OPENAI_API_KEY or api_key in the config" : "the server's key, as api_key in the config or OPENAI_API_KEY",
    });
    this.#official = official;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const stream = request.onText !== undefined;
    const body: Json = { model: this.model, messages: toOpenAiMessages(request.system, request.messages) };
    if (request.tools.length > 0) body.tools = request.tools.map(toOpenAiTool);
    if (request.maxTokens !== undefined) {
      // api.openai.com replaced max_tokens (refused by its reasoning models); compatible servers know max_tokens
      body[this.#official ? "max_completion_tokens" : "max_tokens"] = request.maxTokens;
    }
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (stream) {
      body.stream = true;
      // the usage arrives in a last chunk only when asked for (not every compatible server knows the option)
      if (this.#official) body.stream_options = { include_usage: true };
    }
    return await callApi(
      this.http,
      { url: joinUrl(this.connection.baseUrl, "chat/completions"), headers: this.headers("authorization"), body, signal: request.signal },
      async (chunks, response) => {
        if (!stream || isJsonAnswer(response)) return whole(this.#fromResponse(await readJson(this.name, chunks)), request.onText);
        const assembly = new StreamAssembly(this.name, request.onText);
        await readSse(chunks, (_type, data) => assembly.push(data));
        return assembly.finish();
      },
    );
  }

  #fromResponse(body: Json): ChatResponse {
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (!isObject(choice) || !isObject(choice.message)) {
      throw new ProviderError(`${this.name}: the answer has no choices[0].message: ${clipText(JSON.stringify(body), 200)}`, "invalid-answer", {
        provider: this.name,
      });
    }
    const message = choice.message;
    const toolCalls: ModelToolCall[] = [];
    if (Array.isArray(message.tool_calls)) {
      message.tool_calls.forEach((call) => {
        if (!isObject(call) || !isObject(call.function)) return;
        toolCalls.push({
          id: typeof call.id === "string" && call.id !== "" ? call.id : madeUpCallId(),
          name: String(call.function.name ?? ""),
          arguments: parseArguments(typeof call.function.arguments === "string" ? call.function.arguments : JSON.stringify(call.function.arguments ?? {})),
        });
      });
    }
    return {
      text: typeof message.content === "string" ? message.content : "",
      toolCalls,
      stopReason: typeof choice.finish_reason === "string" ? choice.finish_reason : undefined,
      model: typeof body.model === "string" ? body.model : undefined,
      usage: usageOf(body.usage),
    };
  }
}

/** The neutral history as Chat Completions messages; the system prompt is the first message. */
export function toOpenAiMessages(system: string | undefined, messages: ChatMessage[]): Json[] {
  return roleMessages(system, messages, {
    assistant: (message) => {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        // content may be null beside tool_calls
        content: message.content === "" ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
        })),
      };
    },
    tool: (message) => ({ role: "tool", tool_call_id: message.toolCallId, content: message.content }),
  });
}

/** A registry tool as `{type: "function", function: {name, description, parameters}}`; parameters must be an object schema. */
export function toOpenAiTool(tool: LlmToolSchema): Json {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: objectSchema(tool.parameters) } };
}

function usageOf(usage: unknown): ChatResponse["usage"] {
  if (!isObject(usage)) return undefined;
  return {
    inputTokens: typeof usage.prompt_tokens === "number" ? usage.prompt_tokens : undefined,
    outputTokens: typeof usage.completion_tokens === "number" ? usage.completion_tokens : undefined,
  };
}

/**
 * A streamed answer put together: `data:` chunks of `choices[0].delta`, text as it comes,
 * tool calls by `index` (the id and name in their first delta, the arguments in pieces), `[DONE]` at the end.
 */
class StreamAssembly extends AnswerAssembly<string> {
  #text: string[] = [];
  #calls: { id: string; name: string; args: string[] }[] = [];
  #done = false;

  push(data: string): void {
    if (data.trim() === "[DONE]") {
      this.#done = true;
      return;
    }
    const chunk = parseObject(this.provider, data, "a streamed chunk");
    if (chunk.error !== undefined) {
      const error = isObject(chunk.error) ? chunk.error : { message: String(chunk.error) };
      throw streamedError(this.provider, String(error.message ?? JSON.stringify(error)), typeof error.type === "string" ? error.type : undefined);
    }
    if (typeof chunk.model === "string") this.model = chunk.model;
    if (isObject(chunk.usage)) this.usage = usageOf(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObject(choice)) return;
    if (typeof choice.finish_reason === "string") this.stopReason = choice.finish_reason;
    const delta = choice.delta;
    if (!isObject(delta)) return;
    if (typeof delta.content === "string" && delta.content !== "") {
      this.#text.push(delta.content);
      this.streamed(delta.content);
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const part of delta.tool_calls) {
        if (!isObject(part)) continue;
        // a delta without `index` (some compatible servers): a new call when it has an id, else the last call's
        const startsCall = typeof part.id === "string" && part.id !== "";
        const index = typeof part.index === "number" ? part.index : startsCall || this.#calls.length === 0 ? this.#calls.length : this.#calls.length - 1;
        const call = (this.#calls[index] ??= { id: "", name: "", args: [] });
        if (typeof part.id === "string" && part.id !== "") call.id = part.id;
        if (isObject(part.function)) {
          if (typeof part.function.name === "string") call.name += part.function.name;
          if (typeof part.function.arguments === "string") call.args.push(part.function.arguments);
        }
      }
    }
  }

  finish(): ChatResponse {
    if (!this.#done && this.stopReason === undefined) {
      throw new ProviderError(`${this.provider}: the streamed answer ended before its last chunk ([DONE]); try again`, "incomplete-answer", {
        provider: this.provider,
      });
    }
    return {
      text: this.#text.join(""),
      toolCalls: this.#calls
        .filter((call) => call !== undefined)
        .map((call) => ({ id: call.id !== "" ? call.id : madeUpCallId(), name: call.name, arguments: parseArguments(call.args.join("")) })),
      stopReason: this.stopReason,
      model: this.model,
      usage: this.usage,
    };
  }
}
