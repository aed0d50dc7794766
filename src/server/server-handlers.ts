// What a server built on the server half answers with: its identity, its capabilities, and one
// function per request it serves — the server half's side of the contract (docs/architecture.md,
// "The server half"). The server half (server.ts, server-connection.ts) owns the lifecycle of
// both eras and answers `initialize`, `server/discover` and `ping` itself — spec 2025-11-25
// basic/lifecycle; spec 2026-07-28 server/discover — checks each 2026-07-28 request's protocol
// fields before a handler sees it (spec 2026-07-28 basic/index, "Per-request protocol fields"),
// and takes progress, cancellation and `notifications/initialized`; every other request and
// notification goes to these handlers, through the connection's chain (src/jsonrpc/middleware.ts:
// on a server, `receive` links see the host's requests, `send` links the requests we send it).

import type { ProtocolEra } from "../client/protocol-version.ts";
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel, ServerCapabilities } from "../client/types.ts";
import type { RequestId } from "../jsonrpc/messages.ts";
import type { Params, RequestOptions } from "../jsonrpc/peer.ts";

/**
 * Who sent a request, as the protocol says it: on the handshake era what the host declared in
 * `initialize` (one per session), on 2026-07-28 what this request's `_meta` carries (spec
 * 2026-07-28 basic/index: every request carries its version and capabilities; clientInfo SHOULD).
 */
export interface HostIdentity {
  readonly era: ProtocolEra;
  /** The version this request is spoken at: the negotiated one, or the request's `_meta` one. */
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  /** Absent when a 2026-07-28 request did not say (a SHOULD, not a MUST). */
  readonly clientInfo: Implementation | undefined;
  /** spec 2026-07-28 server/utilities/logging: the request's `io.modelcontextprotocol/logLevel`; on the handshake era the level `logging/setLevel` set. Undefined: send no log message. */
  readonly logLevel: LoggingLevel | undefined;
}

/**
 * One session with a host: a handshake-era session (from `initialize` to its end), or, on
 * 2026-07-28, the connection a stateless request came on (stdio: the process; HTTP: nothing lasts
 * past the request but a `subscriptions/listen` stream).
 */
export interface HostSession {
  /** Unique in this server for its life: the Mcp-Session-Id over HTTP, a counter elsewhere. */
  readonly id: string;
  /** The handshake's identity; undefined on a 2026-07-28 connection (each request has its own). */
  readonly host: HostIdentity | undefined;
  /** Aborts when the session ends (DELETE, the transport closed, the server closed). */
  readonly signal: AbortSignal;
  /**
   * Sends a notification not tied to a request: `notifications/tools/list_changed`,
   * `notifications/resources/updated`, … On the handshake era it goes to this session (over HTTP
   * its GET stream, or is dropped when there is none: spec 2025-11-25 basic/transports); on
   * 2026-07-28 only to the `subscriptions/listen` streams that asked for its kind, tagged with
   * their subscription id (spec 2026-07-28 basic/patterns/subscriptions). Never rejects.
   */
  notify(method: string, params?: Params): Promise<void>;
  /**
   * Optional (an addition to the contract; the server half's sessions have it), handshake era
   * only: sends a request to the host tied to none of its requests (sampling/createMessage,
   * elicitation/create, roots/list — roots/list right after initialize is common), through the
   * connection's chain, once the host has sent `notifications/initialized` (waited for, bounded:
   * a ServerError "not-initialized"). The same checks as ServerRequestContext.request: the host
   * must have declared the capability ("missing-capability"); on a 2026-07-28 connection it
   * rejects ("wrong-era"). Over HTTP it goes on the session's GET stream (spec 2025-11-25
   * basic/transports, "Listening for Messages from the Server"); a host with none open fails it
   * at once.
   */
  request?(method: string, params?: Params, options?: RequestOptions): Promise<Params>;
}

/** What a request handler is given besides the params. */
export interface ServerRequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  readonly host: HostIdentity;
  readonly session: HostSession;
  /** Aborted when the host cancels this request (notifications/cancelled) or its connection ends. */
  readonly signal: AbortSignal;
  /**
   * The request's `_meta` as the host sent it (progressToken, traceparent, the protocol fields, an
   * extension's keys), undefined when it had none. Read-only: a bridge passes on what it needs.
   */
  readonly meta: JsonObject | undefined;
  /**
   * Sends `notifications/progress` for this request when the host gave a progress token (spec
   * 2025-11-25 basic/utilities/progress); does nothing otherwise. Never rejects.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a notification tied to this request (`notifications/message`, a progress the handler
   * forwards as it came): over HTTP on this request's response stream (spec 2026-07-28
   * basic/transports/streamable-http: request-scoped notifications flow on the stream of the
   * request they relate to). `notifications/message` is dropped when `host.logLevel` is undefined
   * or above the message's level. Never rejects.
   */
  notify(method: string, params?: Params): Promise<void>;
  /**
   * Handshake era only: sends a request to the host tied to this one (sampling/createMessage,
   * elicitation/create, roots/list), through the connection's chain — spec 2025-11-25
   * client/sampling etc.; the host must have declared the capability (a ServerError
   * "missing-capability" otherwise). On 2026-07-28 it rejects ("wrong-era"): a handler answers an
   * `input_required` result instead (spec 2026-07-28 basic/patterns/mrtr).
   */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Params>;
}

