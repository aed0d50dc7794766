// The server side of Streamable HTTP at the level of the transport: the checks of a POST (its
// Content-Type, Accept, size, JSON depth, one JSON-RPC message), the sessions of the handshake
// era (one Transport each, handed to `connect`; bounded in number, idle-timed-out), their GET
// streams and DELETE, and the one stateless Transport of 2026-07-28 — spec 2025-11-25
// basic/transports ("Streamable HTTP"), spec 2026-07-28 basic/transports/streamable-http. Which
// era a POST belongs to, and what its MCP fields say, is the caller's (src/server/http-front.ts).

import { jsonTextDepth } from "../../common/bounded.ts";
import type { JsonRpcMessage } from "../../jsonrpc/messages.ts";
import { isRequest, whyNotJsonRpc } from "../../jsonrpc/messages.ts";
import { coreRuntime } from "../../runtime/mod.ts";
import type { Transport } from "../transport.ts";
import { accepts, rpcErrorReply } from "./server-replies.ts";
import { HttpSession, idOf } from "./server-session.ts";
import { type AnswerStatus, type IdReferences, StatelessTransport } from "./server-stateless.ts";
import type { SseWriter } from "./sse-writer.ts";

/** Options of StreamableHttpEndpoint: who serves each Transport, and the bounds. */
export interface StreamableHttpEndpointOptions {
  /**
   * Serves a new Transport (the Server's connect): each handshake session (`sessionId` its
   * Mcp-Session-Id), and the stateless one (no id) at the first stateless POST.
   */
  connect(transport: Transport, sessionId: string | undefined): Promise<unknown>;
  /** Handshake sessions at once (default 100): when full, the one idle longest is ended, or 503 with Retry-After. */
  maxSessions?: number;
  /** A session with no request and no open stream for so long is ended (default 30 minutes). */
  idleTimeoutMs?: number;
  /** The largest POST body (default 4 MiB): larger is 413. */
  maxBodyBytes?: number;
  /** The deepest nesting of a POSTed message (default 64): deeper is 400 before it is parsed. */
  maxJsonDepth?: number;
  /** Events each stream keeps for Last-Event-ID (default 256, and at most maxBufferedBytes of their text, default 1 MiB). */
  maxBufferedEvents?: number;
  maxBufferedBytes?: number;
  /** Streams each session keeps, open or resumable (default 32). */
  maxStreams?: number;
  /** How often an open SSE stream gets a comment line, a keep-alive through proxies (default 15 s). */
  keepAliveMs?: number;
  /** Retry-After of a 503 when the sessions are full (default 5 s). */
  retryAfterSeconds?: number;
  /** On the stateless Transport: rewrites what else in a message names its request by id (IdReferences). */
  idReferences?: IdReferences;
}

/** A POST body read and checked: one JSON-RPC message, or the reply that refuses it. */
export type ParsedPost = { message: JsonRpcMessage; reply?: undefined } | { reply: Response; message?: undefined };

export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_MAX_POST_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_JSON_DEPTH = 64;

