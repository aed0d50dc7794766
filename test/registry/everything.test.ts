// The registry against the reference server @modelcontextprotocol/server-everything over
// stdio: discovery, naming and filters on its real tool names, the LLM-facing string of each
// kind of result it returns, and the tools/list_changed it announces when it registers its
// conditional tools after notifications/initialized.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client, type JsonRpcMessage, type Progress, StdioTransport, type Transport } from "../../src/mod.ts";
import { registerMcpServer } from "../../src/registry/mcp-server.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import type { RegistryEventType } from "../../src/registry/types.ts";
import { nextEvent as nextEventOf } from "../support/events.ts";
import { ALWAYS_LISTED, EVERYTHING } from "../support/everything-path.ts";

/**
 * Registered after notifications/initialized, announced with notifications/tools/list_changed
 * (server-everything server/index.js: registerConditionalTools in oninitialized).
 */
const REGISTERED_AFTER_INITIALIZED = "simulate-research-query";

function everything(): StdioTransport {
  return new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"] });
}

function parsed(text: string): { result?: string; error?: string } {
  const value = JSON.parse(text) as { result?: string; error?: string };
  assert.equal(Object.keys(value).length, 1, text);
  return value;
}

const nextEvent = <K extends RegistryEventType>(registry: ToolRegistry, type: K) => nextEventOf(registry, type, 10_000);

