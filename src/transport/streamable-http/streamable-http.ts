// The Streamable HTTP client transport: every message is a POST to the MCP endpoint, a
// request's answer comes back as JSON or as an SSE stream, an optional GET stream carries
// what the server starts, sessions and resumable streams — spec 2025-11-25 basic/transports
// ("Streamable HTTP"), with basic/lifecycle for the handshake that starts a session.

import { boundedJson } from "../../common/bounded.ts";
import { messageOf } from "../../common/error-text.ts";
import { checkOptions } from "../../common/options.ts";
import { within } from "../../common/timing.ts";
import type { CloseDetails } from "../../jsonrpc/errors.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../jsonrpc/line-decoder.ts";
import { isNotification, isRequest, isResponse, type JsonRpcMessage, type JsonRpcRequest, type RequestId, whyNotJsonRpc } from "../../jsonrpc/messages.ts";
import {
  bodyStart,
  connectionRedaction,
  discardBody,
  fetchFailureReason,
  HttpStatusError,
  redactedPreview,
  type RedactFn,
  redactMessage,
  showUrl,
} from "../http-errors.ts";
import { observedFetch } from "../http-observer.ts";
import { TransportBase } from "../lifecycle.ts";
import { retryOnReset } from "../reset-retry.ts";
import { busyName, DEFAULT_MAX_RETRY_AFTER_MS, type HttpSendOptions, isBusyStatus, retryWhen, sendPatiently } from "../retry-after.ts";
import { fetchSameOrigin, type SameOriginResponse } from "../same-origin-fetch.ts";
import type { SseEvent } from "../sse-parser.ts";
import { type ReconnectOptions, reconnectOptions } from "../sse-reconnect.ts";
import type { HttpObserver } from "../trace-event.ts";
import { withTraceHeaders } from "../trace-headers.ts";
import { type HttpTransportHooks, TransportError } from "../transport.ts";
import { httpEndpoint } from "../url-credentials.ts";
import { aborted, AbortScope, LinkedAbort } from "./abort.ts";
import { Session } from "./session.ts";
import { SseStreams } from "./sse-stream.ts";
import { isStatelessVersion, modernError } from "./stateless.ts";
import {
  DEFAULT_HTTP_CLOSE_TIMEOUT_MS,
  DEFAULT_HTTP_TIMEOUT_MS,
  STREAMABLE_HTTP_OPTIONS,
  type StreamableHttpTransportOptions,
} from "./streamable-http-options.ts";
import {
  boundedText,
  describeMessage,
  type Exchange,
  isEventStream,
  isHandshake,
  isJson,
  leadingId,
  MAX_SESSION_RENEWALS,
  POST_ACCEPT,
  type Posted,
  postStatusError,
  PREVIEW_CHARS,
  quoteBody,
  sendFailure,
  sessionGone,
  startsWithMethod,
  tooLargeError,
} from "./wire.ts";

/**
 * The Streamable HTTP transport — spec 2025-11-25 basic/transports, and the stateless mode of 2026-07-28.
 *
 * The shared lifecycle (lifecycle.ts) with what Streamable HTTP adds: the POST of each message
 * and the reading of its answer, sessions and their renewal, the GET stream, and the
 * HTTP-only hooks of the Client (HttpTransportHooks).
 */
