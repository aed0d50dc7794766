// The one Transport every stateless 2026-07-28 POST goes through — spec 2026-07-28
// basic/transports/streamable-http: no session, no GET stream, no resumability; each request's
// reply is JSON or an SSE stream of that request's notifications ending with its answer; closing
// the stream is the request's cancellation ("Cancellation"). Hosts share this Transport, and two
// hosts may use the same request id: each request gets an internal id of its own on the way in,
// and its host's id back on the way out.

import type { JsonRpcMessage, RequestId } from "../../jsonrpc/messages.ts";
import { isRequest, isResponse } from "../../jsonrpc/messages.ts";
import { TransportBase } from "../lifecycle.ts";
import { type SendOptions, TransportError } from "../transport.ts";
import { acceptedReply, jsonReply, rpcErrorReply } from "./server-replies.ts";
import { RequestExchange, ServerStream } from "./server-stream.ts";
import { sseHeaders, type SseWriter } from "./sse-writer.ts";

/** One request in flight: its host's id and its exchange. */
interface InFlight {
  hostId: RequestId;
  exchange: RequestExchange;
}

/** The status of a JSON answer: the caller maps JSON-RPC errors to HTTP statuses (the transport knows no MCP codes). */
export type AnswerStatus = (answer: JsonRpcMessage) => number;

/**
 * What else in a message sent on request `internal`'s stream names that request by its id (MCP's
 * subscription id is the listen request's id): the caller rewrites it to `host`, the id its host
 * gave; the transport itself rewrites only the answer's own id. Returns the message, or a copy.
 */
export type IdReferences = (message: JsonRpcMessage, internal: RequestId, host: RequestId) => JsonRpcMessage;

/** The shared Transport of the stateless POSTs; `track` is told of each SSE connection. */
export class StatelessTransport extends TransportBase {
  readonly traceName = "streamable-http";
  readonly description = "Streamable HTTP (stateless)";
  readonly #track: (writer: SseWriter) => void;
  readonly #references: IdReferences;
  readonly #inFlight = new Map<number, InFlight>();
  #nextId = 0;

  constructor(track: (writer: SseWriter) => void, references: IdReferences = (message) => message) {
    super();
    this.#track = track;
    this.#references = references;
  }

  /** Requests still waiting for their answer. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  start(): Promise<void> {
    const refused = this.claimStart();
    return refused === undefined ? Promise.resolve() : Promise.reject(refused);
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.ending) return Promise.reject(this.refusal("a message", "closed"));
    if (isResponse(message)) {
      const entry = typeof message.id === "number" ? this.#inFlight.get(message.id) : undefined;
      if (entry !== undefined) {
        this.#inFlight.delete(message.id as number);
        const answer = this.#references({ ...message, id: entry.hostId }, message.id!, entry.hostId);
        entry.exchange.answer(JSON.stringify(answer), answer);
      }
      return Promise.resolve(); // the answer of a request whose client went away goes nowhere
    }
    const related = options?.relatedRequestId;
    const entry = typeof related === "number" ? this.#inFlight.get(related) : undefined;
    // spec 2026-07-28 streamable-http, Receiving Messages: notifications on a request's stream
    // relate to it; the server MUST NOT send requests there (they travel in results: MRTR).
    if (!isRequest(message) && entry?.exchange.related(JSON.stringify(this.#references(message, related!, entry.hostId))) === true) {
      return Promise.resolve();
    }
    if (isRequest(message)) {
      return Promise.reject(
        new TransportError(
          `${this.description}: cannot send ${message.method}: 2026-07-28 Streamable HTTP carries no server-to-client requests`,
          "send-failed",
        ),
      );
    }
    return Promise.resolve(); // no stream to carry it: there is no GET stream on 2026-07-28
  }

  protected shutdown(): Promise<void> {
    for (const { exchange } of this.#inFlight.values()) exchange.cancel();
    this.#inFlight.clear();
    this.notifyClose({ reason: "the HTTP endpoint closed" });
    return Promise.resolve();
  }

  /**
   * One stateless POST: a request is answered on its own reply, under a fresh internal id; a
   * notification is handed on (202). `signal` aborts when the client goes away: that cancels the
   * request (a notifications/cancelled for its internal id reaches the Server).
   */
  post(message: JsonRpcMessage, signal: AbortSignal, status: AnswerStatus): Promise<Response> | Response {
    if (this.ending) return rpcErrorReply(503, -32603, "Internal error: the server is closing", "id" in message ? message.id ?? null : null);
    if (!isRequest(message)) {
      // Responses are never sent by a 2026-07-28 client (Sending Messages 4), and a
      // notifications/cancelled would name an id we cannot tell apart between hosts: closing
      // the stream cancels (spec 2026-07-28 streamable-http, Cancellation).
      if (isResponse(message)) return rpcErrorReply(400, -32600, "Invalid Request: a 2026-07-28 client sends no responses", null);
      if (message.method !== "notifications/cancelled") this.receive(message);
      return acceptedReply();
    }
    const id = ++this.#nextId;
    const exchange = this.#exchange(id, status);
    this.#inFlight.set(id, { hostId: message.id, exchange });
    const cancel = () => this.#cancel(id);
    if (signal.aborted) queueMicrotask(cancel);
    else signal.addEventListener("abort", cancel, { once: true });
    this.receive({ ...message, id });
    return exchange.reply;
  }

  #exchange(id: number, status: AnswerStatus): RequestExchange {
    return new RequestExchange({
      primes: false,
      openStream: () => new ServerStream(undefined, { maxEvents: 0, maxBytes: 0 }, this.#track),
      streamResponse: (writer) => new Response(writer.stream, { status: 200, headers: sseHeaders() }),
      jsonResponse: (answer, message) => jsonReply(answer, status(message as JsonRpcMessage)),
      gone: () => this.#cancel(id),
    });
  }

  /** The client closed the request's stream before its answer: the request is cancelled. */
  #cancel(id: number): void {
    const entry = this.#inFlight.get(id);
    if (entry === undefined) return;
    this.#inFlight.delete(id);
    entry.exchange.cancel();
    this.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "the client closed the request's stream" } });
  }
}
