// The Streamable HTTP client transport: every message is a POST to the MCP endpoint, a
// request's answer comes back as JSON or as an SSE stream, an optional GET stream carries
// what the server starts, sessions and resumable streams — spec 2025-11-25 basic/transports
// ("Streamable HTTP"), with basic/lifecycle for the handshake that starts a session.

import { boundedJson } from "../common/bounded.ts";
import { Redactor } from "../common/redact.ts";
import type { CloseDetails } from "../jsonrpc/errors.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/line-decoder.ts";
import {
  isNotification,
  isRequest,
  isResponse,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
  whyNotJsonRpc,
} from "../jsonrpc/messages.ts";
import { bodyStart, bodyText, discardBody, fetchFailureReason, HttpStatusError, showUrl, statusAdvice } from "./http-errors.ts";
import { requestHeaders, type ToolSchemaLookup } from "./mcp-headers.ts";
import { retryOnReset } from "./reset-retry.ts";
import {
  busyName,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type HttpSendOptions,
  isBusyStatus,
  MAX_BUSY_RETRIES,
  retryAfterMs,
  retryWhen,
} from "./retry-after.ts";
import { fetchSameOrigin, type SameOriginResponse } from "./same-origin-fetch.ts";
import { type SseEvent, SseParser } from "./sse-parser.ts";
import { type ReconnectOptions, reconnectDelay, reconnectOptions, sleep } from "./sse-reconnect.ts";
import { type Transport, TransportError } from "./transport.ts";

export interface StreamableHttpTransportOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string | URL;
  /** Sent with every request: each POST, GET and DELETE (Authorization, API keys, …). */
  headers?: Record<string, string>;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof fetch;
  /** How broken SSE streams are reconnected. Default DEFAULT_RECONNECT (10 attempts, up to 30 s apart). */
  reconnect?: Partial<ReconnectOptions>;
  /**
   * Extra fetch options for every request (a Node `dispatcher`, a Deno `client`, `keepalive`,
   * …). Its headers come first, under `headers` and ours; method, body, signal and redirect
   * are always ours.
   */
  requestInit?: RequestInit;
  /**
   * Bound of each wait that no request timeout covers: a POST of a notification or response
   * until its 202, and each GET (re)connection until its headers. Default 30 s. (A request's
   * POST is bounded by the caller's timeout: the Peer sends notifications/cancelled, which
   * closes that request's stream.)
   */
  timeoutMs?: number;
  /** Bound of the DELETE that ends the session in close(). Default 2 s. */
  closeTimeoutMs?: number;
  /** Open the GET stream for server-initiated messages after initialization. Default true. */
  listen?: boolean;
  /**
   * Largest message accepted: a JSON answer in bytes, one SSE event in characters. A larger
   * answer to a request fails that request at once, naming this limit; another larger
   * message is skipped and reported. Default 64 MiB.
   */
  maxMessageBytes?: number;
  /**
   * Longest Retry-After of a 429 or 503 that is waited out before the message is sent again
   * (never past the call's deadline). A longer one fails the send with the time to retry. Default 30 s.
   */
  maxRetryAfterMs?: number;
  /**
   * More secrets to keep out of error messages and reports (the host's). The values of
   * `headers` and `requestInit.headers` are always kept out.
   */
  redactor?: Redactor;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
export const DEFAULT_HTTP_CLOSE_TIMEOUT_MS = 2000;

/** 2025-11-25 transports (Sending Messages) 2: the POST accepts both kinds of answer. */
const POST_ACCEPT = "application/json, text/event-stream";
const PREVIEW_CHARS = 80;
/** The first revision without sessions, GET streams or resumption (version strings order as dates). */
const STATELESS_SINCE = "2026-07-28";
/** Error bodies larger than this are not read for a JSON-RPC error. */
const ERROR_BODY_MAX_CHARS = 65_536;
/**
 * New sessions one message may be sent again in, when the server keeps ending them (a server
 * restarting more than once while the message is on its way).
 */
const MAX_SESSION_RENEWALS = 5;
/** Characters redacted ahead of a preview's cut, so a credential across the cut is still found whole. */
const PREVIEW_REDACT_SLACK = 8192;
/**
 * spec 2026-07-28 basic/transports/streamable-http ("Backward Compatibility"): the errors that
 * identify a modern server in a 4xx answer — HeaderMismatch, MissingRequiredClientCapability,
 * UnsupportedProtocolVersion (and method-not-found with a 404).
 */
const MODERN_ERROR_CODES = new Set([-32020, -32021, -32022]);

