// A server as its manager reports it: the states of its life, its status, the events it
// emits, the error a call meets while it cannot take one, and the error of a connect that
// failed or gave up. Plain types and the error classes, shared by the connection that
// supervises it (server-connection.ts) and the manager.

import { ClientStateError } from "../../client/errors.ts";
import type { ProtocolEra } from "../../client/protocol-version.ts";
import type { TaskStatusUpdate } from "../../client/tasks/tasks.ts";
import type { Implementation, LoggingLevel } from "../../client/types.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import type { TransportKind } from "../config/types.ts";

/**
 * Where a server is in its life:
 * - `disabled`: never started (the config says `enabled: false`, a config error, or no command / url to reach it by);
 * - `connecting`: the initial connect (with its retries) is under way, or start() has not been called yet;
 * - `ready`: connected, its tools registered;
 * - `reconnecting`: the connection ended unexpectedly; its tools stay registered and fail at once;
 * - `parked`: the reconnect budget is spent (or it never started): tools withdrawn, probed now and then;
 * - `closed`: the manager was closed.
 */
export type ServerState = "disabled" | "connecting" | "ready" | "reconnecting" | "parked" | "closed";

/**
 * One server as `manager.status()` reports it. Plain JSON: safe to print with JSON.stringify.
 * Its texts have passed through the manager's redactor; `serverInfo` is a bounded copy
 * (SERVER_INFO_BOUNDS: deeper or further values are replaced by a marker string).
 */
export interface ServerStatus {
  name: string;
  /**
   * The transport in use: as configured, except that a url configured without a transport
   * (`auto`) shows what the server was found to speak, `http` or `sse`, once it has connected.
   */
  transport: TransportKind;
  state: ServerState;
  /** The protocol version negotiated by the current (or last) session. */
  protocolVersion?: string;
  /** `modern` (2026-07-28, stateless) or `legacy` (the initialize handshake), once connected. */
  era?: ProtocolEra;
  serverInfo?: Implementation;
  /** How many of its tools are registered right now. */
  tools: number;
  /** The message of the last error met (a failed connect, a lost connection, …). */
  lastError?: string;
  /** Reconnect attempts since the session last proved healthy (a successful call or ping). */
  reconnectAttempts: number;
  /** Why the server is `disabled` or `parked`. */
  reason?: string;
  /**
   * A stdio server whose config has `sandbox:`: the profile (`default`, `prefer`, `custom`),
   * and whether its last start ran it in the sandbox (false before it started, and where
   * `sandbox: prefer` ran it without one).
   */
  sandbox?: { profile: string; sandboxed: boolean; by?: "bubblewrap" | "deno" };
}

/** What a server reports to its manager; every detail names the server. */
export interface ServerEvents {
  /** Every change of state. `error` is what caused it, when something went wrong. */
  serverstate: { server: string; from: ServerState; to: ServerState; error?: Error };
  /** A notifications/message the server sent — spec 2025-11-25 server/utilities/logging. */
  log: { server: string; level: LoggingLevel; logger?: string; data: unknown };
  /**
   * An attempt of the initial connect failed (its `message` is the error's). `retryInMs`: the
   * next attempt follows after that long; absent, the start has given up (the server is parked),
   * and `final` says why, when it was a failure no retry can change (a command not found, a
   * package npm does not have, the same exit twice before the server answered).
   */
  connectfailed: { server: string; attempt: number; attempts: number; message: string; retryInMs?: number; final?: string };
  /** A line the server wrote to stderr (stdio servers). */
  stderr: { server: string; line: string };
  /**
   * Something that went wrong and was survived: a failed connect attempt, a skipped line, a
   * listener that threw (`error` is what it threw; `server` is "" when the event named none).
   */
  problem: { server: string; message: string; error?: unknown };
  /** A tool call running as a task changed status — spec 2025-11-25 basic/utilities/tasks. */
  taskStatus: TaskStatusUpdate & { server: string };
  /**
   * A listed tool does not match its pin (McpManagerOptions.pinning): `offered` false when it is
   * held back (`hold`), true when offered with a warning (`warn`). `name` is its registered
   * name, `tool` the server's; see the change with ToolPins.held() or `mcpwire pin diff`.
   */
  toolheld: {
    server: string;
    tool: string;
    name: string;
    change: "new" | "changed" | "renamed" | "invalid";
    fields: string[];
    renamedFrom?: string;
    offered: boolean;
  };
}

