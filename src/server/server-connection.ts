// One connection of the server half over a Transport: a Peer, the chain composed once, and the
// lifecycle of both eras on it — the handshake session (spec 2025-11-25 basic/lifecycle) and
// the stateless 2026-07-28 requests (spec 2026-07-28 basic/versioning: "A dual-era server
// selects its behavior from how the client opens"). On a server the chain's `receive` links see
// the host's requests and `send` links the requests we send the host (docs/architecture.md,
// "The server half"); the first link is the lifecycle's own, then ServerOptions.middleware,
// then the handlers.

import type { ProtocolEra } from "../client/protocol-version.ts";
import type { JsonObject } from "../client/types.ts";
import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import { jsonKind } from "../common/json.ts";
import { withTimeout } from "../common/timing.ts";
import { type CloseDetails, ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { type Chain, composeChain, type Hear, type Middleware, type Receive } from "../jsonrpc/middleware.ts";
import { type IncomingRequestContext, type Params, Peer } from "../jsonrpc/peer.ts";
import { MalformedMessageError } from "../transport/malformed-message.ts";
import type { TraceSink } from "../transport/trace-event.ts";
import { TracingTransport } from "../transport/tracing.ts";
import { type Transport, TransportError, UndeliverableMessageError } from "../transport/transport.ts";
import { discoverResult } from "./discover.ts";
import { ServerError } from "./errors.ts";
import { alreadyInitialized, handshakeIdentity, initializeResult, readInitialize } from "./handshake.ts";
import { Session } from "./host-session.ts";
import { keptFilter, ListenStreams, readListenFilter, supportedFilter } from "./listen-streams.ts";
import { isLoggingLevel } from "./log-level.ts";
import { carriesModernFields, MODERN_ONLY_METHODS, readModernFields, REMOVED_MODERN_METHODS, stampModernResult, supportedVersions } from "./modern-fields.ts";
import { type ContextPort, RequestContext } from "./request-context.ts";
import type { HostIdentity, ServerHandlers } from "./server-handlers.ts";

/** One connection a Server serves: when it ends, and how to end it. */
export interface ServerConnection {
  /** Resolves once the connection has ended (the host went away, or close()), with why. Never rejects. */
  readonly closed: Promise<CloseDetails>;
  /** Ends the connection: listen streams answered, the transport closed; bounded. */
  close(): Promise<void>;
}

/** What a connection needs of the Server that made it. */
export interface ConnectionOwner {
  /** Names the server in messages: `server "everything"`. */
  readonly who: string;
  readonly handlers: ServerHandlers;
  readonly eras: readonly ProtocolEra[];
  readonly middleware: readonly Middleware[];
  readonly requestTimeoutMs: number | undefined;
  readonly trace: TraceSink | undefined;
  readonly traceName: string;
  onProblem(message: string): void;
  /** A fresh session id, unique in the server. */
  newSessionId(): string;
  /** A session began / ended: the Server's map and the handlers' hooks. */
  opened(session: Session): void;
  ended(session: Session): void;
}

/** How long close() waits for the transport to close before the connection is taken as ended. */
const CLOSE_TIMEOUT_MS = 5000;

/** One connection: its Peer, its chain, its sessions (at most one of each era) and listen streams. */
export class ServerConnectionImpl implements ServerConnection {
  readonly closed: Promise<CloseDetails>;
  readonly #owner: ConnectionOwner;
  readonly #transport: Transport;
  readonly #peer: Peer;
  readonly #chain: Chain;
  readonly #port: ContextPort;
  readonly #streams: ListenStreams;
  /** ConnectOptions.sessionId: the handshake session's id (HTTP's Mcp-Session-Id). */
  readonly #sessionId: string | undefined;
  #handshake: Session | undefined;
  #modern: Session | undefined;
  #resolveClosed!: (details: CloseDetails) => void;
  #ended = false;
  #closing: Promise<void> | undefined;

  constructor(owner: ConnectionOwner, transport: Transport, sessionId: string | undefined) {
    this.#owner = owner;
    this.#sessionId = sessionId;
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    this.#transport = owner.trace === undefined ? transport : new TracingTransport(transport, undefined, { sink: owner.trace, server: owner.traceName });
    const wire = this.#transport;
    this.#peer = new Peer({
      name: `${owner.who} (the host on ${transport.description})`,
      send: (message, options) => options === undefined ? wire.send(message) : wire.send(message, options),
      defaultTimeoutMs: owner.requestTimeoutMs,
      onProblem: owner.onProblem,
    });
    // The Peer answers ping on its own; here ping is an era's question (the chain's lifecycle link answers it).
    this.#peer.removeRequestHandler("ping");
    const peer = this.#peer;
    const handlers = owner.handlers;
    this.#chain = composeChain([this.#lifecycleLink(), ...owner.middleware], {
      send: (method, params, options) => peer.request(method, params, options),
      // The lifecycle link hands every link after it the request's RequestContext (a link passes it on as it got it).
      receive: (method, params, context) => handlers.request(method, params, context as RequestContext),
      hear: (method, params) => handlers.notification?.(method, params, this.#handshake ?? this.#modernSession()),
    });
    peer.setReceiver(this.#chain.receive, this.#chain.hear);
    this.#port = {
      who: owner.who,
      notify: (method, params, options) => peer.notify(method, params, options),
      send: this.#chain.send,
      onProblem: owner.onProblem,
    };
    this.#streams = new ListenStreams((method, params, options) => peer.notify(method, params, options));
  }

  /** Starts the transport; what arrives goes to the Peer from then on. */
  async start(): Promise<void> {
    const wire = this.#transport;
    wire.onmessage = (message) => this.#peer.receive(message);
    wire.onclose = (details) => this.#end(details);
    wire.onerror = (error) => this.#transportError(error);
    await wire.start();
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    if (this.#ended) return;
    // spec 2026-07-28 subscriptions ("Graceful Closure"): each listen request answered before the stream closes.
    this.#streams.endAll();
    await new Promise((resolve) => setTimeout(resolve, 0)); // their answers reach the transport first
    const late = () => new TransportError(`${this.#transport.description} did not close within ${durationText(CLOSE_TIMEOUT_MS)}`, "timeout");
    await withTimeout(this.#transport.close(), CLOSE_TIMEOUT_MS, late).catch((error: unknown) =>
      this.#owner.onProblem(`${this.#owner.who}: closing ${this.#transport.description} failed: ${messageOf(error)}`)
    );
    this.#end({ reason: "closed by the server" });
  }

  /** The connection is over: requests we sent fail, handlers are aborted, sessions end (once). */
  #end(details: CloseDetails): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#peer.close(details);
    for (const session of [this.#handshake, this.#modern]) {
      if (session === undefined) continue;
      session.end(details.reason);
      this.#owner.ended(session);
    }
    this.#resolveClosed(details);
  }

  /**
   * What the transport could not deliver: a line that is not JSON or not JSON-RPC is answered
   * (JSON-RPC 2.0 §5.1) as well as reported; a broken answer to one of our requests fails it now.
   */
  #transportError(error: Error): void {
    if (error instanceof UndeliverableMessageError) {
      this.#peer.undeliverable(error.response);
      return;
    }
    this.#owner.onProblem(`${this.#owner.who}: ${messageOf(error)}`);
    if (error instanceof MalformedMessageError && !this.#ended) {
      const text = error.rpcCode === ErrorCode.ParseError ? "Parse error" : "Invalid Request";
      const reply = { jsonrpc: "2.0", id: error.id, error: { code: error.rpcCode, message: `${text}: ${error.message}` } } as JsonRpcMessage;
      this.#transport.send(reply).catch((sendError: unknown) =>
        this.#owner.onProblem(`${this.#owner.who}: could not answer a malformed message: ${messageOf(sendError)}`)
      );
    }
  }

  /** The chain's first link: the lifecycle of both eras, then the rest of the chain for what the handlers answer. */
  #lifecycleLink(): Middleware {
    return {
      name: "lifecycle (server)",
      receive: (next: Receive): Receive => (method, params, context) => this.#receive(next, method, params, context),
      hear: (next: Hear): Hear => (method, params) => {
        switch (method) {
          case "notifications/initialized":
            // spec 2025-11-25 lifecycle: the operation phase begins.
            if (this.#handshake?.handshake !== undefined) this.#handshake.handshake.initialized = true;
            return;
          case "notifications/cancelled":
          case "notifications/progress":
            return; // the Peer's (cancelled aborts the request's signal; progress finds our request)
          default:
            next(method, params);
        }
      },
    };
  }

  /** One request from the host, by era, to its answer; a throw that is not an RpcError becomes -32603 naming the method. */
  async #receive(next: Receive, method: string, params: Params | undefined, incoming: IncomingRequestContext): Promise<Params> {
    try {
      return await this.#answer(next, method, params, incoming);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      this.#owner.onProblem(`${this.#owner.who}: ${method} (request ${JSON.stringify(incoming.requestId)}) failed: ${messageOf(error)}`);
      // Never the stack: the host sees what failed, not where in our code.
      throw new RpcError(`Internal error: ${method} failed: ${messageOf(error)}`, ErrorCode.InternalError);
    }
  }

  async #answer(next: Receive, method: string, params: Params | undefined, incoming: IncomingRequestContext): Promise<Params> {
    const { eras } = this.#owner;
    // spec 2026-07-28 basic/versioning: "An initialize request selects legacy semantics", whatever it carries.
    if (method === "initialize") return await this.#initialize(params);
    const modern = carriesModernFields(params) || MODERN_ONLY_METHODS.has(method) ||
      (this.#handshake === undefined && method !== "ping" && eras.includes("modern"));
    if (!modern) return await this.#legacy(next, method, params, incoming);
    if (REMOVED_MODERN_METHODS.has(method)) {
      throw new RpcError(
        `Method not found: ${method} is not part of 2026-07-28 ` +
          (method === "ping"
            ? "(no session to keep alive)"
            : method === "logging/setLevel"
            ? "(a request carries its own _meta log level)"
            : "(use subscriptions/listen)"),
        ErrorCode.MethodNotFound,
      );
    }
    const host = readModernFields(this.#owner.who, method, params, eras);
    const session = this.#modernSession();
    const { handlers } = this.#owner;
    let result: Params;
    if (method === "server/discover") {
      result = discoverResult(await handlers.capabilities(host) as JsonObject, handlers.instructions, supportedVersions(eras));
    } else if (method === "subscriptions/listen") {
      result = await this.#listen(params, incoming, host, session);
    } else {
      result = resultObject(method, await next(method, params, new RequestContext(this.#port, incoming, host, session, metaOf(params))));
    }
    return stampModernResult(method, result, handlers.serverInfo);
  }

  /** A request on the handshake era: only ping before initialize (spec 2025-11-25 lifecycle), then the handlers. */
  async #legacy(next: Receive, method: string, params: Params | undefined, incoming: IncomingRequestContext): Promise<Params> {
    const session = this.#handshake;
    const handshake = session?.handshake;
    if (session === undefined || handshake === undefined) {
      if (method === "ping" && this.#owner.eras.includes("legacy")) return {};
      if (method === "ping") throw new RpcError(`Method not found: ping is not part of 2026-07-28`, ErrorCode.MethodNotFound);
      throw new RpcError(`Invalid request: ${method} before initialize; send initialize first`, ErrorCode.InvalidRequest);
    }
    if (method === "ping") return {};
    if (method === "logging/setLevel") {
      // spec 2025-11-25 logging: recorded for this session, then passed on (a bridge forwards it).
      const level = params?.level;
      if (!isLoggingLevel(level)) {
        throw new RpcError(`Invalid params: logging/setLevel "level" ${JSON.stringify(level)} is not a log level`, ErrorCode.InvalidParams);
      }
      handshake.logLevel = level;
      const context = new RequestContext(this.#port, incoming, handshakeIdentity(handshake), session, metaOf(params));
      try {
        return await next(method, params, context);
      } catch (error) {
        // A server that does not forward it has still set the level: that is the answer.
        if (error instanceof RpcError && error.rpcCode === ErrorCode.MethodNotFound) return {};
        throw error;
      }
    }
    return resultObject(method, await next(method, params, new RequestContext(this.#port, incoming, handshakeIdentity(handshake), session, metaOf(params))));
  }

  /** spec 2025-11-25 lifecycle ("Initialization"): one handshake per session (connection). */
  async #initialize(params: Params | undefined): Promise<Params> {
    const { who, handlers } = this.#owner;
    if (this.#handshake !== undefined) throw alreadyInitialized(who, this.#handshake.id);
    const handshake = readInitialize(who, params, this.#owner.eras);
    const capabilities = await handlers.capabilities(handshakeIdentity(handshake));
    // Another initialize may have been answered meanwhile.
    const answered = this.#handshake as Session | undefined;
    if (answered !== undefined) throw alreadyInitialized(who, answered.id);
    if (this.#ended) throw new RpcError(`Internal error: ${who}: the connection ended during initialize`, ErrorCode.InternalError);
    const peer = this.#peer;
    const session = new Session(
      this.#sessionId ?? this.#owner.newSessionId(),
      handshake,
      (method, notifyParams) => peer.notify(method, notifyParams),
      this.#owner.onProblem,
    );
    this.#handshake = session;
    this.#owner.opened(session);
    return initializeResult(handshake, capabilities as JsonObject, handlers.serverInfo, handlers.instructions);
  }

  /**
   * spec 2026-07-28 subscriptions: the filter narrowed to what this server declares (and what
   * ServerHandlers.listen keeps), acknowledged, then held open until the server ends it.
   */
  async #listen(params: Params | undefined, incoming: IncomingRequestContext, host: HostIdentity, session: Session): Promise<Params> {
    const { handlers } = this.#owner;
    let filter = supportedFilter(readListenFilter(params), await handlers.capabilities(host));
    if (handlers.listen !== undefined) {
      const context = new RequestContext(this.#port, incoming, host, session, metaOf(params));
      const kept = await handlers.listen(filter, context);
      if (kept !== undefined) filter = keptFilter(filter, kept);
    }
    return await this.#streams.open(incoming.requestId, filter, incoming.signal);
  }

  /** The 2026-07-28 side of this connection, made at its first stateless request. */
  #modernSession(): Session {
    if (this.#modern !== undefined) return this.#modern;
    const session = new Session(this.#owner.newSessionId(), undefined, (method, params) => this.#streams.deliver(method, params), this.#owner.onProblem);
    this.#modern = session;
    if (this.#ended) session.end("the connection has ended");
    else this.#owner.opened(session);
    return session;
  }
}

/**
 * What a handler answered, checked: a JSON object (spec 2025-11-25 schema: a Result is an
 * object), else a fault of the server answered -32603 (never an answer without a result).
 */
function resultObject(method: string, value: unknown): Params {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Params;
  const what = value === undefined ? "nothing" : jsonKind(value);
  throw new ServerError(`the handler of ${method} returned ${what}, not a result object`, "bad-result", { method });
}

/** A request's `_meta`, when it is an object. */
function metaOf(params: Params | undefined): JsonObject | undefined {
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta) ? meta as JsonObject : undefined;
}