/** One request on its way: what its answer, its cancellation and close() reach. */
interface Exchange {
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

type JsonRpcErrorObject = JsonRpcErrorResponse["error"];

/** A POST's answer, with what the request carried: whether a session id, and in which session. */
type Posted = SameOriginResponse & { hadSession: boolean; epoch: number };

/** Where the reading of one SSE stream stands, across its reconnections. */
interface StreamCursor {
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

type PumpEnd = { kind: "ended" } | { kind: "broken"; reason: string } | { kind: "stopped" };

type GetOutcome = { response: Response } | { problem: string; retryAfterMs?: number } | { fatal: TransportError };

function describeMessage(message: JsonRpcMessage): string {
  if ("method" in message) return "id" in message ? `${message.method} (id ${JSON.stringify(message.id)})` : message.method;
  return `the response to request ${JSON.stringify(message.id)}`;
}

/** The two messages of the initialize handshake; during a session renewal only they go out. */
function isHandshake(message: JsonRpcMessage): boolean {
  return "method" in message && (message.method === "initialize" || message.method === "notifications/initialized");
}

function isEventStream(contentType: string): boolean {
  return /^\s*text\/event-stream\b/i.test(contentType);
}

function isJson(contentType: string): boolean {
  return /^\s*application\/([\w.+-]*\+)?json\b/i.test(contentType);
}

function quoteBody(start: string): string {
  return start === "" ? " with an empty body" : `: ${JSON.stringify(start)}`;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Statuses worth another try when (re)connecting a stream: the server is busy or restarting. */
function retryableStatus(status: number): boolean {
  // 409: the SDK's server refuses a resumption while it still holds the broken connection.
  return status === 408 || status === 409 || status === 425 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/**
 * The id of a JSON-RPC answer from the start of its text, where JSON-RPC writers put it
 * (`{"jsonrpc":"2.0","id":7,…}` or `{"id":7,…}`); undefined when the text does not start so,
 * or when a method follows the id (a request of the server's, whose ids are not ours).
 */
function leadingId(head: string): RequestId | undefined {
  const match = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*[,}]/.exec(head);
  if (match === null) return undefined;
  if (/^\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:/.test(head.slice(match[0].length))) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** True when a message's text starts with its method (after its id, if any): a request or notification, not an answer. */
function startsWithMethod(head: string): boolean {
  return /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*(?:"(?:[^"\\]|\\.)*"|-?\d+)\s*,\s*)?(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:/.test(head);
}

/**
 * 2025-11-25 transports (Session Management) 3-4: a 404 to a request carrying a session id
 * means the server ended the session. Servers built on the SDK's example code (among them
 * server-everything) answer an unknown session with 400 "No valid session ID provided"
 * instead; a 400 whose body speaks of the session is taken to mean the same.
 */
function sessionGone(status: number, body: string, hadSession: boolean): boolean {
  if (!hadSession) return false;
  return status === 404 || (status === 400 && /session/i.test(body));
}

export class StreamableHttpTransport implements Transport {
  readonly description: string;
  readonly url: URL;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (details: CloseDetails) => void;
  onerror?: (error: Error) => void;
  /**
   * Called when the server ended the session (404): it must run the initialize handshake
   * again (initialize, then notifications/initialized) through send(). Meanwhile every other
   * send waits; the request that met the 404 is sent once more afterwards. If it rejects,
   * the transport closes. The Client sets it; without it a 404 fails the request.
   */
  onsessionexpired?: () => Promise<void>;

  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  readonly #requestInit: RequestInit;
  readonly #reconnect: ReconnectOptions;
  readonly #timeoutMs: number;
  readonly #closeTimeoutMs: number;
  readonly #listen: boolean;
  readonly #maxMessageBytes: number;
  readonly #maxRetryAfterMs: number;
  /** The configured header values (any may be a credential), kept out of every message we make. */
  readonly #redactor = new Redactor();
  readonly #hostRedactor: Redactor | undefined;
  /** Aborted when the transport ends: every fetch, stream and wait stops. */
  readonly #life = new AbortScope();
  #started = false;
  #ended = false;
  #closing: Promise<void> | undefined;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** The 2026-07-28 wire: no session, no GET stream, no resumption; request metadata headers. */
  #stateless = false;
  /** A stateless exchange has succeeded: from now on any JSON-RPC error in a 4xx is the server's answer. */
  #statelessConfirmed = false;
  #toolSchemas: ToolSchemaLookup | undefined;
  /** Counts sessions, so a 404 from an older one asks for a resend, not another new session. */
  #epoch = 0;
  /** The handshake of a new session, while it runs. */
  #renewal: Promise<void> | undefined;
  readonly #exchanges = new Map<RequestId, Exchange>();
  /** Stops the GET stream (close, new session). */
  #listener: LinkedAbort | undefined;
  /** Stream readers running in the background; close() lets them finish. */
  readonly #background = new Set<Promise<void>>();

  constructor(options: StreamableHttpTransportOptions) {
    this.url = new URL(options.url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TransportError(`http "${showUrl(this.url)}": the URL must be http:// or https://`, "bad-url");
    }
    this.description = `http "${showUrl(this.url)}"`;
    const given = options.fetch;
    // A keep-alive connection the server closed under us is tried once more (reset-retry.ts).
    this.#fetch = retryOnReset(given ?? ((input, init) => fetch(input, init)));
    this.#headers = { ...options.headers };
    this.#requestInit = options.requestInit ?? {};
    this.#reconnect = reconnectOptions(options.reconnect);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    this.#closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_HTTP_CLOSE_TIMEOUT_MS;
    this.#listen = options.listen ?? true;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#redactor.addHeaders(this.#headers);
    for (const [, value] of new Headers(this.#requestInit.headers)) this.#redactor.add(value);
    this.#hostRedactor = options.redactor;
  }

  /**
   * `text` with the credentials this transport knows (its configured header values, the
   * host's secrets) and credential-shaped values replaced by `[redacted]` — what error
   * messages, reports and traces of this connection go through.
   */
  redact(text: string): string {
    const own = this.#redactor.redact(text);
    return this.#hostRedactor === undefined ? own : this.#hostRedactor.redact(own);
  }

  readonly #redactFn = (text: string): string => this.redact(text);

  /** Up to PREVIEW_CHARS of server text, redacted, quoted. */
  #preview(text: string): string {
    const shown = this.redact(text.length > PREVIEW_CHARS + PREVIEW_REDACT_SLACK ? text.slice(0, PREVIEW_CHARS + PREVIEW_REDACT_SLACK) : text);
    return JSON.stringify(shown.length > PREVIEW_CHARS ? shown.slice(0, PREVIEW_CHARS) + "…" : shown);
  }

  /** The session the server assigned in its initialize answer (MCP-Session-Id), if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** What MCP-Protocol-Version carries (set by the Client after initialize). */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** 2025-11-25 transports (Protocol Version Header): sent on every request after initialize. */
  setProtocolVersion(version: string | undefined): void {
    this.#protocolVersion = version;
    this.#stateless = version !== undefined && version >= STATELESS_SINCE;
  }

  /** spec 2026-07-28 streamable-http ("Custom Headers from Tool Parameters"): where x-mcp-header annotations are read. */
  setToolSchemas(lookup: ToolSchemaLookup): void {
    this.#toolSchemas = lookup;
  }

  /** True on the 2026-07-28 wire (set through setProtocolVersion). */
  get stateless(): boolean {
    return this.#stateless;
  }

  #report(what: string, code: string, cause?: unknown): void {
    try {
      this.onerror?.(new TransportError(this.redact(`${this.description}: ${what}`), code, { cause }));
    } catch {
      // a throwing error handler has nowhere left to report to
    }
  }

  /** Nothing goes over the wire yet: the first message (initialize) opens the conversation. */
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new TransportError(`${this.description}: already started`, "started"));
    this.#started = true;
    if (this.#closing || this.#ended) {
      return Promise.reject(new TransportError(`${this.description}: close() was called before start()`, "closed"));
    }
    return Promise.resolve();
  }

