// What a failed tool call says: the ToolCallError call() rejects with (whatever a handler or the
// client threw, named by the tool and its server, with the code a caller branches on), and the
// `{"error": …}` texts dispatch() writes for a tool's error result. Every text passes through the
// host's redactor when the tool has one (a server's error text can quote the credentials it was sent).

import { ClientStateError, TaskError } from "../client/errors.ts";
import type { CallToolResult } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import type { Redactor } from "../common/redact.ts";
import { ConnectionClosedError, ErrorCode, errorCodeName, RequestTimeoutError, RpcError } from "../jsonrpc/errors.ts";
import type { ToolCallErrorCode } from "./registry-errors.ts";
import { formatToolResultText, type ResultTextOptions } from "./result-format.ts";
import { ToolCallError } from "./tool-call-error.ts";
import type { RegisteredTool, ToolCallContext } from "./types.ts";

/** How error messages name a tool: its server and original name for MCP tools. */
export function describeTool(tool: RegisteredTool): string {
  return tool.origin.kind === "mcp" ? `server "${tool.origin.server}", tool "${tool.origin.tool}"` : `tool "${tool.name}"`;
}

/** The `{"error": …}` text of an MCP result with isError. */
export function toolErrorText(source: ResultTextOptions & { source: string }, redactor: Redactor | undefined, output: CallToolResult): string {
  const text = formatToolResultText(output, source);
  return redactWith(redactor, `${source.source} returned an error: ${text === "" ? "(no message)" : text}`);
}

/** The `{"error": …}` text of a value JSON cannot write. */
export function unwritableText(source: { source: string }, redactor: Redactor | undefined, error: unknown): string {
  return redactWith(redactor, `${source.source} returned a value that cannot be written as JSON (${messageOf(error)}); return plain JSON data`);
}

/** `text` through the host's redactor, when the tool has one. */
export function redactWith(redactor: Redactor | undefined, text: string): string {
  return redactor === undefined ? text : redactor.redact(text);
}

/**
 * The error with its message passed through the host's redactor (a server's error text can quote
 * the credentials it was sent). The same ToolCallError when nothing was redacted.
 */
export function redacted(error: ToolCallError, redactor: Redactor | undefined): ToolCallError {
  if (redactor === undefined) return error;
  const message = redactor.redact(error.message);
  if (message === error.message) return error;
  return new ToolCallError(message, error.code, { tool: error.tool, origin: error.origin, cause: error.cause });
}

/** The "cancelled" ToolCallError of a call whose signal aborted, with the signal's reason as cause. */
export function cancelled(tool: RegisteredTool, signal: AbortSignal): ToolCallError {
  const reason = signal.reason;
  const detail = reason === undefined ? "" : `: ${messageOf(reason)}`;
  return new ToolCallError(`${describeTool(tool)}: the call was cancelled${detail}`, "cancelled", { tool: tool.name, origin: tool.origin, cause: reason });
}

/** Turns whatever a handler or the client threw into a ToolCallError naming the tool and its server. */
export function failure(error: unknown, tool: RegisteredTool, context: ToolCallContext): ToolCallError {
  if (error instanceof ToolCallError) return error;
  const who = describeTool(tool);
  const make = (message: string, code: ToolCallErrorCode) => new ToolCallError(message, code, { tool: tool.name, origin: tool.origin, cause: error });
  if (context.signal?.aborted) {
    const stopped = cancelled(tool, context.signal);
    // A call that ran as a task says what became of the task (tasks/cancel sent, or it had ended).
    if (!(error instanceof TaskError) || error.taskId === "") return stopped;
    const detail = error.message.replace(/^server "[^"]*": /, "");
    return make(`${stopped.message} (${detail})`, "cancelled");
  }
  let detail = messageOf(error);
  // The client's messages start with `server "<name>": `; say it once.
  if (tool.origin.kind === "mcp") {
    const prefix = `server "${tool.origin.server}": `;
    if (detail.startsWith(prefix)) detail = detail.slice(prefix.length);
  }
  if (error instanceof RequestTimeoutError) return make(`${who}: ${detail}`, "timeout");
  // A call that ran as a task: its life outran the timeout, or the connection ended under it.
  if (error instanceof TaskError && error.code === "timeout") return make(`${who}: ${detail}`, "timeout");
  if (error instanceof TaskError && error.code === "lost") return make(`${who}: ${detail}`, "unavailable");
  if (error instanceof RpcError) {
    const codeName = errorCodeName(error.rpcCode);
    const hint = error.rpcCode === ErrorCode.InvalidParams
      ? "; check the arguments against the tool's inputSchema"
      : error.rpcCode === ErrorCode.MethodNotFound
      ? "; the server does not accept tools/call for this tool"
      : "";
    return make(
      `${who}: the server answered with JSON-RPC error ${error.rpcCode}${codeName === undefined ? "" : ` (${codeName})`}: ${error.message}${hint}`,
      "rpc",
    );
  }
  if (error instanceof ConnectionClosedError || error instanceof ClientStateError) {
    return make(`${who}: ${detail}`, "unavailable");
  }
  return make(`${who} failed: ${detail}`, "failed");
}
