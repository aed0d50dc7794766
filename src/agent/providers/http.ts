// One bounded, cancellable HTTP call to a model API, shared by the four providers: the
// request, the wait for each next chunk, the API's error body turned into a ProviderError,
// `Retry-After`, the readers of the three body formats (JSON, SSE, NDJSON), and the small
// conversions every provider makes (tool arguments, object schemas).

import { durationText } from "../../common/duration.ts";
import { isObject } from "../../common/json.ts";
import { LineBuffer } from "../../common/line-buffer.ts";
import { clipLine } from "../../common/preview.ts";
import { fetchFailureReason, showUrl } from "../../transport/http-errors.ts";
import { SseParser } from "../../transport/sse-parser.ts";
import { type ChatMessage, ProviderError } from "./types.ts";

/** How long a call waits for the API's next bytes (the answer's start, or the next chunk). */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 300_000;
/** How much of an error body a message quotes when the body is not the API's JSON error. */
const QUOTED_BODY_CHARS = 300;

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What every provider's HTTP calls share. */
export interface HttpSettings {
  /** "openai", "anthropic", … — the ProviderError's `provider` and the start of each message. */
  provider: string;
  fetch: FetchFunction;
  timeoutMs: number;
  /** The end of a "could not connect" message: what the user should do. */
  unreachableHint: string;
  /** The end of a 401/403 message: where the key comes from. */
  keyHint: string;
  /** What to do about an error message particular to this API, when the provider knows better than the status. */
  advice?: (status: number, message: string) => string | undefined;
}

export interface ApiRequest {
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
}

/**
 * POSTs `request.body` as JSON and hands the answer's chunks to `read`. A non-2xx answer
 * becomes a ProviderError carrying the API's own message; so do a failed connection and a
 * wait for bytes longer than `timeoutMs`. When the caller's signal aborts, its reason is thrown.
 */
export async function callApi<T>(
  settings: HttpSettings,
  request: ApiRequest,
  read: (chunks: AsyncIterable<Uint8Array>, response: Response) => Promise<T>,
): Promise<T> {
  const shown = showUrl(request.url);
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
  };
  const onCallerAbort = () => controller.abort();
  const callerSignal = request.signal;
  if (callerSignal?.aborted) throw callerSignal.reason;
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  /** Any failure while waiting on the network, as what the caller should see. */
  const failure = (error: unknown, stage: "connect" | "read"): unknown => {
    if (callerSignal?.aborted) return callerSignal.reason;
    if (error instanceof ProviderError) return error;
    if (timedOut) {
      return new ProviderError(
        `${settings.provider}: no ${stage === "connect" ? "answer" : "further data"} from ${shown} within ${durationText(settings.timeoutMs)}; ` +
          "the model may be slow to load or stuck — raise the provider timeout or try again",
        "timeout",
        { provider: settings.provider, cause: error },
      );
    }
    if (stage === "connect") {
      return new ProviderError(
        `${settings.provider}: could not connect to ${shown} (${fetchFailureReason(error)}); ${settings.unreachableHint}`,
        "connect-failed",
        { provider: settings.provider, cause: error },
      );
    }
    return new ProviderError(
      `${settings.provider}: the answer from ${shown} broke off (${fetchFailureReason(error)}); try again`,
      "body-broken",
      { provider: settings.provider, cause: error },
    );
  };

  let response: Response;
  arm();
  try {
    response = await settings.fetch(request.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...request.headers },
      body: JSON.stringify(request.body),
      signal: controller.signal,
    });
  } catch (error) {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
    throw failure(error, "connect");
  }

  const body = response.body;
  const reader = body?.getReader();
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (reader === undefined) return;
    while (true) {
      arm();
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        throw failure(error, "read");
      }
      if (step.done) return;
      yield step.value;
    }
  }

  try {
    if (!response.ok) throw await statusError(settings, response, shown, chunks());
    return await read(chunks(), response);
  } catch (error) {
    // the chunk reader already turned network failures into ProviderErrors
    if (callerSignal?.aborted) throw callerSignal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
    await reader?.cancel().catch(() => {});
  }
}

/** A non-2xx answer as a ProviderError: the API's message, retryable or not, Retry-After. */
async function statusError(settings: HttpSettings, response: Response, shown: string, chunks: AsyncIterable<Uint8Array>): Promise<ProviderError> {
  let text = "";
  try {
    text = await readText(chunks, 64 * 1024);
  } catch {
    // a broken error body: the status alone has to do
  }
  const { message, type, retryDelayMs } = apiErrorOf(text);
  const status = response.status;
  const retryable = isRetryable(status, `${type ?? ""} ${message ?? ""}`);
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after")) ?? retryDelayMs;
  const detail = message ?? (text.trim() === "" ? "(no body)" : quote(text));
  const statusText = response.statusText === "" ? "" : ` ${response.statusText}`;
  return new ProviderError(
    `${settings.provider}: ${shown} answered ${status}${statusText}: ${detail}; ${
      settings.advice?.(status, detail) ?? statusAdvice(settings, status, retryable)
    }`,
    "api-error",
    { provider: settings.provider, status, retryable, retryAfterMs },
  );
}