export class StreamableHttpTransport extends TransportBase implements HttpTransportHooks {
  readonly description: string;
  readonly traceName = "streamable-http";
  readonly url: URL;
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
  /** Keeps the configured header values and the host's secrets out of every message we make. */
  readonly #redact: RedactFn;
  /** Told of each exchange and SSE event id, for a trace (trace-event.ts); undefined: nothing is observed. */
  readonly #observer: HttpObserver | undefined;
  /** Aborted when the transport ends: every fetch, stream and wait stops. */
  readonly #life = new AbortScope();
  /** Reads and reopens the SSE streams (sse-stream.ts). */
  readonly #streams: SseStreams;
  /** The session the server assigned, its renewal and its end (session.ts). */
  readonly #session: Session;
  #protocolVersion: string | undefined;
  /** The 2026-07-28 wire: no session, no GET stream, no resumption; request metadata headers. */
  #stateless = false;
  /** A stateless exchange has succeeded: from now on any JSON-RPC error in a 4xx is the server's answer. */
  #statelessConfirmed = false;
  /** The requests on their way, by id: what their answers, cancellations and close() reach. */
  readonly #exchanges = new Map<RequestId, Exchange>();
  /** Stops the GET stream (close, new session). */
  #listener: LinkedAbort | undefined;
  /** Stream readers running in the background; close() lets them finish. */
  readonly #background = new Set<Promise<void>>();
  /**
   * The headers of a POST, names in lower case, for the session and version they were made in
   * (`key`): made once per session and version rather than as a new Headers on each POST.
   */
  #postHeaders: { key: string; headers: Readonly<Record<string, string>> } | undefined;

  constructor(options: StreamableHttpTransportOptions) {
    super();
    checkOptions("StreamableHttpTransport", options, STREAMABLE_HTTP_OPTIONS, ["url"]);
    // A user:password@ in the URL becomes Authorization: Basic (url-credentials.ts).
    const endpoint = httpEndpoint(options.url, options.headers, "http");
    this.url = endpoint.url;
    this.description = `http "${showUrl(this.url)}"`;
    this.#headers = endpoint.headers;
    this.#requestInit = options.requestInit ?? {};
    const requestInitValues = [...new Headers(this.#requestInit.headers)].map(([, value]) => value);
    this.#redact = connectionRedaction([...Object.values(this.#headers), ...endpoint.secrets, ...requestInitValues], options.redactor);
    const given = options.fetch ?? ((input, init) => fetch(input, init));
    this.#observer = options.observer;
    // A keep-alive connection the server closed under us is tried once more (reset-retry.ts).
    this.#fetch = retryOnReset(options.observer ? observedFetch(given, options.observer, this.#redact) : given);
    this.#reconnect = reconnectOptions(options.reconnect);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
    this.#closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_HTTP_CLOSE_TIMEOUT_MS;
    this.#listen = options.listen ?? true;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#streams = new SseStreams({
      description: this.description,
      url: this.url,
      fetch: this.#fetch,
      requestInit: this.#requestInit,
      timeoutMs: this.#timeoutMs,
      reconnect: this.#reconnect,
      maxRetryAfterMs: this.#maxRetryAfterMs,
      maxMessageBytes: this.#maxMessageBytes,
      sessionId: () => this.#session.id,
      headersFor: (method) => this.#headersFor(method),
      redact: this.#redact,
      receiveEvent: (event, where, owner) => this.#receiveEvent(event, where, owner),
      eventTooLarge: (problem, head, where, owner) => this.#eventTooLarge(problem, head, where, owner),
    });
    this.#session = new Session({
      description: this.description,
      renewHook: () => this.onsessionexpired,
      isOver: () => this.closing || this.closed,
      forget: () => {
        this.#protocolVersion = undefined; // the new initialize goes without it, as the first one did
        this.#listener?.abort();
      },
      end: (reason) => this.#end({ reason }),
      report: (what, code) => this.report(what, code),
      preview: (text) => this.#preview(text),
      deleteRequest: (session, signal) => ({ ...this.#requestInit, method: "DELETE", headers: this.#headersFor("DELETE", session), signal }),
      fetch: this.#fetch,
      url: this.url,
      closeTimeoutMs: this.#closeTimeoutMs,
      redact: this.#redact,
    });
  }

  /**
   * `text` with the credentials this transport knows (its configured header values, the
   * host's secrets) and credential-shaped values replaced by `[redacted]` — what error
   * messages, reports and traces of this connection go through.
   */
  redact(text: string): string {
    return this.#redact(text);
  }

  protected override redactReport(text: string): string {
    return this.redact(text);
  }

  /** Up to PREVIEW_CHARS of server text, redacted, quoted. */
  #preview(text: string): string {
    return redactedPreview(text, this.#redact, PREVIEW_CHARS);
  }