/** The transport-level server side of one Streamable HTTP endpoint. */
export class StreamableHttpEndpoint {
  readonly #options: StreamableHttpEndpointOptions;
  readonly #sessions = new Map<string, HttpSession>();
  readonly #writers = new Set<SseWriter>();
  #stateless: Promise<StatelessTransport> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: StreamableHttpEndpointOptions) {
    this.#options = options;
  }

  /** Handshake sessions now open. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Whether `id` names a handshake session still open. */
  hasSession(id: string): boolean {
    return this.#sessions.has(id);
  }

  /**
   * Reads and checks a POST: Content-Type application/json (415), Accept listing both
   * application/json and text/event-stream (406; 2025-11-25 transports, Sending Messages 2), the
   * size (413), the nesting (400), JSON (-32700), one JSON-RPC message, not a batch (-32600).
   */
  async parse(request: Request): Promise<ParsedPost> {
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") {
      return { reply: rpcErrorReply(415, -32600, "Unsupported Media Type: a POST carries one JSON-RPC message as application/json") };
    }
    if (!accepts(request, "application/json") || !accepts(request, "text/event-stream")) {
      return { reply: rpcErrorReply(406, -32600, "Not Acceptable: the Accept header must list both application/json and text/event-stream") };
    }
    const limit = this.#options.maxBodyBytes ?? DEFAULT_MAX_POST_BYTES;
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > limit) return { reply: rpcErrorReply(413, -32600, `Payload Too Large: the body is over ${limit} bytes`) };
    const body = await request.arrayBuffer().catch(() => undefined);
    if (body === undefined) return { reply: rpcErrorReply(400, -32700, "Parse error: the request body could not be read") };
    if (body.byteLength > limit) return { reply: rpcErrorReply(413, -32600, `Payload Too Large: the body is over ${limit} bytes`) };
    const text = new TextDecoder().decode(body);
    const maxDepth = this.#options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    if (jsonTextDepth(text, maxDepth + 1) > maxDepth) {
      return { reply: rpcErrorReply(400, -32600, `Invalid Request: the message nests deeper than ${maxDepth} levels`) };
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { reply: rpcErrorReply(400, -32700, "Parse error: the body is not JSON") };
    }
    if (Array.isArray(value)) return { reply: rpcErrorReply(400, -32600, "Invalid Request: a POST carries one JSON-RPC message, not a batch") };
    const why = whyNotJsonRpc(value);
    if (why !== undefined) {
      const id = typeof value === "object" && value !== null && "id" in value ? (value as { id: unknown }).id : null;
      return { reply: rpcErrorReply(400, -32600, `Invalid Request: ${why}`, typeof id === "string" || typeof id === "number" ? id : null) };
    }
    return { message: value as JsonRpcMessage };
  }

  /**
   * A POST of the handshake era: with no Mcp-Session-Id only an `initialize` request, which opens
   * a session (its id on the answer); otherwise the session it names (404 when unknown or ended:
   * 2025-11-25 transports, Session Management 2–3).
   */
  async handshake(request: Request, message: JsonRpcMessage): Promise<Response> {
    const version = request.headers.get("mcp-protocol-version") ?? undefined;
    const id = request.headers.get("mcp-session-id");
    if (id === null) {
      if (!isRequest(message) || message.method !== "initialize") {
        return rpcErrorReply(400, -32600, "Bad Request: Mcp-Session-Id header is required (start a session with initialize)", idOf(message));
      }
      const session = await this.#openSession();
      if (session instanceof Response) return session;
      return session.post(message, version);
    }
    const session = this.#sessions.get(id);
    if (session === undefined) return notFound(idOf(message));
    return session.post(message, version);
  }

  /** A stateless 2026-07-28 POST, through the one shared Transport; `status` gives a JSON answer its HTTP status. */
  async stateless(request: Request, message: JsonRpcMessage, status: AnswerStatus): Promise<Response> {
    if (this.#closed) return rpcErrorReply(503, -32603, "Internal error: the server is closing", idOf(message));
    let transport: StatelessTransport;
    try {
      transport = await (this.#stateless ??= this.#openStateless());
    } catch {
      this.#stateless = undefined;
      return rpcErrorReply(500, -32603, "Internal error: the server could not take the request", idOf(message));
    }
    return transport.post(message, request.signal, status);
  }

  /** A GET: a session's stream (Listening for Messages; resumed with Last-Event-ID). */
  get(request: Request): Response {
    if (!accepts(request, "text/event-stream")) {
      return rpcErrorReply(406, -32600, "Not Acceptable: a GET must accept text/event-stream");
    }
    const session = this.#sessionOf(request);
    if (session instanceof Response) return session;
    return session.get(request.headers.get("last-event-id"), request.headers.get("mcp-protocol-version") ?? undefined);
  }

  /** A DELETE: the session ends (2025-11-25 transports, Session Management 5); later requests get 404. */
  async delete(request: Request): Promise<Response> {
    const session = this.#sessionOf(request);
    if (session instanceof Response) return session;
    await session.close();
    return new Response(null, { status: 200 });
  }

  /** Ends every session and the stateless Transport, and every open stream. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.all([...this.#sessions.values()].map((session) => session.close()));
    const stateless = this.#stateless;
    this.#stateless = undefined;
    if (stateless !== undefined) await stateless.then((transport) => transport.close(), () => {});
    for (const writer of this.#writers) writer.close();
    this.#writers.clear();
  }

  #sessionOf(request: Request): HttpSession | Response {
    const id = request.headers.get("mcp-session-id");
    if (id === null) return rpcErrorReply(400, -32600, "Bad Request: Mcp-Session-Id header is required");
    return this.#sessions.get(id) ?? notFound(null);
  }

  async #openSession(): Promise<HttpSession | Response> {
    if (this.#closed) return rpcErrorReply(503, -32603, "Internal error: the server is closing");
    const max = this.#options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    if (this.#sessions.size >= max) {
      // The one idle longest makes room; when every session is busy, the client is told to come back.
      let oldest: HttpSession | undefined;
      for (const session of this.#sessions.values()) {
        if (!session.busy && (oldest === undefined || session.lastActive < oldest.lastActive)) oldest = session;
      }
      if (oldest === undefined) {
        const seconds = this.#options.retryAfterSeconds ?? 5;
        return rpcErrorReply(503, -32603, `Service Unavailable: ${max} sessions are open and busy; try again in ${seconds} s`, null, {
          "retry-after": String(seconds),
        });
      }
      await oldest.close();
    }
    const session = new HttpSession(newSessionId(), {
      bounds: { maxEvents: this.#options.maxBufferedEvents ?? 256, maxBytes: this.#options.maxBufferedBytes ?? 1024 * 1024 },
      maxStreams: this.#options.maxStreams ?? 32,
      track: (writer) => this.#track(writer),
      ended: (ended) => {
        if (this.#sessions.get(ended.id) === ended) this.#sessions.delete(ended.id);
      },
    });
    this.#sessions.set(session.id, session);
    this.#arm();
    try {
      await this.#options.connect(session, session.id);
    } catch {
      await session.close();
      return rpcErrorReply(500, -32603, "Internal error: the server could not take the session");
    }
    return session;
  }

  async #openStateless(): Promise<StatelessTransport> {
    const transport = new StatelessTransport((writer) => this.#track(writer), this.#options.idReferences);
    transport.onclose = () => {
      if (this.#stateless !== undefined) this.#stateless = undefined;
    };
    await this.#options.connect(transport, undefined);
    return transport;
  }

  #track(writer: SseWriter): void {
    this.#writers.add(writer);
    this.#arm();
  }

  /** One timer for the endpoint, while it has sessions or streams: keep-alive pings and the idle sweep. */
  #arm(): void {
    if (this.#timer !== undefined || this.#closed) return;
    const keepAlive = this.#options.keepAliveMs ?? 15_000;
    const idle = this.#options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#tick(idle);
      if (this.#sessions.size > 0 || this.#writers.size > 0) this.#arm();
    }, Math.max(10, Math.min(keepAlive, idle / 4)));
    coreRuntime.timerKeepsAlive(this.#timer, false);
  }

  #tick(idle: number): void {
    for (const writer of this.#writers) {
      if (writer.open) writer.comment("keep-alive");
      else this.#writers.delete(writer);
    }
    const now = Date.now();
    for (const session of [...this.#sessions.values()]) {
      if (!session.busy && now - session.lastActive > idle) void session.close();
    }
  }
}

/** 404 for a session that is not (or no longer) there (2025-11-25 transports, Session Management 3). */
function notFound(id: string | number | null): Response {
  return rpcErrorReply(404, -32001, "Session not found: it ended or never existed; start a new one with initialize", id);
}

/** A session id: 24 random bytes as base64url, visible ASCII only (2025-11-25 transports, Session Management 1). */
function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_");
}
