// The server half's errors: what a handler's context.request and the Server's own calls reject
// with, each with a named code (docs/errors.md). What the server half answers the host is an
// RpcError (src/jsonrpc/errors.ts) on the wire; these are for the program that serves.

import { McpwireError } from "../common/mcpwire-error.ts";

/**
 * Why the server half refused or failed:
 * - "missing-capability": a request to the host (context.request) needs a capability the host
 *   did not declare in `initialize` (spec 2025-11-25 basic/lifecycle: "Capability Negotiation");
 * - "wrong-era": context.request on a 2026-07-28 request, which cannot send the host requests
 *   (spec 2026-07-28 basic/patterns/mrtr: answer `input_required` instead);
 * - "bad-result": a handler answered something that is not a result object (the host gets -32603);
 * - "server-closed": Server.connect after Server.close.
 */
export type ServerErrorCode = "missing-capability" | "wrong-era" | "bad-result" | "server-closed";

/** The server half refused or failed; the message names the server, the request and what to do. */
export class ServerError extends McpwireError<ServerErrorCode> {
  override readonly name = "ServerError";
  /** The method concerned (the request to the host), when there is one. */
  readonly method: string | undefined;

  constructor(message: string, code: ServerErrorCode, options: { method?: string; cause?: unknown } = {}) {
    super(message, code, { cause: options.cause });
    this.method = options.method;
  }
}
