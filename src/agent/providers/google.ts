// Gemini API `models/{model}:generateContent` and `:streamGenerateContent?alt=sse` with
// function calling: `functionDeclarations` in, `functionCall` parts out, `functionResponse`
// parts back, role `model` — ai.google.dev/api/generate-content, ai.google.dev/gemini-api/docs/function-calling.

import { isObject } from "../../common/json.ts";
import { preview } from "../../common/preview.ts";
import type { LlmToolSchema } from "../../registry/types.ts";
import { AnswerAssembly } from "./answer-assembly.ts";
import { toGeminiParameters } from "./gemini-schema.ts";
import {
  AlternatingTurns,
  argumentsObject,
  callApi,
  isJsonAnswer,
  joinUrl,
  madeUpCallId,
  type ProviderConnection,
  readJson,
  readSse,
  streamedError,
} from "./http.ts";
import { HttpProvider } from "./http-provider.ts";
import { type ChatMessage, type ChatRequest, type ChatResponse, type ModelToolCall, ProviderError } from "./types.ts";

export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";

type Json = Record<string, unknown>;

/** The Gemini API as a Provider. */
export class GoogleProvider extends HttpProvider {
  constructor(connection: ProviderConnection) {
    const hints = { unreachableHint: "check your network connection (or base_url, if you set one)", keyHint: "GEMINI_API_KEY or api_key in the config" };
    // "models/gemini-2.5-flash" (the API's resource name) and "gemini-2.5-flash" are the same model
    super("google", connection, hints, connection.model.replace(/^models\//, ""));
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const stream = request.onText !== undefined;
    const body: Json = { contents: toGeminiContents(request.messages) };
    if (request.system !== undefined && request.system !== "") body.systemInstruction = { parts: [{ text: request.system }] };
    if (request.tools.length > 0) body.tools = [{ functionDeclarations: request.tools.map(toGeminiFunction) }];
    const generationConfig: Json = {};
    if (request.maxTokens !== undefined) generationConfig.maxOutputTokens = request.maxTokens;
    if (request.temperature !== undefined) generationConfig.temperature = request.temperature;
    if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
    const url = joinUrl(this.connection.baseUrl, `v1beta/models/${this.model}:${stream ? "streamGenerateContent" : "generateContent"}`);
    // without alt=sse the stream is one JSON array, readable only at its end
    if (stream) url.searchParams.set("alt", "sse");
    return await callApi(this.http, { url, headers: this.headers("x-goog-api-key"), body, signal: request.signal }, async (chunks, response) => {
      const assembly = new Assembly(this.name, request.onText);
      if (stream && !isJsonAnswer(response)) await readSse(chunks, (_type, data) => assembly.push(parseChunk(this.name, data)));
      else assembly.push(await readJson(this.name, chunks));
      return assembly.finish();
    });
  }
}

function parseChunk(provider: string, data: string): Json {
  try {
    const value: unknown = JSON.parse(data);
    if (isObject(value)) return value;
  } catch {
    // reported below
  }
  throw new ProviderError(`${provider}: a streamed chunk of the answer is not a JSON object: ${preview(data, 200)}`, "invalid-answer", { provider });
}

/**
 * The neutral history as Gemini `contents`: role `user` or `model`. The results of one turn's
 * calls go back together as `functionResponse` parts of one user turn (the API wants as many
 * responses as the turn had calls); consecutive turns of one role are joined.
 */
export function toGeminiContents(messages: ChatMessage[]): Json[] {
  const turns = new AlternatingTurns<"user" | "model">();
  for (const message of messages) {
    switch (message.role) {
      case "user":
        turns.add("user", message.content === "" ? [] : [{ text: message.content }]);
        break;
      case "assistant":
        turns.add("model", [
          ...(message.content === "" ? [] : [{ text: message.content }]),
          ...(message.toolCalls ?? []).map((call) => {
            const part: Json = { functionCall: { name: call.name, args: argumentsObject(call.arguments) } };
            // Gemini 3 refuses a history whose function calls lost their signatures
            if (call.signature !== undefined) part.thoughtSignature = call.signature;
            return part;
          }),
        ]);
        break;
      case "tool":
        // Gemini correlates a response with its call by name; `response` must be a JSON object
        turns.add("user", [{ functionResponse: { name: message.name, response: responseObject(message.content) } }]);
        break;
    }
  }
  return turns.as("parts");
}

/** The registry's result string (`{"result": …}` / `{"error": …}`) as the object Gemini wants. */
function responseObject(content: string): Json {
  try {
    const value: unknown = JSON.parse(content);
    if (isObject(value)) return value;
  } catch {
    // not JSON: wrapped below
  }
  return { result: content };
}

/** A registry tool as a function declaration, its schema in Gemini's subset (see gemini-schema.ts). */
export function toGeminiFunction(tool: LlmToolSchema): Json {
  const declaration: Json = { name: tool.name, description: tool.description };
  const parameters = toGeminiParameters(tool.parameters);
  if (parameters !== undefined) declaration.parameters = parameters;
  return declaration;
}

/**
 * One answer from its GenerateContentResponse (or the chunks of a stream, each one a
 * GenerateContentResponse with the next parts): text parts, whole functionCall parts,
 * finishReason and usageMetadata in the last chunk.
 */
class Assembly extends AnswerAssembly<Json> {
  #text: string[] = [];
  #calls: ModelToolCall[] = [];
  #blockReason?: string;
  #sawCandidate = false;

  push(chunk: Json): void {
    if (isObject(chunk.error)) {
      throw streamedError(
        this.provider,
        String(chunk.error.message ?? JSON.stringify(chunk.error)),
        typeof chunk.error.status === "string" ? chunk.error.status : undefined,
      );
    }
    if (typeof chunk.modelVersion === "string") this.model = chunk.modelVersion;
    if (isObject(chunk.promptFeedback) && typeof chunk.promptFeedback.blockReason === "string") this.#blockReason = chunk.promptFeedback.blockReason;
    const usage = chunk.usageMetadata;
    if (isObject(usage)) {
      this.usage = {
        inputTokens: typeof usage.promptTokenCount === "number" ? usage.promptTokenCount : undefined,
        outputTokens: typeof usage.candidatesTokenCount === "number" ? usage.candidatesTokenCount : undefined,
      };
    }
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    if (!isObject(candidate)) return;
    this.#sawCandidate = true;
    if (typeof candidate.finishReason === "string") this.stopReason = candidate.finishReason;
    const parts = isObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    for (const part of parts) {
      if (!isObject(part)) continue;
      if (typeof part.text === "string" && part.thought !== true) {
        this.#text.push(part.text);
        this.streamed(part.text);
      }
      if (isObject(part.functionCall)) {
        const call = part.functionCall;
        const toolCall: ModelToolCall = {
          // Gemini may give no id; results are matched by name, the id is ours
          id: typeof call.id === "string" && call.id !== "" ? call.id : madeUpCallId(),
          name: String(call.name ?? ""),
          arguments: isObject(call.args) ? call.args : {},
        };
        if (typeof part.thoughtSignature === "string") toolCall.signature = part.thoughtSignature;
        this.#calls.push(toolCall);
      }
    }
  }

  finish(): ChatResponse {
    if (this.#blockReason !== undefined && !this.#sawCandidate) {
      throw new ProviderError(`${this.provider}: the prompt was blocked (${this.#blockReason}); rephrase it or check the conversation`, "prompt-blocked", {
        provider: this.provider,
      });
    }
    if (!this.#sawCandidate) {
      throw new ProviderError(`${this.provider}: the answer has no candidates; try again`, "invalid-answer", { provider: this.provider });
    }
    const text = this.#text.join("");
    if (text === "" && this.#calls.length === 0 && this.stopReason !== undefined && this.stopReason !== "STOP") {
      throw new ProviderError(
        `${this.provider}: the model stopped (${this.stopReason}) without an answer; rephrase the prompt or raise max_tokens`,
        "empty-answer",
        { provider: this.provider },
      );
    }
    return { text, toolCalls: this.#calls, stopReason: this.stopReason, model: this.model, usage: this.usage };
  }
}