  /** The session the server assigned in its initialize answer (MCP-Session-Id), if any. */
  get sessionId(): string | undefined {
    return this.#session.id;
  }

  /** What MCP-Protocol-Version carries (set by the Client after initialize). */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** 2025-11-25 transports (Protocol Version Header): sent on every request after initialize. */
  setProtocolVersion(version: string | undefined): void {
    this.#protocolVersion = version;
    this.#stateless = isStatelessVersion(version);
  }

  /** The Client joins session `id` that another client started, at `version`, instead of starting one (session.ts join). */
  joinSession(id: string, version: string): void {
    this.#session.join(id);
    this.setProtocolVersion(version);
  }

  /** close() leaves the session open (no DELETE): something started in it is still needed. The session's id, if any. */
  keepSession(): string | undefined {
    return this.#session.keep();
  }

  /** A request's SendOptions.headers go on its POST (HttpTransportHooks.sendsHeaders). */
  readonly sendsHeaders = true;

  /** True on the 2026-07-28 wire (set through setProtocolVersion). */
  get stateless(): boolean {
    return this.#stateless;
  }

  /** Nothing goes over the wire yet: the first message (initialize) opens the conversation. */
  start(): Promise<void> {
    const refused = this.claimStart();
    return refused ? Promise.reject(refused) : Promise.resolve();
  }