  #refusal(message: JsonRpcMessage): TransportError | undefined {
    if (this.#started && !this.#ended && this.#closing === undefined) return undefined;
    const state = !this.#started ? "not started" : this.#closing !== undefined ? "closing" : "closed";
    return new TransportError(`${this.description}: cannot send ${describeMessage(message)}, the connection is ${state}`, "closed");
  }

  /**
   * POSTs one message. For a notification or a response it resolves on the server's 202.
   * For a request it resolves once the answer has been delivered through onmessage (from
   * JSON or from the SSE stream, resumed if need be), and rejects with TransportError when
   * the answer cannot come: an HTTP error status, a stream broken beyond resumption, an
   * answer over maxMessageBytes. A 429 or 503 with Retry-After is waited out and the
   * message sent again when the wait ends before `options.deadline` (and within
   * maxRetryAfterMs); otherwise the error says when to retry.
   */
  send(message: JsonRpcMessage, options: HttpSendOptions = {}): Promise<void> {
    const refusal = this.#refusal(message);
    if (refusal) return Promise.reject(refusal);
    return this.#transmit(message, options);
  }

  async #transmit(message: JsonRpcMessage, options: HttpSendOptions): Promise<void> {
    const what = describeMessage(message);
    // Our cancellation of a request lets go of its stream at once; the notice itself follows.
    if (isNotification(message) && message.method === "notifications/cancelled") {
      this.#cancel(message.params?.requestId);
      // spec 2026-07-28 streamable-http ("Cancellation"): closing the response stream IS the
      // cancellation; no notifications/cancelled is sent.
      if (this.#stateless) return;
    }
    const handshake = isHandshake(message);
    const exchange = isRequest(message) ? this.#openExchange(message, what) : undefined;
    const deadline = exchange === undefined ? new LinkedAbort(this.#life, this.#timeoutMs) : undefined;
    const signal = exchange?.abort.signal ?? deadline!.signal;
    // The time this send may take: the caller's deadline for a request, timeoutMs for the rest.
    const until = exchange === undefined ? Date.now() + this.#timeoutMs : options.deadline;
    try {
      const body = JSON.stringify(message);
      const extra = this.#stateless && isRequest(message) ? requestHeaders(message, this.#toolSchemas) : undefined;
      const post = () => this.#postPatiently(message, body, signal, extra, exchange, until);
      let posted = await post();
      if (!posted.response.ok && exchange !== undefined && this.#stateless && (await this.#statelessError(posted.response, exchange))) {
        return;
      }
      // 2025-11-25 transports (Session Management) 4: a 404 to a request with a session id means
      // the server ended that session: start a new one, then send this again. A server that
      // restarts again meanwhile ends the new session too: each new session gets its turn.
      for (let renewals = 0; !posted.response.ok; renewals++) {
        const start = await bodyStart(posted.response, this.#redactFn);
        const gone = sessionGone(posted.response.status, start, posted.hadSession);
        if (!gone || handshake || this.onsessionexpired === undefined || renewals >= MAX_SESSION_RENEWALS) {
          throw this.#statusError(what, posted, start, gone, renewals);
        }
        await this.#renewSession(posted.epoch, posted.response.status);
        posted = await post();
      }
      if (isRequest(message) && message.method === "initialize") this.#takeSessionId(posted.response);
      if (exchange !== undefined) {
        await this.#readAnswer(exchange, posted);
        if (this.#stateless) this.#statelessConfirmed = true;
      } else {
        // 2025-11-25 transports (Sending Messages) 4: a notification or response is answered 202, no body.
        await discardBody(posted.response);
      }
    } catch (error) {
      if (exchange?.answered) return; // the answer came on another stream meanwhile
      throw this.#failure(error, what, exchange, deadline);
    } finally {
      deadline?.dispose();
      if (exchange !== undefined) this.#closeExchange(exchange);
    }
    // 2025-11-25 transports (Listening for Messages from the Server): after initialization.
    if (isNotification(message) && message.method === "notifications/initialized") this.#startListening();
  }

  /** The error a send rejects with, once whatever went wrong is known. */
  #failure(error: unknown, what: string, exchange: Exchange | undefined, deadline: LinkedAbort | undefined): unknown {
    if (exchange?.failure !== undefined) return exchange.failure;
    if (error instanceof TransportError && error.code === "session-expired") return error;
    if (this.#life.aborted) {
      return new TransportError(`${this.description}: ${what} did not finish: the transport was closed`, "closed", { cause: error });
    }
    if (exchange?.cancelled) {
      const busy = exchange.busyUntil === undefined
        ? ""
        : ` while it waited for a busy server's Retry-After; the server asked to be tried again ${retryWhen(Math.max(0, exchange.busyUntil - Date.now()))}`;
      return new TransportError(`${this.description}: ${what} was cancelled${busy}; its stream was closed`, "cancelled", { cause: error });
    }
    if (deadline?.timedOut) {
      return new TransportError(
        `${this.description}: POST of ${what} got no answer within ${seconds(this.#timeoutMs)}; check the server, or raise timeoutMs`,
        "timeout",
        { cause: error },
      );
    }
    return error;
  }

  #openExchange(message: JsonRpcRequest, what: string): Exchange {
    const exchange: Exchange = { id: message.id, what, abort: new LinkedAbort(this.#life), answered: false, cancelled: false };
    this.#exchanges.set(message.id, exchange);
    return exchange;
  }

  #closeExchange(exchange: Exchange): void {
    if (this.#exchanges.get(exchange.id) === exchange) this.#exchanges.delete(exchange.id);
    exchange.abort.abort();
    exchange.abort.dispose();
  }

  /** Our notifications/cancelled for a request: stop reading its stream (the POST of the notice goes on). */
  #cancel(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const exchange = this.#exchanges.get(requestId);
    if (exchange === undefined || exchange.answered) return;
    exchange.cancelled = true;
    exchange.abort.abort();
  }

  /** Headers for one request: requestInit's, then the configured ones, then ours. */
  #headersFor(method: "POST" | "GET" | "DELETE", sessionId = this.#sessionId): Headers {
    const headers = new Headers(this.#requestInit.headers);
    for (const [name, value] of Object.entries(this.#headers)) headers.set(name, value);
    if (method === "POST") {
      headers.set("Accept", POST_ACCEPT);
      headers.set("Content-Type", "application/json");
    } else if (method === "GET") {
      // 2025-11-25 transports (Listening for Messages from the Server) 2.
      headers.set("Accept", "text/event-stream");
    }
    // 2025-11-25 transports (Session Management) 2: the session id on every later request.
    if (sessionId !== undefined) headers.set("Mcp-Session-Id", sessionId);
    // 2025-11-25 transports (Protocol Version Header): the negotiated version on every later request.
    if (this.#protocolVersion !== undefined) headers.set("MCP-Protocol-Version", this.#protocolVersion);
    return headers;
  }

  /**
   * POSTs a message, waiting out a busy server: 429 and 503 say the server did not process
   * the request (RFC 6585 4, RFC 9110 15.6.4), so it is sent again after its Retry-After
   * (RFC 9110 10.2.3) when that ends before `until` and within maxRetryAfterMs, up to
   * MAX_BUSY_RETRIES times; otherwise the send fails with the time the server asked for.
   */
  async #postPatiently(
    message: JsonRpcMessage,
    body: string,
    signal: AbortSignal,
    extra: Record<string, string> | undefined,
    exchange: Exchange | undefined,
    until: number | undefined,
  ): Promise<Posted> {
    const what = describeMessage(message);
    for (let busy = 0; ; busy++) {
      const posted = await this.#post(message, body, signal, extra);
      const status = posted.response.status;
      if (!isBusyStatus(status)) return posted;
      const now = Date.now();
      const wait = retryAfterMs(posted.response.headers, now);
      const left = until === undefined ? Infinity : until - now;
      const why = wait === undefined
        ? "the server gave no Retry-After; try again later"
        : busy >= MAX_BUSY_RETRIES
        ? `it was busy ${busy + 1} times in a row; the server asks to be tried again ${retryWhen(wait, now)}`
        : wait > left
        ? `the server asks to be tried again ${retryWhen(wait, now)}, after this call's deadline (in ${seconds(Math.max(0, left))}); try again then`
        : wait > this.#maxRetryAfterMs
        ? `the server asks to be tried again ${retryWhen(wait, now)}, longer than maxRetryAfterMs (${seconds(this.#maxRetryAfterMs)}) allows to wait; try again then`
        : undefined;
      if (why !== undefined) {
        const start = await bodyStart(posted.response, this.#redactFn);
        throw new HttpStatusError(
          `${this.description}: ${what}: POST ${showUrl(posted.url)} answered HTTP ${busyName(status)}${quoteBody(start)}; ` +
            `the server did not process it and it was not sent again: ${why}`,
          status,
          posted.url.href,
          start,
          "busy",
          wait === undefined ? undefined : new Date(now + wait),
        );
      }
      await discardBody(posted.response);
      if (exchange !== undefined) exchange.busyUntil = now + wait!;
      const waited = await sleep(wait!, signal);
      if (exchange !== undefined) exchange.busyUntil = undefined;
      if (!waited && exchange?.cancelled && !this.#life.aborted) {
        // The caller stopped waiting (its timeout, or a cancel) before the server's time came:
        // its own error cannot say when the server will take requests again; this report does.
        this.#report(
          `${what} was given up while waiting out the server's Retry-After (HTTP ${busyName(status)}); ` +
            `the server asked to be tried again ${retryWhen(Math.max(0, now + wait! - Date.now()))}`,
          "busy",
        );
      }
      if (!waited) {
        throw new TransportError(`${this.description}: ${what}: stopped while waiting out the busy server's Retry-After`, "aborted");
      }
    }
  }

  /**
   * One POST of a message. Anything but the handshake of a new session first waits until no
   * new session is being started (a second restart can begin while the first renewal's
   * waiters wake up, so this waits again until none is under way).
   */
  async #post(message: JsonRpcMessage, body: string, signal: AbortSignal, extra?: Record<string, string>): Promise<Posted> {
    if (!isHandshake(message)) {
      while (this.#renewal !== undefined) {
        await this.#renewal.catch(() => {});
        const refusal = this.#refusal(message);
        if (refusal) throw refusal;
      }
    }
    // Read together, with no await between them and the headers: the session this POST is in.
    const epoch = this.#epoch;
    const hadSession = this.#sessionId !== undefined;
    const headers = this.#headersFor("POST");
    // spec 2026-07-28 streamable-http ("Standard Request Headers", "Custom Headers from Tool Parameters").
    if (extra !== undefined) for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    const init: RequestInit = { ...this.#requestInit, method: "POST", headers, body, signal };
    return { ...(await fetchSameOrigin(this.#fetch, this.url, init, this.description)), hadSession, epoch };
  }

  #statusError(what: string, posted: SameOriginResponse, start: string, gone: boolean, renewals: number): HttpStatusError {
    const { response, url } = posted;
    if (gone) {
      const why = renewals === 0
        ? "the server ended the session and no new one could be started for it"
        : `the server ended the session again after ${renewals} new session(s) were started for it`;
      return new HttpStatusError(
        `${this.description}: ${what}: POST ${showUrl(url)} answered HTTP ${response.status}${quoteBody(start)}: ${why}; connect again`,
        response.status,
        url.href,
        start,
        "session-expired",
      );
    }
    return new HttpStatusError(
      `${this.description}: ${what}: POST ${showUrl(url)} answered HTTP ${response.status}${quoteBody(start)}; ${statusAdvice(response.status)}`,
      response.status,
      url.href,
      start,
    );
  }

  /**
   * spec 2026-07-28 streamable-http ("Protocol Version Header", "Backward Compatibility"): a
   * modern server answers a bad request with 400 (or an unknown method with 404) and a
   * JSON-RPC error. That error is the request's answer: it is delivered, and true returned.
   * Before any stateless exchange has worked, only the errors that identify a modern server
   * count; anything else stays an HTTP status error, which tells the Client the server is legacy.
   */
  async #statelessError(response: Response, exchange: Exchange): Promise<boolean> {
    if (response.status < 400 || response.status >= 500) return false;
    if (!isJson(response.headers.get("content-type") ?? "")) return false;
    const text = await bodyText(response.clone(), ERROR_BODY_MAX_CHARS);
    if (text === undefined) return false;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    const error = (value as { error?: unknown }).error;
    if (typeof error !== "object" || error === null || typeof (error as { code?: unknown }).code !== "number") return false;
    const code = (error as { code: number }).code;
    const recognized = MODERN_ERROR_CODES.has(code) || (code === -32601 && response.status === 404);
    if (!recognized && !this.#statelessConfirmed) return false;
    await discardBody(response);
    // The server may not have known the id (a rejected envelope): it is this request's answer.
    this.#deliver({ jsonrpc: "2.0", id: exchange.id, error: error as JsonRpcErrorObject });
    return true;
  }

  /** 2025-11-25 transports (Session Management) 1: the session id comes with the InitializeResult. */
  #takeSessionId(response: Response): void {
    const id = response.headers.get("mcp-session-id");
    if (id === null) return;
    // Session Management 1: a session id MUST contain only visible ASCII (0x21 to 0x7E).
    if (!/^[\x21-\x7e]+$/.test(id)) {
      this.#report(`the server's MCP-Session-Id ${this.#preview(id)} has characters outside visible ASCII; using it anyway`, "bad-session-id");
    }
    this.#sessionId = id;
  }

  /** 2025-11-25 transports (Sending Messages) 5: the answer is one JSON object or an SSE stream. */
  async #readAnswer(exchange: Exchange, posted: SameOriginResponse): Promise<void> {
    const { response, url } = posted;
    const type = response.headers.get("content-type") ?? "";
    if (isEventStream(type)) {
      await this.#followStream(exchange, response);
      return;
    }
    if (isJson(type)) {
      let text: string | undefined;
      try {
        text = await this.#boundedText(response);
      } catch (error) {
        if (exchange.abort.signal.aborted) throw error;
        throw new TransportError(
          `${this.description}: the JSON answer to ${exchange.what} broke off: ${fetchFailureReason(error)}; the request was not sent again`,
          "body-broken",
          { cause: error },
        );
      }
      if (text === undefined) {
        throw this.#tooLarge(`the JSON answer to ${exchange.what} (POST ${showUrl(url)}, HTTP ${response.status})`, response.status, url);
      }
      this.#receiveJson(text, exchange);
      if (!exchange.answered) {
        throw new TransportError(
          `${this.description}: the JSON answer to ${exchange.what} (POST ${showUrl(url)}, HTTP ${response.status}) holds no response to it: ${this.#preview(text)}`,
          "no-answer",
        );
      }
      return;
    }
    if (response.status === 202 || response.status === 204) {
      // Not what the spec asks for a request; the answer can then only come on the GET stream.
      // The caller's timeout bounds the wait: it cancels the request, which aborts this.
      await discardBody(response);
      await aborted(exchange.abort.signal);
      if (!exchange.answered) throw new TransportError(`${this.description}: ${exchange.what} got no answer`, "no-answer");
      return;
    }
    const start = await bodyStart(response, this.#redactFn);
    throw new HttpStatusError(
      `${this.description}: ${exchange.what}: POST ${showUrl(url)} answered HTTP ${response.status} with Content-Type ` +
        `${JSON.stringify(type)}, neither application/json nor text/event-stream${quoteBody(start)}`,
      response.status,
      url.href,
      start,
      "bad-content-type",
    );
  }

  /** A JSON body answering a request: one message, or a batch (2025-03-26). Unparsable JSON fails the request. */
  #receiveJson(text: string, exchange: Exchange): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new TransportError(`${this.description}: the answer to ${exchange.what} is not JSON: ${this.#preview(text)}`, "bad-json");
    }
    this.#receiveValue(value, `the JSON answer to ${exchange.what}`);
  }

  #receiveValue(value: unknown, where: string): void {
    for (const item of Array.isArray(value) ? value : [value]) {
      const why = whyNotJsonRpc(item);
      if (why !== undefined) {
        this.#report(`${where} is not a JSON-RPC message (${why}): ${this.#preview(boundedJson(item, { maxDepth: 8, maxChars: 4096 }))}; skipped`, "bad-message");
        continue;
      }
      this.#deliver(item as JsonRpcMessage);
    }
  }

  #receiveEvent(event: SseEvent, where: string): void {
    // 2025-11-25 transports (Sending Messages) 6: a priming event has an id and empty data.
    if (event.data.trim() === "") return;
    if (event.type !== "message") return; // not an MCP message: other event types are ignored
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      this.#report(`an SSE event on ${where} is not JSON: ${this.#preview(event.data)}; skipped`, "bad-sse-data");
      return;
    }
    this.#receiveValue(value, `an SSE event on ${where}`);
  }

