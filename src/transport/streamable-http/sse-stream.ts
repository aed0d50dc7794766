// The SSE streams of Streamable HTTP: reading one (a request's answer, or the GET stream for
// what the server starts), and opening or reopening one with a GET, resuming from the last
// event id — spec 2025-11-25 basic/transports ("Sending Messages" 5-6, "Listening for Messages
// from the Server", "Resumability and Redelivery").

import { durationText } from "../../common/duration.ts";
import { sleep } from "../../common/timing.ts";
import { bodyStart, fetchFailureReason, HttpStatusError, type RedactFn, showUrl, statusAdvice } from "../http-errors.ts";
import { isBusyStatus, retryAfterMs } from "../retry-after.ts";
import { fetchSameOrigin } from "../same-origin-fetch.ts";
import { type SseEvent, SseParser } from "../sse-parser.ts";
import { reconnectDelay, type ReconnectOptions } from "../sse-reconnect.ts";
import { TransportError } from "../transport.ts";
import { LinkedAbort } from "./abort.ts";
import { type Exchange, type GetOutcome, isEventStream, type PumpEnd, quoteBody, retryableStatus, sessionGone, type StreamCursor } from "./wire.ts";

/** What the stream reader needs of the transport: where and how to GET, and where events go. */
export interface StreamContext {
  readonly description: string;
  readonly url: URL;
  readonly fetch: typeof fetch;
  readonly requestInit: RequestInit;
  /** Bound of each GET until its headers. */
  readonly timeoutMs: number;
  readonly reconnect: ReconnectOptions;
  readonly maxRetryAfterMs: number;
  /** Largest SSE event accepted, in characters. */
  readonly maxMessageBytes: number;
  /** The session a GET goes in, if any (a 404 then means the server ended it). */
  sessionId(): string | undefined;
  headersFor(method: "GET"): Headers;
  redact: RedactFn;
  /** One whole event of the stream named `where`; `owner` is the request whose own stream it is. */
  receiveEvent(event: SseEvent, where: string, owner: Exchange | undefined): void;
  /** An event over maxMessageBytes was skipped; `head` is its start, `owner` the request whose stream it was on. */
  eventTooLarge(problem: string, head: string, where: string, owner: Exchange | undefined): void;
}

/** How the GET stream's listening ends when the stream cannot go on. */
export interface ListenEnds {
  /** The server ended the session (a 404 to the GET): a new one must be started. */
  sessionGone(status: number): void;
  /** The stream cannot be (re)opened; server-initiated messages will not arrive. */
  failed(error: unknown): void;
}

/** A fresh cursor, for a stream that has not been read yet. */
export function newCursor(): StreamCursor {
  return { lastEventId: "", retryMs: undefined, attempts: 0, lastProblem: "" };
}

/** Reads and (re)opens the SSE streams of one transport. */
export class SseStreams {
  readonly #context: StreamContext;

  constructor(context: StreamContext) {
    this.#context = context;
  }

