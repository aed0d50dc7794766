#!/usr/bin/env node
// A small MCP server over stdio, the one the docs' examples talk to (docs/cli.md,
// docs/watching.md): `mcpwire tools --stdio "node examples/servers/echo-server.mjs"`. It is
// shipped in the npm package (node_modules/mcpwire/examples/servers/) and needs nothing but Node.
//
// The whole protocol it speaks, for a reader learning MCP:
// - spec 2025-11-25 basic/transports ("stdio"): one JSON-RPC message per line on stdin and
//   stdout; anything else it says goes to stderr.
// - spec 2025-11-25 basic/lifecycle: it answers `initialize` with its protocol version,
//   capabilities and serverInfo; the client's `notifications/initialized` needs no answer; it
//   exits when its stdin closes ("Shutdown").
// - spec 2025-11-25 server/tools: `tools/list` and `tools/call`; a tool's failure is a result with
//   `isError: true`, an unknown tool a JSON-RPC error.
// - spec 2025-11-25 basic/utilities/progress: `progress` sends notifications/progress with the
//   progressToken the request carried in `_meta`.

import process from "node:process";

const PROTOCOL_VERSION = "2025-11-25";

/** The tools: each a description, an input schema and what a call returns. */
const TOOLS = {
  echo: {
    description: "Returns its text argument",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    call: ({ text }) => textResult(String(text)),
  },
  progress: {
    description: "Sends `steps` progress notifications, then answers",
    inputSchema: { type: "object", properties: { steps: { type: "integer", minimum: 0, maximum: 1000 } } },
    async call({ steps = 3 }, progressToken) {
      for (let step = 1; step <= steps; step++) {
        if (progressToken !== undefined) {
          send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: step, total: steps, message: `step ${step}` } });
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return textResult(`done after ${steps} steps`);
    },
  },
  big: {
    description: "Returns a text of `bytes` characters (one long stdout line)",
    inputSchema: { type: "object", properties: { bytes: { type: "integer", minimum: 0, maximum: 100000000 } } },
    call: ({ bytes = 1_000_000 }) => textResult("x".repeat(bytes)),
  },
  env: {
    description: "Returns its environment as JSON",
    inputSchema: { type: "object", properties: {} },
    call: () => textResult(JSON.stringify(process.env)),
  },
};

function textResult(text) {
  return { content: [{ type: "text", text }] };
}

/** Writes one message as one line to stdout. */
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

/** The answer to one request: its result, or a JSON-RPC error. */
async function answer({ method, params }) {
  switch (method) {
    case "initialize":
      return { result: { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { name: "echo", version: "1.0.0" } } };
    case "ping":
      return { result: {} };
    case "tools/list":
      return { result: { tools: Object.entries(TOOLS).map(([name, { description, inputSchema }]) => ({ name, description, inputSchema })) } };
    case "tools/call": {
      const tool = Object.hasOwn(TOOLS, params?.name) ? TOOLS[params.name] : undefined;
      if (tool === undefined) return { error: { code: -32602, message: `Unknown tool: ${params?.name}` } };
      try {
        return { result: await tool.call(params.arguments ?? {}, params._meta?.progressToken) };
      } catch (error) {
        return { result: { ...textResult(String(error)), isError: true } };
      }
    }
    default:
      return { error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

let partial = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (partial + chunk).split("\n");
  partial = lines.pop();
  for (const line of lines) {
    if (line.trim() === "") continue;
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stderr.write(`echo: not JSON on stdin: ${line.slice(0, 80)}\n`);
      continue;
    }
    // A notification (no id) or a response to us (no method) needs no answer.
    if (message.id === undefined || typeof message.method !== "string") continue;
    void answer(message).then((reply) => send({ jsonrpc: "2.0", id: message.id, ...reply }));
  }
});
process.stdin.on("end", () => process.stderr.write("echo: stdin closed, exiting\n", () => process.exit(0)));
