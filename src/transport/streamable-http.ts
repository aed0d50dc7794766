// The Streamable HTTP client transport: every message is a POST to the MCP endpoint, a
// request's answer comes back as JSON or as an SSE stream, an optional GET stream carries
// what the server starts, sessions and resumable streams — spec 2025-11-25 basic/transports
// ("Streamable HTTP"), with basic/lifecycle for the handshake that starts a session.

import type { CloseDetails } from "../jsonrpc/errors.ts";
import {
  isNotification,
  isRequest,
  isResponse,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
  whyNotJsonRpc,
} from "../jsonrpc/messages.ts";
import { bodyStart, bodyText, discardBody, fetchFailureReason, HttpStatusError, showUrl, statusAdvice } from "./http-errors.ts";
import { requestHeaders, type ToolSchemaLookup } from "./mcp-headers.ts";
import { retryOnReset } from "./reset-retry.ts";
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
}

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
}

type PumpEnd = { kind: "ended" } | { kind: "broken"; reason: string } | { kind: "stopped" };

type GetOutcome = { response: Response } | { problem: string } | { fatal: TransportError };

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

function preview(text: string): string {
  return JSON.stringify(text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS) + "…" : text);
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
      this.onerror?.(new TransportError(`${this.description}: ${what}`, code, { cause }));
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
   * the answer cannot come: an HTTP error status, a stream broken beyond resumption.
   */
  send(message: JsonRpcMessage): Promise<void> {
    const refusal = this.#refusal(message);
    if (refusal) return Promise.reject(refusal);
    return this.#transmit(message);
  }

  async #transmit(message: JsonRpcMessage): Promise<void> {
    const what = describeMessage(message);
    // Our cancellation of a request lets go of its stream at once; the notice itself follows.
    if (isNotification(message) && message.method === "notifications/cancelled") {
      this.#cancel(message.params?.requestId);
      // spec 2026-07-28 streamable-http ("Cancellation"): closing the response stream IS the
      // cancellation; no notifications/cancelled is sent.
      if (this.#stateless) return;
    }
    // A new session is being started: everything but its own handshake waits for it.
    if (this.#renewal !== undefined && !isHandshake(message)) {
      await this.#renewal.catch(() => {});
      const refusal = this.#refusal(message);
      if (refusal) throw refusal;
    }
    const exchange = isRequest(message) ? this.#openExchange(message, what) : undefined;
    const deadline = exchange === undefined ? new LinkedAbort(this.#life, this.#timeoutMs) : undefined;
    const signal = exchange?.abort.signal ?? deadline!.signal;
    try {
      const body = JSON.stringify(message);
      const epoch = this.#epoch;
      const extra = this.#stateless && isRequest(message) ? requestHeaders(message, this.#toolSchemas) : undefined;
      let posted = await this.#post(body, signal, extra);
      if (!posted.response.ok && exchange !== undefined && this.#stateless && (await this.#statelessError(posted.response, exchange))) {
        return;
      }
      if (!posted.response.ok) {
        const start = await bodyStart(posted.response);
        const gone = sessionGone(posted.response.status, start, posted.hadSession);
        if (!gone || isHandshake(message) || this.onsessionexpired === undefined) throw this.#statusError(what, posted, start, gone);
        // 2025-11-25 transports (Session Management) 4: start a new session, then send this again, once.
        await this.#renewSession(epoch, posted.response.status);
        posted = await this.#post(body, signal, extra);
        if (!posted.response.ok) {
          const again = await bodyStart(posted.response);
          throw this.#statusError(what, posted, again, sessionGone(posted.response.status, again, posted.hadSession));
        }
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
    if (error instanceof TransportError && error.code === "session-expired") return error;
    if (this.#life.aborted) {
      return new TransportError(`${this.description}: ${what} did not finish: the transport was closed`, "closed", { cause: error });
    }
    if (exchange?.cancelled) {
      return new TransportError(`${this.description}: ${what} was cancelled; its stream was closed`, "cancelled", { cause: error });
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

  async #post(body: string, signal: AbortSignal, extra?: Record<string, string>): Promise<SameOriginResponse & { hadSession: boolean }> {
    const hadSession = this.#sessionId !== undefined;
    const headers = this.#headersFor("POST");
    // spec 2026-07-28 streamable-http ("Standard Request Headers", "Custom Headers from Tool Parameters").
    if (extra !== undefined) for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    const init: RequestInit = { ...this.#requestInit, method: "POST", headers, body, signal };
    return { ...(await fetchSameOrigin(this.#fetch, this.url, init, this.description)), hadSession };
  }

  #statusError(what: string, posted: SameOriginResponse, start: string, gone: boolean): HttpStatusError {
    const { response, url } = posted;
    if (gone) {
      return new HttpStatusError(
        `${this.description}: ${what}: POST ${showUrl(url)} answered HTTP ${response.status}${quoteBody(start)}: ` +
          `the server ended the session and no new one could be started for it; connect again`,
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
    this.#deliver({ jsonrpc: "2.0", id: exchange.id, error: error as { code: number; message: string; data?: unknown } });
    return true;
  }

  /** 2025-11-25 transports (Session Management) 1: the session id comes with the InitializeResult. */
  #takeSessionId(response: Response): void {
    const id = response.headers.get("mcp-session-id");
    if (id === null) return;
    // Session Management 1: a session id MUST contain only visible ASCII (0x21 to 0x7E).
    if (!/^[\x21-\x7e]+$/.test(id)) {
      this.#report(`the server's MCP-Session-Id ${preview(id)} has characters outside visible ASCII; using it anyway`, "bad-session-id");
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
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (exchange.abort.signal.aborted) throw error;
        throw new TransportError(
          `${this.description}: the JSON answer to ${exchange.what} broke off: ${fetchFailureReason(error)}; the request was not sent again`,
          "body-broken",
          { cause: error },
        );
      }
      this.#receiveJson(text, exchange);
      if (!exchange.answered) {
        throw new TransportError(
          `${this.description}: the JSON answer to ${exchange.what} (POST ${showUrl(url)}, HTTP ${response.status}) holds no response to it: ${preview(text)}`,
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
    const start = await bodyStart(response);
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
      throw new TransportError(`${this.description}: the answer to ${exchange.what} is not JSON: ${preview(text)}`, "bad-json");
    }
    this.#receiveValue(value, `the JSON answer to ${exchange.what}`);
  }

  #receiveValue(value: unknown, where: string): void {
    for (const item of Array.isArray(value) ? value : [value]) {
      const why = whyNotJsonRpc(item);
      if (why !== undefined) {
        this.#report(`${where} is not a JSON-RPC message (${why}): ${preview(JSON.stringify(item) ?? String(item))}; skipped`, "bad-message");
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
      this.#report(`an SSE event on ${where} is not JSON: ${preview(event.data)}; skipped`, "bad-sse-data");
      return;
    }
    this.#receiveValue(value, `an SSE event on ${where}`);
  }

  /** Hands a message to onmessage; an answer also ends the wait of its request. */
  #deliver(message: JsonRpcMessage): void {
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
      const end = await this.#pump(current, cursor, signal, name);
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
  async #pump(response: Response, cursor: StreamCursor, stop: AbortSignal, where: string): Promise<PumpEnd> {
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
      onProblem: (message) => this.#report(`${where}: ${message}`, "sse-event-too-large"),
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
        const wait = reconnectDelay(cursor.attempts, this.#reconnect, cursor.retryMs);
        cursor.attempts++;
        if (!(await sleep(wait, signal))) throw new TransportError(`${this.description}: ${name} was stopped`, "aborted");
      }
      const outcome = await this.#openGet(cursor.lastEventId, signal, name);
      if ("response" in outcome) return outcome.response;
      if ("fatal" in outcome) throw outcome.fatal;
      cursor.lastProblem = outcome.problem;
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
      const start = await bodyStart(response);
      const said = `${this.description}: ${name}: GET ${showUrl(url)} answered HTTP ${status}${quoteBody(start)}`;
      if (response.ok) {
        return {
          fatal: new HttpStatusError(`${said}, with Content-Type ${JSON.stringify(type)} instead of text/event-stream`, status, url.href, start, "bad-content-type"),
        };
      }
      if (sessionGone(status, start, hadSession)) {
        return { fatal: new HttpStatusError(`${said}: the server ended the session`, status, url.href, start, "session-expired") };
      }
      if (retryableStatus(status)) return { problem: `HTTP ${status}${quoteBody(start)}` };
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
    this.#epoch++;
    this.#sessionId = undefined;
    this.#protocolVersion = undefined; // the new initialize goes without it, as the first one did
    this.#listener?.abort();
    const renewal = hook();
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
      const start = await bodyStart(response);
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
