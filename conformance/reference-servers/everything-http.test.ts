// The Client against the reference server @modelcontextprotocol/server-everything in its
// `streamableHttp` mode on a loopback port — spec 2025-11-25 basic/transports ("Streamable
// HTTP"): the same checks as over stdio, then the server killed and restarted (its new
// process knows no session: a new one is started transparently).

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, describe, test } from "node:test";
import type { ClientEventType } from "../../src/client/client-events.ts";
import { Client, type ClientEvents, type Progress, RpcError } from "../../src/mod.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { freePort, startEverything, stop, textOf } from "../../test/support/everything-http.ts";

/** The next event of a type; rejects after a generous hang guard. */
function nextEvent<K extends ClientEventType>(client: Client, type: K): Promise<ClientEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no "${type}" event within 10 s`));
    }, 10_000);
    const off = client.on(type, (detail) => {
      clearTimeout(timer);
      off();
      resolve(detail);
    });
  });
}

describe("server-everything over Streamable HTTP", () => {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything-http", requestTimeoutMs: 20_000 });
  const problems: string[] = [];
  let port = 0;
  let server: ChildProcess | undefined;
  let transport: StreamableHttpTransport;

  before(async () => {
    port = await freePort();
    server = await startEverything(port);
    client.on("problem", ({ message }) => problems.push(message));
    transport = new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp`, reconnect: { initialDelayMs: 100 } });
    await client.connect(transport);
  });

  after(async () => {
    await client.close();
    assert.equal(client.state, "closed");
    if (server) await stop(server);
  });

  test("initialize: the server names itself, speaks 2025-11-25 and gives a session id", () => {
    assert.equal(client.state, "ready");
    assert.equal(client.serverInfo?.name, "mcp-servers/everything");
    assert.equal(client.protocolVersion, "2025-11-25");
    assert.equal(transport.protocolVersion, "2025-11-25");
    assert.match(transport.sessionId ?? "", /^[\x21-\x7e]+$/);
    for (const name of ["tools", "resources", "prompts", "logging"]) {
      assert.ok(client.serverCapabilities?.[name] !== undefined, `capability ${name} missing`);
    }
  });

  test("listTools returns the tools, each with an object inputSchema", async () => {
    const tools = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ["echo", "get-sum", "get-structured-content", "trigger-long-running-operation"]) {
      assert.ok(names.includes(name), `${name} not listed; got ${names.join(", ")}`);
    }
    for (const tool of tools) assert.equal(tool.inputSchema.type, "object", `${tool.name}: inputSchema is not an object schema`);
  });

  test("echo returns the message", async () => {
    const result = await client.callTool("echo", { message: "hi ✓" });
    assert.equal(textOf(result.content), "Echo: hi ✓");
  });

  test("get-sum adds two numbers", async () => {
    const result = await client.callTool("get-sum", { a: 2, b: 3 });
    assert.match(textOf(result.content), /\b5\b/);
  });

  test("get-structured-content returns structuredContent that passes its outputSchema", async () => {
    const result = await client.callTool("get-structured-content", { location: "Chicago" });
    assert.equal(typeof result.structuredContent?.temperature, "number");
    assert.deepEqual(JSON.parse(textOf(result.content)), result.structuredContent);
  });

  test("trigger-long-running-operation streams progress for each step before its result", async () => {
    const updates: Progress[] = [];
    const result = await client.callTool(
      "trigger-long-running-operation",
      { duration: 1, steps: 3 },
      { onProgress: (progress) => updates.push(progress) },
    );
    assert.deepEqual(updates.map(({ progress, total }) => [progress, total]), [[1, 3], [2, 3], [3, 3]]);
    assert.match(textOf(result.content), /Long running operation completed/);
  });

  test("listResources returns resources that readResource can read; a missing one is RpcError", async () => {
    const resources = await client.listResources();
    assert.ok(resources.length > 0, "no resources");
    const read = await client.readResource(resources[0]!.uri);
    assert.equal(read.contents[0]?.uri, resources[0]!.uri);
    await assert.rejects(client.readResource("demo://no/such/resource"), RpcError);
  });

  test("listPrompts lists args-prompt; getPrompt fills in its arguments", async () => {
    const prompts = await client.listPrompts();
    assert.ok(prompts.some((prompt) => prompt.name === "args-prompt"), prompts.map((prompt) => prompt.name).join(", "));
    const result = await client.getPrompt("args-prompt", { city: "Paris", state: "Texas" });
    const message = result.messages[0];
    assert.ok(message?.content.type === "text");
    assert.equal(message.content.text, "What's weather in Paris, Texas?");
  });

  test('a subscribed resource\'s updates arrive (on the GET stream) as "resourceupdated" events', async () => {
    const uri = "demo://resource/dynamic/text/1";
    await client.subscribeResource(uri);
    const updated = nextEvent(client, "resourceupdated");
    await client.callTool("toggle-subscriber-updates");
    try {
      assert.deepEqual(await updated, { uri });
    } finally {
      await client.callTool("toggle-subscriber-updates");
      await client.unsubscribeResource(uri);
    }
  });

  test("100 concurrent calls each get their own answer", async () => {
    const messages = Array.from({ length: 100 }, (_, i) => `message ${i}`);
    const results = await Promise.all(messages.map((message) => client.callTool("echo", { message })));
    assert.deepEqual(results.map((result) => textOf(result.content)), messages.map((message) => `Echo: ${message}`));
  });

  test("ping is answered", async () => {
    await client.ping();
  });

  test("the connection stayed healthy: no problems were reported", () => {
    assert.deepEqual(problems, []);
  });

  test("the server killed and restarted on the same port: the next call starts a new session and succeeds", async () => {
    const before = transport.sessionId;
    await stop(server!);
    server = await startEverything(port);
    const result = await client.callTool("echo", { message: "after the restart" });
    assert.equal(textOf(result.content), "Echo: after the restart");
    assert.equal(client.state, "ready");
    assert.notEqual(transport.sessionId, undefined);
    assert.notEqual(transport.sessionId, before);
    assert.ok(problems.some((problem) => /ended the session; starting a new one/.test(problem)), problems.join("\n"));
    assert.equal(textOf((await client.callTool("get-sum", { a: 20, b: 22 })).content).match(/\b42\b/)?.[0], "42");
  });
});
