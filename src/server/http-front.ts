// A Server behind Streamable HTTP at one path (`/mcp`): the MCP-aware glue over the transport's
// endpoint (src/transport/streamable-http/server-endpoint.ts). It guards each request (Host,
// Origin, token: http-guard.ts), tells which era a POST is — an `initialize` is a handshake
// whatever its MCP-Protocol-Version says (spec 2026-07-28 basic/versioning), a session id is a
// handshake, a 2026-07-28 version in the header or `_meta` is stateless — and keeps each era's
// HTTP rules: on the handshake era the MCP-Protocol-Version header (spec 2025-11-25
// basic/transports, "Protocol Version Header"); on 2026-07-28 the request metadata headers
// checked against the body (spec 2026-07-28 basic/transports/streamable-http, "Server
// Validation") and the JSON-RPC errors of the Server given their HTTP statuses.

import { isSupportedProtocolVersion } from "../client/protocol-version.ts";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_SUBSCRIPTION_ID } from "../client/request-meta.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from "../jsonrpc/messages.ts";
import { isRequest } from "../jsonrpc/messages.ts";
import { StreamableHttpEndpoint, type StreamableHttpEndpointOptions } from "../transport/streamable-http/server-endpoint.ts";
import { rpcErrorReply } from "../transport/streamable-http/server-replies.ts";
import { httpGuard, type HttpGuardOptions } from "./http-guard.ts";
import type { Server } from "./server.ts";

/** Options of httpFront: the path, the guard, and the endpoint's bounds. */
export interface HttpFrontOptions extends HttpGuardOptions, Omit<StreamableHttpEndpointOptions, "connect" | "idReferences"> {
  /** The MCP endpoint's path (default `/mcp`); any other path is 404. */
  path?: string;
}

/** A request handler for Runtime.listenHttp, and what ends it. */
export interface HttpFront {
  (request: Request): Promise<Response>;
  /** Ends every session and open stream (the Server itself is the caller's to close). */
  close(): Promise<void>;
}

const FRONT_OPTIONS = optionNames<HttpFrontOptions>({
  path: true,
  token: true,
  boundHost: true,
  allowedHosts: true,
  allowedOrigins: true,
  tokenHint: true,
  maxSessions: true,
  idleTimeoutMs: true,
  maxBodyBytes: true,
  maxJsonDepth: true,
  maxBufferedEvents: true,
  maxBufferedBytes: true,
  maxStreams: true,
  keepAliveMs: true,
  retryAfterSeconds: true,
});

/** spec 2026-07-28 basic/index and streamable-http: the codes a 2026-07-28 front answers with 400. */
const HEADER_MISMATCH = -32020;
const BAD_REQUEST_CODES: ReadonlySet<number> = new Set([HEADER_MISMATCH, -32021, -32022]);
/** Methods whose Mcp-Name header mirrors params.name, and the one whose mirrors params.uri (Standard Request Headers). */
const NAMED_BY_NAME: ReadonlySet<string> = new Set(["tools/call", "prompts/get"]);
const NAMED_BY_URI = "resources/read";
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** `server` behind Streamable HTTP at `options.path`: give the result to Runtime.listenHttp. */
export function httpFront(server: Server, options: HttpFrontOptions = {}): HttpFront {
  checkOptions("httpFront", options, FRONT_OPTIONS);
  const { path = "/mcp", token, boundHost, allowedHosts, allowedOrigins, tokenHint, ...bounds } = options;
  const guard = httpGuard({
    ...(token === undefined ? {} : { token }),
    ...(boundHost === undefined ? {} : { boundHost }),
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    ...(allowedOrigins === undefined ? {} : { allowedOrigins }),
    ...(tokenHint === undefined ? {} : { tokenHint }),
  });
  const endpoint = new StreamableHttpEndpoint({
    ...bounds,
    connect: (transport, sessionId) => server.connect(transport, sessionId === undefined ? {} : { sessionId }),
    idReferences: subscriptionIds,
  });

  const post = async (request: Request): Promise<Response> => {
    const parsed = await endpoint.parse(request);
    if (parsed.reply) return parsed.reply;
    const message = parsed.message;
    const headerVersion = request.headers.get("mcp-protocol-version");
    const initialize = isRequest(message) && message.method === "initialize";
    const metaVersion = metaOf(message)?.[META_PROTOCOL_VERSION];
    const modern = metaVersion !== undefined || (headerVersion !== null && !isSupportedProtocolVersion(headerVersion)) ||
      (isRequest(message) && (message.method === "server/discover" || message.method === "subscriptions/listen"));
    const sessionId = request.headers.get("mcp-session-id");
    // A session id is a handshake's — unless it names no session and the request is 2026-07-28,
    // which ignores it (streamable-http, Backward Compatibility: "ignore it").
    if (initialize || (sessionId !== null && (!modern || endpoint.hasSession(sessionId)))) {
      if (!initialize) {
        const refused = handshakeVersion(headerVersion, message);
        if (refused) return refused;
      }
      return endpoint.handshake(request, message);
    }
    // Neither initialize, nor a session, nor 2026-07-28: the endpoint answers 400 (no session id).
    if (!modern) return endpoint.handshake(request, message);
    if (!isRequest(message)) return endpoint.stateless(request, message, () => 200);
    const mismatch = headerMismatch(request, message, headerVersion, metaVersion);
    if (mismatch !== undefined) return rpcErrorReply(400, HEADER_MISMATCH, `Header mismatch: ${mismatch}`, message.id);
    const meta = metaOf(message);
    const fieldsMissing = typeof meta?.[META_PROTOCOL_VERSION] !== "string" || !isPlainObject(meta?.[META_CLIENT_CAPABILITIES]);
    return endpoint.stateless(request, message, (answer) => statusOf(answer, fieldsMissing));
  };

  const front = async (request: Request): Promise<Response> => {
    const refused = guard(request);
    if (refused) return refused;
    if (new URL(request.url).pathname !== path) {
      return new Response(`Not Found: the MCP endpoint is ${path}\n`, { status: 404, headers: { "content-type": "text/plain" } });
    }
    switch (request.method) {
      case "POST":
        return await post(request);
      case "GET":
      case "DELETE": {
        // 2026-07-28 has no GET stream and no session to end (streamable-http, Backward
        // Compatibility: 405); the handshake era's need a session.
        if (request.headers.get("mcp-session-id") === null) return methodNotAllowed(request.method, "POST");
        const refused = handshakeVersion(request.headers.get("mcp-protocol-version"), undefined);
        if (refused) return refused;
        return request.method === "GET" ? endpoint.get(request) : await endpoint.delete(request);
      }
      default:
        return methodNotAllowed(request.method, "GET, POST, DELETE");
    }
  };
  return Object.assign(front, { close: () => endpoint.close() });
}

