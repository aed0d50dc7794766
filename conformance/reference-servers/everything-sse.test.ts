// The Client against the reference server @modelcontextprotocol/server-everything in its
// `sse` mode, over the legacy HTTP+SSE transport on loopback — spec 2024-11-05
// basic/transports ("HTTP with SSE"): the same checks as over stdio (everything.test.ts).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import type { TextContent } from "../../src/client/types.ts";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import type { Progress } from "../../src/jsonrpc/peer.ts";
import { SseLegacyTransport } from "../../src/transport/sse-legacy.ts";
import { type HttpServerProcess, startEverything } from "../../test/fixtures/sse-servers.ts";

function textOf(content: { type: string }[]): string {
  return content.filter((block): block is TextContent => block.type === "text").map((block) => block.text).join("\n");
}

describe("server-everything over legacy HTTP+SSE", () => {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything-sse", requestTimeoutMs: 20_000 });
  const problems: string[] = [];
  let server: HttpServerProcess;
  let transport: SseLegacyTransport;

  before(async () => {
    client.on("problem", ({ message }) => problems.push(message));
    server = await startEverything("sse");
    transport = new SseLegacyTransport({ url: `${server.origin}/sse` });
    await client.connect(transport);
  });

  after(async () => {
    await client.close();
    assert.equal(client.state, "closed");
    await server.stop();
  });

  test("initialize: the server names itself, answers 2025-11-25 and declares its capabilities", () => {
    assert.equal(client.state, "ready");
    assert.equal(client.serverInfo?.name, "mcp-servers/everything");
    assert.equal(client.protocolVersion, "2025-11-25");
    const capabilities = client.serverCapabilities ?? {};
    for (const name of ["tools", "resources", "prompts", "logging"]) {
      assert.ok(capabilities[name] !== undefined, `capability ${name} missing: ${JSON.stringify(capabilities)}`);
    }
    assert.ok((client.instructions ?? "").length > 0, "no instructions");
  });

  test("the endpoint came from the server's endpoint event: /message with a session id, on the stream's origin", () => {
    const endpoint = transport.endpoint;
    assert.ok(endpoint, "no endpoint");
    assert.equal(endpoint.origin, server.origin);
    assert.equal(endpoint.pathname, "/message");
    assert.ok(endpoint.searchParams.get("sessionId"), `no sessionId in ${endpoint.href}`);
  });

  test("listTools returns the tools, each with an object inputSchema", async () => {
    const tools = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ["echo", "get-sum", "trigger-long-running-operation", "get-tiny-image"]) {
      assert.ok(names.includes(name), `${name} not listed; got ${names.join(", ")}`);
    }
    for (const tool of tools) assert.equal(tool.inputSchema.type, "object", `${tool.name}: inputSchema is not an object schema`);
  });

  test("echo returns the message", async () => {
    const result = await client.callTool("echo", { message: "hi over sse ✓" });
    assert.notEqual(result.isError, true);
    assert.equal(textOf(result.content), "Echo: hi over sse ✓");
  });

  test("get-sum adds two numbers", async () => {
    const result = await client.callTool("get-sum", { a: 2, b: 3 });
    assert.match(textOf(result.content), /\b5\b/);
  });

  test("trigger-long-running-operation reports progress for each step before its result", async () => {
    const updates: Progress[] = [];
    const result = await client.callTool(
      "trigger-long-running-operation",
      { duration: 1, steps: 3 },
      { onProgress: (progress) => updates.push(progress) },
    );
    assert.deepEqual(updates.map(({ progress, total }) => [progress, total]), [[1, 3], [2, 3], [3, 3]]);
    assert.match(textOf(result.content), /Long running operation completed/);
  });

  test("listResources returns resources that readResource can read", async () => {
    const resources = await client.listResources();
    assert.ok(resources.length > 0, "no resources");
    const first = resources[0]!;
    const read = await client.readResource(first.uri);
    assert.equal(read.contents[0]?.uri, first.uri);
  });

  test("reading a resource that does not exist throws RpcError; the connection stays ready", async () => {
    await assert.rejects(client.readResource("demo://no/such/resource"), RpcError);
    assert.equal(client.state, "ready");
  });

  test("listResourceTemplates returns the dynamic templates, and a URI built from one reads", async () => {
    const templates = await client.listResourceTemplates();
    assert.ok(templates.some((template) => template.uriTemplate === "demo://resource/dynamic/text/{resourceId}"));
    const read = await client.readResource("demo://resource/dynamic/text/1");
    const contents = read.contents[0];
    assert.ok(contents && "text" in contents);
    assert.match(contents.text, /Resource 1/);
  });

  test("listPrompts lists args-prompt; getPrompt fills in its arguments", async () => {
    const prompts = await client.listPrompts();
    assert.ok(prompts.some((prompt) => prompt.name === "args-prompt"), `prompts: ${prompts.map((prompt) => prompt.name).join(", ")}`);
    const result = await client.getPrompt("args-prompt", { city: "Paris", state: "Texas" });
    const message = result.messages[0]!;
    assert.ok(message.content.type === "text");
    assert.equal(message.content.text, "What's weather in Paris, Texas?");
  });

  test("ping is answered", async () => {
    await client.ping();
  });

  test("100 concurrent calls each get their own answer", async () => {
    const messages = Array.from({ length: 100 }, (_, i) => `message ${i}`);
    const results = await Promise.all(messages.map((message) => client.callTool("echo", { message })));
    assert.deepEqual(results.map((result) => textOf(result.content)), messages.map((message) => `Echo: ${message}`));
    assert.equal(client.state, "ready");
  });

  test("the connection stayed healthy: no problems were reported", () => {
    assert.deepEqual(problems, []);
  });
});
