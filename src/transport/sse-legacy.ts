// The legacy HTTP+SSE client transport: a GET opens an SSE stream whose first event,
// `endpoint`, says where to POST our messages; the server's messages come back as `message`
// events on that stream — spec 2024-11-05 basic/transports ("HTTP with SSE"). Deprecated by
// Streamable HTTP (2025-03-26), still served by many servers.

import { boundedJson } from "../common/bounded.ts";
import { Redactor } from "../common/redact.ts";
import type { CloseDetails } from "../jsonrpc/errors.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../jsonrpc/line-decoder.ts";
import { type JsonRpcErrorResponse, type JsonRpcMessage, whyNotJsonRpc } from "../jsonrpc/messages.ts";
import { bodyStart, discardBody, fetchFailureReason, HttpStatusError, showUrl } from "./http-errors.ts";
import {
  busyName,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type HttpSendOptions,
  isBusyStatus,
  MAX_BUSY_RETRIES,
  retryAfterMs,
  retryWhen,
} from "./retry-after.ts";
import { fetchSameOrigin } from "./same-origin-fetch.ts";
import { sleep } from "./sse-reconnect.ts";
import { type SseEvent, SseParser } from "./sse-parser.ts";
import { type Transport, TransportError } from "./transport.ts";

export interface SseLegacyTransportOptions {
  /** The SSE endpoint, e.g. `http://127.0.0.1:3001/sse`. */
  url: string | URL;
  /** Sent with every request, the GET and every POST (Authorization, API keys, …). */
  headers?: Record<string, string>;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof fetch;
  /** Bound of start(): from the GET until the `endpoint` event. Default 10 s. */
  endpointTimeoutMs?: number;
  /** Bound of one POST, until its answer has been read. Default 60 s. */
  postTimeoutMs?: number;
  /** Largest message (one SSE event) accepted, in bytes; a larger one is skipped and reported. Default 64 MiB. */
  maxMessageBytes?: number;
  /**
   * Longest Retry-After of a 429 or 503 to a POST that is waited out before the POST is sent
   * again (never past postTimeoutMs or the call's deadline). Default 30 s.
   */
  maxRetryAfterMs?: number;
  /** More secrets to keep out of error messages (the host's). The values of `headers` are always kept out. */
  redactor?: Redactor;
}

