// ToolRegistry with built-in tools: registering, listing, toolsets, events, call() and its
// ToolCallErrors, and dispatch() turning every failure into {"error": …} without rejecting.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonObject } from "../../src/client/types.ts";
import { depthMarker } from "../../src/common/bounded.ts";
import { REDACTED, Redactor } from "../../src/common/redact.ts";
import { RegistrationError } from "../../src/registry/registry-errors.ts";
import { ToolCallError } from "../../src/registry/tool-call-error.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import type { RegistryEvents } from "../../src/registry/types.ts";

function parsed(text: string): { result?: string; error?: string } {
  const value = JSON.parse(text) as { result?: string; error?: string };
  assert.equal(Object.keys(value).length, 1, text);
  return value;
}

async function rejection(promise: Promise<unknown>): Promise<ToolCallError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolCallError, `rejected with ${String(error)}`);
    return error;
  }
  assert.fail("expected a rejection, but the promise resolved");
}

function withEcho(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register({
    name: "echo",
    description: "Echoes its text",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    handler: (args) => `echo: ${String(args.text)}`,
  });
  return registry;
}

describe("registering built-in tools", () => {
  test("a registered tool is listed as an LLM schema with defaults filled in", () => {
    const registry = withEcho();
    registry.register({ name: "bare", handler: () => "ok" });
    assert.ok(registry.has("echo"));
    assert.deepEqual(registry.list(), [
      { name: "echo", description: "Echoes its text", parameters: { type: "object", properties: { text: { type: "string" } } } },
      { name: "bare", description: "", parameters: { type: "object" } },
    ]);
    assert.deepEqual(registry.get("bare"), {
      name: "bare",
      toolset: "builtin",
      description: "",
      inputSchema: { type: "object" },
      origin: { kind: "builtin" },
    });
    assert.equal(registry.get("nope"), undefined);
  });

  test("a duplicate built-in name throws an error naming the tool and what to do", () => {
    const registry = withEcho();
    assert.throws(
      () => registry.register({ name: "echo", handler: () => "" }),
      (error: unknown) =>
        error instanceof RegistrationError && error.code === "already-registered" &&
        /built-in tool "echo".*already registered \(toolset "builtin"\); unregister\("echo"\) first/.test(error.message),
    );
  });

  test("a name an LLM API would reject is refused at registration", () => {
    const registry = new ToolRegistry();
    for (const name of ["", "has space", "dot.ted", "x".repeat(65)]) {
      assert.throws(() => registry.register({ name, handler: () => "" }), /must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -/, name);
    }
    assert.equal(registry.tools().length, 0);
  });

  test("unregister removes a tool and says whether it was there", () => {
    const registry = withEcho();
    assert.equal(registry.unregister("echo"), true);
    assert.equal(registry.unregister("echo"), false);
    assert.equal(registry.has("echo"), false);
    assert.deepEqual(registry.list(), []);
  });

  test("tools() and get() return copies: changing them does not change the registry", () => {
    const registry = withEcho();
    const [tool] = registry.tools();
    tool!.description = "changed";
    assert.equal(registry.get("echo")?.description, "Echoes its text");
  });
});

