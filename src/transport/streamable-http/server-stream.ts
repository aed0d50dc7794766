// The server's side of one SSE stream and of one POSTed request — spec 2025-11-25
// basic/transports ("Sending Messages to the Server" 5–6, "Resumability and Redelivery"), spec
// 2026-07-28 basic/transports/streamable-http ("Receiving Messages"). A ServerStream is the
// stream as the session knows it (its event ids, its log), which outlives a dropped connection;
// a RequestExchange is one POST of a request: a JSON answer when the answer comes first, an SSE
// stream when messages related to the request come before it.

import { EventLog } from "./event-log.ts";
import { SseWriter } from "./sse-writer.ts";

/** Bounds of the events a resumable stream keeps for Last-Event-ID. */
export interface StreamLogBounds {
  maxEvents: number;
  maxBytes: number;
}

/**
 * One logical SSE stream: events written to its connection while there is one, and (when it is
 * resumable) kept in its log, so a GET with Last-Event-ID replays what the client missed and goes
 * on. Event ids are `<key>-<seq>`: the key names the stream, unique in its session (2025-11-25
 * transports, Resumability 1: ids unique across the session's streams, naming the stream).
 */
export class ServerStream {
  /** Undefined: no event ids and no log (2026-07-28: streams are not resumable). */
  readonly key: string | undefined;
  readonly #log: EventLog | undefined;
  readonly #track: (writer: SseWriter) => void;
  #writer: SseWriter | undefined;
  #ended = false;
  /** When its last connection dropped (or now, when never connected): for dropping old streams first. */
  lastSeen = Date.now();

  /** `track` is told of each connection (the endpoint's keep-alive pings and close() reach them). */
  constructor(key: string | undefined, bounds: StreamLogBounds, track: (writer: SseWriter) => void) {
    this.key = key;
    this.#log = key === undefined ? undefined : new EventLog(bounds.maxEvents, bounds.maxBytes);
    this.#track = track;
  }

  /** A client is connected to it now. */
  get connected(): boolean {
    return this.#writer?.open === true;
  }

  /** Its last event was written (the answer of its request); it closes once that is delivered. */
  get ended(): boolean {
    return this.#ended;
  }

  /** A new connection to this stream, replacing any earlier one; `onGone` runs when that client goes away. */
  connect(onGone: () => void): SseWriter {
    this.#writer?.close();
    const writer = new SseWriter(() => {
      this.lastSeen = Date.now();
      onGone();
    });
    this.#writer = writer;
    this.#track(writer);
    if (this.#ended) writer.close();
    return writer;
  }

  /**
   * A connection that first replays the events after `seq` (2025-11-25 transports,
   * Resumability 2: on the stream that was disconnected, never another's), then goes on live, or
   * closes when the stream had ended. Undefined when those events are no longer all kept.
   */
  resume(seq: number, onGone: () => void): SseWriter | undefined {
    const missed = this.#log?.after(seq);
    if (missed === undefined) return undefined;
    const ended = this.#ended;
    this.#ended = false; // connect() must not close it before the replay
    const writer = this.connect(onGone);
    for (const event of missed) writer.event(event.data, `${this.key}-${event.seq}`);
    this.#ended = ended;
    if (ended) writer.close();
    return writer;
  }

  /** Writes one event (JSON text, or "" for the priming event); kept in the log when resumable. */
  send(data: string): void {
    if (this.#ended) return;
    const seq = this.#log?.append(data);
    this.#writer?.event(data, seq === undefined ? undefined : `${this.key}-${seq}`);
  }

  /** The stream is over: its connection closes once what was written is delivered. */
  end(): void {
    this.#ended = true;
    this.#writer?.close();
  }
}

/** How an exchange makes its response: the stream of an SSE answer, the JSON answer's response. */
export interface ExchangeReplies {
  /** A new stream for this request's SSE answer. */
  openStream(): ServerStream;
  /**
   * Its first event is the priming one, an id and empty data, so the client can resume it from
   * the start (2025-11-25 transports, Sending Messages 6; clients of earlier versions may not skip it).
   */
  readonly primes: boolean;
  /** The response carrying the SSE stream (status 200, the session's headers). */
  streamResponse(writer: SseWriter): Response;
  /** The response carrying the answer alone, as application/json. */
  jsonResponse(answer: string, message: unknown): Response;
  /** The client went away from the SSE stream (the request's signal aborted, or it cancelled the body). */
  gone(): void;
}

/**
 * One POST of a JSON-RPC request and its reply (2025-11-25 transports, Sending Messages 5–6): the
 * reply waits for the first message about the request; the answer itself becomes an
 * application/json response, a related notification or request first turns it into an SSE
 * stream that carries them, then the answer, then ends.
 */
export class RequestExchange {
  readonly reply: Promise<Response>;
  readonly #replies: ExchangeReplies;
  #resolve!: (response: Response) => void;
  #stream: ServerStream | undefined;
  #done = false;

  constructor(replies: ExchangeReplies) {
    this.#replies = replies;
    this.reply = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** The answer was written, or the exchange was cancelled: nothing more goes on its stream. */
  get done(): boolean {
    return this.#done;
  }

  /** The stream of its SSE answer, once it has one. */
  get stream(): ServerStream | undefined {
    return this.#stream;
  }

  /** A message about the request, not its answer; false when the exchange is over (send it elsewhere). */
  related(data: string): boolean {
    if (this.#done) return false;
    this.#streaming().send(data);
    return true;
  }

  /** The request's answer: the JSON response, or the last event of its stream. */
  answer(data: string, message: unknown): void {
    if (this.#done) return;
    this.#done = true;
    if (this.#stream === undefined) return this.#resolve(this.#replies.jsonResponse(data, message));
    this.#stream.send(data);
    this.#stream.end();
  }

  /** Ends the exchange with no answer (the request was cancelled, the session ended): its stream closes. */
  cancel(): void {
    if (this.#done) return;
    this.#done = true;
    this.#streaming().end();
  }

  #streaming(): ServerStream {
    if (this.#stream === undefined) {
      this.#stream = this.#replies.openStream();
      this.#resolve(this.#replies.streamResponse(this.#stream.connect(() => this.#replies.gone())));
      if (this.#replies.primes) this.#stream.send("");
    }
    return this.#stream;
  }
}
