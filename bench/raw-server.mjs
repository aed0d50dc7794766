// A hand-written newline JSON-RPC MCP server for the stdio benchmarks (no SDK): answers
// initialize, ping, tools/list (one "echo" tool) and tools/call echo; ignores notifications.
// With `--modern` it also answers server/discover (spec 2026-07-28 basic/versioning), so a
// client speaks the 2026-07-28 wire to it, and holds subscriptions/listen open unanswered.

import process from "node:process";

const MODERN = process.argv.includes("--modern");
const SERVER_INFO = { name: "raw-bench-server", version: "0.0.1" };

const TOOLS = [{
  name: "echo",
  description: "Echoes back its message",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
}];

function answer(message) {
  switch (message.method) {
    case "server/discover":
      if (!MODERN) return undefined;
      return { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } };
    case "initialize":
      return {
        protocolVersion: message.params?.protocolVersion ?? "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO,
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools: TOOLS };
    case "tools/call":
      return { content: [{ type: "text", text: String(message.params?.arguments?.message ?? "") }] };
    default:
      return undefined;
  }
}

let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let start = 0;
  let newline;
  let out = "";
  while ((newline = buffer.indexOf("\n", start)) !== -1) {
    const line = buffer.slice(start, newline);
    start = newline + 1;
    if (line.trim() === "") continue;
    const message = JSON.parse(line);
    if (message.id === undefined || message.method === undefined) continue; // notification or response
    if (MODERN && message.method === "subscriptions/listen") continue; // held open until the client cancels it
    const result = answer(message);
    out += JSON.stringify(
      result === undefined
        ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `method not found: ${message.method}` } }
        : { jsonrpc: "2.0", id: message.id, result },
    ) + "\n";
  }
  buffer = buffer.slice(start);
  if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => process.exit(0));