describe("toolsets", () => {
  function registry(): ToolRegistry {
    const r = new ToolRegistry();
    r.register({ name: "a1", toolset: "alpha", handler: () => "a1" });
    r.register({ name: "a2", toolset: "alpha", handler: () => "a2" });
    r.register({ name: "b1", toolset: "beta", handler: () => "b1" });
    r.register({ name: "plain", handler: () => "plain" });
    return r;
  }

  test("toolsets() counts tools per toolset, all enabled at first", () => {
    assert.deepEqual(registry().toolsets(), [
      { name: "alpha", enabled: true, tools: 2 },
      { name: "beta", enabled: true, tools: 1 },
      { name: "builtin", enabled: true, tools: 1 },
    ]);
  });

  test("a disabled toolset's tools leave list() but stay in tools() and has()", () => {
    const r = registry();
    r.disableToolset("alpha");
    assert.deepEqual(r.list().map((tool) => tool.name), ["b1", "plain"]);
    assert.deepEqual(r.tools().map((tool) => tool.name), ["a1", "a2", "b1", "plain"]);
    assert.ok(r.has("a1"));
    assert.deepEqual(r.toolsets()[0], { name: "alpha", enabled: false, tools: 2 });
    r.enableToolset("alpha");
    assert.deepEqual(r.list().map((tool) => tool.name), ["a1", "a2", "b1", "plain"]);
  });

  test("dispatching a tool of a disabled toolset is an error naming the toolset; enabling it again works", async () => {
    const r = registry();
    r.disableToolset("alpha");
    const { error } = parsed(await r.dispatch("a1"));
    assert.match(error ?? "", /tool "a1": the tool is in toolset "alpha", which is disabled; enable the toolset to call it/);
    assert.equal((await rejection(r.call("a1"))).code, "disabled");
    r.enableToolset("alpha");
    assert.deepEqual(parsed(await r.dispatch("a1")), { result: "a1" });
  });

  test("a toolset can be disabled before it has tools; tools arriving later start disabled", () => {
    const r = new ToolRegistry();
    r.disableToolset("later");
    assert.deepEqual(r.toolsets(), [{ name: "later", enabled: false, tools: 0 }]);
    r.register({ name: "late", toolset: "later", handler: () => "" });
    assert.deepEqual(r.list(), []);
  });

  test('enabling and disabling emit "toolsetchange" only when the state changes', () => {
    const r = registry();
    const changes: RegistryEvents["toolsetchange"][] = [];
    r.on("toolsetchange", (change) => changes.push(change));
    r.disableToolset("beta");
    r.disableToolset("beta");
    r.enableToolset("beta");
    r.enableToolset("alpha");
    assert.deepEqual(changes, [{ toolset: "beta", enabled: false }, { toolset: "beta", enabled: true }]);
  });
});

describe("call() gives the typed result", () => {
  test("a built-in's value comes back as it is; the handler gets the arguments and a context", async () => {
    const registry = new ToolRegistry();
    let seen: { args: JsonObject; hasSignal: boolean } | undefined;
    registry.register({
      name: "sum",
      handler: (args, context) => {
        seen = { args, hasSignal: context.signal !== undefined };
        return { total: Number(args.a) + Number(args.b) };
      },
    });
    assert.deepEqual(await registry.call("sum", { a: 2, b: 3 }), { total: 5 });
    assert.deepEqual(seen, { args: { a: 2, b: 3 }, hasSignal: false });
  });

  test("failures throw ToolCallError with a code and the tool's name", async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: "boom",
      handler: () => {
        throw new Error("kaput");
      },
    });
    const unknown = await rejection(registry.call("missing"));
    assert.equal(unknown.code, "unknown-tool");
    assert.equal(unknown.tool, "missing");
    const failed = await rejection(registry.call("boom"));
    assert.equal(failed.code, "failed");
    assert.equal(failed.message, 'tool "boom" failed: kaput');
    assert.equal((failed.cause as Error).message, "kaput");
    assert.deepEqual(failed.origin, { kind: "builtin" });
  });
});

