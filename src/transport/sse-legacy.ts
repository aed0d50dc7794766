// The legacy HTTP+SSE client transport: a GET opens an SSE stream whose first event,
// `endpoint`, says where to POST our messages; the server's messages come back as `message`
// events on that stream — spec 2024-11-05 basic/transports ("HTTP with SSE"). Deprecated by
// Streamable HTTP (2025-03-26), still served by many servers.

import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { within } from "../common/timing.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, readHead } from "../jsonrpc/line-decoder.ts";
import { type JsonRpcMessage, whyNotJsonRpc } from "../jsonrpc/messages.ts";
import { cancelOnAbort } from "./body-abort.ts";
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
} from "./http-errors.ts";
import { observedFetch } from "./http-observer.ts";
import { HTTP_CONNECTION_OPTIONS, type HttpConnectionOptions } from "./http-options.ts";
import { methodOf, TransportBase } from "./lifecycle.ts";
import { DEFAULT_MAX_RETRY_AFTER_MS, type HttpSendOptions, sendPatiently } from "./retry-after.ts";
import { fetchSameOrigin } from "./same-origin-fetch.ts";
import { type SseEvent, SseParser } from "./sse-parser.ts";
import type { HttpObserver } from "./trace-event.ts";
import { withTraceHeaders } from "./trace-headers.ts";
import { TransportError, UndeliverableMessageError } from "./transport.ts";
import { httpEndpoint } from "./url-credentials.ts";

/** `url` is the SSE endpoint (`…/sse`); a message over maxMessageBytes is one SSE event, skipped and reported. */
/** Every option SseLegacyTransport reads (checked by its constructor). */
const SSE_LEGACY_OPTIONS = optionNames<SseLegacyTransportOptions>({
  ...HTTP_CONNECTION_OPTIONS,
  endpointTimeoutMs: true,
  postTimeoutMs: true,
});

/** Options of SseLegacyTransport: the SSE URL, reconnection, and the shared HTTP options. */
export interface SseLegacyTransportOptions extends HttpConnectionOptions {
  /** Bound of start(): from the GET until the `endpoint` event. Default 10 s. */
  endpointTimeoutMs?: number;
  /** Bound of one POST, until its answer has been read. Default 60 s. */
  postTimeoutMs?: number;
}

export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;
export const DEFAULT_POST_TIMEOUT_MS = 60_000;
/** How long close() waits for the stream reader to notice the abort. */
const CLOSE_GRACE_MS = 2000;

/** `: "<body start>"`, or nothing for an empty body. */
function quoteBody(start: string): string {
  return start === "" ? "" : `: ${JSON.stringify(start)}`;
}

/** Headers for a request: the configured ones, then ours (ours win over a differently cased duplicate). */
function headersWith(configured: Record<string, string> | undefined, ours: Record<string, string>): Headers {
  const headers = new Headers(configured);
  for (const [name, value] of Object.entries(ours)) headers.set(name, value);
  return headers;
}

type Phase = "new" | "connecting" | "waiting-for-endpoint" | "open" | "ended";

/** The HTTP+SSE transport of spec 2024-11-05: a GET event stream for answers, a POST per message. */
export class SseLegacyTransport extends TransportBase {
  readonly description: string;
  readonly traceName = "sse";
  /** The SSE stream's URL as configured. */
  readonly url: URL;

  readonly #options: SseLegacyTransportOptions;
  /** The configured headers, with the URL's credentials as Authorization: Basic. */
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;
  readonly #endpointTimeoutMs: number;
  readonly #postTimeoutMs: number;
  /** The POSTs in flight (send()), until each settles. */
  readonly #posting = new Set<Promise<void>>();
  readonly #maxMessageBytes: number;
  readonly #maxRetryAfterMs: number;
  /** Keeps the configured header values and the host's secrets out of every message we make. */
  readonly #redact: RedactFn;
  /** Told of each exchange and SSE event id, for a trace (trace-event.ts); undefined: nothing is observed. */
  readonly #observer: HttpObserver | undefined;
  /** Aborts the GET stream and every POST in flight. */
  readonly #abort = new AbortController();
  #phase: Phase = "new";
  /** Where messages are POSTed, from the `endpoint` event. */
  #endpoint: URL | undefined;
  #endpointArrived: ((endpoint: URL) => void) | undefined;
  #endpointFailed: ((error: Error) => void) | undefined;
  /** The loop reading the SSE stream, while it runs. */
  #reading: Promise<void> | undefined;