describe("server-everything tools in a registry", () => {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything", requestTimeoutMs: 20_000 });
  const registry = new ToolRegistry();
  const warnings: string[] = [];

  before(async () => {
    registry.on("warning", ({ message }) => warnings.push(message));
    await client.connect(everything());
    await registerMcpServer(registry, "everything", client);
  });

  after(async () => {
    await client.close();
  });

  test("every tool is registered as mcp_everything_<tool> in toolset mcp-everything, mapped to its original name", () => {
    for (const name of ALWAYS_LISTED) {
      assert.deepEqual(registry.get(`mcp_everything_${name}`)?.origin, { kind: "mcp", server: "everything", tool: name });
    }
    const [toolset] = registry.toolsets();
    assert.equal(toolset?.name, "mcp-everything");
    assert.ok((toolset?.tools ?? 0) >= ALWAYS_LISTED.length);
    const echo = registry.list().find((schema) => schema.name === "mcp_everything_echo");
    assert.equal(echo?.description, "Echoes back the input string");
    assert.equal(echo?.parameters.type, "object");
    for (const schema of registry.list()) assert.match(schema.name, /^[A-Za-z0-9_-]{1,64}$/);
  });

  test("echo: a text result", async () => {
    assert.deepEqual(parsed(await registry.dispatch("mcp_everything_echo", { message: "hi ✓" })), { result: "Echo: hi ✓" });
    assert.deepEqual(parsed(await registry.dispatch("mcp_everything_echo", '{"message":"as JSON text"}')), { result: "Echo: as JSON text" });
  });

  test("echo without its required argument: an error naming the server and the tool", async () => {
    const { error } = parsed(await registry.dispatch("mcp_everything_echo", {}));
    assert.match(error ?? "", /^server "everything", tool "echo" returned an error: .*message/s);
  });

  test("get-sum through call(): the typed CallToolResult", async () => {
    const result = await registry.call("mcp_everything_get-sum", { a: 2, b: 3 });
    assert.ok(typeof result === "object" && result !== null && "content" in result);
    assert.match(parsed(await registry.dispatch("mcp_everything_get-sum", { a: 2, b: 3 })).result ?? "", /\b5\b/);
  });

  test("get-tiny-image: a placeholder with MIME type and size, no base64", async () => {
    const { result } = parsed(await registry.dispatch("mcp_everything_get-tiny-image"));
    assert.match(result ?? "", /\[image: image\/png, \d+(\.\d)? (bytes|KB)\]/);
    assert.ok(!(result ?? "").includes("iVBORw0KGgo"), "base64 PNG data in the string");
  });

  test("get-structured-content: the JSON appears once, since its text block is that JSON", async () => {
    const { result } = parsed(await registry.dispatch("mcp_everything_get-structured-content", { location: "Chicago" }));
    const weather = JSON.parse(result ?? "") as Record<string, unknown>;
    assert.equal(typeof weather.temperature, "number");
    assert.equal(typeof weather.conditions, "string");
  });

  test("get-resource-links: each link listed with uri, name, mimeType and description", async () => {
    const { result } = parsed(await registry.dispatch("mcp_everything_get-resource-links", { count: 2 }));
    const lines = (result ?? "").split("\n");
    assert.match(lines[0] ?? "", /Here are 2 resource links/);
    assert.match(
      lines[1] ?? "",
      /^\[resource link: uri="demo:\/\/resource\/dynamic\/blob\/1" name="Blob Resource 1" mimeType="[^"]+" description="Resource 1: /,
    );
    assert.match(lines[2] ?? "", /^\[resource link: uri="demo:\/\/resource\/dynamic\/text\/2" name="Text Resource 2" mimeType="text\/plain"/);
  });

  test("get-resource-reference: an embedded text resource is included, a blob is a placeholder", async () => {
    const text = parsed(await registry.dispatch("mcp_everything_get-resource-reference", { resourceType: "Text", resourceId: 1 })).result ?? "";
    assert.match(text, /\[resource: demo:\/\/resource\/dynamic\/text\/1, text\/plain\]\nResource 1: /);
    const blob = parsed(await registry.dispatch("mcp_everything_get-resource-reference", { resourceType: "Blob", resourceId: 1 })).result ?? "";
    assert.match(blob, /\[resource: demo:\/\/resource\/dynamic\/blob\/1, text\/plain, \d+ bytes\]/);
  });

  test("gzip-file-as-resource: a gzip blob is a placeholder with its size", async () => {
    const data = `data:text/plain;base64,${btoa("hello ".repeat(200))}`;
    const { result } = parsed(await registry.dispatch("mcp_everything_gzip-file-as-resource", { name: "t.gz", data, outputType: "resource" }));
    assert.match(result ?? "", /^\[resource: \S+t\.gz, application\/gzip, \d+ bytes\]$/);
  });

  test("trigger-long-running-operation: progress reaches the context's onProgress", async () => {
    const updates: Progress[] = [];
    const text = await registry.dispatch(
      "mcp_everything_trigger-long-running-operation",
      { duration: 0.2, steps: 2 },
      { onProgress: (progress) => updates.push(progress) },
    );
    assert.match(parsed(text).result ?? "", /Long running operation completed/);
    assert.deepEqual(updates.map(({ progress, total }) => [progress, total]), [[1, 2], [2, 2]]);
  });

  test("another naming and filters on the real names, from a second registry on the same client", async () => {
    const other = new ToolRegistry();
    const otherWarnings: string[] = [];
    other.on("warning", ({ message }) => otherWarnings.push(message));
    const registration = await registerMcpServer(other, "everything", client, {
      naming: "{server}__{tool}",
      include: ["get-*", "echo"],
      exclude: ["get-env"],
    });
    const names = registration.names();
    assert.ok(names.includes("everything__echo"));
    assert.ok(names.includes("everything__get-env"), "include wins over exclude");
    assert.ok(names.every((name) => name === "everything__echo" || name.startsWith("everything__get-")), names.join(", "));
    assert.ok(!names.includes("everything__toggle-simulated-logging"));
    assert.match(otherWarnings.join("\n"), /tool "get-env" matches both tools.include "get-\*" and tools.exclude "get-env"/);
    assert.deepEqual(parsed(await other.dispatch("everything__echo", { message: "x" })), { result: "Echo: x" });
    registration.unregister();
  });

  test("no warnings for the default registration", () => {
    assert.deepEqual(warnings, []);
  });
});

/**
 * Holds back notifications/initialized until release(), so the first tools/list is answered
 * before the server registers its conditional tools. (After the initialize result a client
 * may send requests — spec 2025-11-25 basic/lifecycle; the server-everything answers them.)
 */
class HoldInitialized implements Transport {
  readonly inner: StdioTransport;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  #held: JsonRpcMessage | undefined;

  constructor(inner: StdioTransport) {
    this.inner = inner;
    inner.onmessage = (message) => this.onmessage?.(message);
    inner.onclose = (details) => this.onclose?.(details);
    inner.onerror = (error) => this.onerror?.(error);
  }

  get description(): string {
    return this.inner.description;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage): Promise<void> {
    if ("method" in message && message.method === "notifications/initialized" && !("id" in message)) {
      this.#held = message;
      return Promise.resolve();
    }
    return this.inner.send(message);
  }

  release(): Promise<void> {
    const held = this.#held;
    this.#held = undefined;
    return held === undefined ? Promise.resolve() : this.inner.send(held);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

describe("server-everything announces list changes", () => {
  test("its tools/list_changed after initialized re-registers by difference: the new tool is added, none removed", async () => {
    const transport = new HoldInitialized(everything());
    const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything", requestTimeoutMs: 20_000 });
    const registry = new ToolRegistry();
    try {
      await client.connect(transport);
      const registration = await registerMcpServer(registry, "everything", client);
      const first = registration.names();
      for (const name of ALWAYS_LISTED) assert.ok(first.includes(`mcp_everything_${name}`), `${name} missing from the first listing`);
      assert.ok(!first.includes(`mcp_everything_${REGISTERED_AFTER_INITIALIZED}`), "the conditional tool is already there");

      const change = nextEvent(registry, "toolschange");
      await transport.release();
      assert.deepEqual(await change, { server: "everything", added: [`mcp_everything_${REGISTERED_AFTER_INITIALIZED}`], removed: [] });
      assert.deepEqual(registration.names(), [...first, `mcp_everything_${REGISTERED_AFTER_INITIALIZED}`]);
      assert.deepEqual(registry.get(`mcp_everything_${REGISTERED_AFTER_INITIALIZED}`)?.origin, {
        kind: "mcp",
        server: "everything",
        tool: REGISTERED_AFTER_INITIALIZED,
      });
      // Calls keep working across the re-registration.
      assert.deepEqual(parsed(await registry.dispatch("mcp_everything_echo", { message: "after" })), { result: "Echo: after" });
    } finally {
      await client.close();
    }
  });
});
