// The small HTTP answers the server side of Streamable HTTP gives of its own: a JSON-RPC error
// with a status (spec 2025-11-25 basic/transports: the body of an error status MAY be a JSON-RPC
// error response with no id; we keep the request's id when there is one), 202, and the Accept
// check (Sending Messages 2: a POST lists both application/json and text/event-stream).

import type { RequestId } from "../../jsonrpc/messages.ts";

/** A JSON-RPC error response as an HTTP response of `status`; `id` null when no request is known. */
export function rpcErrorReply(
  status: number,
  code: number,
  message: string,
  id: RequestId | null = null,
  headers: Record<string, string> = {},
  data?: unknown,
): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: "2.0", id, error }), { status, headers: { "content-type": "application/json", ...headers } });
}

/** A JSON-RPC message as an application/json response. */
export function jsonReply(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "content-type": "application/json", ...headers } });
}

/** 202 Accepted, no body: a notification or response taken (Sending Messages 4). */
export function acceptedReply(headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 202, headers });
}

/** Whether the Accept header lists `type` (or a wildcard that covers it; no header accepts nothing). */
export function accepts(request: Request, type: string): boolean {
  const header = request.headers.get("accept");
  if (header === null) return false;
  const [major] = type.split("/");
  return header.split(",").some((part) => {
    const range = part.split(";")[0]!.trim().toLowerCase();
    return range === type || range === "*/*" || range === `${major}/*`;
  });
}
