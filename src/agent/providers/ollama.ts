// Ollama's chat API (`POST /api/chat`) with tools: `message.tool_calls` (arguments as
// objects), `role: "tool"` results, NDJSON streaming — github.com/ollama/ollama docs/api.md.

import { isObject } from "../../common/json.ts";
import type { LlmToolSchema } from "../../registry/types.ts";
import { AnswerAssembly } from "./answer-assembly.ts";
import {
  argumentsObject,
  callApi,
  joinUrl,
  madeUpCallId,
  parseArguments,
  type ProviderConnection,
  readJson,
  readNdjson,
  roleMessages,
  streamedError,
} from "./http.ts";
import { HttpProvider } from "./http-provider.ts";
import { toOpenAiTool } from "./openai.ts";
import { type ChatMessage, type ChatRequest, type ChatResponse, type ModelToolCall, ProviderError } from "./types.ts";

export const OLLAMA_DEFAULT_HOST = "http://127.0.0.1:11434";
const OLLAMA_DEFAULT_PORT = "11434";

type Json = Record<string, unknown>;

/**
 * The base URL for an `OLLAMA_HOST` value, read the way Ollama reads it: `host`, `host:port`,
 * `:port` or a full URL; no scheme means http, no port means 11434 (443 for https without one).
 */
export function ollamaBaseUrl(host: string | undefined): string {
  const value = (host ?? "").trim();
  if (value === "") return OLLAMA_DEFAULT_HOST;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  let text = hasScheme ? value : `http://${value.startsWith(":") ? `127.0.0.1${value}` : value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProviderError(`ollama: OLLAMA_HOST "${value}" is not a host, host:port or URL (e.g. 127.0.0.1:11434)`, "invalid-options", { provider: "ollama" });
  }
  // an explicit port (even the scheme's default, which URL drops from url.port) is kept
  const explicitPort = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]*\]|[^/:?#]*):\d+/i.test(text);
  if (!explicitPort && url.protocol !== "https:") url.port = OLLAMA_DEFAULT_PORT;
  // a server listening on every address is reached on this machine's loopback
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  text = url.href.replace(/\/+$/, "");
  return text;
}

/** A local Ollama server's chat API as a Provider. */
export class OllamaProvider extends HttpProvider {
  constructor(connection: ProviderConnection) {
    super("ollama", connection, {
      unreachableHint: "is Ollama running? start it with `ollama serve`, or set OLLAMA_HOST to where it listens",
      keyHint: "a proxy in front of Ollama may want api_key in the config",
      advice: (_status, message) => {
        if (/not found, try pulling it/i.test(message)) return `download it with \`ollama pull ${this.model}\`, or pick one \`ollama list\` shows`;
        if (/does not support tools/i.test(message)) return "pick a model with tool calling (qwen3, llama3.1, mistral-nemo, …), or run without MCP tools";
        return undefined;
      },
    });
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const stream = request.onText !== undefined;
    // stream defaults to true in Ollama: say it either way
    const body: Json = { model: this.model, messages: toOllamaMessages(request.system, request.messages), stream };
    if (request.tools.length > 0) body.tools = request.tools.map(toOllamaTool);
    const options: Json = {};
    if (request.temperature !== undefined) options.temperature = request.temperature;
    if (request.maxTokens !== undefined) options.num_predict = request.maxTokens;
    if (Object.keys(options).length > 0) body.options = options;
    return await callApi(
      this.http,
      { url: joinUrl(this.connection.baseUrl, "api/chat"), headers: this.headers("authorization"), body, signal: request.signal },
      async (chunks) => {
        const assembly = new Assembly(this.name, request.onText);
        if (stream) await readNdjson(this.name, chunks, (value) => assembly.push(value));
        else assembly.push(await readJson(this.name, chunks));
        return assembly.finish();
      },
    );
  }
}

/** The neutral history as Ollama messages; the system prompt is the first message. */
export function toOllamaMessages(system: string | undefined, messages: ChatMessage[]): Json[] {
  return roleMessages(system, messages, {
    assistant: (message) => {
      const entry: Json = { role: "assistant", content: message.content };
      const calls = message.toolCalls ?? [];
      if (calls.length > 0) {
        entry.tool_calls = calls.map((call) => ({ function: { name: call.name, arguments: argumentsObject(call.arguments) } }));
      }
      return entry;
    },
    // Ollama correlates a result with its call by the tool's name
    tool: (message) => ({ role: "tool", content: message.content, tool_name: message.name }),
  });
}

/** Ollama takes tools in the Chat Completions shape: `{type: "function", function: {name, description, parameters}}`. */
export const toOllamaTool: (tool: LlmToolSchema) => Json = toOpenAiTool;

/**
 * One answer from its NDJSON lines (or the one JSON object of a non-streamed answer): each
 * line's `message.content` is a piece of text, `message.tool_calls` come whole, and the line
 * with `done: true` carries done_reason and the token counts. A line `{error}` ends it.
 */
class Assembly extends AnswerAssembly<Json> {
  #text: string[] = [];
  #calls: ModelToolCall[] = [];
  #done = false;

  push(value: Json): void {
    if (value.error !== undefined) throw streamedError(this.provider, String(value.error));
    if (typeof value.model === "string") this.model = value.model;
    const message = isObject(value.message) ? value.message : {};
    if (typeof message.content === "string" && message.content !== "") {
      this.#text.push(message.content);
      this.streamed(message.content);
    }
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (!isObject(call) || !isObject(call.function)) continue;
        const args = call.function.arguments;
        this.#calls.push({
          // Ollama gives no ids (newer versions may): make stable ones per answer
          id: typeof call.id === "string" && call.id !== "" ? call.id : madeUpCallId(),
          name: String(call.function.name ?? ""),
          arguments: isObject(args) ? args : parseArguments(typeof args === "string" ? args : ""),
        });
      }
    }
    if (value.done === true) {
      this.#done = true;
      if (typeof value.done_reason === "string") this.stopReason = value.done_reason;
      if (typeof value.prompt_eval_count === "number" || typeof value.eval_count === "number") {
        this.usage = {
          inputTokens: typeof value.prompt_eval_count === "number" ? value.prompt_eval_count : undefined,
          outputTokens: typeof value.eval_count === "number" ? value.eval_count : undefined,
        };
      }
    }
  }

  finish(): ChatResponse {
    if (!this.#done) {
      throw new ProviderError(`${this.provider}: the answer ended before its last line (done: true); try again`, "incomplete-answer", {
        provider: this.provider,
      });
    }
    return { text: this.#text.join(""), toolCalls: this.#calls, stopReason: this.stopReason, model: this.model, usage: this.usage };
  }
}
