// Loopback stand-ins for four model APIs — OpenAI Chat Completions, Anthropic Messages, Ollama
// /api/chat, Gemini generateContent — that check each request's documented format and answer from a script.
//
// How to use (one server per test; node:http on 127.0.0.1, an ephemeral port; works under Deno):
//
//   const api = await startFakeModelApi("openai", [
//     { toolCalls: [{ name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } }] },
//     (request) => ({ text: `the sum is ${request.toolResults[0].content}` }),
//     { error: { status: 429, message: "slow down", headers: { "retry-after": "2" } } },
//   ]);
//   const provider = createProvider("openai/gpt-test", { baseUrl: api.url, env: {} });
//   … api.requests[1].body, api.requests[1].toolResults …
//   await api.close();
//
// - Each accepted request takes the next step of the script. A step is a reply (`text` and/or
//   `toolCalls`), an `{ error }` (an HTTP error in the API's own error format, with headers such
//   as Retry-After), a `{ streamError }` (a stream that starts and then reports an error event),
//   or a function of the request returning one of those (to answer with the tool result it received).
// - Streaming follows the request: `stream: true` (OpenAI, Anthropic), Ollama's `stream` (true
//   unless false), Gemini's `:streamGenerateContent?alt=sse`. Text is streamed in pieces of
//   `chunkChars` characters, OpenAI's and Anthropic's tool-call arguments in pieces too.
// - A request the real API would refuse gets a 400 in that API's format (401/403 for a wrong key
//   when `apiKey` is set, 404 for a wrong path); it takes no step and its reason is in `rejections`.
// - A request after the script's end gets a 500 "the script has no step N".
// - `requests` records every request (accepted or not) with its parsed body and `toolResults`:
//   the tool results the request carries at its end, in the API's format, read back neutrally.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { freePort } from "./fixture-process.ts";
import { readBody } from "./http-body.ts";

export type FakeApiKind = "openai" | "anthropic" | "ollama" | "google";

export interface FakeToolCall {
  /** Default: an id in the API's style (`call_…`, `toolu_…`); Ollama and Gemini send none. */
  id?: string;
  name: string;
  /** An object, or a raw string (sent as is where the API carries arguments as text). */
  arguments: Record<string, unknown> | string;
  /** Gemini only: a `thoughtSignature` the next requests must send back with this call. */
  signature?: string;
}

export interface FakeReply {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Default: the API's own ("stop"/"tool_calls", "end_turn"/"tool_use", "stop", "STOP"). */
  stopReason?: string;
}

export interface FakeError {
  status: number;
  message: string;
  /** The API's error type (OpenAI `type`, Anthropic `error.type`, Gemini `status`); a default per status. */
  type?: string;
  headers?: Record<string, string>;
  /** A raw body instead of the API's error JSON. */
  body?: string;
}

export type FakeAnswer = FakeReply | { error: FakeError } | { streamError: { message: string; type?: string; text?: string } };
export type FakeStep = FakeAnswer | ((request: FakeRequest) => FakeAnswer);

/** A tool result carried by a request, whatever the API's format. */
export interface FakeToolResult {
  /** The call id it answers (OpenAI, Anthropic). */
  id?: string;
  /** The tool name it answers (Ollama, Gemini). */
  name?: string;
  /** The text the model would read (Gemini's `response` object as JSON). */
  content: string;
  isError?: boolean;
}

export interface FakeRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** The query string ("" or "?alt=sse"). */
  query: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The parsed JSON body ({} when it was not JSON). */
  body: Record<string, unknown>;
  stream: boolean;
  /** The model asked for (Gemini: from the path). */
  model: string;
  toolResults: FakeToolResult[];
}

export interface FakeModelApi {
  kind: FakeApiKind;
  /** The base URL to give the provider: `http://127.0.0.1:PORT/v1` for openai, the origin for the others. */
  url: string;
  origin: string;
  requests: FakeRequest[];
  /** Why each refused request was refused, in order. */
  rejections: string[];
  close(): Promise<void>;
}

export interface FakeApiOptions {
  /** When set, a request must carry this key the API's way (else 401, or 403 for Gemini). */
  apiKey?: string;
  /** Characters per streamed text piece. Default 4. */
  chunkChars?: number;
}

