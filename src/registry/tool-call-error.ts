// ToolCallError: a tool call failed (call() rejects with it; dispatch() writes its message as
// `{"error": …}`). Its codes are ToolCallErrorCode, part of RegistryErrorCode (registry-errors.ts).

import { McpwireError } from "../common/mcpwire-error.ts";
import type { ToolCallErrorCode } from "./registry-errors.ts";
import type { ToolOrigin } from "./types.ts";

/** The options of a ToolCallError: the tool called, where it comes from, and the underlying error. */
export interface ToolCallErrorOptions {
  /** The registered name that was called. */
  tool: string;
  /** Where the tool comes from, when it was registered. */
  origin?: ToolOrigin | undefined;
  cause?: unknown;
}

/** call() failed. The message names the tool (and its server) and says what to do. */
export class ToolCallError extends McpwireError<ToolCallErrorCode> {
  override readonly name = "ToolCallError";
  /** The registered name that was called. */
  readonly tool: string;
  /** Where the tool comes from, when it was registered. */
  readonly origin: ToolOrigin | undefined;
  constructor(message: string, code: ToolCallErrorCode, options: ToolCallErrorOptions) {
    super(message, code, options);
    this.tool = options.tool;
    this.origin = options.origin;
  }
}
