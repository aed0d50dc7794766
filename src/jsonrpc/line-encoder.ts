// Newline-delimited framing of outgoing messages — MCP spec 2025-11-25 basic/transports
// (stdio): "Messages are delimited by newlines, and MUST NOT contain embedded newlines."

import type { JsonRpcMessage } from "./messages.ts";

/**
 * One message as one line. JSON.stringify escapes every control character inside
 * strings and adds no whitespace, so the only newline in the output is the delimiter.
 */
export function encodeLine(message: JsonRpcMessage): string {
  return JSON.stringify(message) + "\n";
}