  /**
   * An HTTP answer to a request that is larger than maxMessageBytes: it is not read, and the
   * request it answers fails at once with this.
   */
  #tooLarge(what: string, status: number, url: URL, detail = ""): HttpStatusError {
    return new HttpStatusError(
      `${this.description}: ${what} is larger than maxMessageBytes (${this.#maxMessageBytes} bytes)${detail} and was not read; ` +
        `raise maxMessageBytes (an option of the http transport) if the server's answers are this large`,
      status,
      url.href,
      "",
      "too-large",
    );
  }

  /**
   * A JSON body as text when it is at most maxMessageBytes; undefined (the rest unread) when
   * it is larger — told by Content-Length before reading when the server sent one.
   */
  async #boundedText(response: Response): Promise<string | undefined> {
    const max = this.#maxMessageBytes;
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > max) {
      await discardBody(response);
      return undefined;
    }
    const body = response.body;
    if (body === null) return "";
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    let complete = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          complete = true;
          break;
        }
        bytes += value.byteLength;
        if (bytes > max) return undefined;
        chunks.push(value);
      }
    } finally {
      if (!complete) await reader.cancel().catch(() => {});
    }
    const whole = new Uint8Array(bytes);
    let offset = 0;
    for (const chunk of chunks) {
      whole.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return new TextDecoder().decode(whole);
  }

  /**
   * An SSE event over maxMessageBytes was skipped. Its request fails at once: the one whose
   * id starts the event's data, else — on a request's own stream, for an event that is not a
   * request or notification — that request (its answer is what the stream carries).
   */
  #eventTooLarge(problem: string, head: string, where: string, owner: Exchange | undefined): void {
    const id = leadingId(head);
    const target = id !== undefined ? this.#exchanges.get(id) : startsWithMethod(head) ? undefined : owner;
    if (target === undefined || target.answered) {
      this.#report(`${where}: ${problem}; raise maxMessageBytes (an option of the http transport) if the server sends messages this large`, "sse-event-too-large");
      return;
    }
    target.failure = new HttpStatusError(
      `${this.description}: the answer to ${target.what} on ${where} is larger than maxMessageBytes (${this.#maxMessageBytes} bytes) ` +
        `and was skipped; raise maxMessageBytes (an option of the http transport) if the server's answers are this large`,
      200,
      this.url.href,
      "",
      "too-large",
    );
    target.abort.abort();
  }

  /** A JSON-RPC error's message and data, with credentials a server echoed back replaced. */
  #redactError(error: JsonRpcErrorObject): JsonRpcErrorObject {
    const message = typeof error.message === "string" ? this.redact(error.message) : error.message;
    if (error.data === undefined) return message === error.message ? error : { ...error, message };
    const text = boundedJson(error.data);
    const shown = this.redact(text);
    if (shown === text) return message === error.message ? error : { ...error, message };
    let data: unknown = shown;
    try {
      data = JSON.parse(shown);
    } catch {
      // cut by the bound: the redacted text stands for it
    }
    return { ...error, message, data };
  }

  /** Hands a message to onmessage; an answer also ends the wait of its request. */
  #deliver(message: JsonRpcMessage): void {
    // A server may echo our headers (credentials) in an error: what we pass on is redacted.
    if (isResponse(message) && "error" in message && typeof message.error === "object" && message.error !== null) {
      message = { ...message, error: this.#redactError(message.error) } as JsonRpcErrorResponse;
    }
    const exchange = isResponse(message) && message.id !== null ? this.#exchanges.get(message.id) : undefined;
    if (exchange !== undefined) exchange.answered = true;
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.#report(`onmessage handler threw: ${reasonOf(error)}`, "handler-threw", error);
    }
    // After onmessage, so the caller has its answer before the stream is let go.
    exchange?.abort.abort();
  }

  /**
   * Reads a request's SSE stream until its answer. A stream that ends or breaks first is
   * resumed with a GET carrying Last-Event-ID when it had event ids (2025-11-25 transports,
   * Resumability and Redelivery); otherwise the request fails — sending it again could do
   * its work twice.
   */
  async #followStream(exchange: Exchange, response: Response): Promise<void> {
    const cursor: StreamCursor = { lastEventId: "", retryMs: undefined, attempts: 0, lastProblem: "" };
    const name = `the SSE stream answering ${exchange.what}`;
    const signal = exchange.abort.signal;
    let current = response;
    for (;;) {
      const end = await this.#pump(current, cursor, signal, name, exchange);
      if (exchange.answered) return;
      if (signal.aborted) throw new TransportError(`${this.description}: ${name} was stopped`, "aborted");
      // 2025-11-25 transports (Sending Messages) 6: the server MAY close the connection
      // without terminating the stream; disconnection is not a cancellation.
      const why = end.kind === "broken" ? `broke (${end.reason})` : "ended";
      // spec 2026-07-28 streamable-http ("Receiving Messages"): streams are not resumable; a
      // broken one loses the request, which the client re-issues as a new one where safe.
      if (this.#stateless) {
        throw new TransportError(
          `${this.description}: ${name} ${why} before the answer; on the 2026-07-28 wire a response stream cannot be resumed`,
          "stream-lost",
        );
      }
      if (cursor.lastEventId === "") {
        throw new TransportError(
          `${this.description}: ${name} ${why} before the answer, and the server gave no event id to resume it with; ` +
            `the request was not sent again (it may or may not have taken effect)`,
          "stream-broken",
        );
      }
      try {
        current = await this.#connectGet(cursor, signal, name, why, false);
      } catch (error) {
        if (exchange.answered || signal.aborted || !(error instanceof TransportError)) throw error;
        throw new TransportError(`${error.message}; the request was not sent again (it may or may not have taken effect)`, error.code, {
          cause: error,
        });
      }
    }
  }

  /**
   * Feeds one SSE body to the parser, delivering its messages, until it ends, breaks, or
   * `stop` aborts (which cancels the body).
   */
  async #pump(response: Response, cursor: StreamCursor, stop: AbortSignal, where: string, owner?: Exchange): Promise<PumpEnd> {
    const body = response.body;
    if (body === null) return { kind: "ended" };
    const reader = body.getReader();
    const parser = new SseParser({
      onEvent: (event) => {
        cursor.attempts = 0;
        this.#receiveEvent(event, where);
      },
      onId: (id) => {
        cursor.lastEventId = id;
        cursor.attempts = 0;
      },
      onRetry: (ms) => (cursor.retryMs = ms),
      maxEventChars: this.#maxMessageBytes,
      onProblem: (message, head) => this.#eventTooLarge(message, head, where, owner),
    });
    const onStop = () => {
      reader.cancel().catch(() => {});
    };
    stop.addEventListener("abort", onStop, { once: true });
    try {
      for (;;) {
        if (stop.aborted) return { kind: "stopped" };
        const { done, value } = await reader.read();
        if (done) {
          parser.end();
          return stop.aborted ? { kind: "stopped" } : { kind: "ended" };
        }
        parser.push(value);
      }
    } catch (error) {
      return stop.aborted ? { kind: "stopped" } : { kind: "broken", reason: fetchFailureReason(error) };
    } finally {
      stop.removeEventListener("abort", onStop);
      await reader.cancel().catch(() => {});
    }
  }

  /**
   * Opens (or reopens) an SSE stream with a GET, carrying Last-Event-ID when the cursor has
   * one. Before each reconnection it waits the server's retry interval, or backs off
   * (sse-reconnect.ts); it gives up after reconnect.maxRetries attempts in a row without an
   * event, or at once on a refusal that another try would not change.
   */
  async #connectGet(cursor: StreamCursor, signal: AbortSignal, name: string, why: string, immediate: boolean): Promise<Response> {
    for (let tries = 0; ; tries++) {
      if (!(immediate && tries === 0)) {
        if (cursor.attempts >= this.#reconnect.maxRetries) {
          throw new TransportError(
            `${this.description}: ${name} ${why}; gave up after ${cursor.attempts} reconnection attempt(s)` +
              (cursor.lastProblem !== "" ? ` (the last: ${cursor.lastProblem})` : "") +
              `; raise reconnect.maxRetries if the server needs longer`,
            "reconnect-failed",
          );
        }
        let wait = reconnectDelay(cursor.attempts, this.#reconnect, cursor.retryMs);
        // A 429 or 503 said when to come back: not before then (within maxRetryAfterMs).
        if (cursor.retryAfterMs !== undefined) wait = Math.max(wait, Math.min(cursor.retryAfterMs, this.#maxRetryAfterMs));
        cursor.retryAfterMs = undefined;
        cursor.attempts++;
        if (!(await sleep(wait, signal))) throw new TransportError(`${this.description}: ${name} was stopped`, "aborted");
      }
      const outcome = await this.#openGet(cursor.lastEventId, signal, name);
      if ("response" in outcome) return outcome.response;
      if ("fatal" in outcome) throw outcome.fatal;
      cursor.lastProblem = outcome.problem;
      cursor.retryAfterMs = outcome.retryAfterMs;
    }
  }

  async #openGet(lastEventId: string, signal: AbortSignal, name: string): Promise<GetOutcome> {
    const hadSession = this.#sessionId !== undefined;
    const headers = this.#headersFor("GET");
    // 2025-11-25 transports (Resumability and Redelivery) 2: resume with the last event id.
    if (lastEventId !== "") headers.set("Last-Event-ID", lastEventId);
    const shown = `GET ${showUrl(this.url)}${lastEventId !== "" ? ` (Last-Event-ID ${lastEventId})` : ""}`;
    // The timeout covers the wait for headers only; once the stream is open, `signal` stops it.
    const limit = new LinkedAbort(signal, this.#timeoutMs);
    try {
      const { response, url } = await fetchSameOrigin(
        this.#fetch,
        this.url,
        { ...this.#requestInit, method: "GET", headers, signal: limit.signal },
        this.description,
      );
      limit.dispose();
      const type = response.headers.get("content-type") ?? "";
      if (response.ok && isEventStream(type)) return { response };
      const status = response.status;
      const start = await bodyStart(response, this.#redactFn);
      const said = `${this.description}: ${name}: GET ${showUrl(url)} answered HTTP ${status}${quoteBody(start)}`;
      if (response.ok) {
        return {
          fatal: new HttpStatusError(`${said}, with Content-Type ${JSON.stringify(type)} instead of text/event-stream`, status, url.href, start, "bad-content-type"),
        };
      }
      if (sessionGone(status, start, hadSession)) {
        return { fatal: new HttpStatusError(`${said}: the server ended the session`, status, url.href, start, "session-expired") };
      }
      if (retryableStatus(status)) {
        const retryAfter = isBusyStatus(status) ? retryAfterMs(response.headers) : undefined;
        return { problem: `HTTP ${status}${quoteBody(start)}`, retryAfterMs: retryAfter };
      }
      if (status === 405) {
        // Listening 3: the server offers no GET stream (so none can be resumed either).
        return { fatal: new HttpStatusError(`${said}: the server offers no SSE stream on GET`, status, url.href, start) };
      }
      return { fatal: new HttpStatusError(`${said}; ${statusAdvice(status)}`, status, url.href, start) };
    } catch (error) {
      if (signal.aborted) return { fatal: new TransportError(`${this.description}: ${name} was stopped`, "aborted", { cause: error }) };
      if (limit.timedOut) return { problem: `${shown} got no answer within ${seconds(this.#timeoutMs)}` };
      if (error instanceof TransportError && error.code.startsWith("redirect")) return { fatal: error };
      return { problem: `${shown} failed: ${fetchFailureReason(error instanceof TransportError ? error.cause ?? error : error)}` };
    } finally {
      limit.dispose();
    }
  }

  /** Opens the GET stream for server-initiated messages (replacing an earlier one). */
  #startListening(): void {
    if (!this.#listen || this.#ended || this.#closing !== undefined) return;
    this.#listener?.abort();
    this.#listener?.dispose();
    const listener = new LinkedAbort(this.#life);
    this.#listener = listener;
    const task = this.#listenLoop(listener, this.#epoch).finally(() => {
      this.#background.delete(task);
      listener.dispose();
    });
    this.#background.add(task);
  }

  /**
   * 2025-11-25 transports (Listening for Messages from the Server): GET the endpoint; 405
   * means the server offers no such stream, which is fine. The server MAY close the stream
   * at any time; it is reopened (after the server's retry interval when given), resuming
   * from the last event id when there was one.
   */
  async #listenLoop(listener: LinkedAbort, epoch: number): Promise<void> {
    const cursor: StreamCursor = { lastEventId: "", retryMs: undefined, attempts: 0, lastProblem: "" };
    const name = "the GET stream for server messages";
    const signal = listener.signal;
    let why = "could not be opened";
    for (let first = true; ; first = false) {
      let response: Response;
      try {
        response = await this.#connectGet(cursor, signal, name, why, first);
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof HttpStatusError && error.status === 405) return; // Listening 3: no stream offered
        if (error instanceof HttpStatusError && error.code === "session-expired") {
          this.#renewSession(epoch, error.status).catch(() => {}); // a failure closes the transport
          return;
        }
        this.#report(`${reasonOf(error).replace(`${this.description}: `, "")}; server-initiated messages will not arrive`, "get-stream-failed", error);
        return;
      }
      const end = await this.#pump(response, cursor, signal, name);
      if (signal.aborted) return;
      why = end.kind === "broken" ? `broke (${end.reason})` : "ended";
    }
  }

  /**
   * The server ended session `epoch` (2025-11-25 transports, Session Management 3-4). The
   * first to notice starts a new one through onsessionexpired; the others wait for it.
   * Rejects (and the transport closes) when the new session cannot be started.
   */
  async #renewSession(epoch: number, status: number): Promise<void> {
    if (epoch !== this.#epoch) {
      await this.#renewal?.catch(() => {});
      if (this.#ended || this.#closing !== undefined) {
        throw new TransportError(`${this.description}: the connection closed while a new session was being started`, "closed");
      }
      return;
    }
    const hook = this.onsessionexpired;
    if (hook === undefined) return;
    const old = this.#sessionId;
    const forget = () => {
      this.#epoch++;
      this.#sessionId = undefined;
      this.#protocolVersion = undefined; // the new initialize goes without it, as the first one did
      this.#listener?.abort();
    };
    forget();
    const renewal = (async () => {
      for (let tries = 1; ; tries++) {
        try {
          return await hook();
        } catch (error) {
          // The server restarted again during the handshake (its notifications/initialized met
          // a 404 for the session it had just started): start one with the server as it is now.
          const endedAgain = error instanceof TransportError && error.code === "session-expired";
          if (!endedAgain || tries >= MAX_SESSION_RENEWALS || this.#closing !== undefined || this.#ended) throw error;
          forget();
        }
      }
    })();
    this.#renewal = renewal;
    try {
      await renewal;
    } catch (error) {
      if (this.#closing !== undefined || this.#ended) {
        throw new TransportError(`${this.description}: the connection closed while a new session was being started`, "closed", { cause: error });
      }
      const reason = `the server ended session ${old ?? "(none)"} (HTTP ${status}) and a new session could not be started: ${reasonOf(error)}`;
      this.#end({ reason });
      throw new TransportError(`${this.description}: ${reason}`, "session-expired", { cause: error });
    } finally {
      if (this.#renewal === renewal) this.#renewal = undefined;
    }
  }

  /**
   * Ends the connection: stops every stream and request, then DELETEs the session
   * (2025-11-25 transports, Session Management 5; a 405 means the server keeps it, which is
   * fine). Bounded by closeTimeoutMs; onclose fires once.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const session = this.#sessionId;
    const wasEnded = this.#ended;
    // First stop everything, so no stream tries to reconnect when the session ends.
    this.#stopAll();
    if (session !== undefined && !wasEnded) await this.#deleteSession(session);
    // The readers were cancelled; let them notice, within the close budget.
    if (this.#background.size > 0) await within(Promise.allSettled([...this.#background]), this.#closeTimeoutMs);
    this.#end({ reason: this.#started ? "closed by the client" : "closed before it started" });
  }

  async #deleteSession(session: string): Promise<void> {
    const limit = new LinkedAbort(undefined, this.#closeTimeoutMs);
    try {
      const { response, url } = await fetchSameOrigin(
        this.#fetch,
        this.url,
        { ...this.#requestInit, method: "DELETE", headers: this.#headersFor("DELETE", session), signal: limit.signal },
        this.description,
      );
      const status = response.status;
      if (response.ok || status === 404 || status === 405) {
        await discardBody(response);
        return;
      }
      const start = await bodyStart(response, this.#redactFn);
      this.#report(`DELETE ${showUrl(url)} (ending session ${session}) answered HTTP ${status}${quoteBody(start)}`, "delete-failed");
    } catch {
      // The server is gone or slow: there is nothing left for us to end.
    } finally {
      limit.dispose();
    }
  }

  #stopAll(): void {
    this.#life.abort();
    this.#listener?.abort();
  }

  #end(details: CloseDetails): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopAll();
    try {
      this.onclose?.(details);
    } catch (error) {
      this.#report(`onclose handler threw: ${reasonOf(error)}`, "handler-threw", error);
    }
  }
}

/** Resolves true if the promise settles within ms, false otherwise; leaves no timer behind. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true, () => true), timeout]);
  clearTimeout(timer);
  return settled;
}

/** Resolves when the signal aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/**
 * Controllers aborted together when the transport ends. A set rather than one abort listener
 * each on a shared signal: a hundred requests in flight would be a hundred listeners.
 */
class AbortScope {
  #aborted = false;
  readonly #members = new Set<AbortController>();

  get aborted(): boolean {
    return this.#aborted;
  }

  add(controller: AbortController): void {
    if (this.#aborted) controller.abort();
    else this.#members.add(controller);
  }

  delete(controller: AbortController): void {
    this.#members.delete(controller);
  }

  abort(): void {
    this.#aborted = true;
    for (const controller of this.#members) controller.abort();
    this.#members.clear();
  }
}

/**
 * An AbortController that also aborts when `parent` does, or after `ms`; dispose() clears
 * the timer and detaches it from the parent (so long-lived parents collect nothing).
 */
class LinkedAbort {
  readonly controller = new AbortController();
  timedOut = false;
  readonly #parent: AbortSignal | AbortScope | undefined;
  readonly #onParent = () => this.controller.abort();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(parent: AbortSignal | AbortScope | undefined, ms?: number) {
    this.#parent = parent;
    if (parent instanceof AbortScope) parent.add(this.controller);
    else if (parent?.aborted) this.controller.abort();
    else parent?.addEventListener("abort", this.#onParent, { once: true });
    if (ms !== undefined && Number.isFinite(ms) && !this.controller.signal.aborted) {
      this.#timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
      }, ms);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(): void {
    this.controller.abort();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#parent instanceof AbortScope) this.#parent.delete(this.controller);
    else this.#parent?.removeEventListener("abort", this.#onParent);
  }
}