/**
 * spec 2025-11-25 basic/transports, "Protocol Version Header": after initialize the header names
 * the version (absent: 2025-03-26 assumed); an invalid or unsupported one is 400.
 */
function handshakeVersion(version: string | null, message: JsonRpcMessage | undefined): Response | undefined {
  if (version === null || isSupportedProtocolVersion(version)) return undefined;
  const id = message !== undefined && "id" in message && message.id !== undefined ? message.id : null;
  return rpcErrorReply(400, -32600, `Bad Request: MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))} is not a version of this session's era`, id);
}

/**
 * spec 2026-07-28 streamable-http, "Server Validation": MCP-Protocol-Version, Mcp-Method and (for
 * tools/call, prompts/get, resources/read) Mcp-Name present and equal to the body (Mcp-Name
 * decoded first when Base64, "Value Encoding"); what differs, or undefined. A body with no `_meta`
 * version is the Server's to refuse (-32602), not a mismatch.
 */
function headerMismatch(request: Request, message: JsonRpcRequest, headerVersion: string | null, metaVersion: unknown): string | undefined {
  if (headerVersion === null) return "the MCP-Protocol-Version header is missing";
  if (metaVersion !== undefined && headerVersion !== metaVersion) {
    return `MCP-Protocol-Version header ${JSON.stringify(headerVersion)} does not match _meta "${META_PROTOCOL_VERSION}" ${JSON.stringify(metaVersion)}`;
  }
  const method = request.headers.get("mcp-method");
  if (method === null) return "the Mcp-Method header is missing";
  if (method !== message.method) return `Mcp-Method header ${JSON.stringify(method)} does not match body method ${JSON.stringify(message.method)}`;
  const field = NAMED_BY_NAME.has(message.method) ? "name" : message.method === NAMED_BY_URI ? "uri" : undefined;
  if (field === undefined) return undefined;
  const header = request.headers.get("mcp-name");
  if (header === null) return `the Mcp-Name header is missing (${message.method} names params.${field} in it)`;
  const name = decodeHeaderValue(header);
  if (name === undefined) return "the Mcp-Name header's Base64 value does not decode to UTF-8";
  const body = message.params?.[field];
  if (name !== body) return `Mcp-Name header value ${JSON.stringify(name)} does not match body value ${JSON.stringify(body)}`;
  return undefined;
}

/** A header value as sent: plain, or `=?base64?…?=` holding UTF-8 (spec 2026-07-28 streamable-http, "Value Encoding"). */
function decodeHeaderValue(value: string): string | undefined {
  const sentinel = SENTINEL.exec(value);
  if (sentinel === null) return value;
  try {
    const binary = atob(sentinel[1]!);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The HTTP status of a 2026-07-28 JSON answer: 404 for -32601 (streamable-http, "Protocol Version
 * Header": a method the server does not implement); 400 for -32020, -32021, -32022 (Server
 * Validation; basic/index: a missing required capability; versioning) and for -32602 when the
 * request lacked a required `_meta` field (basic/index, "Per-request protocol fields"); else 200.
 */
function statusOf(answer: JsonRpcMessage, fieldsMissing: boolean): number {
  if (!("error" in answer) || typeof answer.error?.code !== "number") return 200;
  const code = answer.error.code;
  if (code === -32601) return 404;
  if (BAD_REQUEST_CODES.has(code) || (code === -32602 && fieldsMissing)) return 400;
  return 200;
}

/**
 * spec 2026-07-28 basic/patterns/subscriptions: a listen stream's notifications and its answer
 * carry the listen request's JSON-RPC id as `_meta` subscriptionId; the stateless Transport gave
 * the request an id of its own, so the host's goes back in its place.
 */
function subscriptionIds(message: JsonRpcMessage, internal: RequestId, host: RequestId): JsonRpcMessage {
  const holder = "result" in message ? message.result : "params" in message ? message.params : undefined;
  const meta = holder?._meta;
  if (!isPlainObject(meta) || meta[META_SUBSCRIPTION_ID] !== internal) return message;
  const rewritten = { ...holder, _meta: { ...meta, [META_SUBSCRIPTION_ID]: host } };
  return "result" in message ? { ...message, result: rewritten } : { ...message, params: rewritten } as JsonRpcMessage;
}

function metaOf(message: JsonRpcMessage): Record<string, unknown> | undefined {
  const params = "params" in message ? message.params : undefined;
  const meta = params?._meta;
  return isPlainObject(meta) ? meta : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function methodNotAllowed(method: string, allow: string): Response {
  return new Response(`Method Not Allowed: ${method.slice(0, 20)} (this endpoint takes ${allow})\n`, {
    status: 405,
    headers: { allow, "content-type": "text/plain" },
  });
}