/** An origin on loopback where nothing listens (a moment ago, at least): a refused connection. */
export async function refusedOrigin(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

type Json = Record<string, unknown>;

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What an API adapter answers: a status, headers, and the body in the pieces it is written in. */
interface Rendered {
  status: number;
  headers: Record<string, string>;
  pieces: string[];
}

interface Adapter {
  /** "" when the path is right; else the 404 message. */
  route(request: FakeRequest): string;
  /** The key check: undefined when fine, else [status, message]. */
  auth(request: FakeRequest, key: string): [number, string] | undefined;
  /** undefined for a well-formed request, else why the API would refuse it. */
  validate(request: FakeRequest, state: AdapterState): string | undefined;
  isStream(request: FakeRequest): boolean;
  model(request: FakeRequest): string;
  toolResults(body: Json): FakeToolResult[];
  reply(reply: FakeReply, request: FakeRequest, state: AdapterState): Rendered;
  streamError(error: { message: string; type?: string; text?: string }, request: FakeRequest): Rendered;
  error(status: number, message: string, type?: string): string;
}

interface AdapterState {
  chunkChars: number;
  /** Answers given so far (ids are made unique with it). */
  count: number;
  /** Gemini thought signatures handed out, each to come back in later requests. */
  signatures: Set<string>;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function argumentText(args: Record<string, unknown> | string): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

function argumentObject(args: Record<string, unknown> | string): Json {
  if (typeof args !== "string") return args;
  try {
    const value: unknown = JSON.parse(args);
    return isJson(value) ? value : {};
  } catch {
    return {};
  }
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const sse = { "content-type": "text/event-stream", "cache-control": "no-cache" };
const json = { "content-type": "application/json" };

function jsonRendered(body: unknown, status = 200): Rendered {
  return { status, headers: json, pieces: [JSON.stringify(body)] };
}

/** `data: …\n\n` lines, with an `event:` line when given. */
function sseEvent(data: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

// ---------------------------------------------------------------- OpenAI Chat Completions

const openai: Adapter = {
  route: (request) => (request.method === "POST" && request.path === "/v1/chat/completions" ? "" : `Invalid URL (${request.method} ${request.path})`),
  auth: (request, key) => (request.headers.authorization === `Bearer ${key}` ? undefined : [401, "Incorrect API key provided."]),
  isStream: (request) => request.body.stream === true,
  model: (request) => String(request.body.model ?? ""),
  validate(request) {
    const body = request.body;
    if (typeof body.model !== "string" || body.model === "") return "you must provide a model parameter";
    if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must be a non-empty array";
    if (body.stream !== undefined && typeof body.stream !== "boolean") return "'stream' must be a boolean";
    for (const key of ["max_tokens", "max_completion_tokens"]) {
      if (body[key] !== undefined && !(Number.isInteger(body[key]) && (body[key] as number) > 0)) return `'${key}' must be a positive integer`;
    }
    if (body.stream_options !== undefined && body.stream !== true) return "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
    let pending: string[] = [];
    for (const [i, message] of body.messages.entries()) {
      if (!isJson(message)) return `messages[${i}] must be an object`;
      const role = message.role;
      if (pending.length > 0 && role !== "tool") {
        return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${
          pending.join(", ")
        }`;
      }
      if (role === "system" || role === "developer" || role === "user") {
        if (typeof message.content !== "string" && !Array.isArray(message.content)) return `messages[${i}].content must be a string or an array`;
      } else if (role === "assistant") {
        const calls = message.tool_calls;
        if (calls !== undefined) {
          if (!Array.isArray(calls) || calls.length === 0) return `messages[${i}].tool_calls must be a non-empty array`;
          for (const [j, call] of calls.entries()) {
            if (!isJson(call) || typeof call.id !== "string" || call.type !== "function" || !isJson(call.function)) {
              return `messages[${i}].tool_calls[${j}] must be {id, type: "function", function}`;
            }
            if (typeof call.function.name !== "string" || typeof call.function.arguments !== "string") {
              return `messages[${i}].tool_calls[${j}].function needs a name and arguments as a JSON string`;
            }
          }
          pending = calls.map((call) => (call as Json).id as string);
        }
        if (message.content === null && calls === undefined) return `messages[${i}]: content may be null only beside tool_calls`;
        if (message.content !== null && message.content !== undefined && typeof message.content !== "string" && !Array.isArray(message.content)) {
          return `messages[${i}].content must be a string`;
        }
      } else if (role === "tool") {
        if (typeof message.tool_call_id !== "string") return `messages[${i}]: a tool message needs tool_call_id`;
        if (typeof message.content !== "string" && !Array.isArray(message.content)) return `messages[${i}].content must be a string`;
        if (!pending.includes(message.tool_call_id)) {
          return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${i}], tool_call_id ${message.tool_call_id}).`;
        }
        pending = pending.filter((id) => id !== message.tool_call_id);
      } else {
        return `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'. (messages[${i}].role)`;
      }
    }
    if (body.tools !== undefined) {
      if (!Array.isArray(body.tools)) return "'tools' must be an array";
      for (const [i, tool] of body.tools.entries()) {
        if (!isJson(tool) || tool.type !== "function" || !isJson(tool.function)) return `tools[${i}] must be {type: "function", function}`;
        if (typeof tool.function.name !== "string" || !TOOL_NAME.test(tool.function.name)) {
          return `Invalid 'tools[${i}].function.name': string does not match pattern '^[a-zA-Z0-9_-]+$'`;
        }
        const parameters = tool.function.parameters;
        if (parameters !== undefined && (!isJson(parameters) || parameters.type !== "object")) {
          return `Invalid schema for function '${tool.function.name}': schema must be a JSON Schema of 'type: "object"'`;
        }
      }
    }
    return undefined;
  },
  toolResults(body) {
    const messages = Array.isArray(body.messages) ? body.messages.filter(isJson) : [];
    const out: FakeToolResult[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
      out.unshift({ id: String(messages[i]!.tool_call_id), content: String(messages[i]!.content) });
    }
    return out;
  },
  reply(reply, request, state) {
    const calls = (reply.toolCalls ?? []).map((call, i) => ({ ...call, id: call.id ?? `call_${state.count}_${i}` }));
    const finish = reply.stopReason ?? (calls.length > 0 ? "tool_calls" : "stop");
    const model = String(request.body.model);
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (!this.isStream(request)) {
      const message: Json = { role: "assistant", content: reply.text ?? (calls.length > 0 ? null : "") };
      if (calls.length > 0) {
        message.tool_calls = calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: argumentText(call.arguments) } }));
      }
      return jsonRendered({
        id: `chatcmpl-${state.count}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      });
    }
    const chunk = (delta: Json, finishReason: string | null = null) =>
      sseEvent({
        id: `chatcmpl-${state.count}`,
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      });
    const out = [chunk({ role: "assistant", content: "" })];
    for (const piece of pieces(reply.text ?? "", state.chunkChars)) out.push(chunk({ content: piece }));
    calls.forEach((call, index) => {
      out.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
      for (const piece of pieces(argumentText(call.arguments), 7)) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    out.push(chunk({}, finish));
    const options = request.body.stream_options;
    if (isJson(options) && options.include_usage === true) {
      out.push(sseEvent({ id: `chatcmpl-${state.count}`, object: "chat.completion.chunk", created: 1_700_000_000, model, choices: [], usage }));
    }
    out.push(sseEvent("[DONE]"));
    return { status: 200, headers: sse, pieces: out };
  },
  streamError(error, request) {
    const model = String(request.body.model);
    const out = pieces(error.text ?? "", 4).map((piece) =>
      sseEvent({ object: "chat.completion.chunk", model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })
    );
    out.push(sseEvent({ error: { message: error.message, type: error.type ?? "server_error", param: null, code: null } }));
    return { status: 200, headers: sse, pieces: out };
  },
  error: (status, message, type) =>
    JSON.stringify({
      error: {
        message,
        type: type ?? (status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error"),
        param: null,
        code: null,
      },
    }),
};

// ---------------------------------------------------------------- Anthropic Messages

function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    default:
      return "api_error";
  }
}

function anthropicBlockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.filter(isJson).map((block) => String(block.text ?? "")).join("");
  return "";
}

const anthropic: Adapter = {
  route: (request) => (request.method === "POST" && request.path === "/v1/messages" ? "" : `Not found: ${request.method} ${request.path}`),
  auth: (request, key) => (request.headers["x-api-key"] === key ? undefined : [401, "invalid x-api-key"]),
  isStream: (request) => request.body.stream === true,
  model: (request) => String(request.body.model ?? ""),
  validate(request) {
    const body = request.body;
    if (request.headers["anthropic-version"] === undefined) return "anthropic-version: header is required";
    if (typeof body.model !== "string" || body.model === "") return "model: Field required";
    if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) return "max_tokens: Field required (an integer >= 1)";
    if (body.system !== undefined && typeof body.system !== "string" && !Array.isArray(body.system)) {
      return "system: Input should be a valid string or list of blocks";
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) return "messages: at least one message is required";
    let expected: string[] = []; // the tool_use ids the next (user) message must answer
    for (const [i, message] of body.messages.entries()) {
      if (!isJson(message)) return `messages.${i}: Input should be an object`;
      if (message.role !== "user" && message.role !== "assistant") return `messages.${i}.role: Input should be 'user' or 'assistant'`;
      if (i === 0 && message.role !== "user") return 'messages: first message must use the "user" role';
      const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      if (!Array.isArray(blocks) || blocks.length === 0) return `messages.${i}: content must be a non-empty string or list of blocks`;
      const answered: string[] = [];
      let seenOther = false;
      for (const [j, block] of blocks.entries()) {
        if (!isJson(block)) return `messages.${i}.content.${j}: Input should be an object`;
        if (block.type === "text") {
          if (typeof block.text !== "string" || block.text === "") return `messages.${i}.content.${j}: text content blocks must be non-empty`;
          seenOther = true;
        } else if (block.type === "tool_use") {
          if (message.role !== "assistant") return `messages.${i}.content.${j}: tool_use blocks are only allowed in assistant messages`;
          if (typeof block.id !== "string" || typeof block.name !== "string" || !isJson(block.input)) {
            return `messages.${i}.content.${j}.tool_use: id, name and input (an object) are required`;
          }
        } else if (block.type === "tool_result") {
          if (message.role !== "user") return `messages.${i}.content.${j}: tool_result blocks are only allowed in user messages`;
          if (typeof block.tool_use_id !== "string") return `messages.${i}.content.${j}.tool_result.tool_use_id: Field required`;
          if (seenOther) return `messages.${i}: tool_result blocks must come before any other content in the message`;
          if (!expected.includes(block.tool_use_id)) {
            return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
          }
          answered.push(block.tool_use_id);
        } else {
          return `messages.${i}.content.${j}.type: unknown content block type ${JSON.stringify(block.type)}`;
        }
      }
      if (expected.length > 0) {
        const missing = expected.filter((id) => !answered.includes(id));
        if (missing.length > 0) {
          return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${
            missing.join(", ")
          }. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
        }
      }
      expected = message.role === "assistant"
        ? blocks.filter((block) => isJson(block) && block.type === "tool_use").map((block) => String((block as Json).id))
        : [];
    }
    if (expected.length > 0) return `messages: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${expected.join(", ")}`;
    if (body.tools !== undefined) {
      if (!Array.isArray(body.tools)) return "tools: Input should be a valid list";
      for (const [i, tool] of body.tools.entries()) {
        if (!isJson(tool) || typeof tool.name !== "string" || !TOOL_NAME.test(tool.name)) {
          return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
        }
        if (!isJson(tool.input_schema) || tool.input_schema.type !== "object") return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
      }
    }
    return undefined;
  },
  toolResults(body) {
    const messages = Array.isArray(body.messages) ? body.messages.filter(isJson) : [];
    const last = messages[messages.length - 1];
    if (last === undefined || last.role !== "user" || !Array.isArray(last.content)) return [];
    return last.content
      .filter((block): block is Json => isJson(block) && block.type === "tool_result")
      .map((block) => ({ id: String(block.tool_use_id), content: anthropicBlockText(block.content), ...(block.is_error === true ? { isError: true } : {}) }));
  },
  reply(reply, request, state) {
    const calls = (reply.toolCalls ?? []).map((call, i) => ({ ...call, id: call.id ?? `toolu_${state.count}_${i}` }));
    const stop = reply.stopReason ?? (calls.length > 0 ? "tool_use" : "end_turn");
    const model = String(request.body.model);
    const text = reply.text ?? "";
    if (!this.isStream(request)) {
      const content: Json[] = text === "" ? [] : [{ type: "text", text }];
      for (const call of calls) content.push({ type: "tool_use", id: call.id, name: call.name, input: argumentObject(call.arguments) });
      return jsonRendered({
        id: `msg_${state.count}`,
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      });
    }
    const out = [
      sseEvent({
        type: "message_start",
        message: {
          id: `msg_${state.count}`,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }, "message_start"),
      sseEvent({ type: "ping" }, "ping"),
    ];
    let index = 0;
    if (text !== "") {
      out.push(sseEvent({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start"));
      for (const piece of pieces(text, state.chunkChars)) {
        out.push(sseEvent({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }, "content_block_delta"));
      }
      out.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
      index++;
    }
    for (const call of calls) {
      out.push(
        sseEvent({ type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }, "content_block_start"),
      );
      for (const piece of pieces(argumentText(call.arguments), 7)) {
        out.push(sseEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } }, "content_block_delta"));
      }
      out.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
      index++;
    }
    out.push(sseEvent({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }, "message_delta"));
    out.push(sseEvent({ type: "message_stop" }, "message_stop"));
    return { status: 200, headers: sse, pieces: out };
  },
  streamError(error, request) {
    const out = [
      sseEvent({
        type: "message_start",
        message: {
          id: "msg_error",
          type: "message",
          role: "assistant",
          model: String(request.body.model),
          content: [],
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }, "message_start"),
    ];
    if (error.text !== undefined) {
      out.push(sseEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"));
      for (const piece of pieces(error.text, 4)) {
        out.push(sseEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } }, "content_block_delta"));
      }
    }
    out.push(sseEvent({ type: "error", error: { type: error.type ?? "overloaded_error", message: error.message } }, "error"));
    return { status: 200, headers: sse, pieces: out };
  },
  error: (status, message, type) => JSON.stringify({ type: "error", error: { type: type ?? anthropicErrorType(status), message } }),
};

// ---------------------------------------------------------------- Ollama /api/chat

const ollama: Adapter = {
  route: (request) => (request.method === "POST" && request.path === "/api/chat" ? "" : "404 page not found"),
  auth: (request, key) => (request.headers.authorization === `Bearer ${key}` ? undefined : [401, "unauthorized"]),
  // Ollama streams unless told not to
  isStream: (request) => request.body.stream !== false,
  model: (request) => String(request.body.model ?? ""),
  validate(request) {
    const body = request.body;
    if (typeof body.model !== "string" || body.model === "") return "model is required";
    if (body.stream !== undefined && typeof body.stream !== "boolean") return "json: cannot unmarshal into Go struct field ChatRequest.stream of type bool";
    if (!Array.isArray(body.messages)) return "json: cannot unmarshal into Go struct field ChatRequest.messages of type []api.Message";
    for (const [i, message] of body.messages.entries()) {
      if (!isJson(message)) return `messages[${i}]: json: cannot unmarshal into Go value of type api.Message`;
      if (!["system", "user", "assistant", "tool"].includes(String(message.role))) return `messages[${i}]: invalid role ${JSON.stringify(message.role)}`;
      if (message.content !== undefined && typeof message.content !== "string") {
        return "json: cannot unmarshal into Go struct field Message.messages.content of type string";
      }
      if (message.tool_calls !== undefined) {
        if (!Array.isArray(message.tool_calls)) return "json: cannot unmarshal into Go struct field Message.messages.tool_calls of type []api.ToolCall";
        for (const call of message.tool_calls) {
          if (!isJson(call) || !isJson(call.function) || typeof call.function.name !== "string") {
            return "json: cannot unmarshal into Go struct field Message.messages.tool_calls of type api.ToolCall";
          }
          if (!isJson(call.function.arguments)) {
            return "json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments";
          }
        }
      }
      if (message.tool_name !== undefined && typeof message.tool_name !== "string") {
        return "json: cannot unmarshal into Go struct field Message.messages.tool_name of type string";
      }
    }
    if (body.tools !== undefined) {
      if (!Array.isArray(body.tools)) return "json: cannot unmarshal into Go struct field ChatRequest.tools of type api.Tools";
      for (const [i, tool] of body.tools.entries()) {
        if (!isJson(tool) || tool.type !== "function" || !isJson(tool.function) || typeof tool.function.name !== "string") {
          return `tools[${i}]: want {type: "function", function: {name, parameters}}`;
        }
        if (tool.function.parameters !== undefined && !isJson(tool.function.parameters)) return `tools[${i}].function.parameters must be an object`;
      }
    }
    if (body.options !== undefined && !isJson(body.options)) return "options must be an object";
    return undefined;
  },
  toolResults(body) {
    const messages = Array.isArray(body.messages) ? body.messages.filter(isJson) : [];
    const out: FakeToolResult[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]!.role === "tool"; i--) {
      out.unshift({
        ...(typeof messages[i]!.tool_name === "string" ? { name: messages[i]!.tool_name as string } : {}),
        content: String(messages[i]!.content ?? ""),
      });
    }
    return out;
  },
  reply(reply, request, state) {
    const model = String(request.body.model);
    const created = "2026-01-01T00:00:00Z";
    const calls = (reply.toolCalls ?? []).map((call, index) => ({
      function: { index, name: call.name, arguments: argumentObject(call.arguments) },
      ...(call.id === undefined ? {} : { id: call.id }),
    }));
    const last = {
      model,
      created_at: created,
      done: true,
      done_reason: reply.stopReason ?? "stop",
      total_duration: 1000,
      prompt_eval_count: 10,
      eval_count: 5,
    };
    if (!this.isStream(request)) {
      const message: Json = { role: "assistant", content: reply.text ?? "" };
      if (calls.length > 0) message.tool_calls = calls;
      return jsonRendered({ ...last, message });
    }
    const line = (value: unknown) => JSON.stringify(value) + "\n";
    const out = pieces(reply.text ?? "", state.chunkChars).map((piece) =>
      line({ model, created_at: created, message: { role: "assistant", content: piece }, done: false })
    );
    if (calls.length > 0) out.push(line({ model, created_at: created, message: { role: "assistant", content: "", tool_calls: calls }, done: false }));
    out.push(line({ ...last, message: { role: "assistant", content: "" } }));
    return { status: 200, headers: { "content-type": "application/x-ndjson" }, pieces: out };
  },
  streamError(error, request) {
    const model = String(request.body.model);
    const line = (value: unknown) => JSON.stringify(value) + "\n";
    const out = pieces(error.text ?? "", 4).map((piece) => line({ model, message: { role: "assistant", content: piece }, done: false }));
    out.push(line({ error: error.message }));
    return { status: 200, headers: { "content-type": "application/x-ndjson" }, pieces: out };
  },
  error: (_status, message) => JSON.stringify({ error: message }),
};

// ---------------------------------------------------------------- Gemini generateContent

const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
const GEMINI_TOP_LEVEL = ["contents", "systemInstruction", "tools", "toolConfig", "generationConfig", "safetySettings", "cachedContent"];
/** The fields of Gemini's Schema object (ai.google.dev/api/caching#Schema). */
const GEMINI_SCHEMA_FIELDS = [
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
];
const GEMINI_TYPES = ["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];

function geminiStatus(status: number): string {
  switch (status) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 503:
      return "UNAVAILABLE";
    default:
      return "INTERNAL";
  }
}

/** Why the API would refuse this parameters schema (its protobuf parser, then its checks). */
function geminiSchemaProblem(schema: unknown, at: string, top: boolean): string | undefined {
  if (!isJson(schema)) return `Invalid value at '${at}': a Schema object was expected`;
  for (const key of Object.keys(schema)) {
    if (!GEMINI_SCHEMA_FIELDS.includes(key)) return `Invalid JSON payload received. Unknown name ${JSON.stringify(key)} at '${at}': Cannot find field.`;
  }
  const type = typeof schema.type === "string" ? schema.type.toUpperCase() : undefined;
  if (schema.anyOf === undefined && type === undefined) return `* GenerateContentRequest.${at}.type: must be specified`;
  if (type !== undefined && !GEMINI_TYPES.includes(type)) {
    return `Invalid value at '${at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(schema.type)}`;
  }
  if (schema.properties !== undefined && type !== "OBJECT") return `* GenerateContentRequest.${at}.properties: only allowed for OBJECT type`;
  if (type === "OBJECT" && top && (!isJson(schema.properties) || Object.keys(schema.properties).length === 0)) {
    return `* GenerateContentRequest.${at}.properties: should be non-empty for OBJECT type`;
  }
  if (type === "ARRAY" && schema.items === undefined) return `* GenerateContentRequest.${at}.items: missing field.`;
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || !schema.enum.every((value) => typeof value === "string"))) {
    return `Invalid value at '${at}.enum': strings expected`;
  }
  if (schema.required !== undefined) {
    const names = isJson(schema.properties) ? Object.keys(schema.properties) : [];
    for (const name of Array.isArray(schema.required) ? schema.required : []) {
      if (!names.includes(String(name))) return `* GenerateContentRequest.${at}.required[${JSON.stringify(name)}]: property is not defined`;
    }
  }
  if (isJson(schema.properties)) {
    for (const [name, value] of Object.entries(schema.properties)) {
      const problem = geminiSchemaProblem(value, `${at}.properties[${name}].value`, false);
      if (problem) return problem;
    }
  }
  if (schema.items !== undefined) {
    const problem = geminiSchemaProblem(schema.items, `${at}.items`, false);
    if (problem) return problem;
  }
  if (Array.isArray(schema.anyOf)) {
    for (const [i, branch] of schema.anyOf.entries()) {
      const problem = geminiSchemaProblem(branch, `${at}.any_of[${i}]`, false);
      if (problem) return problem;
    }
  }
  return undefined;
}

