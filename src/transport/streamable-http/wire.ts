// What the parts of the Streamable HTTP transport share: a request on its way (Exchange), where
// a stream's reading stands (StreamCursor), and small readings of the wire — content types, the
// id at the start of a message, what a status means — spec 2025-11-25 basic/transports
// ("Streamable HTTP").

import { durationText } from "../../common/duration.ts";
import type { JsonRpcErrorResponse, JsonRpcMessage, RequestId } from "../../jsonrpc/messages.ts";
import { cancelOnAbort } from "../body-abort.ts";
import { discardBody, HttpStatusError, showUrl, statusAdvice } from "../http-errors.ts";
import { retryWhen } from "../retry-after.ts";
import type { SameOriginResponse } from "../same-origin-fetch.ts";
import { TransportError } from "../transport.ts";
import type { LinkedAbort } from "./abort.ts";

/** Characters of server text a message quotes. */
export const PREVIEW_CHARS = 80;
/**
 * New sessions one message may be sent again in, when the server keeps ending them (a server
 * restarting more than once while the message is on its way).
 */
export const MAX_SESSION_RENEWALS = 5;

/** One request on its way: what its answer, its cancellation and close() reach. */
export interface Exchange {
  readonly id: RequestId;
  /** "tools/call (id 4)", for messages. */
  readonly what: string;
  /** Aborted when the answer arrived (on whichever stream), when it is cancelled, or on close. */
  readonly abort: LinkedAbort;
  answered: boolean;
  cancelled: boolean;
  /** Why the request failed before its answer could be read (an answer over maxMessageBytes). */
  failure?: Error;
  /** While a busy server's Retry-After is waited out: when the request goes again (epoch ms). */
  busyUntil?: number;
}

export type JsonRpcErrorObject = JsonRpcErrorResponse["error"];

/** A POST's answer, with what the request carried: whether a session id, and in which session. */
export type Posted = SameOriginResponse & { hadSession: boolean; epoch: number };

/** Where the reading of one SSE stream stands, across its reconnections. */
export interface StreamCursor {
  /** The last event id seen ("" when the server gave none): sent as Last-Event-ID. */
  lastEventId: string;
  /** The server's `retry:` interval, once given (it stays in force, per the SSE rules). */
  retryMs: number | undefined;
  /** Reconnection attempts since the last event arrived. */
  attempts: number;
  /** Why the last attempt failed, for the give-up message. */
  lastProblem: string;
  /** A busy server's Retry-After for the next attempt (RFC 9110 10.2.3), when it gave one. */
  retryAfterMs?: number;
}

export type PumpEnd = { kind: "ended" } | { kind: "broken"; reason: string } | { kind: "stopped" };

export type GetOutcome = { response: Response } | { problem: string; retryAfterMs?: number } | { fatal: TransportError };

export function describeMessage(message: JsonRpcMessage): string {
  if ("method" in message) return "id" in message ? `${message.method} (id ${JSON.stringify(message.id)})` : message.method;
  return `the response to request ${JSON.stringify(message.id)}`;
}

/** The two messages of the initialize handshake; during a session renewal only they go out. */
export function isHandshake(message: JsonRpcMessage): boolean {
  return "method" in message && (message.method === "initialize" || message.method === "notifications/initialized");
}

export function isEventStream(contentType: string): boolean {
  return /^\s*text\/event-stream\b/i.test(contentType);
}

export function isJson(contentType: string): boolean {
  return /^\s*application\/([\w.+-]*\+)?json\b/i.test(contentType);
}

export function quoteBody(start: string): string {
  return start === "" ? " with an empty body" : `: ${JSON.stringify(start)}`;
}

/** Statuses worth another try when (re)connecting a stream: the server is busy or restarting. */
export function retryableStatus(status: number): boolean {
  // 409: the SDK's server refuses a resumption while it still holds the broken connection.
  return status === 408 || status === 409 || status === 425 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/**
 * The id of a JSON-RPC answer from the start of its text, where JSON-RPC writers put it
 * (`{"jsonrpc":"2.0","id":7,…}` or `{"id":7,…}`); undefined when the text does not start so,
 * or when a method follows the id (a request of the server's, whose ids are not ours).
 */
export function leadingId(head: string): RequestId | undefined {
  const match = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*[,}]/.exec(head);
  if (match?.[1] === undefined) return undefined;
  if (/^\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:/.test(head.slice(match[0].length))) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** True when a message's text starts with its method (after its id, if any): a request or notification, not an answer. */
export function startsWithMethod(head: string): boolean {
  return /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*(?:"(?:[^"\\]|\\.)*"|-?\d+)\s*,\s*)?(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:/.test(
    head,
  );
}

