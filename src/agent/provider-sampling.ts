// A SamplingHandler served by a model provider: a server's sampling/createMessage becomes a
// ChatRequest, the answer a CreateMessageResult — spec 2025-11-25 client/sampling ("Model
// Preferences": hints are substrings of model names; "Tools in Sampling"; "Error Handling").
// The SamplingPolicy around it (token cap, rate limit, allowlist, timeout) is SamplingGate's.

import type { SamplingContext, SamplingHandler } from "../client/handlers.ts";
import { SamplingRejectedError } from "../client/sampling.ts";
import type { CreateMessageRequest, CreateMessageResult, JsonObject, SamplingContent, SamplingMessage } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { LlmToolSchema } from "../registry/types.ts";
import type { ChatMessage, ChatResponse, ModelToolCall, Provider } from "./providers/types.ts";
import { ProviderError } from "./providers/types.ts";

/** Options of providerSamplingHandler: the default model, and how a provider is made for the model chosen. */
export interface ProviderSamplingOptions {
  /** The configured model (`sampling.model`, e.g. `ollama/qwen3`): used when no hint picks another. */
  model: string;
  /**
   * Makes the provider of a model string. `model` is the configured string or an allowlisted
   * one a hint chose; an entry without a provider part (`qwen3`) is given the configured
   * model's provider (`ollama/qwen3`).
   */
  createProvider: (model: string) => Provider;
  /**
   * Asked before each request is sent to the model (spec: the user SHOULD be able to review
   * and deny it). Resolve false to refuse: the server gets -1. Default: no question.
   */
  confirm?: (request: CreateMessageRequest, context: SamplingContext, model: string) => boolean | Promise<boolean>;
}

/**
 * The model a request is answered with. spec 2025-11-25 client/sampling ("Model
 * Preferences"): hints are tried in order, each as a substring of a model name; the first
 * that matches one of the candidates (the allowlist, else the configured model) wins. No
 * match: the configured model when it may be used, else the first allowed one.
 */
export function chooseModel(configured: string, hints: readonly string[], allowed?: readonly string[]): string {
  const candidates = allowed !== undefined && allowed.length > 0 ? allowed : [configured];
  for (const hint of hints) {
    const needle = hint.trim().toLowerCase();
    if (needle === "") continue;
    const match = candidates.find((candidate) => candidate.toLowerCase().includes(needle));
    if (match !== undefined) return match;
  }
  return candidates.includes(configured) ? configured : candidates[0]!;
}

/** The provider part of a model string (`ollama` of `ollama/qwen3`, `ollama:qwen3:8b`), if any. */
function providerPart(model: string): string | undefined {
  const at = model.search(/[/:]/);
  return at === -1 ? undefined : model.slice(0, at);
}