function statusAdvice(settings: HttpSettings, status: number, retryable: boolean): string {
  if (status === 401 || status === 403) return `check the API key (${settings.keyHint})`;
  if (status === 404) return "check the model name and the base URL";
  if (retryable) return "the API is busy or rate-limited; try again later";
  if (status >= 500) return "the API failed; try again later";
  return "the API refused the request for the reason it gives";
}

/** Whether an answer is worth retrying: 429, 503, 529, or an "overloaded" error of any status. */
export function isRetryable(status: number | undefined, errorText: string): boolean {
  if (status === 429 || status === 503 || status === 529) return true;
  return /overloaded/i.test(errorText);
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The message (and type) inside an API's JSON error body. The four shapes: OpenAI
 * `{error: {message, type}}`, Anthropic `{type: "error", error: {type, message}}`, Gemini
 * `{error: {code, message, status, details}}`, Ollama `{error: "…"}`; OpenAI-compatible
 * servers also send `{message}` or `{detail}`.
 */
export function apiErrorOf(text: string): { message?: string; type?: string; retryDelayMs?: number } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (Array.isArray(body)) body = body[0]; // Gemini's streamed (JSON array) errors
  if (!isObject(body)) return {};
  const error = body.error;
  if (typeof error === "string") return { message: error };
  if (isObject(error)) {
    const message = typeof error.message === "string" ? error.message : undefined;
    const type = typeof error.type === "string" ? error.type : typeof error.status === "string" ? error.status : undefined;
    return { message, type, retryDelayMs: googleRetryDelay(error.details) };
  }
  if (typeof body.message === "string") return { message: body.message };
  if (typeof body.detail === "string") return { message: body.detail };
  return {};
}

/** Gemini's `google.rpc.RetryInfo` detail (`retryDelay: "12s"`), in milliseconds. */
function googleRetryDelay(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (isObject(detail) && typeof detail.retryDelay === "string") {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay);
      if (match) return Math.round(Number(match[1]) * 1000);
    }
  }
  return undefined;
}

/**
 * Whether a 2xx answer is one JSON document: what a server that ignores `stream: true` sends
 * (some OpenAI-compatible ones do). Providers read it as a whole answer then.
 */
export function isJsonAnswer(response: Response): boolean {
  return /^application\/json\b/i.test(response.headers.get("content-type") ?? "");
}

/** A whole (not streamed) answer, its text handed to `onText` in one piece when the caller streams. */
export function whole<T extends { text: string }>(answer: T, onText?: (chunk: string) => void): T {
  if (onText !== undefined && answer.text !== "") onText(answer.text);
  return answer;
}

/** All of a body as text (at most `max` characters are kept). */
export async function readText(chunks: AsyncIterable<Uint8Array>, max = Number.POSITIVE_INFINITY): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    const piece = decoder.decode(chunk, { stream: true });
    if (length < max) parts.push(piece);
    length += piece.length;
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/** A whole JSON body, or a ProviderError quoting its start when it is not JSON. */
export async function readJson(provider: string, chunks: AsyncIterable<Uint8Array>): Promise<Record<string, unknown>> {
  const text = await readText(chunks);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProviderError(`${provider}: the API answered with something that is not JSON: ${quote(text)}; check the base URL`, "invalid-answer", {
      provider,
    });
  }
  if (!isObject(value)) {
    throw new ProviderError(`${provider}: the API answered with JSON that is not an object: ${quote(text)}`, "invalid-answer", { provider });
  }
  return value;
}

/** Server-Sent Events, each handed to `onEvent` as it completes. */
export async function readSse(chunks: AsyncIterable<Uint8Array>, onEvent: (type: string, data: string) => void): Promise<void> {
  const parser = new SseParser({ onEvent: (event) => onEvent(event.type, event.data) });
  for await (const chunk of chunks) parser.push(chunk);
  parser.end();
}

/** Newline-delimited JSON (Ollama's stream), each line's value handed to `onValue`. */
export async function readNdjson(provider: string, chunks: AsyncIterable<Uint8Array>, onValue: (value: Record<string, unknown>) => void): Promise<void> {
  const decoder = new TextDecoder();
  const lines = new LineBuffer();
  const takeLines = () => {
    for (let text = lines.take(); text !== undefined; text = lines.take()) {
      const trimmed = text.trim();
      if (trimmed !== "") onValue(parseObject(provider, trimmed, "a streamed line"));
    }
  };
  for await (const chunk of chunks) {
    lines.push(decoder.decode(chunk, { stream: true }));
    takeLines();
  }
  lines.push(decoder.decode());
  lines.end();
  takeLines();
}

