// HTTP failures as TransportErrors, and the pieces their messages are made of: the URL as
// shown, the HTTP status, the start of the body, the reason a fetch failed —
// spec 2025-11-25 basic/transports ("Streamable HTTP", "Backwards Compatibility").

import { isObject } from "../common/json.ts";
import { clipLine, preview } from "../common/preview.ts";
import { REDACTED, redactedJson, Redactor } from "../common/redact.ts";
import type { JsonRpcErrorResponse, JsonRpcMessage } from "../jsonrpc/messages.ts";
import { cancelOnAbort } from "./body-abort.ts";
import { type HttpErrorCode, TransportError } from "./transport.ts";

// Defined beside TransportErrorCode (which includes it); this is its old home.
export type { HttpErrorCode } from "./transport.ts";

/** How much of a response body an error message quotes. */
export const BODY_START_CHARS = 200;
/**
 * How much more than it quotes bodyStart reads and redacts first, so a credential that
 * straddles the cut is still recognised whole (and not shown half).
 */
const BODY_REDACT_SLACK_CHARS = 8192;

/** Turns text a server sent into text fit to show: credentials replaced (common/redact.ts). */
export type RedactFn = (text: string) => string;

/**
 * An HTTP request was answered with a status we cannot use. `code` says why (HttpErrorCode);
 * `status` is the number, `url` the URL that answered. The automatic fallback to the legacy
 * transport tests `status` of the first POST (400, 404, 405 — 2025-11-25 transports,
 * "Backwards Compatibility").
 */
export class HttpStatusError extends TransportError {
  override readonly name = "HttpStatusError";
  declare readonly code: HttpErrorCode;
  readonly status: number;
  readonly url: string;
  /** The first characters of the response body, credentials redacted ("" when it had none). */
  readonly bodyStart: string;
  /** For "busy": when the server said it may be tried again (from Retry-After), if it said. */
  readonly retryAt: Date | undefined;

  constructor(
    message: string,
    code: HttpErrorCode,
    options: { status: number; url: string; bodyStart?: string; retryAt?: Date; cause?: unknown },
  ) {
    super(message, code, options);
    this.status = options.status;
    this.url = options.url;
    this.bodyStart = options.bodyStart ?? "";
    this.retryAt = options.retryAt;
  }
}

/**
 * The redaction of one HTTP connection: the values of its configured headers (any may be a
 * credential) and credential-shaped values, then the host's secrets (`host`). What its error
 * messages, reports and traces go through.
 */
export function connectionRedaction(headers: Iterable<string>, host: Redactor | undefined): RedactFn {
  const own = new Redactor(headers);
  return (text) => {
    const shown = own.redact(text);
    return host === undefined ? shown : host.redact(shown);
  };
}

/**
 * The URL of an HTTP transport, checked: only http:// and https:// are taken. `kind` names
 * the transport in the error ("http", "sse"), as its description does.
 */
export function httpUrl(url: string | URL, kind: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TransportError(`${kind} "${showUrl(parsed)}": the URL must be http:// or https://`, "bad-url");
  }
  return parsed;
}

/**
 * Up to `max` characters of text a server sent, credentials redacted, quoted (common/preview.ts).
 * A little more than is shown is redacted first, so a credential across the cut is still found whole.
 */
export function redactedPreview(text: string, redact: RedactFn, max: number): string {
  const slack = max + BODY_REDACT_SLACK_CHARS;
  return preview(redact(text.length > slack ? text.slice(0, slack) : text), max);
}

/**
 * A JSON-RPC error's message and data with the credentials a server echoed back replaced (a
 * server may echo our headers in an error); the error itself when nothing needed replacing.
 */
function redactRpcError(error: JsonRpcErrorResponse["error"], redact: RedactFn): JsonRpcErrorResponse["error"] {
  const message = typeof error.message === "string" ? redact(error.message) : error.message;
  if (error.data === undefined) return message === error.message ? error : { ...error, message };
  // Each string redacted as itself too: a JSON document inside a string is escaped in the text.
  const { text, cut, changed } = redactedJson(error.data, redact);
  if (!changed) return message === error.message ? error : { ...error, message };
  let data: unknown = text;
  if (!cut) {
    try {
      data = JSON.parse(text);
    } catch {
      // a replacement spanned the punctuation: the redacted text stands for it
    }
  }
  return { ...error, message, data };
}