describe("dispatch() never rejects", () => {
  test('a success is {"result": "<text>"}', async () => {
    const registry = withEcho();
    assert.deepEqual(parsed(await registry.dispatch("echo", { text: "hi" })), { result: "echo: hi" });
  });

  test("arguments may be the JSON text an LLM produced; empty text means no arguments", async () => {
    const registry = withEcho();
    assert.deepEqual(parsed(await registry.dispatch("echo", '{"text":"from json"}')), { result: "echo: from json" });
    assert.deepEqual(parsed(await registry.dispatch("echo", "")), { result: "echo: undefined" });
  });

  test("an unknown tool", async () => {
    const { error } = parsed(await withEcho().dispatch("ehco", {}));
    assert.match(error ?? "", /^unknown tool "ehco": no tool of that name is registered/);
  });

  test("arguments that are not valid JSON, or not an object", async () => {
    const registry = withEcho();
    assert.match(parsed(await registry.dispatch("echo", "{text: hi}")).error ?? "", /tool "echo": the arguments are not valid JSON \(.*\); send a JSON object/);
    assert.match(parsed(await registry.dispatch("echo", "[1, 2]")).error ?? "", /tool "echo": the arguments must be a JSON object, got an array/);
    assert.match(parsed(await registry.dispatch("echo", "null")).error ?? "", /got null/);
  });

  test("a handler that throws, synchronously or asynchronously, or throws a non-Error", async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: "sync",
      handler: () => {
        throw new Error("sync boom");
      },
    });
    registry.register({ name: "async", handler: () => Promise.reject(new Error("async boom")) });
    registry.register({
      name: "odd",
      handler: () => {
        throw "a string";
      },
    });
    assert.deepEqual(parsed(await registry.dispatch("sync")), { error: 'tool "sync" failed: sync boom' });
    assert.deepEqual(parsed(await registry.dispatch("async")), { error: 'tool "async" failed: async boom' });
    assert.deepEqual(parsed(await registry.dispatch("odd")), { error: 'tool "odd" failed: a string' });
  });

  test("a handler that outlives context.timeoutMs: an error naming the limit, and the handler's signal aborts", async () => {
    const registry = new ToolRegistry();
    let aborted: Promise<void> | undefined;
    registry.register({
      name: "slow",
      handler: (_args, context) => {
        aborted = new Promise((resolve) => context.signal?.addEventListener("abort", () => resolve()));
        return new Promise(() => {}); // never settles
      },
    });
    const { error } = parsed(await registry.dispatch("slow", {}, { timeoutMs: 50 }));
    assert.match(error ?? "", /^tool "slow": timed out after 50 ms; raise the timeout/);
    await aborted;
    assert.equal((await rejection(registry.call("slow", {}, { timeoutMs: 20 }))).code, "timeout");
  });

  test("an aborted signal: before the call and during it", async () => {
    const registry = new ToolRegistry();
    registry.register({ name: "wait", handler: () => new Promise(() => {}) });
    const before = new AbortController();
    before.abort(new Error("user pressed stop"));
    assert.deepEqual(parsed(await registry.dispatch("wait", {}, { signal: before.signal })), {
      error: 'tool "wait": the call was cancelled: user pressed stop',
    });
    const during = new AbortController();
    const pending = registry.dispatch("wait", {}, { signal: during.signal });
    during.abort(new Error("changed my mind"));
    assert.deepEqual(parsed(await pending), { error: 'tool "wait": the call was cancelled: changed my mind' });
  });

  test("a value that cannot be written as JSON", async () => {
    const registry = new ToolRegistry();
    registry.register({ name: "big", handler: () => ({ n: 10n }) });
    const circular: JsonObject = {};
    circular.self = circular;
    registry.register({ name: "loop", handler: () => circular });
    assert.match(parsed(await registry.dispatch("big")).error ?? "", /^tool "big" returned a value that cannot be written as JSON \(.*BigInt.*\)/);
    assert.match(parsed(await registry.dispatch("loop")).error ?? "", /^tool "loop" returned a value that cannot be written as JSON/);
  });

  test("a built-in returning a CallToolResult with isError is an error", async () => {
    const registry = new ToolRegistry();
    registry.register({ name: "bad", handler: () => ({ content: [{ type: "text", text: "no such file" }], isError: true }) });
    assert.deepEqual(parsed(await registry.dispatch("bad")), { error: 'tool "bad" returned an error: no such file' });
  });

  test("the result cap is the registry's option", async () => {
    const registry = new ToolRegistry({ maxResultChars: 200 });
    registry.register({ name: "long", handler: () => "x".repeat(10_000) });
    const { result } = parsed(await registry.dispatch("long"));
    assert.ok((result ?? "").length <= 200);
    assert.match(result ?? "", /\[… [\d,]+ characters cut …\]/);
  });
});

