// JSON-RPC 2.0 error codes and the error a peer answers with — JSON-RPC 2.0 §5.1,
// MCP spec 2025-11-25 basic/index ("Responses" and "Error codes").

import { McpwireError } from "../common/mcpwire-error.ts";
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

/** The name of a known error code ("MethodNotFound"), or undefined. (Looked up when asked: only the registry's messages use it.) */
export function errorCodeName(code: number): string | undefined {
  return Object.entries(ErrorCode).find(([, value]) => value === code)?.[0];
}

/**
 * What a JSON-RPC error response says, by name: `rpcCode` is the number on the wire.
 * - "parse-error" -32700, "invalid-request" -32600, "method-not-found" -32601,
 *   "invalid-params" -32602, "internal-error" -32603 (JSON-RPC 2.0 §5.1);
 * - "resource-not-found" -32002 (MCP 2025-11-25 resources; from 2026-07-28 a -32602 on resources/read);
 * - "header-mismatch" -32020, "missing-client-capability" -32021 (and the tasks extension's
 *   -32003), "unsupported-protocol-version" -32022 (spec 2026-07-28 basic/index "Error Codes");
 * - "url-elicitation-required" -32042 (MCP 2025-11-25 client/elicitation);
 * - "user-rejected" -1 (the user said no to a sampling request: MCP 2025-11-25 client/sampling "Error Handling");
 * - "server-error": any other number in -32000..-32099, which JSON-RPC 2.0 leaves to servers;
 * - "application-error": any other number.
 */
export type RpcErrorCode =
  | "parse-error"
  | "invalid-request"
  | "method-not-found"
  | "invalid-params"
  | "internal-error"
  | "resource-not-found"
  | "header-mismatch"
  | "missing-client-capability"
  | "unsupported-protocol-version"
  | "url-elicitation-required"
  | "user-rejected"
  | "server-error"
  | "application-error";

/**
 * Every code of the jsonrpc layer: why a request to the other side failed, by name (never read
 * the message). An RpcErrorCode when the other side answered with an error; else
 * - "connection-closed": the connection ended before the answer (ConnectionClosedError);
 * - "timeout": no answer in time, or the caller's AbortSignal.timeout fired (RequestTimeoutError, RequestAbortedError);
 * - "cancelled": the caller's AbortSignal ended it (RequestAbortedError);
 * - "undeliverable": its answer arrived but could not be delivered (UndeliverableResponseError; `reason` says why).
 */
export type JsonRpcErrorCode = RpcErrorCode | "connection-closed" | "timeout" | "cancelled" | "undeliverable";

const rpcCodeNames = new Map<number, RpcErrorCode>([
  [ErrorCode.ParseError, "parse-error"],
  [ErrorCode.InvalidRequest, "invalid-request"],
  [ErrorCode.MethodNotFound, "method-not-found"],
  [ErrorCode.InvalidParams, "invalid-params"],
  [ErrorCode.InternalError, "internal-error"],
  [ErrorCode.ResourceNotFound, "resource-not-found"],
  [-32020, "header-mismatch"],
  [-32021, "missing-client-capability"],
  [-32022, "unsupported-protocol-version"],
  [ErrorCode.UrlElicitationRequired, "url-elicitation-required"],
  [-1, "user-rejected"],
]);

/** The name of a JSON-RPC error number (`-32601` is "method-not-found"); see RpcErrorCode. */
export function rpcErrorCode(rpcCode: number): RpcErrorCode {
  return rpcCodeNames.get(rpcCode) ?? (rpcCode <= -32000 && rpcCode >= -32099 ? "server-error" : "application-error");
}

/** What an RpcError carries besides its message and number: the response's `data`, and a cause. */
export interface RpcErrorOptions {
  /** The `data` member of the JSON-RPC error. */
  data?: unknown;
  cause?: unknown;
}

/**
 * An error carried by a JSON-RPC error response: either one the remote peer sent us, or
 * one our request handler throws so that the peer answers with this code. `rpcCode` is the
 * number on the wire; `code` its name (RpcErrorCode).
 */
