// The server half of MCP: a Server answers hosts from its handlers on any number of connections,
// both eras on each — the initialize handshake with sessions (spec 2025-11-25 basic/lifecycle)
// and the stateless 2026-07-28 requests after server/discover (spec 2026-07-28
// basic/versioning, server/discover). Written as the client half is: a Peer and the middleware
// chain per connection (server-connection.ts), one file per concern of the lifecycle.
//
// Reading order: server-handlers.ts (the contract: what a server answers with), this file,
// server-connection.ts (one connection: the Peer, the chain, which era a request is), then one
// file per concern — handshake.ts, discover.ts, modern-fields.ts (the 2026-07-28 checks and
// stamps), request-context.ts (what a handler may send: progress, log messages, requests to the
// host through host-requests.ts), host-session.ts, listen-streams.ts, log-level.ts, errors.ts.

import type { ProtocolEra } from "../client/protocol-version.ts";
import { messageOf } from "../common/error-text.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import type { Middleware } from "../jsonrpc/middleware.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { TraceSink } from "../transport/trace-event.ts";
import type { Transport } from "../transport/transport.ts";
import { ServerError } from "./errors.ts";
import type { Session } from "./host-session.ts";
import { type ConnectionOwner, type ServerConnection, ServerConnectionImpl } from "./server-connection.ts";
import type { HostSession, ServerHandlers } from "./server-handlers.ts";

export type { ServerConnection } from "./server-connection.ts";

/** Options of a Server: its name, the eras it answers, its chain, its timeouts, its trace and where problems go. */
export interface ServerOptions {
  /** Names it in messages and traces (default serverInfo.name). */
  name?: string;
  /** Which eras it answers; default both ("modern", "legacy"). */
  eras?: readonly ProtocolEra[];
  /** The chain on every connection, first outermost (after the server half's lifecycle link). */
  middleware?: readonly Middleware[];
  /** For the requests we send the host (sampling, elicitation, roots): the idle timeout. Default 60 s. */
  requestTimeoutMs?: number;
  /** src/transport/trace-event.ts events of every connection (the host side of a bridge). */
  trace?: TraceSink;
  /** Non-fatal oddities (a handler or listener threw, a message could not be read or sent, …). */
  onProblem?: (message: string) => void;
}

/** Options of one Server.connect (an addition to the contract). */
export interface ServerConnectOptions {
  /**
   * The id of the handshake session this connection will carry (an HTTP front's Mcp-Session-Id,
   * made before the connection); default a counter unique in the server.
   */
  sessionId?: string;
}

const SERVER_OPTIONS = optionNames<ServerOptions>({ name: true, eras: true, middleware: true, requestTimeoutMs: true, trace: true, onProblem: true });
const CONNECT_OPTIONS = optionNames<ServerConnectOptions>({ sessionId: true });
const ERAS: readonly ProtocolEra[] = ["modern", "legacy"];

/** A server built on handlers: answers hosts on the connections it is given, both eras. */
export class Server {
  readonly #owner: ConnectionOwner;
  readonly #connections = new Set<ServerConnectionImpl>();
  readonly #sessions = new Map<string, Session>();
  #nextSession = 1;
  #closed = false;

  constructor(handlers: ServerHandlers, options: ServerOptions = {}) {
    checkOptions("Server", options, SERVER_OPTIONS, []);
    const eras = options.eras ?? ERAS;
    if (eras.length === 0 || eras.some((era) => !ERAS.includes(era))) {
      throw new TypeError(`Server: eras must name "modern", "legacy" or both; got ${JSON.stringify(eras)}`);
    }
    const name = options.name ?? handlers.serverInfo.name;
    const report = options.onProblem ?? (() => {});
    const onProblem = (message: string) => {
      try {
        report(message);
      } catch {
        // a throwing problem sink has nowhere left to report to
      }
    };
    const hook = (which: "sessionOpened" | "sessionClosed", session: Session) => {
      try {
        handlers[which]?.(session);
      } catch (error) {
        onProblem(`server ${JSON.stringify(name)}: ${which} threw: ${messageOf(error)}`);
      }
    };
    this.#owner = {
      who: `server ${JSON.stringify(name)}`,
      handlers,
      eras: [...eras],
      middleware: [...(options.middleware ?? [])],
      requestTimeoutMs: options.requestTimeoutMs,
      trace: options.trace,
      traceName: name,
      onProblem,
      newSessionId: () => String(this.#nextSession++),
      opened: (session) => {
        this.#sessions.set(session.id, session);
        hook("sessionOpened", session);
      },
      ended: (session) => {
        if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
        hook("sessionClosed", session);
      },
    };
  }

  /** Live sessions: handshake-era sessions and the 2026-07-28 side of each connection that has served a request. */
  get sessions(): ReadonlyMap<string, HostSession> {
    return this.#sessions;
  }

  /**
   * Serves one connection (stdio: the process's own; HTTP: one per handshake session, and one
   * for all stateless 2026-07-28 POSTs); starts the transport; resolves once started.
   */
  async connect(transport: Transport, options: ServerConnectOptions = {}): Promise<ServerConnection> {
    checkOptions("Server.connect", options, CONNECT_OPTIONS, []);
    if (this.#closed) {
      throw new ServerError(`${this.#owner.who}: cannot serve ${transport.description}: the server is closed; make a new Server`, "server-closed");
    }
    if (options.sessionId !== undefined && this.#sessions.has(options.sessionId)) {
      throw new TypeError(`${this.#owner.who}: session id ${JSON.stringify(options.sessionId)} is already in use`);
    }
    const connection = new ServerConnectionImpl(this.#owner, transport, options.sessionId);
    this.#connections.add(connection);
    void connection.closed.then(() => this.#connections.delete(connection));
    try {
      await connection.start();
    } catch (error) {
      this.#connections.delete(connection);
      await connection.close();
      throw error;
    }
    return connection;
  }

  /** notify() on every session (a backend's list_changed). Never rejects. */
  async broadcast(method: string, params?: Params): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => session.notify(method, params)));
  }

  /** Ends every connection (in-flight requests aborted, listen streams answered), bounded; no connect after it. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#connections].map((connection) => connection.close()));
  }
}
