// The request metadata headers of Streamable HTTP in the 2026-07-28 revision: Mcp-Method,
// Mcp-Name and the Mcp-Param-{Name} headers mirrored from tool parameters marked
// `x-mcp-header` — spec 2026-07-28 basic/transports/streamable-http ("Request Metadata").
// The Client computes them from the request and its last tools/list, and hands them to the
// transport with each send (SendOptions.headers): the transport knows no method or tool.

import type { Params } from "../jsonrpc/peer.ts";
import { encodeHeaderValue, headerText, paramHeadersOf, valueAt } from "./header-params.ts";

// The x-mcp-header walk and the value encoding are the protocol's own (header-params.ts, which
// the server half's HTTP front also reads); re-exported here, where the client's callers find them.
export { encodeHeaderValue, type ParamHeader, type ParamHeaders, paramHeadersOf } from "./header-params.ts";

/** Looks up a tool's inputSchema by name (the client's last tools/list). */
export type ToolSchemaLookup = (tool: string) => unknown;

/**
 * The headers one POST carries for a request beyond the protocol version: Mcp-Method on
 * every request; Mcp-Name for tools/call, resources/read, prompts/get and the task id of
 * tasks/get, tasks/update and tasks/cancel; Mcp-Param-* for the tool's annotated parameters
 * present in the arguments ("Client Behavior"). `params` are the request's own, before `_meta`.
 */
export function requestHeaders(method: string, params: Params | undefined, toolSchema?: ToolSchemaLookup): Record<string, string> {
  const headers: Record<string, string> = { "Mcp-Method": method };
  if (method === "tools/call" || method === "prompts/get") {
    if (typeof params?.name === "string") headers["Mcp-Name"] = encodeHeaderValue(params.name);
  } else if (method === "resources/read") {
    if (typeof params?.uri === "string") headers["Mcp-Name"] = encodeHeaderValue(params.uri);
  } else if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") {
    // tasks extension ("Streamable HTTP: Routing Headers"): Mcp-Name is the task id.
    if (typeof params?.taskId === "string") headers["Mcp-Name"] = encodeHeaderValue(params.taskId);
  }
  if (method === "tools/call" && typeof params?.name === "string" && toolSchema !== undefined) {
    const found = paramHeadersOf(toolSchema(params.name));
    if ("headers" in found && found.headers.length > 0) {
      const args = params.arguments;
      for (const header of found.headers) {
        const text = headerText(valueAt(args, header.path));
        if (text !== undefined) headers[`Mcp-Param-${header.name}`] = encodeHeaderValue(text);
      }
    }
  }
  return headers;
}
