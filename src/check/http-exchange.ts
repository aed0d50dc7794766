// Raw HTTP for the transport probes of `mcpwire check` — spec 2025-11-25 basic/transports
// ("Streamable HTTP"), 2026-07-28 basic/transports/streamable-http, 2024-11-05 basic/transports
// ("HTTP with SSE"). The client transports hide what a check must see (a status, a header, a
// body that should be empty), so the probes speak the wire by hand through this: one request
// bounded by a timeout, its body read with bounds and always released, an SSE stream read event
// by event; and every text that may reach a finding redacted of the target's header values.

import { isObject } from "../common/json.ts";
import { clipLine } from "../common/preview.ts";
import { REDACTED, redactText, redactUrl } from "../common/redact.ts";
import { type SseEvent, SseParser } from "../transport/sse-parser.ts";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import type { HttpTarget } from "./target.ts";

/** Characters of a body kept; past this it is cut (a JSON body past it is not parsed). */
const MAX_BODY_CHARS = 1_000_000;
/** Events read from one SSE answer (or from a stream) before the probe stops waiting; their data is bounded by MAX_BODY_CHARS. */
const MAX_EVENTS = 1000;
/** Characters of one SSE event. */
const MAX_EVENT_CHARS = 1_000_000;
/** Characters of a body quoted in a finding. */
const EXCERPT_CHARS = 200;

/** What the probes were given: the target, and the bounds of their waits. */
export interface ProbeOptions {
  /** Milliseconds one request may take (its body read included); default 10 s. */
  timeoutMs?: number;
  /** Aborts every request in flight. */
  signal?: AbortSignal;
}

/** One request as it crossed the wire, or why it got no answer. */
export interface Exchange {
  /** `POST http://127.0.0.1:3000/mcp → 200` (the URL redacted), for Seen.http. */
  http: string;
  /** The HTTP status; undefined when no answer came (`failure` says why). */
  status?: number;
  failure?: string;
  headers: Headers;
  /** The media type of Content-Type, lowercase, without parameters ("" when none). */
  mediaType: string;
  /** The body text as read (bounded; for an SSE answer, what was read before the probe stopped). */
  body: string;
  /** The body was longer than what was read. */
  cut: boolean;
  /** A JSON body parsed (undefined when not JSON or cut). */
  json?: unknown;
  /** An SSE body's events, as far as they were read. */
  events: SseEvent[];
}

/** The JSON-RPC message answering `id` in an exchange: the JSON body, or a `message` event's data on an SSE answer. */
export function answerTo(exchange: Exchange, id: string | number): Record<string, unknown> | undefined {
  if (isObject(exchange.json) && exchange.json["id"] === id) return exchange.json;
  for (const event of exchange.events) {
    const message = parseJson(event.data);
    if (isObject(message) && message["id"] === id && ("result" in message || "error" in message)) return message;
  }
  return undefined;
}