export class RpcError<C extends RpcErrorCode = RpcErrorCode> extends McpwireError<C> {
  override readonly name: string = "RpcError";
  /** The JSON-RPC error code, the number on the wire (-32601, …); ErrorCode names the known ones. */
  readonly rpcCode: number;
  readonly data: unknown;

  /** `code` is the name of `rpcCode` unless a subclass gives its own (ResourceNotFoundError for -32602). */
  constructor(message: string, rpcCode: number, options: RpcErrorOptions = {}, code?: C) {
    super(message, code ?? (rpcErrorCode(rpcCode) as C), options.cause === undefined ? undefined : { cause: options.cause });
    this.rpcCode = rpcCode;
    this.data = options.data;
  }

  /** The `error` member of a JSON-RPC response carrying this error. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.rpcCode, message: this.message } : { code: this.rpcCode, message: this.message, data: this.data };
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
 * every request made afterwards too. Test for it with its code "connection-closed" (or
 * `instanceof`), not the message.
 */
export class ConnectionClosedError extends McpwireError<"connection-closed"> {
  override readonly name = "ConnectionClosedError";
  /** Why the connection ended: the reason, exit code or signal, the end of stderr. */
  readonly details: CloseDetails;

  constructor(message: string, options: { details: CloseDetails; cause?: unknown }) {
    super(message, "connection-closed", options);
    this.details = options.details;
  }
}

/** The options of a RequestError: the request's method, and a cause. */
export interface RequestErrorOptions {
  /** The method of the request that failed. */
  method: string;
  cause?: unknown;
}

/**
 * One request failed without an error response from the other side (it timed out, was aborted,
 * its answer could not be delivered, …): the base of those errors, naming the request's method.
 */
export class RequestError<C extends string = JsonRpcErrorCode> extends McpwireError<C> {
  override readonly name: string = "RequestError";
  /** The method of the request that failed. */
  readonly method: string;

  constructor(message: string, code: C, options: RequestErrorOptions) {
    super(message, code, options);
    this.method = options.method;
  }
}

/** A request got no answer in time — spec 2025-11-25 basic/lifecycle ("Timeouts"). Code "timeout". */
export class RequestTimeoutError extends RequestError<"timeout"> {
  override readonly name = "RequestTimeoutError";
  readonly timeoutMs: number;
  /** "idle": no answer or progress for timeoutMs; "total": the hard maximum was reached. */
  readonly kind: "idle" | "total";

  constructor(message: string, options: RequestErrorOptions & { timeoutMs: number; kind: "idle" | "total" }) {
    super(message, "timeout", options);
    this.timeoutMs = options.timeoutMs;
    this.kind = options.kind;
  }
}

/**
 * A request failed because its answer arrived and could not be delivered (too large, or not
 * a well-formed response). It fails at once, instead of waiting out its timeout. Code
 * "undeliverable"; `reason` says why.
 */
export class UndeliverableResponseError extends RequestError<"undeliverable"> {
  override readonly name = "UndeliverableResponseError";
  /** Why the answer could not be delivered: "too-large", "result-and-error", … */
  readonly reason: UndeliverableReason;
  readonly requestId: RequestId;
  /** too-large: the message's size and the limit, in bytes. */
  readonly bytes: number | undefined;
  readonly limit: number | undefined;

  constructor(message: string, options: RequestErrorOptions & { requestId: RequestId; response: UndeliverableResponse }) {
    super(message, "undeliverable", options);
    this.reason = options.response.reason;
    this.requestId = options.requestId;
    this.bytes = options.response.bytes;
    this.limit = options.response.limit;
  }
}

/**
 * The caller's AbortSignal ended a request. `code` is "timeout" when the signal's reason is a
 * TimeoutError (AbortSignal.timeout), "cancelled" otherwise; `cause` is the signal's reason.
 */
export class RequestAbortedError extends RequestError<"cancelled" | "timeout"> {
  override readonly name = "RequestAbortedError";
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
