// A recorded server over Streamable HTTP on 127.0.0.1 (`mcpwire replay --http PORT`): the
// smallest server a client can talk to, spec 2025-11-25 basic/transports ("Streamable HTTP"):
// - POST a request: the answer as application/json, or as text/event-stream when notifications
//   go before it (replayed progress); POST a notification or response: 202 Accepted, no body;
// - the initialize answer carries a fresh Mcp-Session-Id; a request with a session id this
//   server did not give (or ended) gets 404; one without a session id is answered all the same
//   (the spec's SHOULD answer 400 is not needed by a replay, which keeps no state per session);
// - GET: 405 (this server opens no stream of its own); DELETE: 200, the session ends;
// - an Origin header that is not this loopback origin: 403 (the spec's MUST against DNS rebinding).
// Notifications the recording has after a client notification are not sent (they would need
// the GET stream).

import { jsonTextDepth } from "../../common/bounded.ts";
import { messageOf } from "../../common/error-text.ts";
import { ErrorCode } from "../../jsonrpc/errors.ts";
import { isJsonRpcMessage, type JsonRpcMessage } from "../../jsonrpc/messages.ts";
import { runtime } from "../../runtime/mod.ts";
import type { LoopbackListener } from "../../runtime/types.ts";
import type { Recording } from "./replay.ts";

/** The path the replay serves MCP at. */
export const REPLAY_HTTP_PATH = "/mcp";
/** The largest request body read, in bytes. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The deepest request body read. */
const MAX_BODY_DEPTH = 64;

/** A JSON-RPC error with no id, as an HTTP response. */
function rpcFailure(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

/** Serves `recording` at http://127.0.0.1:<port>/mcp until closed; `onNote` hears what a person should know. */
export function serveReplayHttp(recording: Recording, port: number, onNote: (note: string) => void): Promise<LoopbackListener> {
  const sessions = new Set<string>();
  let origins: string[] = [];
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname !== REPLAY_HTTP_PATH) return new Response(`not found: MCP is served at ${REPLAY_HTTP_PATH}`, { status: 404 });
    const origin = request.headers.get("origin");
    if (origin !== null && !origins.includes(origin)) return new Response("forbidden origin", { status: 403 });
    const session = request.headers.get("mcp-session-id");
    if (session !== null && !sessions.has(session)) return new Response("unknown or ended session: initialize again", { status: 404 });
    if (request.method === "GET") return new Response("this server opens no stream of its own", { status: 405, headers: { allow: "POST, DELETE" } });
    if (request.method === "DELETE") {
      if (session !== null) sessions.delete(session);
      return new Response(null, { status: 200 });
    }
    if (request.method !== "POST") return new Response("method not allowed", { status: 405, headers: { allow: "POST, DELETE" } });
    const text = await boundedBody(request);
    if (text === undefined) return rpcFailure(413, ErrorCode.InvalidRequest, `body over ${MAX_BODY_BYTES} bytes`);
    if (jsonTextDepth(text, MAX_BODY_DEPTH + 1) > MAX_BODY_DEPTH) return rpcFailure(400, ErrorCode.InvalidRequest, `body nested deeper than ${MAX_BODY_DEPTH}`);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return rpcFailure(400, ErrorCode.ParseError, `not JSON: ${messageOf(error)}`);
    }
    if (!isJsonRpcMessage(message)) return rpcFailure(400, ErrorCode.InvalidRequest, "not a JSON-RPC message");
    const reply = recording.reply(message);
    for (const note of reply.notes) onNote(note);
    if (!("method" in message) || !("id" in message)) return new Response(null, { status: 202 });
    const headers: Record<string, string> = {};
    if (message.method === "initialize" && reply.messages.some((sent) => "result" in sent)) {
      const id = crypto.randomUUID();
      sessions.add(id);
      headers["mcp-session-id"] = id;
    }
    if (reply.messages.length === 1) return Response.json(reply.messages[0], { headers });
    return new Response(reply.messages.map(sseEvent).join(""), { headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" } });
  };
  return runtime.serveLoopback(port, handle).then((listener) => {
    origins = [`http://127.0.0.1:${listener.port}`, `http://localhost:${listener.port}`];
    return listener;
  });
}

/** The body as text, read up to MAX_BODY_BYTES; undefined past them. */
async function boundedBody(request: Request): Promise<string | undefined> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** One SSE event carrying a message (spec 2025-11-25 basic/transports: the `data` of an event is one JSON-RPC message). */
function sseEvent(message: JsonRpcMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}