/** The error code of a JSON-RPC error response, when `message` is one. */
export function errorCode(message: unknown): unknown {
  return isObject(message) && isObject(message["error"]) ? message["error"]["code"] : undefined;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A request sent: the response and its exchange (body unread), or the exchange of a request that got no answer. */
type Sent = { response: Response; exchange: Exchange } | { failure: Exchange };

/** A request as sent: its abort, its timer, and how it is shown. */
interface InFlight {
  controller: AbortController;
  /** Stops the timer and lets go of the caller's signal. */
  settle(): void;
  timedOut(): boolean;
}

/**
 * The HTTP side of a probe: the target's URL, its headers (secrets) on every request, the fetch
 * to use, and the bounds. Nothing it returns holds a header value of the target. When the
 * caller's signal aborts, the request in flight and every later one reject with its reason.
 */
export class HttpWire {
  readonly url: URL;
  readonly #target: HttpTarget;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #signal: AbortSignal | undefined;
  #secrets: string[];

  constructor(target: HttpTarget, options: ProbeOptions = {}) {
    this.url = new URL(target.url);
    this.#target = target;
    this.#fetch = target.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
    this.#signal = options.signal;
    this.#secrets = [];
    for (const value of Object.values(target.headers ?? {})) this.addSecret(value);
  }

  /** The target's own origin (`http://127.0.0.1:3000`). */
  get origin(): string {
    return this.url.origin;
  }

  /** The target is on a loopback address (127.0.0.0/8, ::1, localhost): where DNS rebinding is the threat. */
  get loopback(): boolean {
    const host = this.url.hostname.toLowerCase();
    return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  }

  /** A value never to show (a session id the server issued): redacted from every excerpt from now on. */
  addSecret(value: string): void {
    if (value.length < 4 || this.#secrets.includes(value)) return;
    this.#secrets = [...this.#secrets, value].sort((a, b) => b.length - a.length);
  }

  /** Text with the secrets (and what looks like a credential) replaced, on one line, bounded. */
  redact(text: string, max = EXCERPT_CHARS): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    return clipLine(redactText(out), max);
  }

  /** An excerpt of an exchange's body for a finding ("" when it had none). */
  excerpt(exchange: Exchange): string {
    return this.redact(exchange.body);
  }

  /**
   * One request. `headers` are added to the target's (and override them); `undefined` removes one.
   * The body is read whole (bounded); an SSE answer is read until it ends, or until it holds the
   * response to `answerId`; with `stream: "head"` an SSE answer is not read at all. The body is
   * always released, and the wait (body included) bounded by the timeout.
   */
  async request(
    method: "GET" | "POST" | "DELETE",
    init: { url?: URL; body?: unknown; headers?: Record<string, string | undefined>; answerId?: string | number; stream?: "read" | "head" } = {},
  ): Promise<Exchange> {
    const url = init.url ?? this.url;
    const flight = this.#start();
    try {
      const sent = await this.#send(method, url, init.headers ?? {}, init.body, flight);
      if ("failure" in sent) return sent.failure;
      const { response, exchange } = sent;
      if (exchange.mediaType === "text/event-stream") {
        if (init.stream === "head") await response.body?.cancel().catch(() => {});
        else await readEvents(response, exchange, init.answerId);
      } else {
        await readBody(response, exchange);
        if (!exchange.cut && exchange.body !== "") exchange.json = parseJson(exchange.body);
      }
      this.#rethrowAbort();
      if (flight.timedOut()) exchange.failure = `the body did not end within ${this.#timeoutMs} ms`;
      return exchange;
    } finally {
      flight.settle();
    }
  }

  /**
   * Opens an SSE stream with a GET (the legacy HTTP+SSE transport's): the exchange (its body
   * unread) and, when the answer is a 200 event stream, a reader of its events. Close the reader.
   */
  async openStream(headers: Record<string, string | undefined> = {}): Promise<{ exchange: Exchange; stream?: SseReader }> {
    const flight = this.#start();
    let sent: Sent;
    try {
      sent = await this.#send("GET", this.url, { Accept: "text/event-stream", ...headers }, undefined, flight);
    } catch (error) {
      flight.settle();
      throw error;
    }
    if ("failure" in sent) {
      flight.settle();
      return { exchange: sent.failure };
    }
    const { response, exchange } = sent;
    if (exchange.mediaType !== "text/event-stream" || response.body === null || response.status !== 200) {
      try {
        await readBody(response, exchange);
      } finally {
        flight.settle();
      }
      return { exchange };
    }
    // From here each wait for an event has its own bound (SseReader.next); the stream outlives the request's timer.
    flight.settle();
    const signal = this.#signal;
    const onAbort = () => flight.controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const release = () => signal?.removeEventListener("abort", onAbort);
    return { exchange, stream: new SseReader(response.body, flight.controller, release, this.#timeoutMs) };
  }

  /** A request's abort and timer, tied to the caller's signal. */
  #start(): InFlight {
    this.#rethrowAbort();
    const controller = new AbortController();
    const signal = this.#signal;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#timeoutMs);
    return {
      controller,
      settle: () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      },
      timedOut: () => timedOut,
    };
  }

  #rethrowAbort(): void {
    if (this.#signal?.aborted) throw this.#signal.reason;
  }

  /** Sends one request; the response and its exchange (body unread), or the exchange of a request that got no answer. */
  async #send(
    method: string,
    url: URL,
    extra: Record<string, string | undefined>,
    body: unknown,
    flight: InFlight,
  ): Promise<Sent> {
    const shown = `${method} ${redactUrl(url)}`;
    const unsent = (why: string) => ({
      failure: { http: `${shown} → no answer`, failure: this.redact(why), headers: new Headers(), mediaType: "", body: "", cut: false, events: [] },
    });
    const headers = new Headers();
    try {
      // A value the server gave (a session id) may not be a valid header value: then the request is not sent.
      for (const [name, value] of Object.entries({ ...this.#target.headers, ...extra })) {
        if (value === undefined) headers.delete(name);
        else headers.set(name, value);
      }
    } catch (error) {
      return unsent(`the request could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (body !== undefined && !headers.has("content-type")) headers.set("Content-Type", "application/json");
    let response: Response;
    try {
      response = await this.#fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        redirect: "manual",
        signal: flight.controller.signal,
      });
    } catch (error) {
      this.#rethrowAbort();
      return unsent(
        flight.timedOut() ? `no answer within ${this.#timeoutMs} ms` : `the request failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    return {
      response,
      exchange: { http: `${shown} → ${response.status}`, status: response.status, headers: response.headers, mediaType, body: "", cut: false, events: [] },
    };
  }
}

/**
 * The events of an open SSE stream, one at a time, each wait bounded. `close()` cancels the body
 * and aborts the request; call it once done (it is safe to call twice).
 */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #controller: AbortController;
  readonly #release: () => void;
  readonly #timeoutMs: number;
  readonly #queue: SseEvent[] = [];
  readonly #parser: SseParser;
  #ended = false;
  #closed = false;
  #pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  #events = 0;

  constructor(body: ReadableStream<Uint8Array>, controller: AbortController, release: () => void, timeoutMs: number) {
    this.#reader = body.getReader();
    this.#controller = controller;
    this.#release = release;
    this.#timeoutMs = timeoutMs;
    this.#parser = new SseParser({ onEvent: (event) => this.#queue.push(event), maxEventChars: MAX_EVENT_CHARS });
  }

  /** When a wait that starts now must end: pass it to next() to bound several waits as one. */
  deadline(): number {
    return Date.now() + this.#timeoutMs;
  }

  /**
   * The next event; undefined when the stream ended, broke, went over its bounds, or stayed
   * silent until `deadline` (default: the timeout from now).
   */
  async next(deadline: number = this.deadline()): Promise<SseEvent | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence = new Promise<"silent">((resolve) => (timer = setTimeout(() => resolve("silent"), Math.max(0, deadline - Date.now()))));
    try {
      while (this.#queue.length === 0) {
        if (this.#ended || this.#closed || this.#events >= MAX_EVENTS) return undefined;
        this.#pending ??= this.#reader.read();
        const read = await Promise.race([this.#pending.catch(() => ({ done: true as const, value: undefined })), silence]);
        if (read === "silent") return undefined;
        this.#pending = undefined;
        if (read.done) {
          this.#ended = true;
          this.#parser.end();
        } else this.#parser.push(read.value);
      }
      this.#events++;
      return this.#queue.shift();
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#release();
    await this.#reader.cancel().catch(() => {});
    this.#controller.abort();
    await this.#pending?.catch(() => {});
  }
}

/** Reads a non-SSE body into the exchange: bounded, decoded, always released. */
async function readBody(response: Response, exchange: Exchange): Promise<void> {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) {
        text += decoder.decode();
        break;
      }
      text += decoder.decode(value, { stream: true });
      if (text.length > MAX_BODY_CHARS) {
        exchange.cut = true;
        break;
      }
    }
  } catch {
    exchange.cut = true;
  } finally {
    await reader.cancel().catch(() => {});
  }
  exchange.body = text.slice(0, MAX_BODY_CHARS);
}

/** Reads an SSE body's events until it ends, holds the response to `answerId`, or passes its bounds. */
async function readEvents(response: Response, exchange: Exchange, answerId: string | number | undefined): Promise<void> {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  let found = false;
  let chars = 0;
  const parser = new SseParser({
    maxEventChars: MAX_EVENT_CHARS,
    onEvent: (event) => {
      chars += event.data.length;
      exchange.events.push(event);
      // The body as text, for an excerpt: an event with no data (a priming event) says nothing.
      if (event.data !== "" && exchange.body.length < MAX_BODY_CHARS) {
        exchange.body += `${event.type === "message" ? "" : `event: ${event.type}\n`}data: ${event.data}\n\n`;
      }
      if (answerId !== undefined && event.type === "message") {
        const message = parseJson(event.data);
        if (isObject(message) && message["id"] === answerId && ("result" in message || "error" in message)) found = true;
      }
    },
  });
  try {
    while (!found && exchange.events.length < MAX_EVENTS && chars <= MAX_BODY_CHARS) {
      const { done, value } = await reader.read();
      if (done) {
        parser.end();
        return;
      }
      parser.push(value);
    }
    exchange.cut = !found;
  } catch {
    exchange.cut = true;
  } finally {
    await reader.cancel().catch(() => {});
  }
}
