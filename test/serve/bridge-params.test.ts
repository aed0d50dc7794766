// The bridge behind the HTTP front, a 2026-07-28 backend with an x-mcp-header tool behind it (the
// reference server's region_echo, over stdio): the front checks a host's Mcp-Param-* headers
// against the routed tool's own inputSchema, as the bridge lists it to that host
// (BridgeHandlers.toolInputSchema) — spec 2026-07-28 basic/transports/streamable-http ("Server
// Behavior for Custom Headers"): 400 with -32020, the request id kept; our Client's call passes.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { modernServerArgs } from "../../conformance/fixtures/modern-server-launch.ts";
import { Client } from "../../src/mod.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { createBridge } from "../../src/serve/mod.ts";
import { httpFront } from "../../src/server/http-front.ts";
import { Server } from "../../src/server/server.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/streamable-http.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

describe("Mcp-Param-* through mcpwire serve's HTTP front", () => {
  const bridge = createBridge({ config: configOf(stdioServerConfig("modern", modernServerArgs("--stdio", "--era", "modern"))), manager: FAST });
  const server = new Server(bridge.handlers);
  const front = httpFront(server);
  let listener: Awaited<ReturnType<typeof runtime.listenHttp>>;
  let url = "";

  before(async () => {
    await hangGuard(bridge.start(), 30_000, "bridge.start()");
    listener = await runtime.listenHttp({ port: 0 }, front);
    url = `http://127.0.0.1:${listener.port}/mcp`;
  });
  after(async () => {
    await front.close();
    await server.close();
    await listener.close();
    await bridge.close();
  });

  async function call(id: number, args: Record<string, unknown>, headers: Record<string, string>) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "region_echo",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "region_echo", arguments: args, _meta: META } }),
    });
    return { status: response.status, body: await response.json() as { id: unknown; result?: { content: { text: string }[] }; error?: { code: number } } };
  }

  it("a header missing, different or badly encoded is 400 -32020 keeping the id; a matching one reaches the backend", async () => {
    for (
      const [id, headers] of [
        [7, {}],
        [8, { "Mcp-Param-Region": "eu-west1" }],
        [9, { "Mcp-Param-Region": "=?base64?dXMtd2VzdDE?=" }],
      ] as const
    ) {
      const { status, body } = await hangGuard(call(id, { region: "us-west1" }, headers), 30_000, "a raw tools/call");
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.error?.code, -32020);
      assert.equal(body.id, id);
    }
    const { status, body } = await call(10, { region: "us-west1" }, { "Mcp-Param-Region": "=?base64?dXMtd2VzdDE=?=" });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.result?.content[0]?.text, "region=us-west1");
  });

  it("our own Client as a 2026-07-28 host mirrors the parameter itself, and its call passes", async () => {
    const client = new Client({ name: "params-host", version: "1.0.0" }, { listen: false });
    try {
      await hangGuard(client.connect(new StreamableHttpTransport({ url }), { protocol: "modern" }), 30_000, "the host's connect");
      await client.listTools();
      const result = await client.callTool("region_echo", { region: "Zürich", query: "q" });
      assert.equal((result.content[0] as { text: string }).text, "region=Zürich query=q");
    } finally {
      await client.close();
    }
  });
});
