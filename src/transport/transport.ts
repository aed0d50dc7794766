// What every transport offers the client: three verbs and three callbacks —
// spec 2025-11-25 basic/transports ("Custom Transports": bidirectional JSON-RPC exchange).

import { McpwireError } from "../common/mcpwire-error.ts";
import type { CloseDetails, UndeliverableResponse } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { SendOptions } from "../jsonrpc/peer.ts";
import type { SpawnErrorCode } from "../runtime/mod.ts";

export type { CloseDetails, UndeliverableResponse } from "../jsonrpc/errors.ts";
export type { SendOptions } from "../jsonrpc/peer.ts";

/** What a Client or Peer sends and receives messages through: start, send, close, and the callbacks. */
export interface Transport {
  /** Says what this is connected to, for error messages: `stdio "node server.js"`. */
  readonly description: string;
  /** Opens the connection (spawns the process, …). Rejects with TransportError. */
  start(): Promise<void>;
  /**
   * Sends one message; rejects with TransportError when it cannot, never hangs forever.
   * `options.deadline` says until when the caller waits for a request's answer; `options.headers`
   * go with the message where the wire has headers (HTTP) and are ignored elsewhere — the
   * transport computes none from the message (it knows no MCP method, tool list or era).
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Closes the connection; bounded in time; onclose fires once. */
  close(): Promise<void>;
  /** Each whole message received, in order. */
  onmessage?: (message: JsonRpcMessage) => void;
  /** The connection ended, by us or by the other side. Called once. */
  onclose?: (details: CloseDetails) => void;
  /**
   * Something went wrong that did not end the connection (a skipped line, …). An
   * UndeliverableMessageError names a response to one of our requests that could not be
   * delivered: the Client fails that request with it at once.
   */
  onerror?: (error: Error) => void;
  /**
   * The child process this transport runs its server in (stdio), for what a host says when the
   * server does not come up; undefined for a transport without one. A wrapping transport passes
   * its inner one's on.
   */
  readonly serverProcess?: ServerProcess;
}

/** What a transport that runs its server as a child process tells of that process. */
export interface ServerProcess {
  /** The process id, once started. */
  readonly pid: number | undefined;
  /** The last lines the server wrote to stderr, oldest first. */
  readonly stderrTail: readonly string[];
}

/**
 * What only the HTTP transports (Streamable HTTP, and the wrappers around it) take from the
 * Client, besides the verbs of Transport: the wire's version and a way to start a new session —
 * the small optional abilities the Go SDK gives a connection as interfaces of their own. A
 * transport that has them implements this interface too; the Client calls them when they are
 * there. A wrapping transport passes them through in one place (HttpHooksRelay, http-hooks.ts).
 * Per-request headers are not a hook: they come with each send (SendOptions.headers).
 */
export interface HttpTransportHooks {
  /**
   * True when this transport sends a message's SendOptions.headers with it (HTTP). The Client
   * computes request headers only for such a transport; other transports ignore them.
   */
  readonly sendsHeaders: boolean;
  /**
   * The Client calls it with the version of the wire: after a successful initialize, before
   * the first 2026-07-28 request, and with undefined when a modern probe failed and the
   * handshake follows. Streamable HTTP sends it as MCP-Protocol-Version (spec 2025-11-25
   * basic/transports) and, from 2026-07-28 on, goes stateless.
   */
  setProtocolVersion(version: string | undefined): void;
  /**
   * For transports with sessions (Streamable HTTP): the Client sets it to run the initialize
   * handshake again when the server ended the session (spec 2025-11-25 basic/transports,
   * "Session Management" 4). The transport holds other sends meanwhile and closes if it rejects.
   */
  onsessionexpired?: () => Promise<void>;
  /**
   * For transports with sessions: join session `id` that another client started (its
   * initialize answered at `version`) instead of starting one. The Client calls it before
   * start() when ClientOptions.session is set, and runs no handshake.
   */
  joinSession?(id: string, version: string): void;
  /** For transports with sessions: close() leaves the session open (no DELETE). The session's id, if any. */
  keepSession?(): string | undefined;
}