export type ServerEventType = keyof ServerEvents;

/**
 * Why a server cannot take a call right now:
 * - `server-reconnecting`: the manager is reconnecting it;
 * - `server-parked`: the manager gave up reconnecting for now and probes it now and then.
 * (A server keeps one Client across its sessions, so no client is ever of an earlier session.)
 */
export type ServerUnavailableCode = "server-reconnecting" | "server-parked";

/**
 * A call to a server that cannot take it right now (reconnecting, parked). Nothing was sent.
 * A ClientStateError, so whatever handles "the client is not connected" handles this too.
 */
export class ServerUnavailableError extends ClientStateError<ServerUnavailableCode> {
  override readonly name: string = "ServerUnavailableError";
  readonly server: string;
  /** The server's state in the manager (`reconnecting`, `parked`, `ready`); `state` is its client's. */
  readonly serverState: ServerState;
  constructor(message: string, code: ServerUnavailableCode, options: { server: string; serverState: ServerState; state: string; cause?: unknown }) {
    super(message, code, options);
    this.server = options.server;
    this.serverState = options.serverState;
  }
}

/** What a server's connection knows when a call on one of its clients (not ready) is made. */
export interface Availability {
  server: string;
  serverState: ServerState;
  /** The client's own state. */
  clientState: string;
  /** The reconnect attempt under way, of how many. */
  attempt: number;
  maxAttempts: number;
  /** Why it is parked (`gave up after 3 reconnect attempts; probing every 30 s`). */
  reason: string | undefined;
  /** The last error, redacted: it goes to whoever called the client. */
  lastError: string | undefined;
}

/**
 * The error a call on a server's client meets while the server cannot take it (reconnecting,
 * parked); undefined when the client's own error says it
 * (closed, not connected, …).
 */
export function unavailableError(at: Availability): ServerUnavailableError | undefined {
  const { server, clientState: state } = at;
  const prefix = `server "${server}": `;
  // The last error without its leading `server "<name>": `, quoted inside a message about that server.
  const last = at.lastError === undefined ? "" : at.lastError.startsWith(prefix) ? at.lastError.slice(prefix.length) : at.lastError;
  switch (at.serverState) {
    case "reconnecting":
      return new ServerUnavailableError(
        `server "${server}": reconnecting (attempt ${at.attempt} of ${at.maxAttempts}) ` +
          `after ${last || "the connection was lost"}; the call was not sent, try again shortly`,
        "server-reconnecting",
        { server, serverState: "reconnecting", state },
      );
    case "parked":
      return new ServerUnavailableError(
        `server "${server}": parked, ${at.reason}` + (last ? ` (last error: ${last})` : ""),
        "server-parked",
        { server, serverState: "parked", state },
      );
    default:
      return undefined;
  }
}

/**
 * Why the manager could not connect a server, or stopped trying for now (the `error` of a
 * `serverstate` event to `parked`, and a failed connect attempt's cause):
 * - `connect-timeout`: spawn and initialize (or the HTTP initialize) did not finish within connect_timeout;
 * - `closed-while-connecting`: the manager was closed while the server connected or its tools were registered;
 * - `connection-closed`: the connection ended while the server's tools were being listed;
 * - `server-parked`: the reconnect or connect attempts were used up; the server is probed now and then.
 */
export type ServerConnectionErrorCode = "connect-timeout" | "closed-while-connecting" | "connection-closed" | "server-parked";

/** The manager could not connect a server, or parked it; `server` names it, the message says the last error and what to do. */
export class ServerConnectionError extends McpwireError<ServerConnectionErrorCode> {
  override readonly name = "ServerConnectionError";
  readonly server: string;
  constructor(message: string, code: ServerConnectionErrorCode, options: { server: string; cause?: unknown }) {
    super(message, code, options);
    this.server = options.server;
  }
}