/** Makes the SamplingHandler; give it to McpManager / Client as `handlers.sampling`. */
export function providerSamplingHandler(options: ProviderSamplingOptions): SamplingHandler {
  return async (request, context) => {
    const who = `${context.server}: sampling/createMessage`;
    const hints = (request.modelPreferences?.hints ?? []).flatMap((hint) => (typeof hint?.name === "string" ? [hint.name] : []));
    const chosen = chooseModel(options.model, hints, context.allowedModels);
    // An allowlist entry may be a bare model name: it runs on the configured model's provider.
    const modelString = providerPart(chosen) === undefined && providerPart(options.model) !== undefined ? `${providerPart(options.model)}/${chosen}` : chosen;
    if (options.confirm !== undefined && !(await options.confirm(request, context, modelString))) {
      throw new SamplingRejectedError(`the user declined ${who} (model ${modelString})`);
    }
    let provider: Provider;
    try {
      provider = options.createProvider(modelString);
    } catch (error) {
      throw new RpcError(`${who}: the client cannot use model "${modelString}": ${messageOf(error)}`, ErrorCode.InternalError);
    }
    const { messages, system } = toChatMessages(request, who);
    let response: ChatResponse;
    try {
      response = await provider.chat({
        ...(system !== undefined ? { system } : {}),
        messages,
        tools: (request.tools ?? []).map(toLlmTool),
        maxTokens: request.maxTokens,
        ...(typeof request.temperature === "number" ? { temperature: request.temperature } : {}),
        signal: context.signal,
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      const detail = error instanceof ProviderError ? error.message : messageOf(error);
      throw new RpcError(`${who}: the client's model ${modelString} failed: ${detail}`, ErrorCode.InternalError);
    }
    return toResult(response, context.allowedModels !== undefined ? chosen : response.model ?? provider.model);
  };
}

function blocks(message: SamplingMessage): SamplingContent[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/** A text stand-in for content a text-only chat history cannot hold. */
function describeBlock(block: SamplingContent): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image (${block.mimeType}) left out: this client's model requests carry text only]`;
    case "audio":
      return `[audio (${block.mimeType}) left out: this client's model requests carry text only]`;
    default:
      return "";
  }
}

/** MCP sampling messages → the neutral history (text, and tool_use / tool_result with sampling.tools). */
export function toChatMessages(request: CreateMessageRequest, who = "sampling/createMessage"): { messages: ChatMessage[]; system?: string } {
  const messages: ChatMessage[] = [];
  /** tool_use id → tool name, for the tool_result that answers it. */
  const names = new Map<string, string>();
  for (const [index, message] of request.messages.entries()) {
    if (message?.role !== "user" && message?.role !== "assistant") {
      throw new RpcError(`${who}: messages[${index}] has role ${JSON.stringify(message?.role)}; use "user" or "assistant"`, ErrorCode.InvalidParams);
    }
    const content = blocks(message);
    const text = content.map(describeBlock).filter((part) => part !== "").join("\n");
    if (message.role === "assistant") {
      const toolCalls: ModelToolCall[] = content.flatMap((block) =>
        block.type === "tool_use" ? [{ id: block.id, name: block.name, arguments: block.input }] : []
      );
      for (const call of toolCalls) names.set(call.id, call.name);
      messages.push(toolCalls.length > 0 ? { role: "assistant", content: text, toolCalls } : { role: "assistant", content: text });
      continue;
    }
    for (const block of content) {
      if (block.type !== "tool_result") continue;
      const resultText = block.content.map((part) => (part.type === "text" ? part.text : `[${part.type} content]`)).join("\n");
      messages.push({
        role: "tool",
        toolCallId: block.toolUseId,
        name: names.get(block.toolUseId) ?? "tool",
        content: JSON.stringify(block.isError === true ? { error: resultText } : { result: resultText }),
        ...(block.isError === true ? { isError: true } : {}),
      });
    }
    if (text !== "" || !content.some((block) => block.type === "tool_result")) messages.push({ role: "user", content: text });
  }
  return { messages, ...(typeof request.systemPrompt === "string" && request.systemPrompt !== "" ? { system: request.systemPrompt } : {}) };
}

function toLlmTool(tool: { name: string; description?: string; inputSchema?: JsonObject }): LlmToolSchema {
  return { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema ?? { type: "object" } };
}

/** The providers' own stop reasons, in the spec's words (2025-11-25 schema: CreateMessageResult.stopReason). */
export function mcpStopReason(reason: string | undefined, toolCalls: number): string {
  if (toolCalls > 0) return "toolUse";
  switch (reason?.toLowerCase()) {
    case "length":
    case "max_tokens":
      return "maxTokens";
    case "stop_sequence":
      return "stopSequence";
    case "tool_calls":
    case "tool_use":
      return "toolUse";
    default:
      return "endTurn";
  }
}

function toResult(response: ChatResponse, model: string): CreateMessageResult {
  const stopReason = mcpStopReason(response.stopReason, response.toolCalls.length);
  if (response.toolCalls.length === 0) {
    return { role: "assistant", content: { type: "text", text: response.text }, model, stopReason };
  }
  const content: SamplingContent[] = [];
  if (response.text !== "") content.push({ type: "text", text: response.text });
  for (const call of response.toolCalls) {
    const input = typeof call.arguments === "string" ? safeObject(call.arguments) : call.arguments;
    content.push({ type: "tool_use", id: call.id, name: call.name, input });
  }
  return { role: "assistant", content, model, stopReason };
}

function safeObject(text: string): JsonObject {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value as JsonObject : { value: value as never };
  } catch {
    return { text };
  }
}
