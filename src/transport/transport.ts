// What every transport offers the client: three verbs and three callbacks —
// spec 2025-11-25 basic/transports ("Custom Transports": bidirectional JSON-RPC exchange).

import type { CloseDetails, UndeliverableResponse } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { SendOptions } from "../jsonrpc/peer.ts";

export type { CloseDetails, UndeliverableResponse } from "../jsonrpc/errors.ts";
export type { SendOptions } from "../jsonrpc/peer.ts";

export interface Transport {
  /** Says what this is connected to, for error messages: `stdio "node server.js"`. */
  readonly description: string;
  /** Opens the connection (spawns the process, …). Rejects with TransportError. */
  start(): Promise<void>;
  /**
   * Sends one message; rejects with TransportError when it cannot, never hangs forever.
   * `options.deadline` says until when the caller waits for a request's answer.
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
   * Optional. The Client calls it with the version of the wire: after a successful initialize,
   * before the first 2026-07-28 request, and with undefined when a modern probe failed and the
   * handshake follows. Streamable HTTP sends it as MCP-Protocol-Version (spec 2025-11-25
   * basic/transports) and, from 2026-07-28 on, goes stateless.
   */
  setProtocolVersion?(version: string | undefined): void;
  /**
   * Optional. The Client hands over a lookup of each tool's inputSchema (its last tools/list)
   * so that Streamable HTTP can mirror `x-mcp-header` parameters into Mcp-Param-* headers on
   * the 2026-07-28 wire (spec 2026-07-28 basic/transports/streamable-http, "Custom Headers
   * from Tool Parameters"). A wrapping transport should pass it through.
   */
  setToolSchemas?(lookup: (tool: string) => unknown): void;
  /**
   * Optional, for transports with sessions (Streamable HTTP): the Client sets it to run the
   * initialize handshake again when the server ended the session (spec 2025-11-25
   * basic/transports, "Session Management" 4). The transport holds other sends meanwhile
   * and closes if it rejects. A wrapping transport should pass both hooks through.
   */
  onsessionexpired?: () => Promise<void>;
}

/** A transport could not start, send or receive. The message names the endpoint. */
export class TransportError extends Error {
  override readonly name = "TransportError";
  /** A short machine-readable reason: "ENOENT", "send-failed", "closed", "bad-line", … */
  readonly code: string;

  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * A response arrived that the transport could not deliver (over its size limit, or not a
 * well-formed response) but that answers one of our requests: reported through onerror like
 * any skipped message, so wrapping transports pass it on unchanged, and handed by the Client
 * to Peer.undeliverable, which fails that request now instead of letting it wait out its
 * timeout.
 */
export class UndeliverableMessageError extends TransportError {
  readonly response: UndeliverableResponse;

  constructor(message: string, response: UndeliverableResponse) {
    super(message, "undeliverable");
    this.response = response;
  }
}