  /**
   * Feeds one SSE body to the parser, delivering its messages, until it ends, breaks, `stop`
   * aborts (which cancels the body), or — on a request's own stream — the request's answer
   * came: the body is then let go here, without an abort.
   */
  async pump(response: Response, cursor: StreamCursor, stop: AbortSignal, where: string, owner?: Exchange): Promise<PumpEnd> {
    const body = response.body;
    if (body === null) return { kind: "ended" };
    const reader = body.getReader();
    const parser = new SseParser({
      onEvent: (event) => {
        cursor.attempts = 0;
        this.#context.receiveEvent(event, where, owner);
      },
      onId: (id) => {
        cursor.lastEventId = id;
        cursor.attempts = 0;
      },
      onRetry: (ms) => (cursor.retryMs = ms),
      maxEventChars: this.#context.maxMessageBytes,
      onProblem: (message, head) => this.#context.eventTooLarge(message, head, where, owner),
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
        if (owner?.answered) return { kind: "ended" };
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
  async connect(cursor: StreamCursor, signal: AbortSignal, name: string, why: string, immediate: boolean): Promise<Response> {
    for (let tries = 0;; tries++) {
      if (!(immediate && tries === 0)) {
        if (cursor.attempts >= this.#context.reconnect.maxRetries) {
          throw new TransportError(
            `${this.#context.description}: ${name} ${why}; gave up after ${cursor.attempts} reconnection attempt(s)` +
              (cursor.lastProblem !== "" ? ` (the last: ${cursor.lastProblem})` : "") +
              `; raise reconnect.maxRetries if the server needs longer`,
            "reconnect-failed",
          );
        }
        let wait = reconnectDelay(cursor.attempts, this.#context.reconnect, cursor.retryMs);
        // A 429 or 503 said when to come back: not before then (within maxRetryAfterMs).
        if (cursor.retryAfterMs !== undefined) wait = Math.max(wait, Math.min(cursor.retryAfterMs, this.#context.maxRetryAfterMs));
        cursor.retryAfterMs = undefined;
        cursor.attempts++;
        if (!(await sleep(wait, signal).then(() => true, () => false))) {
          throw new TransportError(`${this.#context.description}: ${name} was stopped`, "cancelled");
        }
      }
      const outcome = await this.#open(cursor.lastEventId, signal, name);
      if ("response" in outcome) return outcome.response;
      if ("fatal" in outcome) throw outcome.fatal;
      cursor.lastProblem = outcome.problem;
      cursor.retryAfterMs = outcome.retryAfterMs;
    }
  }

  async #open(lastEventId: string, signal: AbortSignal, name: string): Promise<GetOutcome> {
    const hadSession = this.#context.sessionId() !== undefined;
    const headers = this.#context.headersFor("GET");
    // 2025-11-25 transports (Resumability and Redelivery) 2: resume with the last event id.
    if (lastEventId !== "") headers.set("Last-Event-ID", lastEventId);
    const shown = `GET ${showUrl(this.#context.url)}${lastEventId !== "" ? ` (Last-Event-ID ${lastEventId})` : ""}`;
    // The timeout covers the wait for headers only; once the stream is open, `signal` stops it.
    const limit = new LinkedAbort(signal, this.#context.timeoutMs);
    try {
      const { response, url } = await fetchSameOrigin(
        this.#context.fetch,
        this.#context.url,
        { ...this.#context.requestInit, method: "GET", headers, signal: limit.signal },
        this.#context.description,
      );
      limit.dispose();
      const type = response.headers.get("content-type") ?? "";
      if (response.ok && isEventStream(type)) return { response };
      const status = response.status;
      const start = await bodyStart(response, this.#context.redact, undefined, signal);
      const said = `${this.#context.description}: ${name}: GET ${showUrl(url)} answered HTTP ${status}${quoteBody(start)}`;
      if (response.ok) {
        return {
          fatal: new HttpStatusError(`${said}, with Content-Type ${JSON.stringify(type)} instead of text/event-stream`, "bad-content-type", {
            status,
            url: url.href,
            bodyStart: start,
          }),
        };
      }
      if (sessionGone(status, start, hadSession)) {
        return { fatal: new HttpStatusError(`${said}: the server ended the session`, "session-expired", { status, url: url.href, bodyStart: start }) };
      }
      if (retryableStatus(status)) {
        const retryAfter = isBusyStatus(status) ? retryAfterMs(response.headers) : undefined;
        return { problem: `HTTP ${status}${quoteBody(start)}`, retryAfterMs: retryAfter };
      }
      if (status === 405) {
        // Listening 3: the server offers no GET stream (so none can be resumed either).
        return { fatal: new HttpStatusError(`${said}: the server offers no SSE stream on GET`, "http-status", { status, url: url.href, bodyStart: start }) };
      }
      return { fatal: new HttpStatusError(`${said}; ${statusAdvice(status)}`, "http-status", { status, url: url.href, bodyStart: start }) };
    } catch (error) {
      if (signal.aborted) return { fatal: new TransportError(`${this.#context.description}: ${name} was stopped`, "cancelled", { cause: error }) };
      if (limit.timedOut) return { problem: `${shown} got no answer within ${durationText(this.#context.timeoutMs)}` };
      if (error instanceof TransportError && error.code.startsWith("redirect")) return { fatal: error };
      return { problem: `${shown} failed: ${fetchFailureReason(error instanceof TransportError ? error.cause ?? error : error)}` };
    } finally {
      limit.dispose();
    }
  }

  /**
   * Reads a request's SSE stream until its answer. A stream that ends or breaks first is
   * resumed with a GET carrying Last-Event-ID when it had event ids (2025-11-25 transports,
   * Resumability and Redelivery); otherwise the request fails — sending it again could do
   * its work twice.
   */
  async follow(exchange: Exchange, response: Response, stateless: boolean): Promise<void> {
    const cursor = newCursor();
    const name = `the SSE stream answering ${exchange.what}`;
    const signal = exchange.abort.signal;
    let current = response;
    for (;;) {
      const end = await this.pump(current, cursor, signal, name, exchange);
      if (exchange.answered) return;
      if (signal.aborted) throw new TransportError(`${this.#context.description}: ${name} was stopped`, "cancelled");
      // 2025-11-25 transports (Sending Messages) 6: the server MAY close the connection
      // without terminating the stream; disconnection is not a cancellation.
      const why = end.kind === "broken" ? `broke (${end.reason})` : "ended";
      // spec 2026-07-28 streamable-http ("Receiving Messages"): streams are not resumable; a
      // broken one loses the request, which the client re-issues as a new one where safe.
      if (stateless) {
        throw new TransportError(
          `${this.#context.description}: ${name} ${why} before the answer; on the 2026-07-28 wire a response stream cannot be resumed`,
          "stream-lost",
        );
      }
      if (cursor.lastEventId === "") {
        throw new TransportError(
          `${this.#context.description}: ${name} ${why} before the answer, and the server gave no event id to resume it with; ` +
            `the request was not sent again (it may or may not have taken effect)`,
          "stream-broken",
        );
      }
      try {
        current = await this.connect(cursor, signal, name, why, false);
      } catch (error) {
        if (exchange.answered || signal.aborted || !(error instanceof TransportError)) throw error;
        throw new TransportError(`${error.message}; the request was not sent again (it may or may not have taken effect)`, error.code, {
          cause: error,
        });
      }
    }
  }

  /**
   * 2025-11-25 transports (Listening for Messages from the Server): GET the endpoint; 405
   * means the server offers no such stream, which is fine. The server MAY close the stream
   * at any time; it is reopened (after the server's retry interval when given), resuming
   * from the last event id when there was one. It ends when `signal` aborts, or through `ends`.
   */
  async listen(signal: AbortSignal, ends: ListenEnds): Promise<void> {
    const cursor = newCursor();
    const name = "the GET stream for server messages";
    let why = "could not be opened";
    for (let first = true;; first = false) {
      let response: Response;
      try {
        response = await this.connect(cursor, signal, name, why, first);
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof HttpStatusError && error.status === 405) return; // Listening 3: no stream offered
        if (error instanceof HttpStatusError && error.code === "session-expired") ends.sessionGone(error.status);
        else ends.failed(error);
        return;
      }
      const end = await this.pump(response, cursor, signal, name);
      if (signal.aborted) return;
      why = end.kind === "broken" ? `broke (${end.reason})` : "ended";
    }
  }
}
