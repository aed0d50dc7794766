// The Client against the reference server @modelcontextprotocol/server-everything over
// stdio: one connection for the whole file, every feature the server offers a client
// without sampling, elicitation or roots.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ClientEventType } from "../../src/client/client-events.ts";
import { Client, type ClientEvents, type Progress, RpcError, StdioTransport, type TextContent } from "../../src/mod.ts";
import { ALWAYS_LISTED, EVERYTHING } from "../../test/support/everything-path.ts";

function textOf(content: { type: string }[]): string {
  return content.filter((block): block is TextContent => block.type === "text").map((block) => block.text).join("\n");
}

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

describe("server-everything over stdio", () => {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything", requestTimeoutMs: 20_000 });
  const problems: string[] = [];
  const stderr: string[] = [];

  before(async () => {
    client.on("problem", ({ message }) => problems.push(message));
    await client.connect(
      new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: (line) => stderr.push(line) }),
    );
  });

  after(async () => {
    await client.close();
    assert.equal(client.state, "closed");
  });

  test("initialize: the server names itself, speaks 2025-11-25 and declares its capabilities", () => {
    assert.equal(client.state, "ready");
    assert.equal(client.serverInfo?.name, "mcp-servers/everything");
    assert.equal(typeof client.serverInfo?.version, "string");
    assert.equal(client.protocolVersion, "2025-11-25");
    const capabilities = client.serverCapabilities ?? {};
    for (const name of ["tools", "resources", "prompts", "logging", "completions"]) {
      assert.ok(capabilities[name] !== undefined, `capability ${name} missing: ${JSON.stringify(capabilities)}`);
    }
    assert.equal(capabilities.resources?.subscribe, true);
    assert.ok((client.instructions ?? "").length > 0, "no instructions");
  });

  test("listTools returns every tool, each with an object inputSchema", async () => {
    const tools = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ALWAYS_LISTED) assert.ok(names.includes(name), `${name} not listed; got ${names.join(", ")}`);
    assert.equal(new Set(names).size, names.length, "a tool is listed twice");
    for (const tool of tools) assert.equal(tool.inputSchema.type, "object", `${tool.name}: inputSchema is not an object schema`);
    assert.ok(tools.find((tool) => tool.name === "get-structured-content")?.outputSchema, "get-structured-content has no outputSchema");
  });

  test("echo returns the message", async () => {
    const result = await client.callTool("echo", { message: "hi ✓" });
    assert.notEqual(result.isError, true);
    assert.equal(textOf(result.content), "Echo: hi ✓");
  });

  test("echo without its required argument is a tool error result, not a throw", async () => {
    const result = await client.callTool("echo", {});
    assert.equal(result.isError, true);
    assert.match(textOf(result.content), /message/);
  });

  test("calling a tool that does not exist is a tool error result from this server", async () => {
    const result = await client.callTool("no-such-tool");
    assert.equal(result.isError, true);
    assert.match(textOf(result.content), /no-such-tool not found/);
  });

  test("get-sum adds two numbers", async () => {
    const result = await client.callTool("get-sum", { a: 2, b: 3 });
    assert.match(textOf(result.content), /\b5\b/);
  });

  test("get-structured-content returns structuredContent that passes its draft-07 outputSchema", async () => {
    const schema = client.knownTools.get("get-structured-content")?.outputSchema;
    assert.match(String(schema?.$schema), /draft-07/);
    const result = await client.callTool("get-structured-content", { location: "Chicago" });
    const weather = result.structuredContent;
    assert.equal(typeof weather?.temperature, "number");
    assert.equal(typeof weather?.conditions, "string");
    assert.equal(typeof weather?.humidity, "number");
    assert.deepEqual(JSON.parse(textOf(result.content)), weather);
    assert.ok(!problems.some((message) => message.includes("get-structured-content")), problems.join("\n"));
  });

  test("get-tiny-image returns image content with a mimeType and base64 PNG data", async () => {
    const result = await client.callTool("get-tiny-image");
    const image = result.content.find((block) => block.type === "image");
    assert.ok(image && image.type === "image", `no image block in ${JSON.stringify(result.content.map((b) => b.type))}`);
    assert.equal(image.mimeType, "image/png");
    const bytes = Uint8Array.from(atob(image.data), (char) => char.charCodeAt(0));
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  test("trigger-long-running-operation reports progress for each step before its result", async () => {
    const updates: Progress[] = [];
    const result = await client.callTool(
      "trigger-long-running-operation",
      { duration: 0.3, steps: 3 },
      { onProgress: (progress) => updates.push(progress) },
    );
    assert.deepEqual(updates.map(({ progress, total }) => [progress, total]), [[1, 3], [2, 3], [3, 3]]);
    assert.match(textOf(result.content), /Long running operation completed/);
  });

  test("listResources returns resources that readResource can read", async () => {
    const resources = await client.listResources();
    assert.ok(resources.length > 0, "no resources");
    const first = resources[0]!;
    assert.equal(typeof first.name, "string");
    const read = await client.readResource(first.uri);
    assert.equal(read.contents[0]?.uri, first.uri);
    const contents = read.contents[0]!;
    assert.ok("text" in contents ? contents.text.length > 0 : contents.blob.length > 0);
  });

  test("reading a resource that does not exist throws RpcError with the server's code and message", async () => {
    await assert.rejects(client.readResource("demo://no/such/resource"), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(typeof error.rpcCode, "number");
      assert.match(error.message, /not found/);
      return true;
    });
    assert.equal(client.state, "ready");
  });

  test("listResourceTemplates returns the dynamic templates, and a URI built from one reads", async () => {
    const templates = await client.listResourceTemplates();
    const text = templates.find((template) => template.uriTemplate === "demo://resource/dynamic/text/{resourceId}");
    assert.ok(text, `templates: ${templates.map((template) => template.uriTemplate).join(", ")}`);
    const read = await client.readResource("demo://resource/dynamic/text/1");
    const contents = read.contents[0];
    assert.ok(contents && "text" in contents);
    assert.match(contents.text, /Resource 1/);
  });

  test("listPrompts lists args-prompt with its arguments; getPrompt fills them in", async () => {
    const prompts = await client.listPrompts();
    const args = prompts.find((prompt) => prompt.name === "args-prompt");
    assert.ok(args, `prompts: ${prompts.map((prompt) => prompt.name).join(", ")}`);
    assert.deepEqual(args.arguments?.map((argument) => [argument.name, argument.required === true]), [
      ["city", true],
      ["state", false],
    ]);
    const result = await client.getPrompt("args-prompt", { city: "Paris", state: "Texas" });
    const message = result.messages[0];
    assert.equal(message?.role, "user");
    assert.ok(message.content.type === "text");
    assert.equal(message.content.text, "What's weather in Paris, Texas?");
  });

  test("complete offers values for completable-prompt, narrowed by context", async () => {
    const ref = { type: "ref/prompt", name: "completable-prompt" } as const;
    const departments = await client.complete(ref, { name: "department", value: "E" });
    assert.deepEqual(departments.values, ["Engineering"]);
    const people = await client.complete(ref, { name: "name", value: "" }, { arguments: { department: "Sales" } });
    assert.deepEqual(people.values, ["David", "Eve", "Frank"]);
  });

  test("ping is answered", async () => {
    await client.ping();
  });

  test('setLoggingLevel is accepted, and the server\'s log messages arrive as "log" events', async () => {
    await client.setLoggingLevel("debug");
    const log = nextEvent(client, "log");
    await client.callTool("toggle-simulated-logging"); // sends one message at once
    try {
      const message = await log;
      assert.ok(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"].includes(message.level));
      assert.match(String(message.data), /message/i);
    } finally {
      await client.callTool("toggle-simulated-logging"); // off again
    }
  });

  test('a subscribed resource\'s updates arrive as "resourceupdated" events', async () => {
    const uri = "demo://resource/dynamic/text/1";
    await client.subscribeResource(uri);
    const updated = nextEvent(client, "resourceupdated");
    await client.callTool("toggle-subscriber-updates"); // sends one round at once
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
    assert.equal(client.state, "ready");
  });

  test("the connection stayed healthy: no problems were reported", () => {
    assert.deepEqual(problems, []);
  });
});
