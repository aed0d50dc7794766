// The official TypeScript SDK v1 client (@modelcontextprotocol/sdk 1.x, the handshake era up to
// 2025-11-25: what most hosts are built on) against server-everything, directly and through
// `mcpwire serve` — over stdio (the host launches the server) and over Streamable HTTP. Spec
// 2025-11-25 basic/lifecycle (initialize), server/tools, server/resources, server/prompts.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Endpoint, everythingStdio, firstText, serveMissing, serveStdio, startEverythingHttp, startServeHttp } from "./serve-front.ts";

type Transport = StdioClientTransport | StreamableHTTPClientTransport;

/** What a host does first: connect, list, call two tools, list resources and prompts; then close. */
async function exercise(transport: Transport): Promise<void> {
  const client = new Client({ name: "sdk-v1-host", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: 15_000 });
    assert.equal(client.getServerVersion()?.name, "mcp-servers/everything");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("echo") && names.includes("get-sum"), `tools listed: ${names.join(", ")}`);
    assert.equal(firstText(await client.callTool({ name: "echo", arguments: { message: "hi from sdk v1" } })), "Echo: hi from sdk v1");
    assert.match(firstText(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })), /\b5\b/);
    assert.ok((await client.listResources()).resources.length > 0, "resources listed");
    assert.ok((await client.listPrompts()).prompts.length > 0, "prompts listed");
  } finally {
    await client.close();
  }
}

async function overHttp(start: () => Promise<Endpoint>): Promise<void> {
  const endpoint = await start();
  try {
    await exercise(new StreamableHTTPClientTransport(new URL(endpoint.url)));
  } finally {
    await endpoint.stop();
  }
}

describe("SDK v1 client → server-everything", () => {
  test("directly, over stdio", () => exercise(new StdioClientTransport({ ...everythingStdio, stderr: "ignore" })));
  test("directly, over Streamable HTTP", () => overHttp(startEverythingHttp));
  test("through mcpwire serve, stdio front", { skip: serveMissing }, () => exercise(new StdioClientTransport({ ...serveStdio(), stderr: "ignore" })));
  test("through mcpwire serve, Streamable HTTP front", { skip: serveMissing }, () => overHttp(startServeHttp));
});