/**
 * 2025-11-25 transports (Session Management) 3-4: a 404 to a request carrying a session id
 * means the server ended the session. Servers built on the SDK's example code (among them
 * server-everything) answer an unknown session with 400 "No valid session ID provided"
 * instead; a 400 whose body speaks of the session is taken to mean the same.
 */
export function sessionGone(status: number, body: string, hadSession: boolean): boolean {
  if (!hadSession) return false;
  return status === 404 || (status === 400 && /session/i.test(body));
}

/** One decoder for every body (decode() without `stream` keeps no state between calls). */
const UTF8 = new TextDecoder();

/**
 * A JSON body as text when it is at most `max` bytes; undefined (the rest unread) when it is
 * larger — told by Content-Length before reading when the server sent one. `signal` aborting
 * ends the read (it throws the signal's reason): the read is ours to end, fetch's abort does
 * not always reach a body (body-abort.ts). A body that came in one piece is decoded as it is.
 */
export async function boundedText(response: Response, max: number, signal?: AbortSignal): Promise<string | undefined> {
  const length = response.headers.get("content-length");
  if (length !== null && Number(length) > max) {
    await discardBody(response);
    return undefined;
  }
  const body = response.body;
  if (body === null) return "";
  const reader = body.getReader();
  const release = cancelOnAbort(reader, signal);
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let complete = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled reader reads as ended: an abort is not the body's end.
      if (signal?.aborted) throw signal.reason;
      if (done) {
        complete = true;
        break;
      }
      bytes += value.byteLength;
      if (bytes > max) return undefined;
      chunks.push(value);
    }
  } finally {
    release();
    if (!complete) await reader.cancel().catch(() => {});
  }
  if (chunks.length === 1) return UTF8.decode(chunks[0]);
  const whole = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return UTF8.decode(whole);
}

/** The error of a POST answered with a status we cannot use; `gone` when it said the server ended the session. */
export function postStatusError(
  description: string,
  what: string,
  posted: SameOriginResponse,
  start: string,
  gone: boolean,
  renewals: number,
): HttpStatusError {
  const { response, url } = posted;
  const said = `${description}: ${what}: POST ${showUrl(url)} answered HTTP ${response.status}${quoteBody(start)}`;
  if (!gone) {
    return new HttpStatusError(`${said}; ${statusAdvice(response.status)}`, "http-status", { status: response.status, url: url.href, bodyStart: start });
  }
  const why = renewals === 0
    ? "the server ended the session and no new one could be started for it"
    : `the server ended the session again after ${renewals} new session(s) were started for it`;
  return new HttpStatusError(`${said}: ${why}; connect again`, "session-expired", { status: response.status, url: url.href, bodyStart: start });
}

/**
 * An answer to a request larger than maxMessageBytes (`what` names it, from the description
 * on): it was not read (or, an SSE event, skipped), and the request it answers fails with this.
 */
export function tooLargeError(what: string, maxMessageBytes: number, status: number, url: URL, fate: "not read" | "skipped"): HttpStatusError {
  return new HttpStatusError(
    `${what} is larger than maxMessageBytes (${maxMessageBytes} bytes) and was ${fate}; ` +
      `raise maxMessageBytes (an option of the http transport) if the server's answers are this large`,
    "too-large",
    { status, url: url.href },
  );
}

/** 2025-11-25 transports (Sending Messages) 2: the POST accepts both kinds of answer. */
export const POST_ACCEPT = "application/json, text/event-stream";

/** What a send knows when it failed: the transport, whether it was closed, its timeout, the exchange and its deadline. */
export interface SendState {
  description: string;
  /** The transport was closed while the send ran. */
  closed: boolean;
  timeoutMs: number;
  exchange: Exchange | undefined;
  deadline: LinkedAbort | undefined;
}

/** The error a send rejects with, once whatever went wrong is known. */
export function sendFailure(error: unknown, what: string, state: SendState): unknown {
  const { description, exchange, deadline } = state;
  if (exchange?.failure !== undefined) return exchange.failure;
  if (error instanceof TransportError && error.code === "session-expired") return error;
  if (state.closed) {
    return new TransportError(`${description}: ${what} did not finish: the transport was closed`, "closed", { cause: error });
  }
  if (exchange?.cancelled) {
    const busy = exchange.busyUntil === undefined
      ? ""
      : ` while it waited for a busy server's Retry-After; the server asked to be tried again ${retryWhen(Math.max(0, exchange.busyUntil - Date.now()))}`;
    return new TransportError(`${description}: ${what} was cancelled${busy}; its stream was closed`, "cancelled", { cause: error });
  }
  if (deadline?.timedOut) {
    return new TransportError(
      `${description}: POST of ${what} got no answer within ${durationText(state.timeoutMs)}; check the server, or raise timeoutMs`,
      "timeout",
      { cause: error },
    );
  }
  return error;
}
