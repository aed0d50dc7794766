// JSON-RPC 2.0 message types and the guards that tell them apart — JSON-RPC 2.0 §4-§6,
// MCP spec 2025-11-25 basic/index ("Messages").

/** The id of a JSON-RPC request. */
export type RequestId = string | number;

/** A request expects a response with the same id. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

/** A notification has no id and gets no response. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** A successful response. */
export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: RequestId;
  result: Record<string, unknown>;
}

/** An error response. JSON-RPC allows a null id when the request id could not be read. */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** A response: a result or an error. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Any JSON-RPC 2.0 message: a request, a notification or a response. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/**
 * Why an answer to one of our requests could not be handed to its caller:
 * - `too-large`: the message was over the transport's size limit and was skipped unread;
 * - `result-and-error`: it carried both `result` and `error` (JSON-RPC 2.0 §5: exactly one);
 * - `result-not-object`: its `result` was not a JSON object (spec 2025-11-25 schema: `Result` is an object);
 * - `bad-error`: its `error` lacked an integer `code` and a string `message` (JSON-RPC 2.0 §5.1).
 */
export type UndeliverableReason = "too-large" | "result-and-error" | "result-not-object" | "bad-error";

/** A response that arrived but cannot be delivered: what a transport or the framer tells the Peer. */
export interface UndeliverableResponse {
  /**
   * The id read from the message (for a message over the size limit, from its first bytes);
   * undefined when none could be read — then the Peer fails its only pending request, if it
   * has exactly one.
   */
  id?: RequestId;
  reason: UndeliverableReason;
  /** What was wrong, one clause, naming neither the connection nor the method. */
  detail: string;
  /** What the user can do about it, when there is something ("raise maxMessageBytes …"). */
  remedy?: string;
  /** too-large: the message's size and the limit, in bytes. */
  bytes?: number;
  limit?: number;
}

import { isObject, jsonKind } from "../common/json.ts";

function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !("method" in message);
}

export function isErrorResponse(message: JsonRpcMessage): message is JsonRpcErrorResponse {
  return "error" in message && !("method" in message);
}

/**
 * Why a parsed JSON value is not a JSON-RPC 2.0 message, or undefined when it is one.
 * Checks only the envelope (one pass over a handful of keys); params and results are
 * left to whoever knows the method.
 */
export function whyNotJsonRpc(raw: unknown): string | undefined {
  // isObject and isId inline where every message passes (the first check, a response).
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "not a JSON object";
  const value = raw as Record<string, unknown>;
  if (value.jsonrpc !== "2.0") return 'missing "jsonrpc": "2.0"';
  const method = value.method;
  if (method !== undefined) {
    if (typeof method !== "string") return '"method" is not a string';
    if ("id" in value && !isId(value.id)) return '"id" is not a string or number';
    if (value.params !== undefined && !isObject(value.params)) {
      // MCP 2025-11-25 basic: params, when present, are an object.
      return '"params" is not an object';
    }
    return undefined;
  }
  if ("result" in value) {
    const id = value.id;
    if (typeof id !== "string" && !(typeof id === "number" && Number.isFinite(id))) return 'response "id" is not a string or number';
    if ("error" in value) return 'response has both "result" and "error"';
    const result = value.result;
    if (typeof result !== "object" || result === null || Array.isArray(result)) return '"result" is not an object';
    return undefined;
  }
  if ("error" in value) {
    if (value.id !== null && !isId(value.id)) return 'response "id" is not a string, number or null';
    const error = value.error;
    // JSON-RPC 2.0 §5.1: "code" MUST be an integer, "message" a string.
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") {
      return '"error" lacks an integer "code" and a string "message"';
    }
    return undefined;
  }
  return 'neither "method" nor "result" nor "error"';
}

/** True when the value is a JSON-RPC 2.0 message (see whyNotJsonRpc). */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  return whyNotJsonRpc(value) === undefined;
}

/**
 * A response to one of our requests that is not a well-formed JSON-RPC response but whose
 * id can be read: the request it answers should fail now, saying why, rather than wait for
 * an answer that will never come. Undefined for anything else (a well-formed message, or
 * one with no readable response id).
 */
export function undeliverableResponse(value: unknown): UndeliverableResponse | undefined {
  if (!isObject(value) || value.jsonrpc !== "2.0" || "method" in value || !isId(value.id)) return undefined;
  const id = value.id;
  if ("result" in value && "error" in value) {
    // JSON-RPC 2.0 §5: "Either the result member or error member MUST be included, but both members MUST NOT be included."
    return { id, reason: "result-and-error", detail: 'the response carries both "result" and "error", which JSON-RPC 2.0 forbids' };
  }
  if ("result" in value) {
    if (isObject(value.result)) return undefined;
    // spec 2025-11-25 schema: JSONRPCResultResponse.result is a Result, an object.
    return { id, reason: "result-not-object", detail: `the response's "result" is ${jsonKind(value.result)}, not the JSON object MCP requires` };
  }
  if ("error" in value) {
    const error = value.error;
    if (isObject(error) && Number.isInteger(error.code) && typeof error.message === "string") return undefined;
    return { id, reason: "bad-error", detail: 'the error response\'s "error" lacks an integer "code" and a string "message"' };
  }
  return undefined;
}
