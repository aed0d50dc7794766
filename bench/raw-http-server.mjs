// A hand-written Streamable HTTP MCP server for the HTTP benchmarks (no SDK), on node:http with
// keep-alive, every answer application/json — spec 2025-11-25 basic/transports ("Streamable
// HTTP"). Prints "PORT <n>" on stdout once it listens on 127.0.0.1, and exits when stdin ends.
//
// Default, the handshake era: initialize assigns an Mcp-Session-Id (a later request without a
// known one is answered 404), notifications are answered 202, GET 405 (no server-initiated
// stream), DELETE ends the session. With `--modern`, the 2026-07-28 wire: stateless (no
// session), server/discover answered, each request checked for MCP-Protocol-Version, an
// Mcp-Method header equal to its method and the `_meta` it must carry (a mismatch is answered
// 400 with the JSON-RPC error) — spec 2026-07-28 basic/transports/streamable-http.

import { randomUUID } from "node:crypto";
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import process from "node:process";

const MODERN = process.argv.includes("--modern");
const MODERN_VERSION = "2026-07-28";
const SERVER_INFO = { name: "raw-http-bench-server", version: "0.0.1" };
const TOOLS = [{
  name: "echo",
  description: "Echoes back its message",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
}];

const sessions = new Set();

function result(message) {
  switch (message.method) {
    case "server/discover":
      if (!MODERN) return undefined;
      return {
        resultType: "complete",
        supportedVersions: [MODERN_VERSION],
        capabilities: { tools: {} },
        _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
      };
    case "initialize":
      if (MODERN) return undefined;
      return { protocolVersion: message.params?.protocolVersion ?? "2025-11-25", capabilities: { tools: {} }, serverInfo: SERVER_INFO };
    case "ping":
      return {};
    case "tools/list":
      return MODERN ? { resultType: "complete", tools: TOOLS, ttlMs: 0, cacheScope: "public" } : { tools: TOOLS };
    case "tools/call": {
      const content = [{ type: "text", text: String(message.params?.arguments?.message ?? "") }];
      return MODERN ? { resultType: "complete", content } : { content };
    }
    default:
      return undefined;
  }
}

function send(res, status, value, headers) {
  const body = value === undefined ? "" : JSON.stringify(value);
  res.writeHead(status, value === undefined ? headers : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

function rpcError(id, code, message) {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** spec 2026-07-28 streamable-http: the version header, Mcp-Method equal to the body's method, the `_meta` of a request. */
function modernProblem(req, message) {
  if (req.headers["mcp-protocol-version"] !== MODERN_VERSION) return [-32022, `unsupported MCP-Protocol-Version ${req.headers["mcp-protocol-version"]}`];
  if (req.headers["mcp-method"] !== message.method) return [-32020, `Mcp-Method ${req.headers["mcp-method"]} does not match ${message.method}`];
  if (message.method === "tools/call" && req.headers["mcp-name"] !== message.params?.name) return [-32020, "Mcp-Name does not match params.name"];
  if (message.id !== undefined && message.params?._meta?.["io.modelcontextprotocol/protocolVersion"] !== MODERN_VERSION) {
    return [-32602, "the request's _meta carries no io.modelcontextprotocol/protocolVersion"];
  }
  return undefined;
}

function handle(req, res, text) {
  if (req.method === "GET") return send(res, 405, undefined, { Allow: "POST, DELETE" });
  if (req.method === "DELETE") {
    sessions.delete(req.headers["mcp-session-id"]);
    return send(res, 200, undefined);
  }
  if (req.method !== "POST") return send(res, 405, undefined, { Allow: "POST" });
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return send(res, 400, rpcError(null, -32700, "parse error"));
  }
  const id = message.id;
  if (MODERN) {
    const problem = modernProblem(req, message);
    if (problem !== undefined) return send(res, 400, rpcError(id ?? null, problem[0], problem[1]));
  } else if (message.method === "initialize") {
    const session = randomUUID();
    sessions.add(session);
    return send(res, 200, { jsonrpc: "2.0", id, result: result(message) }, { "Mcp-Session-Id": session });
  } else if (!sessions.has(req.headers["mcp-session-id"])) {
    return send(res, 404, rpcError(id ?? null, -32001, "session not found"));
  }
  if (id === undefined || message.method === undefined) return send(res, 202, undefined); // a notification or a response
  const answer = result(message);
  send(
    res,
    answer === undefined ? 404 : 200,
    answer === undefined ? rpcError(id, -32601, `method not found: ${message.method}`) : { jsonrpc: "2.0", id, result: answer },
  );
}

const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => (text += chunk));
  req.on("end", () => handle(req, res, text));
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`PORT ${server.address().port}\n`));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