const google: Adapter = {
  route(request) {
    const match = GEMINI_PATH.exec(request.path);
    if (request.method !== "POST" || match === null) return `The requested URL ${request.path} was not found on this server.`;
    if (match[2] === "streamGenerateContent" && !new URLSearchParams(request.query).has("alt")) {
      return "this fake answers streamGenerateContent with alt=sse only";
    }
    return "";
  },
  auth: (
    request,
    key,
  ) => (request.headers["x-goog-api-key"] === key || new URLSearchParams(request.query).get("key") === key ? undefined : [
    403,
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  ]),
  isStream: (request) => request.path.endsWith(":streamGenerateContent"),
  model: (request) => GEMINI_PATH.exec(request.path)?.[1] ?? "",
  validate(request, state) {
    const body = request.body;
    for (const key of Object.keys(body)) {
      if (!GEMINI_TOP_LEVEL.includes(key)) return `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}: Cannot find field.`;
    }
    if (!Array.isArray(body.contents) || body.contents.length === 0) return "* GenerateContentRequest.contents: contents is not specified";
    let callsPending = 0;
    const signatures = new Set<string>();
    for (const [i, content] of body.contents.entries()) {
      if (!isJson(content)) return `Invalid value at 'contents[${i}]'`;
      if (content.role !== "user" && content.role !== "model") return `* GenerateContentRequest.contents[${i}].role: Please use a valid role: user, model.`;
      if (!Array.isArray(content.parts) || content.parts.length === 0) {
        return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`;
      }
      let calls = 0;
      let responses = 0;
      for (const [j, part] of content.parts.entries()) {
        if (!isJson(part)) return `Invalid value at 'contents[${i}].parts[${j}]'`;
        const data = ["text", "functionCall", "functionResponse"].filter((key) => key in part);
        for (const key of Object.keys(part)) {
          if (![...data, "thoughtSignature", "thought"].includes(key)) {
            return `Invalid JSON payload received. Unknown name ${JSON.stringify(key)} at 'contents[${i}].parts[${j}]': Cannot find field.`;
          }
        }
        if (data.length !== 1) return `* GenerateContentRequest.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field`;
        if (typeof part.thoughtSignature === "string") signatures.add(part.thoughtSignature);
        if ("text" in part && typeof part.text !== "string") return `Invalid value at 'contents[${i}].parts[${j}].text'`;
        if ("functionCall" in part) {
          if (content.role !== "model") return `* contents[${i}].parts[${j}]: a functionCall part belongs to a model turn`;
          const call = part.functionCall;
          if (!isJson(call) || typeof call.name !== "string" || (call.args !== undefined && !isJson(call.args))) {
            return `Invalid value at 'contents[${i}].parts[${j}].function_call'`;
          }
          calls++;
        }
        if ("functionResponse" in part) {
          const response = part.functionResponse;
          if (!isJson(response) || typeof response.name !== "string") {
            return `* GenerateContentRequest.contents[${i}].parts[${j}].function_response.name: Name cannot be empty.`;
          }
          if (!isJson(response.response)) {
            return `Invalid value at 'contents[${i}].parts[${j}].function_response.response' (type.googleapis.com/google.protobuf.Struct)`;
          }
          responses++;
        }
      }
      if (callsPending > 0 && responses !== callsPending) {
        return "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.";
      }
      callsPending = calls;
    }
    for (const signature of state.signatures) {
      if (!signatures.has(signature)) {
        return "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.";
      }
    }
    if (body.systemInstruction !== undefined) {
      const system = body.systemInstruction;
      if (!isJson(system) || !Array.isArray(system.parts) || !system.parts.every((part) => isJson(part) && typeof part.text === "string")) {
        return "Invalid value at 'system_instruction': want {parts: [{text}]}";
      }
    }
    if (body.tools !== undefined) {
      if (!Array.isArray(body.tools)) return "Invalid value at 'tools'";
      for (const [i, tool] of body.tools.entries()) {
        if (!isJson(tool) || !Array.isArray(tool.functionDeclarations)) return `Invalid value at 'tools[${i}]': want {functionDeclarations: [...]}`;
        for (const [j, declaration] of tool.functionDeclarations.entries()) {
          const at = `tools[${i}].function_declarations[${j}]`;
          if (!isJson(declaration) || typeof declaration.name !== "string" || !TOOL_NAME.test(declaration.name)) {
            return `* GenerateContentRequest.${at}.name: Invalid function name.`;
          }
          for (const key of Object.keys(declaration)) {
            if (!["name", "description", "parameters", "parametersJsonSchema", "response", "behavior"].includes(key)) {
              return `Invalid JSON payload received. Unknown name ${JSON.stringify(key)} at '${at}': Cannot find field.`;
            }
          }
          if (declaration.parameters !== undefined) {
            const problem = geminiSchemaProblem(declaration.parameters, `${at}.parameters`, true);
            if (problem) return problem;
          }
        }
      }
    }
    if (body.generationConfig !== undefined && !isJson(body.generationConfig)) return "Invalid value at 'generation_config'";
    return undefined;
  },
  toolResults(body) {
    const contents = Array.isArray(body.contents) ? body.contents.filter(isJson) : [];
    const last = contents[contents.length - 1];
    if (last === undefined || last.role !== "user" || !Array.isArray(last.parts)) return [];
    return last.parts
      .filter((part): part is Json => isJson(part) && isJson(part.functionResponse))
      .map((part) => {
        const response = part.functionResponse as Json;
        return { name: String(response.name), content: JSON.stringify(response.response) };
      });
  },
  reply(reply, request, state) {
    const model = this.model(request);
    const callParts = (reply.toolCalls ?? []).map((call) => {
      const part: Json = { functionCall: { name: call.name, args: argumentObject(call.arguments), ...(call.id === undefined ? {} : { id: call.id }) } };
      if (call.signature !== undefined) {
        part.thoughtSignature = call.signature;
        state.signatures.add(call.signature);
      }
      return part;
    });
    const finishReason = reply.stopReason ?? "STOP";
    const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
    const text = reply.text ?? "";
    if (!this.isStream(request)) {
      const parts = [...(text === "" ? [] : [{ text }]), ...callParts];
      return jsonRendered({ candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }], usageMetadata, modelVersion: model });
    }
    const textPieces = pieces(text, state.chunkChars);
    const out = textPieces.map((piece) => sseEvent({ candidates: [{ content: { role: "model", parts: [{ text: piece }] }, index: 0 }], modelVersion: model }));
    // the last chunk: the function calls (whole), the finish reason and the usage
    out.push(
      sseEvent({
        candidates: [{ content: { role: "model", parts: callParts.length > 0 ? callParts : [{ text: "" }] }, finishReason, index: 0 }],
        usageMetadata,
        modelVersion: model,
      }),
    );
    return { status: 200, headers: sse, pieces: out };
  },
  streamError(error, request) {
    const out = pieces(error.text ?? "", 4).map((piece) =>
      sseEvent({ candidates: [{ content: { role: "model", parts: [{ text: piece }] }, index: 0 }], modelVersion: this.model(request) })
    );
    out.push(sseEvent({ error: { code: 503, message: error.message, status: error.type ?? "UNAVAILABLE" } }));
    return { status: 200, headers: sse, pieces: out };
  },
  error: (status, message, type) => JSON.stringify({ error: { code: status, message, status: type ?? geminiStatus(status) } }),
};

const ADAPTERS: Readonly<Record<FakeApiKind, Adapter>> = { openai, anthropic, ollama, google };

// ---------------------------------------------------------------- the server

/** Starts one fake API on 127.0.0.1 (an ephemeral port) that answers from `script`. */
export async function startFakeModelApi(kind: FakeApiKind, script: FakeStep[], options: FakeApiOptions = {}): Promise<FakeModelApi> {
  const adapter = ADAPTERS[kind];
  const state: AdapterState = { chunkChars: options.chunkChars ?? 4, count: 0, signatures: new Set() };
  const requests: FakeRequest[] = [];
  const rejections: string[] = [];
  const sockets = new Set<Socket>();
  let step = 0;

  const send = (response: ServerResponse, status: number, headers: Record<string, string>, body: string) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(body);
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const text = await readBody(incoming);
    let body: Json = {};
    let parsed = true;
    try {
      const value: unknown = JSON.parse(text);
      if (isJson(value)) body = value;
      else parsed = false;
    } catch {
      parsed = false;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers[name.toLowerCase()] = value;
    const request: FakeRequest = {
      method: incoming.method ?? "GET",
      path: url.pathname,
      query: url.search,
      headers,
      body,
      stream: false,
      model: "",
      toolResults: [],
    };
    request.stream = adapter.isStream(request);
    request.model = adapter.model(request);
    request.toolResults = adapter.toolResults(body);
    requests.push(request);

    const refuse = (status: number, reason: string) => {
      rejections.push(reason);
      send(response, status, {}, adapter.error(status, reason));
    };
    const wrongRoute = adapter.route(request);
    if (wrongRoute !== "") return refuse(404, wrongRoute);
    if (options.apiKey !== undefined) {
      const denied = adapter.auth(request, options.apiKey);
      if (denied !== undefined) return refuse(denied[0], denied[1]);
    }
    if (!parsed) return refuse(400, "We could not parse the JSON body of your request.");
    const invalid = adapter.validate(request, state);
    if (invalid !== undefined) return refuse(400, invalid);

    const next = script[step];
    step++;
    if (next === undefined) {
      send(response, 500, {}, adapter.error(500, `fake ${kind} API: the script has no step ${step} (it has ${script.length})`));
      return;
    }
    const answer = typeof next === "function" ? next(request) : next;
    state.count++;
    if ("error" in answer) {
      const error = answer.error;
      send(response, error.status, error.headers ?? {}, error.body ?? adapter.error(error.status, error.message, error.type));
      return;
    }
    const rendered = "streamError" in answer ? adapter.streamError(answer.streamError, request) : adapter.reply(answer, request, state);
    response.writeHead(rendered.status, rendered.headers);
    for (const piece of rendered.pieces) response.write(piece);
    response.end();
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, {}, adapter.error(500, `fake ${kind} API failed: ${String(error)}`));
      else response.end();
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    kind,
    origin,
    url: kind === "openai" ? `${origin}/v1` : origin,
    requests,
    rejections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
