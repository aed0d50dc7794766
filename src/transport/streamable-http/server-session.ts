// One handshake-era session of the Streamable HTTP server side, as the Transport its Server
// connection speaks through — spec 2025-11-25 basic/transports ("Session Management",
// "Sending Messages to the Server", "Listening for Messages from the Server", "Multiple
// Connections", "Resumability and Redelivery"). Each POSTed request gets its own exchange (JSON or
// SSE); a message sent with SendOptions.relatedRequestId goes on that request's stream, one sent
// with none on the session's GET stream; every stream is resumable with Last-Event-ID.

import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../../jsonrpc/messages.ts";
import { isRequest, isResponse } from "../../jsonrpc/messages.ts";
import { TransportBase } from "../lifecycle.ts";
import { type SendOptions, TransportError } from "../transport.ts";
import { acceptedReply, jsonReply, rpcErrorReply } from "./server-replies.ts";
import { RequestExchange, ServerStream, type StreamLogBounds } from "./server-stream.ts";
import { sseHeaders, type SseWriter } from "./sse-writer.ts";

/** What a session takes from its endpoint. */
export interface SessionSettings {
  readonly bounds: StreamLogBounds;
  /** Streams a session keeps (open, or kept to be resumed): beyond it the oldest closed one is forgotten. */
  readonly maxStreams: number;
  /** Each new SSE connection (for keep-alive pings, and close()). */
  track(writer: SseWriter): void;
  /** The session ended (DELETE, idle, the Server closed it): the endpoint forgets it. */
  ended(session: HttpSession): void;
}

/** The first protocol version whose clients expect the priming event (2025-11-25 transports, Sending Messages 6). */
const PRIMING_SINCE = "2025-11-25";

/** A handshake-era session: the Transport of its Server connection, and the HTTP side of its streams. */
export class HttpSession extends TransportBase {
  readonly traceName = "streamable-http";
  readonly description: string;
  /** The Mcp-Session-Id: visible ASCII from crypto random (2025-11-25 transports, Session Management 1). */
  readonly id: string;
  /** When a request last came in, or a stream last closed: the idle timeout counts from it. */
  lastActive = Date.now();
  readonly #settings: SessionSettings;
  readonly #pending = new Map<RequestId, RequestExchange>();
  /** Every stream by key, oldest first: POST streams while open or kept for resumption, GET streams. */
  readonly #streams = new Map<string, ServerStream>();
  #getStream: ServerStream | undefined;
  #count = 0;

  constructor(id: string, settings: SessionSettings) {
    super();
    this.id = id;
    // The id is a bearer of the session: messages show its start only.
    this.description = `Streamable HTTP session ${id.slice(0, 8)}…`;
    this.#settings = settings;
  }