/** A message as it is passed on: a JSON-RPC error's message and data with echoed credentials replaced. */
export function redactMessage(message: JsonRpcMessage, redact: RedactFn): JsonRpcMessage {
  if (!("error" in message) || !isObject(message.error)) return message;
  return { ...message, error: redactRpcError(message.error, redact) } as JsonRpcErrorResponse;
}

/** A URL as shown in messages: no password, and no query (it often carries a key). */
export function showUrl(url: URL): string {
  if (url.password === "" && url.search === "") return url.href;
  const shown = new URL(url.href);
  if (shown.password !== "") shown.password = REDACTED;
  if (shown.search !== "") shown.search = "?…";
  return shown.href;
}

/**
 * The first characters of a response body, credentials redacted (`redact`), whitespace folded,
 * "" when there is none. A server may echo our request headers (Authorization, X-Api-Key) in
 * an error body: what is quoted is redacted before it is cut, so a token across the cut is
 * still found. Reads no more than it needs and always releases the body (Deno counts an unread
 * body as a leak).
 */
export async function bodyStart(response: Response, redact: RedactFn, max = BODY_START_CHARS, signal?: AbortSignal): Promise<string> {
  // A body that breaks while we read its start: show what we have.
  const { text } = await readText(response, max + BODY_REDACT_SLACK_CHARS, signal);
  return clipLine(redact(text), max);
}

/** The whole body as text when it is at most `max` characters; undefined when longer or broken. */
export async function bodyText(response: Response, max: number, signal?: AbortSignal): Promise<string | undefined> {
  const { text, ended } = await readText(response, max, signal);
  return ended === "whole" ? text : undefined;
}

/**
 * A body's text, read until its end ("whole"), until past `limit` characters ("cut"), or until
 * it broke or `signal` aborted ("broken"); the body is always released.
 */
async function readText(response: Response, limit: number, signal: AbortSignal | undefined): Promise<{ text: string; ended: "whole" | "cut" | "broken" }> {
  const body = response.body;
  if (body === null) return { text: "", ended: "whole" };
  const reader = body.getReader();
  // The abort ends the read here: fetch's own does not always reach the body (body-abort.ts).
  const release = cancelOnAbort(reader, signal);
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length <= limit) {
      const { done, value } = await reader.read();
      // A cancelled reader reads as ended: after an abort the text is only what came.
      if (done) return signal?.aborted ? { text, ended: "broken" } : { text: text + decoder.decode(), ended: "whole" };
      text += decoder.decode(value, { stream: true });
    }
    return { text, ended: "cut" };
  } catch {
    return { text, ended: "broken" };
  } finally {
    release();
    await reader.cancel().catch(() => {});
  }
}

/** Releases a body we do not read (a 202's, a redirect's), so its connection is freed. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/**
 * Why a fetch rejected, in one line. Node says only "fetch failed" and keeps the reason
 * (ECONNREFUSED, ENOTFOUND, …) in `cause`, sometimes an AggregateError of one per address.
 */
export function fetchFailureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 3; depth++) {
    const code = (cause as { code?: unknown }).code;
    const text = cause.message !== "" ? cause.message : cause instanceof AggregateError ? cause.errors.map(String).join(", ") : "";
    const piece = typeof code === "string" && !text.includes(code) ? `${code} ${text}`.trim() : text;
    if (piece !== "" && !parts.some((part) => part.includes(piece))) parts.push(piece);
    cause = cause.cause;
  }
  return parts.join(": ");
}

/** What a user can do about an HTTP status, as the end of an error message. */
export function statusAdvice(status: number): string {
  if (status === 401 || status === 403) return "the server wants credentials: set the Authorization (or API key) header in `headers`";
  if (status === 404) return "check the URL's path (Streamable HTTP servers usually serve /mcp)";
  if (status === 405) return "the URL does not take this method; if it is a legacy HTTP+SSE endpoint, use the sse transport";
  if (status === 406 || status === 415) return "the server refused our Accept or Content-Type header; it may not speak Streamable HTTP";
  if (status >= 500) return "check the server's log";
  return "the body above may say why";
}
