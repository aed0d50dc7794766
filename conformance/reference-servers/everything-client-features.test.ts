// The client-side features against the reference server @modelcontextprotocol/server-everything
// in `streamableHttp` mode — spec 2025-11-25 client/elicitation, client/sampling, client/roots:
// elicitation, sampling and roots requests travel back over the HTTP streams to the handlers.

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { Client, type CreateMessageRequest, type ElicitFormRequest } from "../../src/mod.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { freePort, startEverything, stop, textOf } from "../../test/support/everything-http.ts";

describe("server-everything client features over Streamable HTTP", () => {
  const asked: ElicitFormRequest[] = [];
  const sampled: CreateMessageRequest[] = [];
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, {
    name: "everything-http",
    requestTimeoutMs: 20_000,
    roots: [{ uri: "/projects/http", name: "http-root" }],
    handlers: {
      elicitation: { form: async (request) => (asked.push(request), { action: "accept", content: { name: "Grace Hopper" } }) },
      sampling: async (request) => (sampled.push(request), {
        role: "assistant",
        content: { type: "text", text: "deterministic answer" },
        model: "fixed",
        stopReason: "endTurn",
      }),
    },
  });
  let server: ChildProcess | undefined;

  before(async () => {
    const port = await freePort();
    server = await startEverything(port);
    await client.connect(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp`, reconnect: { initialDelayMs: 100 } }));
    for (let attempt = 0; attempt < 50 && !(await client.listTools()).some((tool) => tool.name === "trigger-sampling-request"); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  after(async () => {
    await client.close();
    if (server !== undefined) await stop(server);
  });

  test("the capability-dependent tools are listed because the handlers declared their capabilities", async () => {
    const names = new Set((await client.listTools()).map((tool) => tool.name));
    for (const name of ["trigger-elicitation-request", "trigger-sampling-request", "get-roots-list"]) assert.ok(names.has(name), name);
    assert.ok(!names.has("trigger-url-elicitation"), "no url handler, so no url-mode tool");
  });

  test("trigger-elicitation-request: the server receives the answer with SEP-1034 defaults", async () => {
    const text = textOf((await client.callTool("trigger-elicitation-request")).content);
    assert.equal(asked.length, 1);
    assert.match(text, /- Name: Grace Hopper/);
    assert.match(text, /- Favorite Integer: 42/);
  });

  test("trigger-sampling-request: the handler's answer reaches the server", async () => {
    const text = textOf((await client.callTool("trigger-sampling-request", { prompt: "ping?" })).content);
    assert.match(text, /deterministic answer/);
    assert.equal(sampled[0]?.maxTokens, 100);
  });

  test("get-roots-list shows the static roots as file:// URIs", async () => {
    assert.match(textOf((await client.callTool("get-roots-list")).content), /http-root\n\s+URI: file:\/\/\/projects\/http/);
  });
});