/**
 * What a server built on the server half is: the answers of its lifecycle and a handler per
 * request. A handler throws an RpcError (src/jsonrpc/errors.ts) to answer a JSON-RPC error; any
 * other throw is answered -32603 with a message that names the method and never the stack.
 */
export interface ServerHandlers {
  /** The server's identity, in the initialize result and server/discover (and each 2026-07-28 result's `_meta` serverInfo). */
  readonly serverInfo: Implementation;
  /** Instructions for the host's model, in both eras' first answer. */
  readonly instructions?: string;
  /**
   * The capabilities this server declares to `host` (initialize, server/discover). A function
   * because a bridge's answer depends on the host (what a backend declares to that host).
   */
  capabilities(host: HostIdentity): ServerCapabilities | Promise<ServerCapabilities>;
  /**
   * Answers one request: every method but `initialize`, `server/discover`, `ping` and
   * `subscriptions/listen`, which the server half answers (and `logging/setLevel`, which it
   * records and then passes here so a bridge can forward it). A method it does not serve throws
   * RpcError -32601. The result is sent as it is returned; on 2026-07-28 the server half adds
   * `resultType: "complete"` when it is missing and `_meta` serverInfo (spec 2026-07-28 basic/index).
   */
  request(method: string, params: Params | undefined, context: ServerRequestContext): Promise<Params>;
  /**
   * A notification from the host that the server half does not take itself (it takes
   * notifications/initialized, cancelled and progress): notifications/roots/list_changed, an
   * extension's. A throw is reported, never crashes the server.
   */
  notification?(method: string, params: Params | undefined, session: HostSession): void;
  /**
   * Optional (an addition to the contract): a 2026-07-28 `subscriptions/listen` stream is opening.
   * `notifications` is what the host asked for, already narrowed to what `capabilities(host)`
   * declares (a list's `listChanged`, `resources.subscribe`); return the part to honour, or
   * undefined for all of it. The acknowledgment names what is honoured (spec 2026-07-28
   * basic/patterns/subscriptions). `context.signal` aborts when the stream ends (the host
   * cancelled it, the connection ended, the server closed). A bridge learns here which kinds and
   * resource URIs a host watches; a throw is answered as a handler's throw is.
   */
  listen?(notifications: ListenFilter, context: ServerRequestContext): ListenFilter | undefined | Promise<ListenFilter | undefined>;
  /**
   * Optional (an addition to the contract): the inputSchema of tool `name` as this server lists it
   * to `host`, undefined when it serves no such tool. The HTTP front reads its `x-mcp-header`
   * parameters (src/client/header-params.ts) to check a 2026-07-28 tools/call's `Mcp-Param-*`
   * headers against its arguments before the call reaches `request` — spec 2026-07-28
   * basic/transports/streamable-http, "Server Behavior for Custom Headers": 400 with -32020 when
   * they differ. Without it those headers are not checked; a throw is reported and counts as
   * undefined.
   */
  toolInputSchema?(name: string, host: HostIdentity): JsonObject | undefined | Promise<JsonObject | undefined>;
  /** A session began (a handshake-era session after `initialize`; a 2026-07-28 connection at its first request). */
  sessionOpened?(session: HostSession): void;
  /** A session ended; its in-flight requests were aborted first. */
  sessionClosed?(session: HostSession): void;
}

/**
 * What a `subscriptions/listen` stream carries — spec 2026-07-28 basic/patterns/subscriptions
 * ("Notification Filter"). An addition to the contract (ServerHandlers.listen).
 */
export interface ListenFilter {
  /** `notifications/tools/list_changed`. */
  readonly toolsListChanged?: boolean;
  /** `notifications/prompts/list_changed`. */
  readonly promptsListChanged?: boolean;
  /** `notifications/resources/list_changed`. */
  readonly resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these URIs. */
  readonly resourceSubscriptions?: readonly string[];
}