/** A transport as the Client holds it: the verbs of Transport, and the HTTP hooks when it has them. */
export type ClientTransport = Transport & Partial<HttpTransportHooks>;

/**
 * Why an HTTP answer could not be used:
 * - "http-status": a status we cannot use (statusAdvice says what to do);
 * - "session-expired": the server ended the session and no new one could serve the request;
 * - "bad-content-type": a 2xx whose Content-Type is neither JSON nor an event stream;
 * - "busy": 429 or 503 that could not be waited out (retryAt says when the server asked to be tried again);
 * - "too-large": the answer is larger than maxMessageBytes.
 */
export type HttpErrorCode = "http-status" | "session-expired" | "bad-content-type" | "busy" | "too-large";

/**
 * Why a transport failed or reported, as one named value to test for (never a message to match):
 * - the lifecycle: "started" (start() called twice), "closed" (the connection is closed or
 *   closing: the one value a closed transport's sends fail with), "handler-threw" (our own
 *   onmessage, onclose or onStderr handler threw), "cancelled" (the caller's signal aborted it), "timeout";
 * - stdio: a SpawnErrorCode ("ENOENT", "EACCES", "ENOCWD", …) when the server could not be
 *   started, "send-failed" (stdin refused a write), "bad-line" (stdout wrote a line that is not JSON-RPC);
 * - any transport: "undeliverable" (UndeliverableMessageError: an answer to one of our requests could not be delivered);
 * - HTTP: "bad-url", "fetch-failed", "redirect-origin", "redirect-loop", an HttpErrorCode
 *   ("http-status", "session-expired", "bad-content-type", "busy", "too-large");
 * - Streamable HTTP: "body-broken", "no-answer", "bad-json", "bad-message", "bad-sse-data",
 *   "sse-event-too-large", "stream-lost" (2026-07-28: a response stream broke; it cannot be
 *   resumed), "stream-broken", "reconnect-failed", "get-stream-failed", "delete-failed", "bad-session-id";
 * - legacy HTTP+SSE: "connect-failed", "connect-timeout", "not-sse", "no-endpoint", "bad-endpoint",
 *   "endpoint-origin", "bad-event", "send-timeout".
 */
export type TransportErrorCode =
  | "started"
  | "closed"
  | "handler-threw"
  | "cancelled"
  | "timeout"
  | SpawnErrorCode
  | "send-failed"
  | "bad-line"
  | "undeliverable"
  | "bad-url"
  | "fetch-failed"
  | "redirect-origin"
  | "redirect-loop"
  | HttpErrorCode
  | "body-broken"
  | "no-answer"
  | "bad-json"
  | "bad-message"
  | "bad-sse-data"
  | "sse-event-too-large"
  | "stream-lost"
  | "stream-broken"
  | "reconnect-failed"
  | "get-stream-failed"
  | "delete-failed"
  | "bad-session-id"
  | "connect-failed"
  | "connect-timeout"
  | "not-sse"
  | "no-endpoint"
  | "bad-endpoint"
  | "endpoint-origin"
  | "bad-event"
  | "send-timeout";

/** A transport could not start, send or receive. The message names the endpoint; `code` says why. */
export class TransportError extends McpwireError<TransportErrorCode> {
  override readonly name: string = "TransportError";
}

/**
 * A response arrived that the transport could not deliver (over its size limit, or not a
 * well-formed response) but that answers one of our requests: reported through onerror like
 * any skipped message, so wrapping transports pass it on unchanged, and handed by the Client
 * to Peer.undeliverable, which fails that request now instead of letting it wait out its
 * timeout.
 */
export class UndeliverableMessageError extends TransportError {
  override readonly name = "UndeliverableMessageError";
  /** What could not be delivered: the request id, the reason, the detail (Peer.undeliverable takes it). */
  readonly response: UndeliverableResponse;

  /** Code "undeliverable", its only one. */
  constructor(message: string, options: { response: UndeliverableResponse; cause?: unknown }) {
    super(message, "undeliverable", options);
    this.response = options.response;
  }
}