/** One streamed JSON value (an SSE event's data, an NDJSON line) that must be an object. */
export function parseObject(provider: string, text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProviderError(`${provider}: ${what} of the answer is not JSON: ${quote(text)}`, "invalid-answer", { provider });
  }
  if (!isObject(value)) throw new ProviderError(`${provider}: ${what} of the answer is not a JSON object: ${quote(text)}`, "invalid-answer", { provider });
  return value;
}

/** A ProviderError for an error the API reported inside a stream that had started well. */
export function streamedError(provider: string, message: string, type?: string): ProviderError {
  const retryable = isRetryable(undefined, `${type ?? ""} ${message}`);
  return new ProviderError(
    `${provider}: the API reported an error while streaming: ${message}${type === undefined ? "" : ` (${type})`}` +
      (retryable ? "; the API is busy, try again later" : ""),
    "api-error",
    { provider, retryable },
  );
}

/**
 * A tool call's arguments as the model sent them: the object when the text is a JSON object
 * (an empty text means no arguments), the raw text otherwise — the Runner reports that to the model.
 */
export function parseArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : text;
  } catch {
    return text;
  }
}

/**
 * An id for a tool call the API gave none (Ollama, Gemini, some compatible servers): unique
 * across the whole history, so a saved conversation never has two calls of one id.
 */
export function madeUpCallId(prefix = "call"): string {
  return `${prefix}_mcpwire_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/**
 * A tool's input schema as the function-calling APIs that take JSON Schema want it (OpenAI,
 * Ollama, Anthropic): an object schema, without the `$schema` line some servers send.
 */
export function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, ...rest } = schema;
  if (rest.type === undefined) rest.type = "object";
  if (rest.type === "object" && rest.properties === undefined) rest.properties = {};
  return rest;
}

/** Arguments for an API that wants an object: a raw string that is not a JSON object is kept under "arguments". */
export function argumentsObject(args: Record<string, unknown> | string): Record<string, unknown> {
  if (typeof args !== "string") return args;
  const parsed = parseArguments(args);
  return typeof parsed === "string" ? { arguments: parsed } : parsed;
}

function quote(text: string): string {
  return JSON.stringify(clipLine(text, QUOTED_BODY_CHARS));
}

/** `base` with `path` appended (a base URL's own path is kept: `http://h/v1` + `chat/completions`). */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
  return url;
}

/** What createProvider resolves for each provider: where, with which key, how long to wait. */
export interface ProviderConnection {
  /** The model part of the model string. */
  model: string;
  /** The API's base URL, without a trailing endpoint path. */
  baseUrl: string;
  apiKey?: string;
  fetch: FetchFunction;
  timeoutMs: number;
  /** Extra headers sent with every request (a proxy's, an organization's). */
  headers?: Record<string, string>;
}

/** A provider's HttpSettings over its connection: its name, the connection's fetch and timeout, and its own hints. */
export function httpSettings(
  provider: string,
  connection: ProviderConnection,
  hints: Pick<HttpSettings, "unreachableHint" | "keyHint" | "advice">,
): HttpSettings {
  return { provider, fetch: connection.fetch, timeoutMs: connection.timeoutMs, ...hints };
}

/**
 * Turns whose roles alternate, as the Messages and Gemini APIs want them: `add` joins its items
 * to the last turn when that has the same role, and adds nothing for no items.
 */
export class AlternatingTurns<Role extends string> {
  readonly #turns: { role: Role; items: Record<string, unknown>[] }[] = [];

  add(role: Role, items: Record<string, unknown>[]): void {
    if (items.length === 0) return;
    const last = this.#turns[this.#turns.length - 1];
    if (last !== undefined && last.role === role) last.items.push(...items);
    else this.#turns.push({ role, items });
  }

  /** The turns as `{role, [key]: items}` (`content` for Messages, `parts` for Gemini). */
  as(key: string): Record<string, unknown>[] {
    return this.#turns.map(({ role, items }) => ({ role, [key]: items }));
  }
}

/**
 * The neutral history as a chat API's role/content messages (Chat Completions, Ollama): the
 * system prompt first, user messages as they are, assistant and tool messages in the API's shape.
 */
export function roleMessages(
  system: string | undefined,
  messages: ChatMessage[],
  shape: {
    assistant(message: Extract<ChatMessage, { role: "assistant" }>): Record<string, unknown>;
    tool(message: Extract<ChatMessage, { role: "tool" }>): Record<string, unknown>;
  },
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (system !== undefined && system !== "") out.push({ role: "system", content: system });
  for (const message of messages) {
    if (message.role === "user") out.push({ role: "user", content: message.content });
    else if (message.role === "assistant") out.push(shape.assistant(message));
    else out.push(shape.tool(message));
  }
  return out;
}