export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;
export const DEFAULT_POST_TIMEOUT_MS = 60_000;
/** How long close() waits for the stream reader to notice the abort. */
const CLOSE_GRACE_MS = 2000;

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** `: "<body start>"`, or nothing for an empty body. */
function quoteBody(start: string): string {
  return start === "" ? "" : `: ${JSON.stringify(start)}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Resolves true if the promise settles within ms, false otherwise. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true, () => true), timeout]);
  clearTimeout(timer);
  return settled;
}

/** Headers for a request: the configured ones, then ours (ours win over a differently cased duplicate). */
function headersWith(configured: Record<string, string> | undefined, ours: Record<string, string>): Headers {
  const headers = new Headers(configured);
  for (const [name, value] of Object.entries(ours)) headers.set(name, value);
  return headers;
}

type Phase = "new" | "connecting" | "waiting-for-endpoint" | "open" | "ended";

export class SseLegacyTransport implements Transport {
  readonly description: string;
  /** The SSE stream's URL as configured. */
  readonly url: URL;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (details: CloseDetails) => void;
  onerror?: (error: Error) => void;

  readonly #options: SseLegacyTransportOptions;
  readonly #fetch: typeof fetch;
  readonly #endpointTimeoutMs: number;
  readonly #postTimeoutMs: number;
  readonly #maxMessageBytes: number;
  readonly #maxRetryAfterMs: number;
  /** The configured header values (any may be a credential), kept out of every message we make. */
  readonly #redactor = new Redactor();
  readonly #redactFn = (text: string): string => this.redact(text);
  /** Aborts the GET stream and every POST in flight. */
  readonly #abort = new AbortController();
  #phase: Phase = "new";
  #started = false;
  /** Where messages are POSTed, from the `endpoint` event. */
  #endpoint: URL | undefined;
  #endpointArrived: ((endpoint: URL) => void) | undefined;
  #endpointFailed: ((error: Error) => void) | undefined;
  /** The loop reading the SSE stream, while it runs. */
  #reading: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closeNotified = false;

  constructor(options: SseLegacyTransportOptions) {
    this.#options = options;
    this.url = new URL(options.url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TransportError(`sse "${showUrl(this.url)}": the URL must be http:// or https://`, "bad-url");
    }
    this.#fetch = options.fetch ?? fetch;
    this.#endpointTimeoutMs = options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    this.#postTimeoutMs = options.postTimeoutMs ?? DEFAULT_POST_TIMEOUT_MS;
    this.description = `sse "${showUrl(this.url)}"`;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#redactor.addHeaders(options.headers);
  }

  /**
   * `text` with the credentials this transport knows (its configured header values, the
   * host's secrets) and credential-shaped values replaced by `[redacted]`.
   */
  redact(text: string): string {
    const own = this.#redactor.redact(text);
    return this.#options.redactor === undefined ? own : this.#options.redactor.redact(own);
  }

  /** Up to 100 characters of server text, redacted, quoted. */
  #preview(text: string): string {
    return JSON.stringify(this.redact(text.slice(0, 8292)).slice(0, 100));
  }

  /** Where messages are POSTed, once the `endpoint` event has arrived. */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  #report(what: string, code: string, cause?: unknown): void {
    try {
      this.onerror?.(new TransportError(this.redact(`${this.description}: ${what}`), code, { cause }));
    } catch {
      // a throwing error handler has nowhere left to report to
    }
  }

  /**
   * Opens the SSE stream and waits for the `endpoint` event, bounded by endpointTimeoutMs.
   * Rejects with a TransportError: HttpStatusError for a status other than 2xx, code
   * "not-sse" when the answer is not an event stream, "no-endpoint" when the endpoint event
   * does not come, "endpoint-origin" when it names another origin.
   */
  async start(): Promise<void> {
    if (this.#started) throw new TransportError(`${this.description}: already started`, "started");
    this.#started = true;
    if (this.#closing) throw new TransportError(`${this.description}: close() was called before start()`, "closed");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.#startTimeout()), this.#endpointTimeoutMs);
    });
    try {
      await Promise.race([this.#open(), timeout]);
    } catch (error) {
      const closing = this.#closing !== undefined;
      this.#phase = "ended";
      this.#abort.abort();
      if (this.#reading) await within(this.#reading, CLOSE_GRACE_MS);
      if (closing) throw new TransportError(`${this.description}: closed while starting`, "closed", { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (this.#closing) throw new TransportError(`${this.description}: closed while starting`, "closed");
  }

  #startTimeout(): TransportError {
    const limit = seconds(this.#endpointTimeoutMs);
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
        { method: "GET", headers: headersWith(this.#options.headers, { Accept: "text/event-stream" }), signal: this.#abort.signal },
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
      const start = await bodyStart(response, this.#redactFn);
      throw new HttpStatusError(
        `${this.description}: GET ${showUrl(streamUrl)} answered HTTP ${response.status}${quoteBody(start)}; ` +
          `a legacy HTTP+SSE server answers it with an event stream; check the URL (often …/sse)`,
        response.status,
        streamUrl.href,
        start,
      );
    }
    const type = response.headers.get("content-type") ?? "";
    if (!/^\s*text\/event-stream\b/i.test(type) || response.body === null) {
      const start = await bodyStart(response, this.#redactFn);
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

  async #read(body: ReadableStream<Uint8Array>, streamUrl: URL): Promise<void> {
    const parser = new SseParser({
      onEvent: (event) => this.#onEvent(event, streamUrl),
      maxEventChars: this.#maxMessageBytes,
      onProblem: (message) =>
        this.#report(`${message}; raise maxMessageBytes (an option of the sse transport) if the server sends messages this large`, "sse-event-too-large"),
    });
    const reader = body.getReader();
    let reason = "the server ended the SSE stream";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(value);
      }
      parser.end();
    } catch (error) {
      reason = this.#closing ? "closed by the client" : `the SSE stream broke: ${messageOf(error)}`;
    } finally {
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
    this.#notifyClose({ reason: this.#closing ? "closed by the client" : reason });
  }

  #onEvent(event: SseEvent, streamUrl: URL): void {
    switch (event.type) {
      case "endpoint":
        this.#onEndpoint(event.data, streamUrl);
        return;
      case "message":
        this.#onMessage(event.data);
        return;
      default:
        this.#report(`ignored an SSE event of type "${event.type}" (expected "endpoint" or "message")`, "bad-event");
    }
  }

  #onEndpoint(data: string, streamUrl: URL): void {
    if (this.#endpoint !== undefined || this.#endpointArrived === undefined) {
      this.#report(`ignored a second "endpoint" event (${this.#preview(data)}); messages still go to ${showUrl(this.#endpoint ?? streamUrl)}`, "bad-event");
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
      fail(new TransportError(
        `${this.description}: the server's "endpoint" event names ${showUrl(endpoint)}, on origin ${endpoint.origin}, ` +
          `not the SSE stream's origin ${this.url.origin}; refusing to send messages there`,
        "endpoint-origin",
      ));
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
      this.#report(`skipped a "message" event that is not JSON (${messageOf(error)}): ${this.#preview(data)}`, "bad-message");
      return;
    }
    const why = whyNotJsonRpc(value);
    if (why !== undefined) {
      this.#report(`skipped a "message" event that is not JSON-RPC (${why}): ${this.#preview(data)}`, "bad-message");
      return;
    }
    let message = value as JsonRpcMessage;
    // A server may echo our headers (credentials) in an error: what we pass on is redacted.
    if ("error" in message && typeof message.error === "object" && message.error !== null) {
      message = { ...message, error: this.#redactError(message.error) } as JsonRpcErrorResponse;
    }
    // A throwing handler must not stop the reading of the stream (and with it every later answer).
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.#report(`onmessage handler threw: ${messageOf(error)}`, "handler-threw", error);
    }
  }

  /** A JSON-RPC error's message and data, with credentials a server echoed back replaced. */
  #redactError(error: JsonRpcErrorResponse["error"]): JsonRpcErrorResponse["error"] {
    const message = typeof error.message === "string" ? this.redact(error.message) : error.message;
    if (error.data === undefined) return { ...error, message };
    const text = boundedJson(error.data);
    const shown = this.redact(text);
    if (shown === text) return { ...error, message };
    let data: unknown = shown;
    try {
      data = JSON.parse(shown);
    } catch {
      // cut by the bound: the redacted text stands for it
    }
    return { ...error, message, data };
  }

  /**
   * POSTs one message to the endpoint; resolves once the server accepted it (2xx). The
   * answer to a request arrives later, on the stream. A 429 or 503 with Retry-After is
   * waited out and the POST sent again when the wait ends within postTimeoutMs, before
   * `options.deadline` and within maxRetryAfterMs; otherwise the error says when to retry.
   */
  async send(message: JsonRpcMessage, options: HttpSendOptions = {}): Promise<void> {
    const endpoint = this.#endpoint;
    const what = "method" in message ? message.method : "a response";
    if (endpoint === undefined || this.#phase !== "open" || this.#closing) {
      const state = this.#closing ? "closing" : this.#phase === "ended" ? "closed (the SSE stream has ended)" : "not started";
      throw new TransportError(`${this.description}: cannot send ${what}, the connection is ${state}`, "closed");
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
    try {
      let answered: { response: Response; url: URL };
      // 429 and 503 say the server did not process the POST (RFC 6585 4, RFC 9110 15.6.4):
      // it is sent again after Retry-After (RFC 9110 10.2.3) when the wait fits.
      for (let busy = 0; ; busy++) {
        answered = await fetchSameOrigin(
          this.#fetch,
          endpoint,
          { method: "POST", headers: headersWith(this.#options.headers, { "Content-Type": "application/json" }), body, signal: post.signal },
          this.description,
        );
        const status = answered.response.status;
        if (!isBusyStatus(status)) break;
        const now = Date.now();
        const wait = retryAfterMs(answered.response.headers, now);
        const left = until - now;
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
          const start = await bodyStart(answered.response, this.#redactFn);
          throw new HttpStatusError(
            `${this.description}: ${what}: POST ${showUrl(answered.url)} answered HTTP ${busyName(status)}${quoteBody(start)}; ` +
              `the server did not process it and it was not sent again: ${why}`,
            status,
            answered.url.href,
            start,
            "busy",
            wait === undefined ? undefined : new Date(now + wait),
          );
        }
        await discardBody(answered.response);
        if (!(await sleep(wait!, post.signal))) {
          throw new TransportError(`${this.description}: ${what}: stopped while waiting out the busy server's Retry-After`, "aborted");
        }
      }
      const { response, url } = answered;
      if (!response.ok) {
        const start = await bodyStart(response, this.#redactFn);
        throw new HttpStatusError(
          `${this.description}: ${what}: POST ${showUrl(url)} answered HTTP ${response.status}${quoteBody(start)}`,
          response.status,
          url.href,
          start,
        );
      }
      // The acknowledgement ("Accepted") says nothing more: release it, the answer comes on the stream.
      await discardBody(response);
    } catch (error) {
      if (timedOut) {
        throw new TransportError(
          `${this.description}: ${what}: POST ${showUrl(endpoint)} got no answer within ${seconds(this.#postTimeoutMs)}`,
          "send-timeout",
          { cause: error },
        );
      }
      if (this.#closing) {
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
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#abort.abort();
    if (this.#reading) await within(this.#reading, CLOSE_GRACE_MS);
    this.#phase = "ended";
    this.#notifyClose({ reason: this.#started ? "closed by the client" : "closed before it started" });
  }

  #notifyClose(details: CloseDetails): void {
    if (this.#closeNotified) return;
    this.#closeNotified = true;
    try {
      this.onclose?.(details);
    } catch (error) {
      this.#report(`onclose handler threw: ${messageOf(error)}`, "handler-threw", error);
    }
  }
}