  #refusal(message: JsonRpcMessage): TransportError | undefined {
    if (this.started && !this.closed && !this.closing) return undefined;
    return this.refusal(describeMessage(message), !this.started ? "not started" : this.closing ? "closing" : "closed");
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
    // "tools/call (id 4)": made only when a message or an error names the message.
    const what = () => describeMessage(message);
    // Our cancellation of a request lets go of its stream at once; the notice itself follows.
    if (isNotification(message) && message.method === "notifications/cancelled") {
      this.#cancel(message.params?.requestId);
      // spec 2026-07-28 streamable-http ("Cancellation"): closing the response stream IS the
      // cancellation; no notifications/cancelled is sent.
      if (this.#stateless) return;
    }
    const handshake = isHandshake(message);
    const exchange = isRequest(message) ? this.#openExchange(message) : undefined;
    const deadline = exchange === undefined ? new LinkedAbort(this.#life, this.#timeoutMs) : undefined;
    /** The exchange ran to its end: its answer read whole, nothing of it left to let go. */
    let finished = false;
    const signal = exchange?.abort.signal ?? deadline!.signal;
    // The time this send may take: the caller's deadline for a request, timeoutMs for the rest.
    const until = exchange === undefined ? Date.now() + this.#timeoutMs : options.deadline;
    try {
      const body = JSON.stringify(message);
      // The headers the Client computed for this message (Mcp-Method, Mcp-Name, Mcp-Param-*: spec
      // 2026-07-28 streamable-http "Request Metadata"), and a request's traceparent as the W3C header
      // (spec 2026-07-28 basic/index, "OpenTelemetry trace context").
      const extra = withTraceHeaders(message, options.headers);
      const post = () => this.#postPatiently(message, body, signal, extra, exchange, until);
      let posted = await this.#post(message, body, signal, extra);
      // 429 and 503: the server did not take it; it goes again after its Retry-After (retry-after.ts).
      if (isBusyStatus(posted.response.status)) posted = await this.#postPatiently(message, body, signal, extra, exchange, until, posted);
      if (!posted.response.ok && exchange !== undefined && this.#stateless) {
        // spec 2026-07-28 streamable-http: a modern server's 4xx carries the request's JSON-RPC error.
        const error = await modernError(posted.response, this.#statelessConfirmed, signal);
        if (error !== undefined) {
          await discardBody(posted.response);
          // The server may not have known the id (a rejected envelope): it is this request's answer.
          this.#deliver({ jsonrpc: "2.0", id: exchange.id, error }, exchange);
          finished = true;
          return;
        }
      }
      // 2025-11-25 transports (Session Management) 4: a 404 to a request with a session id means
      // the server ended that session: start a new one, then send this again. A server that
      // restarts again meanwhile ends the new session too: each new session gets its turn.
      for (let renewals = 0; !posted.response.ok; renewals++) {
        const start = await bodyStart(posted.response, this.#redact, undefined, signal);
        const gone = sessionGone(posted.response.status, start, posted.hadSession);
        if (!gone || handshake || this.onsessionexpired === undefined || renewals >= MAX_SESSION_RENEWALS) {
          throw postStatusError(this.description, what(), posted, start, gone, renewals);
        }
        await this.#session.renew(posted.epoch, posted.response.status);
        posted = await post();
      }
      if (isRequest(message) && message.method === "initialize") this.#session.take(posted.response);
      if (exchange !== undefined) {
        await this.#readAnswer(exchange, posted);
        if (this.#stateless) this.#statelessConfirmed = true;
      } else {
        // 2025-11-25 transports (Sending Messages) 4: a notification or response is answered 202, no body.
        await discardBody(posted.response);
      }
      finished = true;
    } catch (error) {
      if (exchange?.answered) return; // the answer came on another stream meanwhile
      throw sendFailure(error, what(), { description: this.description, closed: this.#life.aborted, timeoutMs: this.#timeoutMs, exchange, deadline });
    } finally {
      deadline?.dispose();
      if (exchange !== undefined) this.#closeExchange(exchange, finished);
    }
    // 2025-11-25 transports (Listening for Messages from the Server): after initialization.
    if (isNotification(message) && message.method === "notifications/initialized") this.#startListening();
  }

  #openExchange(message: JsonRpcRequest): Exchange {
    const exchange: Exchange = {
      id: message.id,
      get what() {
        return describeMessage(message);
      },
      abort: new LinkedAbort(this.#life),
      answered: false,
      cancelled: false,
    };
    this.#exchanges.set(message.id, exchange);
    return exchange;
  }

  /**
   * The request is done with. One that `finished` (its answer read whole from its own body)
   * holds nothing more: it is only forgotten, not aborted. Otherwise its fetch or stream may
   * still be open, and the abort lets it go.
   */
  #closeExchange(exchange: Exchange, finished: boolean): void {
    if (this.#exchanges.get(exchange.id) === exchange) this.#exchanges.delete(exchange.id);
    if (!finished) exchange.abort.abort();
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
  #headersFor(method: "POST" | "GET" | "DELETE", sessionId = this.#session.id): Headers {
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

  /** #headersFor("POST") as a record, made again only when the session or the version changed. */
  #postHeadersNow(): Readonly<Record<string, string>> {
    const key = `${this.#session.id ?? ""}\n${this.#protocolVersion ?? ""}`;
    if (this.#postHeaders?.key === key) return this.#postHeaders.headers;
    const headers: Record<string, string> = {};
    this.#headersFor("POST").forEach((value, name) => (headers[name] = value));
    this.#postHeaders = { key, headers };
    return headers;
  }

  /** POSTs a message, waiting out a busy server's Retry-After when it fits (retry-after.ts); `busy` is a busy answer already had. */
  #postPatiently(
    message: JsonRpcMessage,
    body: string,
    signal: AbortSignal,
    extra: Readonly<Record<string, string>> | undefined,
    exchange: Exchange | undefined,
    until: number | undefined,
    busy?: Posted,
  ): Promise<Posted> {
    const what = describeMessage(message);
    return sendPatiently({
      first: busy,
      description: this.description,
      what,
      post: () => this.#post(message, body, signal, extra),
      until,
      maxRetryAfterMs: this.#maxRetryAfterMs,
      signal,
      redact: this.#redact,
      quoteBody,
      onWait: (resumeAt) => {
        if (exchange !== undefined) exchange.busyUntil = resumeAt;
      },
      onStopped: (resumeAt, status) => {
        // The caller stopped waiting (its timeout, or a cancel) before the server's time came:
        // its own error cannot say when the server will take requests again; this report does.
        if (!exchange?.cancelled || this.#life.aborted) return;
        this.report(
          `${what} was given up while waiting out the server's Retry-After (HTTP ${busyName(status)}); ` +
            `the server asked to be tried again ${retryWhen(Math.max(0, resumeAt - Date.now()))}`,
          "busy",
        );
      },
    });
  }

  /**
   * One POST of a message. Anything but the handshake of a new session first waits until no
   * new session is being started (a second restart can begin while the first renewal's
   * waiters wake up, so this waits again until none is under way).
   */
  async #post(message: JsonRpcMessage, body: string, signal: AbortSignal, extra?: Readonly<Record<string, string>>): Promise<Posted> {
    if (!isHandshake(message)) {
      while (this.#session.renewal !== undefined) {
        await this.#session.renewal.catch(() => {});
        const refusal = this.#refusal(message);
        if (refusal) throw refusal;
      }
    }
    // Read together, with no await between them and the headers: the session this POST is in.
    const epoch = this.#session.epoch;
    const hadSession = this.#session.id !== undefined;
    const headers = { ...this.#postHeadersNow() };
    // spec 2026-07-28 streamable-http ("Standard Request Headers", "Custom Headers from Tool Parameters").
    if (extra !== undefined) { for (const name in extra) headers[name.toLowerCase()] = extra[name]!; }
    const init: RequestInit = { ...this.#requestInit, method: "POST", headers, body, signal, redirect: "manual" };
    return { ...(await fetchSameOrigin(this.#fetch, this.url, init, this.description)), hadSession, epoch };
  }

  /** 2025-11-25 transports (Sending Messages) 5: the answer is one JSON object or an SSE stream. */
  async #readAnswer(exchange: Exchange, posted: SameOriginResponse): Promise<void> {
    const { response, url } = posted;
    const type = response.headers.get("content-type") ?? "";
    if (isEventStream(type)) {
      await this.#streams.follow(exchange, response, this.#stateless);
      return;
    }
    if (isJson(type)) {
      let text: string | undefined;
      try {
        text = await boundedText(response, this.#maxMessageBytes, exchange.abort.signal);
      } catch (error) {
        if (exchange.abort.signal.aborted) throw error;
        throw new TransportError(
          `${this.description}: the JSON answer to ${exchange.what} broke off: ${fetchFailureReason(error)}; the request was not sent again`,
          "body-broken",
          { cause: error },
        );
      }
      if (text === undefined) {
        throw tooLargeError(
          `${this.description}: the JSON answer to ${exchange.what} (POST ${showUrl(url)}, HTTP ${response.status})`,
          this.#maxMessageBytes,
          response.status,
          url,
          "not read",
        );
      }
      this.#receiveJson(text, exchange);
      if (!exchange.answered) {
        throw new TransportError(
          `${this.description}: the JSON answer to ${exchange.what} (POST ${showUrl(url)}, HTTP ${response.status}) holds no response to it: ${
            this.#preview(text)
          }`,
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
    const start = await bodyStart(response, this.#redact, undefined, exchange.abort.signal);
    throw new HttpStatusError(
      `${this.description}: ${exchange.what}: POST ${showUrl(url)} answered HTTP ${response.status} with Content-Type ` +
        `${JSON.stringify(type)}, neither application/json nor text/event-stream${quoteBody(start)}`,
      "bad-content-type",
      { status: response.status, url: url.href, bodyStart: start },
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
    this.#receiveValue(value, exchange, exchange);
  }

  /**
   * One message or a batch: each JSON-RPC message is delivered, anything else reported and
   * skipped. `where` names the stream, or is the exchange whose JSON body held it; `own` is the
   * exchange whose own response (its JSON body or its SSE stream) carried the value.
   */
  #receiveValue(value: unknown, where: string | Exchange, own: Exchange | undefined): void {
    if (!Array.isArray(value)) return this.#receiveItem(value, where, own);
    for (const item of value) this.#receiveItem(item, where, own);
  }

  #receiveItem(item: unknown, where: string | Exchange, own: Exchange | undefined): void {
    const why = whyNotJsonRpc(item);
    if (why === undefined) return this.#deliver(item as JsonRpcMessage, own);
    const named = typeof where === "string" ? where : `the JSON answer to ${where.what}`;
    this.report(
      `${named} is not a JSON-RPC message (${why}): ${this.#preview(boundedJson(item, { maxDepth: 8, maxChars: 4096 }))}; skipped`,
      "bad-message",
    );
  }

  #receiveEvent(event: SseEvent, where: string, owner: Exchange | undefined): void {
    if (this.#observer && event.id !== "") {
      this.#observer({ kind: "http", phase: "sse-event", url: this.#redact(showUrl(this.url)), eventId: this.#redact(event.id), event: event.type });
    }
    // 2025-11-25 transports (Sending Messages) 6: a priming event has an id and empty data.
    if (event.data.trim() === "") return;
    if (event.type !== "message") return; // not an MCP message: other event types are ignored
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      this.report(`an SSE event on ${where} is not JSON: ${this.#preview(event.data)}; skipped`, "bad-sse-data");
      return;
    }
    this.#receiveValue(value, `an SSE event on ${where}`, owner);
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
      this.report(
        `${where}: ${problem}; raise maxMessageBytes (an option of the http transport) if the server sends messages this large`,
        "sse-event-too-large",
      );
      return;
    }
    target.failure = tooLargeError(`${this.description}: the answer to ${target.what} on ${where}`, this.#maxMessageBytes, 200, this.url, "skipped");
    target.abort.abort();
  }

  /**
   * Hands a message to onmessage; an answer also ends the wait of its request. `own` is the
   * exchange whose own response carried the message: an answer there needs no abort (a JSON
   * body is read whole already; its SSE stream's reader stops at the answer and lets the body
   * go, sse-stream.ts). An answer anywhere else (another request's stream, the GET stream)
   * aborts its request's wait and stream.
   */
  #deliver(message: JsonRpcMessage, own?: Exchange): void {
    // A server may echo our headers (credentials) in an error: what we pass on is redacted.
    message = redactMessage(message, this.#redact);
    const exchange = isResponse(message) && message.id !== null ? this.#exchanges.get(message.id) : undefined;
    if (exchange !== undefined) exchange.answered = true;
    this.receive(message);
    // After onmessage, so the caller has its answer before the stream is let go.
    if (exchange !== undefined && exchange !== own) exchange.abort.abort();
  }

  /** Opens the GET stream for server-initiated messages (replacing an earlier one). */
  #startListening(): void {
    if (!this.#listen || this.closed || this.closing) return;
    this.#listener?.abort();
    this.#listener?.dispose();
    const listener = new LinkedAbort(this.#life);
    this.#listener = listener;
    const epoch = this.#session.epoch;
    const task = this.#streams.listen(listener.signal, {
      // a failure of the renewal closes the transport
      sessionGone: (status) => void this.#session.renew(epoch, status).catch(() => {}),
      failed: (error) => {
        this.report(`${messageOf(error).replace(`${this.description}: `, "")}; server-initiated messages will not arrive`, "get-stream-failed", error);
      },
    }).finally(() => {
      this.#background.delete(task);
      listener.dispose();
    });
    this.#background.add(task);
  }

  /**
   * Ends the connection: stops every stream and request, then DELETEs the session
   * (2025-11-25 transports, Session Management 5; a 405 means the server keeps it, which is
   * fine). Bounded by closeTimeoutMs; onclose fires once.
   */
  protected async shutdown(): Promise<void> {
    const wasEnded = this.closed;
    // First stop everything, so no stream tries to reconnect when the session ends.
    this.#stopAll();
    if (!wasEnded) await this.#session.delete();
    // The readers were cancelled; let them notice, within the close budget.
    if (this.#background.size > 0) await within(Promise.allSettled([...this.#background]), this.#closeTimeoutMs);
    this.#end({ reason: this.started ? "closed by the client" : "closed before it started" });
  }

  #stopAll(): void {
    this.#life.abort();
    this.#listener?.abort();
  }

  /** Stops every stream and request, then onclose (once). */
  #end(details: CloseDetails): void {
    if (this.closed) return;
    this.#stopAll();
    this.notifyClose(details);
  }
}
