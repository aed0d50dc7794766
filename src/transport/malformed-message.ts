// A message from the other side that could not be read as JSON-RPC, reported by a server-side
// transport so that the server half answers it as JSON-RPC 2.0 §5.1 says: -32700 (Parse error)
// for text that is not JSON, -32600 (Invalid Request) for JSON that is not a request — with a
// null id when none could be read.

import type { RequestId } from "../jsonrpc/messages.ts";
import { TransportError, type TransportErrorCode } from "./transport.ts";

/** A message that is not JSON (-32700) or not a JSON-RPC message (-32600): reported through onerror, answered by the server half. */
export class MalformedMessageError extends TransportError {
  override readonly name = "MalformedMessageError";
  /** The JSON-RPC error the sender is answered with: ParseError (-32700) or InvalidRequest (-32600). */
  readonly rpcCode: -32700 | -32600;
  /** The request's id when it could be read, else null (JSON-RPC 2.0 §5: "If there was an error in detecting the id … it MUST be Null"). */
  readonly id: RequestId | null;

  constructor(message: string, code: TransportErrorCode, options: { rpcCode: -32700 | -32600; id?: RequestId | null; cause?: unknown }) {
    super(message, code, { cause: options.cause });
    this.rpcCode = options.rpcCode;
    this.id = options.id ?? null;
  }
}