describe("events", () => {
  test("on() returns a function that removes the listener", () => {
    const registry = new ToolRegistry();
    const seen: boolean[] = [];
    const off = registry.on("toolsetchange", ({ enabled }) => seen.push(enabled));
    registry.disableToolset("x");
    off();
    registry.enableToolset("x");
    assert.deepEqual(seen, [false]);
  });

  test("a listener that throws is a warning carrying its error; the other listeners still get the event", () => {
    const registry = new ToolRegistry();
    const bug = new Error("listener bug");
    registry.on("toolsetchange", () => {
      throw bug;
    });
    const changes: boolean[] = [];
    registry.on("toolsetchange", ({ enabled }) => changes.push(enabled));
    const warnings: RegistryEvents["warning"][] = [];
    registry.on("warning", (warning) => warnings.push(warning));
    registry.disableToolset("x");
    assert.deepEqual(changes, [false]);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.error, bug);
    assert.match(
      warnings[0]!.message,
      /^a "toolsetchange" listener of the tool registry threw: listener bug; the other listeners still got the event; fix the listener/,
    );
  });

  test("a warning listener that throws is not reported again (no loop), and addEventListener listeners are contained too", () => {
    const registry = new ToolRegistry();
    let calls = 0;
    registry.addEventListener("warning", () => {
      calls++;
      throw new Error("warning listener bug");
    });
    registry.addEventListener("toolsetchange", () => {
      throw new Error("toolset listener bug");
    });
    registry.disableToolset("x");
    assert.equal(calls, 1); // the toolset listener's warning; its own failure is dropped
    assert.equal(registry.toolsets()[0]!.enabled, false);
  });
});

describe("MCP tools of a host: error texts pass through its redactor", () => {
  const secret = "sk-live-1234567890abcdef";

  function withServerTools(handler: () => unknown): ToolRegistry {
    const registry = new ToolRegistry();
    registry.replaceServerTools("vault", [{
      name: "mcp_vault_open",
      tool: "open",
      toolset: "mcp-vault",
      description: "",
      inputSchema: { type: "object" },
      handler: () => handler(),
      redactor: new Redactor([secret]),
    }]);
    return registry;
  }

  test("a thrown error quoting a secret: call() and dispatch() show it redacted", async () => {
    const registry = withServerTools(() => {
      throw new Error(`the server said: key ${secret} refused`);
    });
    assert.deepEqual(parsed(await registry.dispatch("mcp_vault_open")), {
      error: `server "vault", tool "open" failed: the server said: key ${REDACTED} refused`,
    });
    const error = await rejection(registry.call("mcp_vault_open"));
    assert.equal(error.message, `server "vault", tool "open" failed: the server said: key ${REDACTED} refused`);
    assert.equal(error.code, "failed");
  });

  test("an isError result quoting a secret is redacted; a successful result is the server's data, as it is", async () => {
    const failing = withServerTools(() => ({ content: [{ type: "text", text: `bad key ${secret}` }], isError: true }));
    assert.deepEqual(parsed(await failing.dispatch("mcp_vault_open")), { error: `server "vault", tool "open" returned an error: bad key ${REDACTED}` });
    const working = withServerTools(() => ({ content: [{ type: "text", text: `your key is ${secret}` }] }));
    assert.deepEqual(parsed(await working.dispatch("mcp_vault_open")), { result: `your key is ${secret}` });
  });

  test("a built-in tool has no redactor: its errors are shown as they are", async () => {
    const registry = new ToolRegistry();
    registry.register({
      name: "own",
      handler: () => {
        throw new Error(`own ${secret}`);
      },
    });
    assert.deepEqual(parsed(await registry.dispatch("own")), { error: `tool "own" failed: own ${secret}` });
  });
});

describe("depth", () => {
  test("a built-in value nested 100,000 levels deep is shown to 64 levels, marked, naming the tool", async () => {
    const registry = new ToolRegistry();
    const deep = JSON.parse('{"a":'.repeat(100_000) + "0" + "}".repeat(100_000)) as JsonObject;
    registry.register({ name: "deep", handler: () => deep });
    const text = parsed(await registry.dispatch("deep")).result ?? "";
    assert.ok(text.startsWith('{"a":{"a":'), text.slice(0, 50));
    assert.ok(text.includes(depthMarker(64)));
    assert.ok(text.endsWith('[tool "deep": the value is nested deeper than 64 levels; the levels past 64 were left out]'), text.slice(-120));
  });
});
