// mcpwire's own Client (src/mod.ts) as a host of `mcpwire serve`, in both eras: `legacy` (the
// initialize handshake) and `modern` (the 2026-07-28 stateless wire, which server-everything
// does not speak: through the bridge only, translated), over stdio and Streamable HTTP. Spec
// 2026-07-28 basic/versioning.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client, StdioTransport, StreamableHttpTransport, type Transport } from "../../src/mod.ts";
import { type Endpoint, everythingStdio, firstText, serveMissing, serveStdio, startEverythingHttp, startServeHttp } from "./serve-front.ts";

type Era = "legacy" | "modern";

async function exercise(transport: Transport, era: Era): Promise<void> {
  const client = new Client({ name: "mcpwire-host", version: "1.0.0" }, { name: "everything", protocol: era, requestTimeoutMs: 15_000 });
  try {
    await client.connect(transport);
    assert.equal(client.era, era);
    assert.equal(client.serverInfo?.name, "mcp-servers/everything");
    const names = (await client.listTools()).map((tool) => tool.name);
    assert.ok(names.includes("echo") && names.includes("get-sum"), `tools listed: ${names.join(", ")}`);
    assert.equal(firstText(await client.callTool("echo", { message: "hi from mcpwire" })), "Echo: hi from mcpwire");
    assert.match(firstText(await client.callTool("get-sum", { a: 2, b: 3 })), /\b5\b/);
  } finally {
    await client.close();
  }
}

async function overHttp(start: () => Promise<Endpoint>, era: Era): Promise<void> {
  const endpoint = await start();
  try {
    await exercise(new StreamableHttpTransport({ url: endpoint.url }), era);
  } finally {
    await endpoint.stop();
  }
}

describe("mcpwire Client → server-everything", () => {
  test("directly, handshake era, over stdio", () => exercise(new StdioTransport(everythingStdio), "legacy"));
  test("directly, handshake era, over Streamable HTTP", () => overHttp(startEverythingHttp, "legacy"));
  for (const era of ["legacy", "modern"] as const) {
    const label = era === "legacy" ? "handshake era" : "2026-07-28";
    test(`through mcpwire serve, ${label}, stdio front`, { skip: serveMissing }, () => exercise(new StdioTransport(serveStdio()), era));
    test(`through mcpwire serve, ${label}, Streamable HTTP front`, { skip: serveMissing }, () => overHttp(startServeHttp, era));
  }
});