  constructor(options: SseLegacyTransportOptions) {
    super();
    checkOptions("SseLegacyTransport", options, SSE_LEGACY_OPTIONS, ["url"]);
    this.#options = options;
    // A user:password@ in the URL becomes Authorization: Basic (url-credentials.ts).
    const endpoint = httpEndpoint(options.url, options.headers, "sse");
    this.url = endpoint.url;
    this.#headers = endpoint.headers;
    const given = options.fetch ?? fetch;
    this.#endpointTimeoutMs = options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    this.#postTimeoutMs = options.postTimeoutMs ?? DEFAULT_POST_TIMEOUT_MS;
    this.description = `sse "${showUrl(this.url)}"`;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#redact = connectionRedaction([...Object.values(this.#headers), ...endpoint.secrets], options.redactor);
    this.#observer = options.observer;
    this.#fetch = options.observer ? observedFetch(given, options.observer, this.#redact) : given;
  }

  /**
   * `text` with the credentials this transport knows (its configured header values, the
   * host's secrets) and credential-shaped values replaced by `[redacted]`.
   */
  redact(text: string): string {
    return this.#redact(text);
  }

  protected override redactReport(text: string): string {
    return this.redact(text);
  }

  /** Up to 100 characters of server text, redacted, quoted. */
  #preview(text: string): string {
    return redactedPreview(text, this.#redact, 100);
  }