  /** A request is being answered, or a client is connected to one of its streams: not idle. */
  get busy(): boolean {
    if (this.#pending.size > 0) return true;
    for (const stream of this.#streams.values()) if (stream.connected) return true;
    return false;
  }

  /** The headers every answer in this session carries. */
  get headers(): Record<string, string> {
    return { "mcp-session-id": this.id };
  }

  start(): Promise<void> {
    const refused = this.claimStart();
    return refused === undefined ? Promise.resolve() : Promise.reject(refused);
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.ending) return Promise.reject(this.refusal("a message", "closed"));
    const data = JSON.stringify(message);
    if (isResponse(message)) {
      const exchange = this.#pending.get(message.id ?? "");
      // An answer to a request cancelled (or whose session moved on) goes nowhere.
      if (exchange !== undefined) {
        this.#pending.delete(message.id!);
        exchange.answer(data, message);
      }
      return Promise.resolve();
    }
    const related = options?.relatedRequestId;
    if (related !== undefined && this.#pending.get(related)?.related(data) === true) return Promise.resolve();
    // Not about a request still open: the session's GET stream (Listening for Messages 4), kept
    // in its log while no client is connected, so that a resume gets it.
    if (this.#getStream !== undefined) {
      this.#getStream.send(data);
      return Promise.resolve();
    }
    if (isRequest(message)) {
      return Promise.reject(
        new TransportError(`${this.description}: cannot send ${message.method}: the client has no GET stream open to carry it`, "send-failed"),
      );
    }
    return Promise.resolve(); // a notification with no stream to go on is dropped (the spec gives it no other way)
  }

  protected shutdown(): Promise<void> {
    for (const exchange of this.#pending.values()) exchange.cancel();
    this.#pending.clear();
    for (const stream of this.#streams.values()) stream.end();
    this.#streams.clear();
    this.#getStream = undefined;
    this.#settings.ended(this);
    this.notifyClose({ reason: "the session ended" });
    return Promise.resolve();
  }

  /**
   * One POSTed message of this session. A request: its reply (JSON or SSE); a notification or
   * response: 202 once handed on. `version` is the request's MCP-Protocol-Version (for priming).
   */
  post(message: JsonRpcMessage, version: string | undefined): Promise<Response> | Response {
    this.lastActive = Date.now();
    if (this.ending) return rpcErrorReply(404, -32001, "Session not found: it has ended; start a new one with initialize", idOf(message));
    if (!isRequest(message)) {
      if ("method" in message && message.method === "notifications/cancelled") this.#cancelled(message.params?.requestId);
      this.receive(message);
      return acceptedReply(this.headers);
    }
    if (this.#pending.has(message.id)) {
      return rpcErrorReply(
        400,
        -32600,
        `Invalid Request: id ${JSON.stringify(message.id)} is already in use by a request of this session`,
        message.id,
        this.headers,
      );
    }
    const exchange = this.#exchange(message, version);
    this.#pending.set(message.id, exchange);
    // 2025-11-25 transports, Sending Messages 6: a disconnection is not a cancellation (the
    // request's signal is not watched); what is sent meanwhile stays in its stream's log.
    this.receive(message);
    return exchange.reply;
  }

  /**
   * A GET (Listening for Messages; Resumability 2): with `lastEventId`, the stream it names
   * resumed; without, a new GET stream that carries what is sent with no related request.
   * `version` is the GET's MCP-Protocol-Version (for priming).
   */
  get(lastEventId: string | null, version: string | undefined): Response {
    this.lastActive = Date.now();
    if (lastEventId !== null) {
      const cut = lastEventId.lastIndexOf("-");
      const stream = cut > 0 ? this.#streams.get(lastEventId.slice(0, cut)) : undefined;
      const seq = Number(lastEventId.slice(cut + 1));
      const writer = stream !== undefined && Number.isSafeInteger(seq) ? stream.resume(seq, () => this.#dropped()) : undefined;
      if (writer === undefined) {
        return rpcErrorReply(
          400,
          -32600,
          `Bad Request: Last-Event-ID ${JSON.stringify(lastEventId.slice(0, 64))} names no stream of this session whose events after it are still kept`,
          null,
          this.headers,
        );
      }
      return new Response(writer.stream, { status: 200, headers: sseHeaders(this.headers) });
    }
    const stream = this.#newStream("g");
    this.#getStream = stream;
    const writer = stream.connect(() => this.#dropped());
    // The priming event: its id lets the client resume from the start (for the clients that expect one).
    if ((version ?? "") >= PRIMING_SINCE) stream.send("");
    return new Response(writer.stream, { status: 200, headers: sseHeaders(this.headers) });
  }

  #exchange(request: JsonRpcRequest, version: string | undefined): RequestExchange {
    const primes = (version ?? (request.method === "initialize" ? String(request.params?.protocolVersion) : "")) >= PRIMING_SINCE;
    return new RequestExchange({
      primes,
      openStream: () => this.#newStream("p"),
      streamResponse: (writer) => new Response(writer.stream, { status: 200, headers: sseHeaders(this.headers) }),
      jsonResponse: (answer, message) => {
        // An initialize answered with an error starts no session: no id given, the session ends.
        if (request.method === "initialize" && typeof message === "object" && message !== null && "error" in message) {
          queueMicrotask(() => void this.close());
          return jsonReply(answer);
        }
        return jsonReply(answer, 200, this.headers);
      },
      gone: () => this.#dropped(),
    });
  }

  #newStream(kind: "p" | "g"): ServerStream {
    const stream = new ServerStream(`${kind}${++this.#count}`, this.#settings.bounds, (writer) => this.#settings.track(writer));
    this.#streams.set(stream.key!, stream);
    this.#forgetOldStreams();
    return stream;
  }

  /** A client went away from one of the streams (kept for a resume): the idle time counts from now. */
  #dropped(): void {
    this.lastActive = Date.now();
  }

  /** Keeps at most maxStreams: the oldest that has no client connected is forgotten first. */
  #forgetOldStreams(): void {
    if (this.#streams.size <= this.#settings.maxStreams) return;
    const idle = [...this.#streams.values()].filter((stream) => !stream.connected && stream !== this.#getStream).sort((a, b) => a.lastSeen - b.lastSeen);
    for (const stream of idle) {
      if (this.#streams.size <= this.#settings.maxStreams) break;
      stream.end();
      this.#streams.delete(stream.key!);
    }
  }

  /** notifications/cancelled for a request of this session: its stream closes (the Server aborts its handler). */
  #cancelled(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    const exchange = this.#pending.get(requestId);
    if (exchange === undefined) return;
    this.#pending.delete(requestId);
    exchange.cancel();
  }
}

/** A message's id, when it has one. */
export function idOf(message: JsonRpcMessage): RequestId | null {
  return "id" in message && (typeof message.id === "string" || typeof message.id === "number") ? message.id : null;
}
