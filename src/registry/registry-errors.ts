// The registry layer's errors: every code they carry in one union, RegistryErrorCode, and the
// classes (each an McpwireError with the subset of codes it uses). ToolCallError, which carries the
// tool and its origin, is in tool-call-error.ts (types.ts, which it reads, reads result files).

import { McpwireError } from "../common/mcpwire-error.ts";

/** Why call() failed; dispatch() turns every one of these into `{"error": …}`. */
export type ToolCallErrorCode =
  /** No tool of that name is registered. */
  | "unknown-tool"
  /** The tool's toolset is disabled. */
  | "disabled"
  /** The arguments are not a JSON object (or, in dispatch, not valid JSON). */
  | "invalid-arguments"
  /** The handler threw, or the server's result was unusable. */
  | "failed"
  /** No answer in time (MCP: the request's idle timeout; built-in: context.timeoutMs). */
  | "timeout"
  /** context.signal was aborted. */
  | "cancelled"
  /** The server answered tools/call with a JSON-RPC error. */
  | "rpc"
  /** The server is not connected (closed, failed, not yet ready). */
  | "unavailable"
  /**
   * The tool's MCP Apps visibility leaves out the caller (ToolCallContext.caller): an app-only
   * tool called for a model, a model-only tool called for an app, another server's tool for an app.
   */
  | "not-visible"
  /** The tool is held back by its pin (new or changed since pinned, ToolPins): accept it first. */
  | "tool-held";

/** Why a result file could not be saved. */
export type ResultFileErrorCode =
  /** No directory was given and neither XDG_CACHE_HOME nor HOME says where one goes. */
  | "no-directory"
  /** The directory could not be made, or the file could not be written in it. */
  | "unwritable"
  /** The directory is a symbolic link, not a directory, or not this user's own; nothing was written. */
  | "unsafe-directory"
  /** An image, audio or blob block whose data is not base64. */
  | "invalid-data";

/** Why a call across the sync bridge (a blocking worker thread) failed. */
export type SyncBridgeErrorCode =
  /** The worker thread could not be started, or its service's start() threw. */
  | "start-failed"
  /** No answer within the bound (startTimeoutMs, or a call's timeoutMs). */
  | "timeout"
  /** The worker thread is gone (crashed, exited, stopped responding). */
  | "worker-ended"
  /** The bridge was closed (before or while the call was made). */
  | "closed"
  /** The worker's service threw, or the call or its reply could not cross between threads. */
  | "failed"
  /** serveSyncWorker() was called outside a worker started by SyncWorker.start(). */
  | "not-in-worker";

/** Why tool pinning failed: the stored pins are damaged (or newer), or could not be written; accept/reject named no held tool. */
export type ToolPinsErrorCode = "damaged-pins" | "unwritable-pins" | "busy-pins" | "not-held";

/** Why registering a server's (or a built-in) tools failed, or a registration was used after unregister(). */
export type RegistrationErrorCode =
  /** The `naming` format cannot make tool names (no `{tool}`, an unknown placeholder, …). */
  | "invalid-naming"
  /** A server of that name is already registered with the registry, or a built-in tool of that name. */
  | "already-registered"
  /** The server's first tools/list failed, so none of its tools were registered. */
  | "list-failed"
  /** refresh(), replaceClient() or a skills refresh() on a registration after its unregister(). */
  | "unregistered";

/** Every code an error of the registry layer carries. */
export type RegistryErrorCode = ToolCallErrorCode | ResultFileErrorCode | SyncBridgeErrorCode | ToolPinsErrorCode | RegistrationErrorCode;

/** A result or a block could not be saved; the registry falls back to the cut string and warns. */
export class ResultFileError extends McpwireError<ResultFileErrorCode> {
  override readonly name = "ResultFileError";
}

/** The worker could not be started, or a call across the bridge failed or misused it. */
export class SyncBridgeError extends McpwireError<SyncBridgeErrorCode> {
  override readonly name = "SyncBridgeError";
}

/** A server's or a built-in tool could not be registered, or a registration was used after unregister(); `code` says which. */
export class RegistrationError extends McpwireError<RegistrationErrorCode> {
  override readonly name = "RegistrationError";
}

/** The tool pins could not be read or written, or accept/reject named nothing held; the message names the file and what to do. */
export class ToolPinsError extends McpwireError<ToolPinsErrorCode> {
  override readonly name = "ToolPinsError";
}