  /** Where messages are POSTed, once the `endpoint` event has arrived. */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  /**
   * Opens the SSE stream and waits for the `endpoint` event, bounded by endpointTimeoutMs.
   * Rejects with a TransportError: HttpStatusError for a status other than 2xx, code
   * "not-sse" when the answer is not an event stream, "no-endpoint" when the endpoint event
   * does not come, "endpoint-origin" when it names another origin.
   */
  async start(): Promise<void> {
    const refused = this.claimStart();
    if (refused) throw refused;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.#startTimeout()), this.#endpointTimeoutMs);
    });
    try {
      await Promise.race([this.#open(), timeout]);
    } catch (error) {
      const closing = this.closing;
      this.#phase = "ended";
      this.#abort.abort();
      if (this.#reading) await within(this.#reading, CLOSE_GRACE_MS);
      if (closing) throw new TransportError(`${this.description}: closed while starting`, "closed", { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (this.closing) throw new TransportError(`${this.description}: closed while starting`, "closed");
  }

  #startTimeout(): TransportError {
    const limit = durationText(this.#endpointTimeoutMs);
    return this.#phase === "waiting-for-endpoint"
      ? new TransportError(
        `${this.description}: the SSE stream opened but sent no "endpoint" event within ${limit}; ` +
          `a legacy HTTP+SSE (2024-11-05) server sends it first; if this is a Streamable HTTP server use transport http`,
        "no-endpoint",
      )
      : new TransportError(`${this.description}: GET got no answer within ${limit}; check that the server is up`, "connect-timeout");
  }

  async #open(): Promise<void> {
    this.#phase = "connecting";
    let opened: { response: Response; url: URL };
    try {
      opened = await fetchSameOrigin(
        this.#fetch,
        this.url,
        { method: "GET", headers: headersWith(this.#headers, { Accept: "text/event-stream" }), signal: this.#abort.signal },
        this.description,
      );
    } catch (error) {
      if (error instanceof TransportError) throw error; // fetch-failed (names the reason), redirect-origin, …
      throw new TransportError(`${this.description}: GET ${showUrl(this.url)} failed: ${fetchFailureReason(error)}`, "fetch-failed", {
        cause: error,
      });
    }
    const { response, url: streamUrl } = opened;
    if (!response.ok) {
      const start = await bodyStart(response, this.#redact, undefined, this.#abort.signal);
      throw new HttpStatusError(
        `${this.description}: GET ${showUrl(streamUrl)} answered HTTP ${response.status}${quoteBody(start)}; ` +
          `a legacy HTTP+SSE server answers it with an event stream; check the URL (often …/sse)`,
        "http-status",
        { status: response.status, url: streamUrl.href, bodyStart: start },
      );
    }
    const type = response.headers.get("content-type") ?? "";
    if (!/^\s*text\/event-stream\b/i.test(type) || response.body === null) {
      const start = await bodyStart(response, this.#redact, undefined, this.#abort.signal);
      throw new TransportError(
        `${this.description}: GET ${showUrl(streamUrl)} answered HTTP ${response.status} with ` +
          `${type ? `Content-Type ${JSON.stringify(type)}` : "no Content-Type"}, not an SSE stream (text/event-stream)${quoteBody(start)}`,
        "not-sse",
      );
    }
    this.#phase = "waiting-for-endpoint";
    const endpoint = new Promise<URL>((resolve, reject) => {
      this.#endpointArrived = resolve;
      this.#endpointFailed = reject;
    });
    this.#reading = this.#read(response.body, streamUrl);
    await endpoint;
    this.#phase = "open";
  }

  /**
   * An event over maxMessageBytes was skipped. spec 2024-11-05 basic/transports: every answer comes
   * on this one stream, so an answer over the limit fails its request at once — the Client finds
   * it by the id read from the event's first bytes (or, with none, takes its only pending
   * request). An event whose start shows no response ("result", "error" or an id: a request or
   * notification of the server's, a log printed into the stream) is only reported.
   */
  #eventTooLarge(problem: string, head: string): void {
    const remedy = "raise maxMessageBytes (an option of the sse transport) if the server sends messages this large";
    const read = readHead(head);
    if (read.kind === "request") {
      this.report(`${problem}; ${remedy}`, "sse-event-too-large");
      return;
    }
    if (read.kind === "unknown" && read.id === undefined) {
      this.report(`${problem}; its start shows no response ("result", "error" or an "id"), so no request fails for it; ${remedy}`, "sse-event-too-large");
      return;
    }
    this.reportError(
      new UndeliverableMessageError(this.redactReport(`${this.description}: ${problem}; ${remedy}`), {
        response: {
          ...(read.id === undefined ? {} : { id: read.id }),
          reason: "too-large",
          detail: `the response is over the maxMessageBytes limit of ${this.#maxMessageBytes} characters and was skipped unread`,
          remedy,
          limit: this.#maxMessageBytes,
        },
      }),
    );
  }

  async #read(body: ReadableStream<Uint8Array>, streamUrl: URL): Promise<void> {
    const parser = new SseParser({
      onEvent: (event) => this.#onEvent(event, streamUrl),
      maxEventChars: this.#maxMessageBytes,
      onProblem: (message, head) => this.#eventTooLarge(message, head),
    });
    const reader = body.getReader();
    // close() ends the read itself: fetch's abort does not always reach a body (body-abort.ts).
    const release = cancelOnAbort(reader, this.#abort.signal);
    let reason = "the server ended the SSE stream";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(value);
      }
      parser.end();
    } catch (error) {
      reason = this.closing ? "closed by the client" : `the SSE stream broke: ${messageOf(error)}`;
    } finally {
      release();
      await reader.cancel().catch(() => {});
    }
    this.#streamEnded(reason);
  }

  #streamEnded(reason: string): void {
    if (this.#endpointFailed) {
      // still waiting in start()
      this.#endpointFailed(new TransportError(`${this.description}: ${reason} before sending the "endpoint" event`, "no-endpoint"));
      this.#endpointFailed = undefined;
      this.#endpointArrived = undefined;
      return;
    }
    if (this.#phase !== "open") return;
    this.#phase = "ended";
    // 2024-11-05 transports: the stream is the connection; without it no answer can arrive.
    this.notifyClose({ reason: this.closing ? "closed by the client" : reason });
  }

  #onEvent(event: SseEvent, streamUrl: URL): void {
    if (this.#observer && event.id !== "") {
      this.#observer({ kind: "http", phase: "sse-event", url: this.#redact(showUrl(streamUrl)), eventId: this.#redact(event.id), event: event.type });
    }
    switch (event.type) {
      case "endpoint":
        this.#onEndpoint(event.data, streamUrl);
        return;
      case "message":
        this.#onMessage(event.data);
        return;
      default:
        this.report(`ignored an SSE event of type "${event.type}" (expected "endpoint" or "message")`, "bad-event");
    }
  }

  #onEndpoint(data: string, streamUrl: URL): void {
    if (this.#endpoint !== undefined || this.#endpointArrived === undefined) {
      this.report(`ignored a second "endpoint" event (${this.#preview(data)}); messages still go to ${showUrl(this.#endpoint ?? streamUrl)}`, "bad-event");
      return;
    }
    const fail = (error: TransportError) => {
      this.#endpointFailed?.(error);
      this.#endpointFailed = undefined;
      this.#endpointArrived = undefined;
    };
    let endpoint: URL;
    try {
      // 2024-11-05 transports: the endpoint is a URI, usually relative to the SSE stream's.
      endpoint = new URL(data.trim(), streamUrl);
    } catch {
      fail(new TransportError(`${this.description}: the "endpoint" event's data ${this.#preview(data)} is not a URL`, "bad-endpoint"));
      return;
    }
    if (endpoint.origin !== this.url.origin) {
      // Our headers (credentials) and messages must not go to a host the user did not name.
      fail(
        new TransportError(
          `${this.description}: the server's "endpoint" event names ${showUrl(endpoint)}, on origin ${endpoint.origin}, ` +
            `not the SSE stream's origin ${this.url.origin}; refusing to send messages there`,
          "endpoint-origin",
        ),
      );
      return;
    }
    this.#endpoint = endpoint;
    this.#endpointArrived(endpoint);
    this.#endpointArrived = undefined;
    this.#endpointFailed = undefined;
  }

  #onMessage(data: string): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (error) {
      this.report(`skipped a "message" event that is not JSON (${messageOf(error)}): ${this.#preview(data)}`, "bad-message");
      return;
    }
    const why = whyNotJsonRpc(value);
    if (why !== undefined) {
      this.report(`skipped a "message" event that is not JSON-RPC (${why}): ${this.#preview(data)}`, "bad-message");
      return;
    }
    // A server may echo our headers (credentials) in an error: what we pass on is redacted.
    // A throwing handler must not stop the reading of the stream (and with it every later answer).
    this.receive(redactMessage(value as JsonRpcMessage, this.#redact));
  }

  /**
   * POSTs one message to the endpoint; resolves once the server accepted it (2xx). The
   * answer to a request arrives later, on the stream. A 429 or 503 with Retry-After is
   * waited out and the POST sent again when the wait ends within postTimeoutMs, before
   * `options.deadline` and within maxRetryAfterMs; otherwise the error says when to retry.
   */
  send(message: JsonRpcMessage, options: HttpSendOptions = {}): Promise<void> {
    // Kept until it settles: shutdown() waits for the POSTs in flight (their bodies released) to end.
    const sent = this.#post(message, options);
    this.#posting.add(sent);
    const forget = () => void this.#posting.delete(sent);
    sent.then(forget, forget);
    return sent;
  }

  async #post(message: JsonRpcMessage, options: HttpSendOptions): Promise<void> {
    const endpoint = this.#endpoint;
    const what = methodOf(message);
    if (endpoint === undefined || this.#phase !== "open" || this.closing) {
      const state = this.closing ? "closing" : this.#phase === "ended" ? "closed (the SSE stream has ended)" : "not started";
      throw this.refusal(what, state);
    }
    const post = new AbortController();
    const onAbort = () => post.abort();
    this.#abort.signal.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      post.abort();
    }, this.#postTimeoutMs);
    const until = Math.min(Date.now() + this.#postTimeoutMs, options.deadline ?? Infinity);
    const body = JSON.stringify(message);
    // spec 2026-07-28 basic/index ("OpenTelemetry trace context"): a request's traceparent also as the W3C header.
    const ours = withTraceHeaders(message, { "Content-Type": "application/json" })!;
    try {
      // 429 and 503 say the server did not process the POST: it is sent again after Retry-After when the wait fits.
      const answered = await sendPatiently({
        description: this.description,
        what,
        post: () =>
          fetchSameOrigin(
            this.#fetch,
            endpoint,
            { method: "POST", headers: headersWith(this.#headers, ours), body, signal: post.signal },
            this.description,
          ),
        until,
        maxRetryAfterMs: this.#maxRetryAfterMs,
        signal: post.signal,
        redact: this.#redact,
        quoteBody,
      });
      const { response, url } = answered;
      if (!response.ok) {
        const start = await bodyStart(response, this.#redact, undefined, post.signal);
        throw new HttpStatusError(
          `${this.description}: ${what}: POST ${showUrl(url)} answered HTTP ${response.status}${quoteBody(start)}`,
          "http-status",
          { status: response.status, url: url.href, bodyStart: start },
        );
      }
      // The acknowledgement ("Accepted") says nothing more: release it, the answer comes on the stream.
      await discardBody(response);
    } catch (error) {
      if (timedOut) {
        throw new TransportError(
          `${this.description}: ${what}: POST ${showUrl(endpoint)} got no answer within ${durationText(this.#postTimeoutMs)}`,
          "send-timeout",
          { cause: error },
        );
      }
      if (this.closing) {
        throw new TransportError(`${this.description}: cannot send ${what}, the connection was closed`, "closed", { cause: error });
      }
      if (error instanceof TransportError) throw error;
      throw new TransportError(`${this.description}: ${what}: POST ${showUrl(endpoint)} failed: ${fetchFailureReason(error)}`, "send-failed", {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      this.#abort.signal.removeEventListener("abort", onAbort);
    }
  }

  /** Aborts the stream and every POST in flight; bounded; onclose fires once. */
  protected async shutdown(): Promise<void> {
    this.#abort.abort();
    if (this.#reading) await within(this.#reading, CLOSE_GRACE_MS);
    // The aborted POSTs end too (a 202 whose body was being released), so nothing of them outlives close().
    if (this.#posting.size > 0) await within(Promise.allSettled([...this.#posting]), CLOSE_GRACE_MS);
    this.#phase = "ended";
    this.notifyClose({ reason: this.started ? "closed by the client" : "closed before it started" });
  }
}
