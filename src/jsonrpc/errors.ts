// JSON-RPC 2.0 error codes and the error a peer answers with — JSON-RPC 2.0 §5.1,
// MCP spec 2025-11-25 basic/index ("Responses" and "Error codes").

import type { RequestId, UndeliverableReason, UndeliverableResponse } from "./messages.ts";

// Defined beside the messages (the framer reads them from a message); errors is their old home.
export type { UndeliverableReason, UndeliverableResponse } from "./messages.ts";

/** Error codes defined by JSON-RPC 2.0 and by MCP. */
export const ErrorCode = {
  /** Invalid JSON was received. */
  ParseError: -32700,
  /** The JSON sent is not a valid Request object. */
  InvalidRequest: -32600,
  /** The method does not exist or is not available. */
  MethodNotFound: -32601,
  /** Invalid method parameters. */
  InvalidParams: -32602,
  /** Internal JSON-RPC error. */
  InternalError: -32603,
  /** MCP 2025-11-25 resources: the requested resource does not exist. */
  ResourceNotFound: -32002,
  /** MCP 2025-11-25 elicitation: the server needs a URL-mode elicitation first. */
  UrlElicitationRequired: -32042,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

const codeNames = new Map<number, string>(
  Object.entries(ErrorCode).map(([name, code]) => [code, name]),
);

/** The name of a known error code ("MethodNotFound"), or undefined. */
export function errorCodeName(code: number): string | undefined {
  return codeNames.get(code);
}

/**
 * An error carried by a JSON-RPC error response: either one the remote peer sent us, or
 * one our request handler throws so that the peer answers with this code.
 */
export class RpcError extends Error {
  override readonly name: string = "RpcError";
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }

  /** The `error` member of a JSON-RPC response carrying this error. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** Why a connection ended, as far as the transport could tell. */
export interface CloseDetails {
  /** One line: "server process exited with code 1", "stream ended", "closed by us". */
  reason: string;
  exitCode?: number | null;
  signal?: string | null;
  /** The last lines the server wrote to stderr, oldest first. */
  stderrTail?: string[];
}

/**
 * The connection is gone: every request still waiting rejects with this at once, and
 * every request made afterwards too. Test for it with `instanceof`, not the message.
 */
export class ConnectionClosedError extends Error {
  override readonly name = "ConnectionClosedError";

  constructor(message: string, readonly details: CloseDetails) {
    super(message);
  }
}

/**
 * One request failed without an error response from the other side (it timed out, was aborted,
 * its answer could not be delivered, …): the base of those errors, naming the request's method.
 */
export class RequestError extends Error {
  override readonly name: string = "RequestError";

  constructor(message: string, readonly method: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A request got no answer in time — spec 2025-11-25 basic/lifecycle ("Timeouts"). */
export class RequestTimeoutError extends RequestError {
  override readonly name = "RequestTimeoutError";
  readonly timeoutMs: number;
  /** "idle": no answer or progress for timeoutMs; "total": the hard maximum was reached. */
  readonly kind: "idle" | "total";

  constructor(message: string, method: string, timeoutMs: number, kind: "idle" | "total") {
    super(message, method);
    this.timeoutMs = timeoutMs;
    this.kind = kind;
  }
}

/**
 * A request failed because its answer arrived and could not be delivered (too large, or not
 * a well-formed response). It fails at once, instead of waiting out its timeout.
 */
export class UndeliverableResponseError extends RequestError {
  override readonly name = "UndeliverableResponseError";
  readonly code: UndeliverableReason;
  readonly requestId: RequestId;
  /** too-large: the message's size and the limit, in bytes. */
  readonly bytes: number | undefined;
  readonly limit: number | undefined;

  constructor(message: string, method: string, requestId: RequestId, response: UndeliverableResponse) {
    super(message, method);
    this.code = response.reason;
    this.requestId = requestId;
    this.bytes = response.bytes;
    this.limit = response.limit;
  }
}

/**
 * The caller's AbortSignal ended a request. `kind` is `timeout` when the signal's reason is a
 * TimeoutError (AbortSignal.timeout), `cancelled` otherwise; `cause` is the signal's reason.
 */
export class RequestAbortedError extends RequestError {
  override readonly name = "RequestAbortedError";
  readonly kind: "cancelled" | "timeout";

  constructor(message: string, method: string, kind: "cancelled" | "timeout", options: { cause: unknown }) {
    super(message, method, options);
    this.kind = kind;
  }
}

/**
 * One line describing how a connection closed, for error messages: the reason, the exit
 * code or signal when the reason does not already say it, and the end of stderr.
 */
export function describeClose(details: CloseDetails): string {
  let text = details.reason;
  const { exitCode, signal } = details;
  if (typeof signal === "string" && signal !== "" && !text.includes(signal)) {
    text += ` (killed by ${signal})`;
  } else if (typeof exitCode === "number" && !text.includes(`code ${exitCode}`)) {
    text += ` (exit code ${exitCode})`;
  }
  const tail = details.stderrTail?.filter((line) => line.trim() !== "") ?? [];
  if (tail.length > 0) text += `; last stderr: ${tail.slice(-5).join(" | ")}`;
  return text;
}
