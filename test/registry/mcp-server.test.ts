// registerMcpServer against hand-written in-process servers (a Peer on the far end of a
// MemoryTransport pair): paging, naming, filters, both kinds of collision, list_changed
// re-registration by difference, coalescing, failures of every kind, replaceClient, unregister.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { REDACTED, Redactor } from "../../src/common/redact.ts";
import { Client, type JsonRpcMessage, MemoryTransport, type Params, Peer, type Progress, RpcError, type Tool } from "../../src/mod.ts";
import { registerMcpServer } from "../../src/registry/mcp-server.ts";
import { RegistrationError } from "../../src/registry/registry-errors.ts";
import { ToolCallError } from "../../src/registry/tool-call-error.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import type { RegistryEvents, RegistryEventType } from "../../src/registry/types.ts";
import { nextEvent } from "../support/events.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

/** A hand-written server whose tool list the test changes; tools/call goes to `onCall`. */
class TestServer {
  readonly clientEnd: MemoryTransport;
  readonly peer: Peer;
  readonly received: JsonRpcMessage[] = [];
  tools: Tool[];
  /** Tools per tools/list page; Infinity: one page. */
  pageSize = Infinity;
  /** When set, tools/list waits for it (to hold a listing in flight). */
  listGate: Promise<void> | undefined;
  /** When set, tools/list fails with this. */
  listError: RpcError | undefined;
  onCall: (name: string, args: Params, params: Params) => Params | Promise<Params> = (name, args) => ({
    content: [{ type: "text", text: `${name}: ${JSON.stringify(args)}` }],
  });

  constructor(tools: Tool[]) {
    this.tools = tools;
    const [clientEnd, serverEnd] = MemoryTransport.pair();
    this.clientEnd = clientEnd;
    this.peer = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
    serverEnd.onmessage = (message) => {
      this.received.push(message);
      this.peer.receive(message);
    };
    serverEnd.onclose = (details) => this.peer.close(details);
    this.peer.setRequestHandler("initialize", () => ({
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "in-process", version: "0.0.1" },
    }));
    this.peer.setRequestHandler("tools/list", async (params) => {
      await this.listGate;
      if (this.listError) throw this.listError;
      const start = typeof params?.cursor === "string" ? Number(params.cursor) : 0;
      const end = Math.min(this.tools.length, start + this.pageSize);
      const page: Params = { tools: this.tools.slice(start, end) };
      if (end < this.tools.length) page.nextCursor = String(end);
      return page;
    });
    this.peer.setRequestHandler("tools/call", (params) => this.onCall(String(params?.name), (params?.arguments ?? {}) as Params, params ?? {}));
    void serverEnd.start();
  }

  listRequests(): number {
    return this.received.filter((message) => "method" in message && "id" in message && message.method === "tools/list").length;
  }

  callNames(): string[] {
    return this.received
      .filter((message) => "method" in message && "id" in message && message.method === "tools/call")
      .map((message) => String(("params" in message ? message.params : undefined)?.name));
  }

  /** Changes the tool list and announces it — spec 2025-11-25 server/tools ("List Changed Notification"). */
  async announce(tools?: Tool[]): Promise<void> {
    if (tools !== undefined) this.tools = tools;
    await this.peer.notify("notifications/tools/list_changed");
  }

  async client(name: string, options: { requestTimeoutMs?: number } = {}): Promise<Client> {
    const client = new Client(CLIENT_INFO, { name, requestTimeoutMs: options.requestTimeoutMs ?? 10_000 });
    await client.connect(this.clientEnd);
    return client;
  }
}

function tool(name: string, extra: Partial<Tool> = {}): Tool {
  return { name, inputSchema: { type: "object" }, ...extra };
}

function tools(...names: string[]): Tool[] {
  return names.map((name) => tool(name));
}

/** Collects a registry's events of one type. */
function collect<K extends RegistryEventType>(registry: ToolRegistry, type: K): RegistryEvents[K][] {
  const seen: RegistryEvents[K][] = [];
  registry.on(type, (detail) => seen.push(detail));
  return seen;
}

/** Lets every message already sent (microtasks) arrive. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function parsed(text: string): { result?: string; error?: string } {
  return JSON.parse(text) as { result?: string; error?: string };
}

describe("discovery and naming", () => {
  test("every page is registered, in listing order, as mcp_<server>_<tool> in toolset mcp-<server>", async () => {
    const server = new TestServer(tools("a", "b", "c", "d", "e"));
    server.pageSize = 2;
    const client = await server.client("paged");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "paged", client);
    try {
      assert.equal(server.listRequests(), 3);
      assert.deepEqual(registration.names(), ["mcp_paged_a", "mcp_paged_b", "mcp_paged_c", "mcp_paged_d", "mcp_paged_e"]);
      assert.deepEqual(registry.get("mcp_paged_c"), {
        name: "mcp_paged_c",
        toolset: "mcp-paged",
        description: "",
        inputSchema: { type: "object" },
        origin: { kind: "mcp", server: "paged", tool: "c" },
      });
      assert.deepEqual(registry.toolsets(), [{ name: "mcp-paged", enabled: true, tools: 5 }]);
    } finally {
      await client.close();
    }
  });

  test("the description (or the title when there is none) and the inputSchema reach list()", async () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] } as Tool["inputSchema"];
    const server = new TestServer([
      tool("search", { description: "Searches", inputSchema: schema }),
      tool("titled", { title: "Only a title" }),
    ]);
    const client = await server.client("docs");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "docs", client);
    try {
      assert.deepEqual(registry.list(), [
        { name: "mcp_docs_search", description: "Searches", parameters: schema },
        { name: "mcp_docs_titled", description: "Only a title", parameters: { type: "object" } },
      ]);
    } finally {
      await client.close();
    }
  });

  test("naming, sanitising and long names: each registered name calls its original tool", async () => {
    const long1 = "an_extremely_long_tool_name_from_a_generated_openapi_bridge_operation_one";
    const long2 = "an_extremely_long_tool_name_from_a_generated_openapi_bridge_operation_two";
    const server = new TestServer(tools("files/read", "v1.search", long1, long2));
    const client = await server.client("my.server");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "my.server", client, { naming: "{server}__{tool}" });
    try {
      const names = registration.names();
      assert.deepEqual(names.slice(0, 2), ["my_server__files_read", "my_server__v1_search"]);
      assert.equal(names.length, 4);
      for (const name of names) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
      assert.equal(names[2]!.length, 64);
      assert.notEqual(names[2], names[3]);
      for (const name of names) await registry.dispatch(name);
      assert.deepEqual(server.callNames(), ["files/read", "v1.search", long1, long2]);
      assert.deepEqual(registry.get(names[3]!)?.origin, { kind: "mcp", server: "my.server", tool: long2 });
    } finally {
      await client.close();
    }
  });

  test("an unusable naming rejects before listing, names the server, and leaves the name free", async () => {
    const server = new TestServer(tools("a"));
    const client = await server.client("s");
    const registry = new ToolRegistry();
    try {
      await assert.rejects(
        registerMcpServer(registry, "s", client, { naming: "mcp_{server}" }),
        /^RegistrationError: server "s": naming "mcp_\{server\}" has no \{tool\}/,
      );
      assert.equal(server.listRequests(), 0);
      const registration = await registerMcpServer(registry, "s", client);
      assert.deepEqual(registration.names(), ["mcp_s_a"]);
    } finally {
      await client.close();
    }
  });

  test("registering the same server name twice is an error saying to unregister or replaceClient", async () => {
    const server = new TestServer(tools("a"));
    const client = await server.client("s");
    const registry = new ToolRegistry();
    try {
      const first = await registerMcpServer(registry, "s", client);
      await assert.rejects(
        registerMcpServer(registry, "s", client),
        (error: unknown) =>
          error instanceof RegistrationError && error.code === "already-registered" &&
          /server "s" is already registered with this registry; call unregister\(\).*replaceClient\(\)/.test(error.message),
      );
      first.unregister();
      await registerMcpServer(registry, "s", client);
    } finally {
      await client.close();
    }
  });

  test("a failing first listing rejects naming the server, registers nothing and frees the name", async () => {
    const server = new TestServer(tools("a"));
    server.listError = new RpcError("database down", -32603);
    const client = await server.client("flaky");
    const registry = new ToolRegistry();
    try {
      await assert.rejects(registerMcpServer(registry, "flaky", client), (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, /^server "flaky": tools\/list failed, so none of its tools were registered: database down/);
        assert.ok(error.cause instanceof RpcError);
        return true;
      });
      assert.deepEqual(registry.tools(), []);
      server.listError = undefined;
      await server.announce(); // the failed registration no longer listens
      await settle();
      assert.equal(server.listRequests(), 1);
      const registration = await registerMcpServer(registry, "flaky", client);
      assert.deepEqual(registration.names(), ["mcp_flaky_a"]);
    } finally {
      await client.close();
    }
  });
});

describe("filters", () => {
  const NAMES = ["echo", "get-env", "get-sum", "toggle-logging", "delete-all"];

  async function registered(options: { include?: string[]; exclude?: string[] }): Promise<{ names: string[]; warnings: string[] }> {
    const server = new TestServer(tools(...NAMES));
    const client = await server.client("f");
    const registry = new ToolRegistry();
    const warnings = collect(registry, "warning");
    try {
      const registration = await registerMcpServer(registry, "f", client, options);
      return { names: registration.names(), warnings: warnings.map((warning) => warning.message) };
    } finally {
      await client.close();
    }
  }

  test("include takes exact names and globs on the original names", async () => {
    assert.deepEqual((await registered({ include: ["echo", "get-*"] })).names, ["mcp_f_echo", "mcp_f_get-env", "mcp_f_get-sum"]);
  });

  test("exclude removes what it matches", async () => {
    assert.deepEqual((await registered({ exclude: ["delete-*", "toggle-logging"] })).names, ["mcp_f_echo", "mcp_f_get-env", "mcp_f_get-sum"]);
  });

  test("include wins over exclude, with a warning naming the tool and both patterns", async () => {
    const { names, warnings } = await registered({ include: ["get-*"], exclude: ["get-env"] });
    assert.deepEqual(names, ["mcp_f_get-env", "mcp_f_get-sum"]);
    assert.deepEqual(warnings, [
      'server "f": tool "get-env" matches both tools.include "get-*" and tools.exclude "get-env"; include wins, so it is registered (remove one of the patterns to silence this)',
    ]);
  });

  test("include: [] registers nothing", async () => {
    assert.deepEqual(await registered({ include: [] }), { names: [], warnings: [] });
  });

  test("a pattern matching no tool is a warning listing what the server has", async () => {
    const { names, warnings } = await registered({ include: ["ecko", "echo"] });
    assert.deepEqual(names, ["mcp_f_echo"]);
    assert.deepEqual(warnings, [
      'server "f": tools.include pattern "ecko" matches none of its tools (it lists echo, get-env, get-sum, toggle-logging, delete-all); check the spelling',
    ]);
  });
});

describe("collisions", () => {
  test("a built-in tool registered first wins: the MCP tool is skipped with a warning naming both", async () => {
    const server = new TestServer(tools("search", "fetch"));
    const client = await server.client("web");
    const registry = new ToolRegistry();
    registry.register({ name: "mcp_web_search", toolset: "local", handler: () => "built-in" });
    const warnings = collect(registry, "warning");
    try {
      const registration = await registerMcpServer(registry, "web", client);
      assert.deepEqual(registration.names(), ["mcp_web_fetch"]);
      assert.deepEqual(registry.get("mcp_web_search")?.origin, { kind: "builtin" });
      assert.deepEqual(parsed(await registry.dispatch("mcp_web_search")), { result: "built-in" });
      assert.deepEqual(warnings.map((warning) => warning.message), [
        'server "web": tool "search" maps to the name "mcp_web_search", which the built-in tool "mcp_web_search" (toolset "local") ' +
        'already has; the built-in tool wins and the MCP tool is skipped; give server "web" another naming or exclude "search"',
      ]);
      // A re-list does not repeat the warning.
      await registration.refresh();
      assert.equal(warnings.length, 1);
    } finally {
      await client.close();
    }
  });

  test("a built-in tool registered over an MCP tool takes the name; the MCP tool is removed with a warning and a change", async () => {
    const server = new TestServer(tools("search"));
    const client = await server.client("web");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "web", client);
    const warnings = collect(registry, "warning");
    const changes = collect(registry, "toolschange");
    try {
      registry.register({ name: "mcp_web_search", handler: () => "built-in" });
      assert.deepEqual(registry.get("mcp_web_search")?.origin, { kind: "builtin" });
      assert.deepEqual(registration.names(), []);
      assert.deepEqual(changes, [{ server: "web", added: [], removed: ["mcp_web_search"] }]);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!.message, /^built-in tool "mcp_web_search" replaces tool "search" of server "web".*no longer available/);
      // The server's next listing leaves the built-in alone, without warning again.
      await registration.refresh();
      assert.deepEqual(registry.get("mcp_web_search")?.origin, { kind: "builtin" });
      assert.equal(warnings.length, 1);
    } finally {
      await client.close();
    }
  });

  test("two servers mapping to one name: the first registered keeps it, the other is skipped with a warning", async () => {
    const first = new TestServer(tools("read", "only-first"));
    const second = new TestServer(tools("read", "only-second"));
    const a = await first.client("a");
    const b = await second.client("b");
    const registry = new ToolRegistry();
    const warnings = collect(registry, "warning");
    try {
      await registerMcpServer(registry, "a", a, { naming: "{tool}" });
      const rb = await registerMcpServer(registry, "b", b, { naming: "{tool}" });
      assert.deepEqual(registry.get("read")?.origin, { kind: "mcp", server: "a", tool: "read" });
      assert.deepEqual(rb.names(), ["only-second"]);
      assert.deepEqual(warnings.map((warning) => warning.message), [
        'server "b": tool "read" maps to the name "read", which tool "read" of server "a" already has; the first registered keeps it ' +
        "and this one is skipped; give one of the servers another naming or exclude the tool",
      ]);
      await registry.dispatch("read");
      assert.deepEqual([first.callNames(), second.callNames()], [["read"], []]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("two tools of one server mapping to one name: the first keeps it, the other is skipped with a warning", async () => {
    const server = new TestServer(tools("a.b", "a_b", "c"));
    const client = await server.client("s");
    const registry = new ToolRegistry();
    const warnings = collect(registry, "warning");
    try {
      const registration = await registerMcpServer(registry, "s", client);
      assert.deepEqual(registration.names(), ["mcp_s_a_b", "mcp_s_c"]);
      assert.deepEqual(registry.get("mcp_s_a_b")?.origin, { kind: "mcp", server: "s", tool: "a.b" });
      assert.deepEqual(warnings.map((warning) => warning.message), [
        'server "s": tools "a.b" and "a_b" both map to the name "mcp_s_a_b"; "a.b" keeps it and "a_b" is skipped; ' +
        "choose a naming that keeps them apart or exclude one",
      ]);
    } finally {
      await client.close();
    }
  });
});

describe("notifications/tools/list_changed", () => {
  test('re-registers by difference and emits "toolschange" with the names added and removed', async () => {
    const server = new TestServer(tools("keep", "drop"));
    const client = await server.client("live");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "live", client);
    try {
      const change = nextEvent(registry, "toolschange");
      await server.announce([tool("keep", { description: "now described" }), tool("new-one")]);
      assert.deepEqual(await change, { server: "live", added: ["mcp_live_new-one"], removed: ["mcp_live_drop"] });
      assert.deepEqual(registration.names(), ["mcp_live_keep", "mcp_live_new-one"]);
      assert.equal(registry.has("mcp_live_drop"), false);
      assert.equal(registry.get("mcp_live_keep")?.description, "now described", "a kept tool is updated in place");
      assert.deepEqual(parsed(await registry.dispatch("mcp_live_drop")).error?.startsWith("unknown tool"), true);
    } finally {
      await client.close();
    }
  });

  test("a listing with nothing added or removed emits no event", async () => {
    const server = new TestServer(tools("a"));
    const client = await server.client("same");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "same", client);
    const changes = collect(registry, "toolschange");
    try {
      await server.announce();
      await settle();
      assert.deepEqual(await registration.refresh(), { server: "same", added: [], removed: [] });
      assert.deepEqual(changes, []);
    } finally {
      await client.close();
    }
  });

  test("a burst of notifications coalesces: one re-list at a time, one more after it", async () => {
    const server = new TestServer(tools("a"));
    const client = await server.client("burst");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "burst", client);
    try {
      assert.equal(server.listRequests(), 1);
      const held = gate();
      server.listGate = held.promise;
      await server.announce(tools("a", "b"));
      await settle();
      assert.equal(server.listRequests(), 2, "the first notification starts a re-list at once");
      for (let i = 0; i < 10; i++) await server.announce(tools("a", "b", "c"));
      await settle();
      assert.equal(server.listRequests(), 2, "no second listing while one is in flight");
      server.listGate = undefined;
      held.open();
      // refresh() queues behind whatever is pending, so after it everything has run.
      await registration.refresh();
      assert.equal(server.listRequests(), 4, "one re-list for the ten notifications, then the refresh");
      assert.deepEqual(registration.names(), ["mcp_burst_a", "mcp_burst_b", "mcp_burst_c"]);
    } finally {
      await client.close();
    }
  });

  test("a change announced during the first listing is not lost", async () => {
    const server = new TestServer(tools("a"));
    const held = gate();
    server.listGate = held.promise;
    const client = await server.client("early");
    const registry = new ToolRegistry();
    try {
      const registering = registerMcpServer(registry, "early", client);
      await settle();
      server.tools = tools("a", "b");
      await server.announce();
      await settle();
      server.listGate = undefined;
      held.open();
      const registration = await registering;
      await registration.refresh();
      assert.deepEqual(registration.names(), ["mcp_early_a", "mcp_early_b"]);
      assert.equal(server.listRequests(), 3);
    } finally {
      await client.close();
    }
  });

  test("a failed re-list is a warning naming the server, and the old tools stay", async () => {
    const server = new TestServer(tools("a", "b"));
    const client = await server.client("shaky");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "shaky", client);
    try {
      server.listError = new RpcError("index rebuilding", -32603);
      const warning = nextEvent(registry, "warning");
      await server.announce();
      assert.match(
        (await warning).message,
        /^server "shaky": re-listing tools after notifications\/tools\/list_changed failed: .*index rebuilding; its previous tools stay registered$/,
      );
      assert.deepEqual(registration.names(), ["mcp_shaky_a", "mcp_shaky_b"]);
      assert.deepEqual(parsed(await registry.dispatch("mcp_shaky_a")), { result: "a: {}" });
      // refresh() reports the failure to its caller instead.
      await assert.rejects(registration.refresh(), /index rebuilding/);
      server.listError = undefined;
      assert.deepEqual((await registration.refresh()).removed, []);
    } finally {
      await client.close();
    }
  });

  test("a call in flight when its tool is removed still gets its answer", async () => {
    const server = new TestServer(tools("slow", "other"));
    const answer = gate();
    server.onCall = async () => {
      await answer.promise;
      return { content: [{ type: "text", text: "finally" }] };
    };
    const client = await server.client("busy");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "busy", client);
    try {
      const inFlight = registry.dispatch("mcp_busy_slow");
      await settle();
      const change = nextEvent(registry, "toolschange");
      await server.announce(tools("other"));
      assert.deepEqual((await change).removed, ["mcp_busy_slow"]);
      answer.open();
      assert.deepEqual(parsed(await inFlight), { result: "finally" });
    } finally {
      await client.close();
    }
  });
});

describe("calls to MCP tools", () => {
  test("arguments, progress and the result travel through; call() gives the CallToolResult", async () => {
    const server = new TestServer(tools("work"));
    server.onCall = async (_name, args, params) => {
      const token = (params._meta as Params | undefined)?.progressToken;
      await server.peer.notify("notifications/progress", { progressToken: token, progress: 1, total: 2 });
      await server.peer.notify("notifications/progress", { progressToken: token, progress: 2, total: 2 });
      return { content: [{ type: "text", text: `did ${String(args.what)}` }], structuredContent: { done: true } };
    };
    const client = await server.client("w");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "w", client);
    try {
      const updates: Progress[] = [];
      const result = await registry.call("mcp_w_work", { what: "it" }, { onProgress: (progress) => updates.push(progress) });
      assert.deepEqual(result, { content: [{ type: "text", text: "did it" }], structuredContent: { done: true } });
      assert.deepEqual(updates, [{ progress: 1, total: 2 }, { progress: 2, total: 2 }]);
      assert.deepEqual(parsed(await registry.dispatch("mcp_w_work", { what: "more" })), { result: 'did more\n{"done":true}' });
    } finally {
      await client.close();
    }
  });

  test("a tool error (isError) is a result from call() and an error naming server and tool from dispatch()", async () => {
    const server = new TestServer(tools("read"));
    server.onCall = () => ({ content: [{ type: "text", text: "ENOENT: /nope" }], isError: true });
    const client = await server.client("fs");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "fs", client);
    try {
      const result = await registry.call("mcp_fs_read", { path: "/nope" });
      assert.equal((result as { isError?: boolean }).isError, true);
      assert.deepEqual(parsed(await registry.dispatch("mcp_fs_read", { path: "/nope" })), {
        error: 'server "fs", tool "read" returned an error: ENOENT: /nope',
      });
    } finally {
      await client.close();
    }
  });

  test("a JSON-RPC error names server, tool, code and what to check", async () => {
    const server = new TestServer(tools("strict"));
    server.onCall = () => {
      throw new RpcError("missing argument q", -32602);
    };
    const client = await server.client("api");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "api", client);
    try {
      assert.deepEqual(parsed(await registry.dispatch("mcp_api_strict")), {
        error: 'server "api", tool "strict": the server answered with JSON-RPC error -32602 (InvalidParams): missing argument q; ' +
          "check the arguments against the tool's inputSchema",
      });
      const error = await registry.call("mcp_api_strict").then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof ToolCallError);
      assert.equal(error.code, "rpc");
      assert.ok(error.cause instanceof RpcError);
    } finally {
      await client.close();
    }
  });

  test("a server that never answers: the server's timeoutMs option applies, and the error names server and tool", async () => {
    const server = new TestServer(tools("hang"));
    server.onCall = () => new Promise(() => {});
    const client = await server.client("mute");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "mute", client, { timeoutMs: 50 });
    try {
      const { error } = parsed(await registry.dispatch("mcp_mute_hang"));
      assert.match(error ?? "", /^server "mute", tool "hang": tools\/call timed out after 50 ms \(no answer and no progress for 50 ms\)/);
      // The context's timeoutMs wins over the server's.
      const thrown = await registry.call("mcp_mute_hang", {}, { timeoutMs: 30 }).then(() => undefined, (e: unknown) => e);
      assert.ok(thrown instanceof ToolCallError);
      assert.equal(thrown.code, "timeout");
      assert.match(thrown.message, /after 30 ms/);
      // The server was told both calls were given up.
      await settle();
      const cancels = server.received.filter((message) => "method" in message && message.method === "notifications/cancelled");
      assert.equal(cancels.length, 2);
    } finally {
      await client.close();
    }
  });

  test("a cancelled call is an error saying so, and the server is told", async () => {
    const server = new TestServer(tools("hang"));
    server.onCall = () => new Promise(() => {});
    const client = await server.client("c");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "c", client);
    try {
      const controller = new AbortController();
      const pending = registry.dispatch("mcp_c_hang", {}, { signal: controller.signal });
      await settle();
      controller.abort(new Error("user pressed stop"));
      assert.deepEqual(parsed(await pending), { error: 'server "c", tool "hang": the call was cancelled: user pressed stop' });
      await settle();
      assert.ok(server.received.some((message) => "method" in message && message.method === "notifications/cancelled"));
    } finally {
      await client.close();
    }
  });

  test("a server that went away: pending and later calls are errors naming server and tool, never a rejection", async () => {
    const server = new TestServer(tools("hang"));
    server.onCall = () => new Promise(() => {});
    const client = await server.client("gone");
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "gone", client);
    const pending = registry.dispatch("mcp_gone_hang");
    await settle();
    await client.close();
    const during = parsed(await pending);
    assert.match(during.error ?? "", /^server "gone", tool "hang": tools\/call failed: connection closed/);
    const after = parsed(await registry.dispatch("mcp_gone_hang"));
    assert.match(after.error ?? "", /^server "gone", tool "hang": cannot send tools\/call: the connection to server "gone" is closed/);
    const thrown = await registry.call("mcp_gone_hang").then(() => undefined, (e: unknown) => e);
    assert.ok(thrown instanceof ToolCallError);
    assert.equal(thrown.code, "unavailable");
  });

  test("a disabled mcp-<server> toolset leaves list() and refuses dispatch", async () => {
    const server = new TestServer(tools("a"));
    const client = await server.client("ts");
    const registry = new ToolRegistry();
    registry.register({ name: "local", handler: () => "local" });
    await registerMcpServer(registry, "ts", client);
    try {
      registry.disableToolset("mcp-ts");
      assert.deepEqual(registry.list().map((schema) => schema.name), ["local"]);
      assert.match(parsed(await registry.dispatch("mcp_ts_a")).error ?? "", /^server "ts", tool "a": the tool is in toolset "mcp-ts", which is disabled/);
      assert.deepEqual(server.callNames(), []);
    } finally {
      await client.close();
    }
  });
});

describe("replaceClient and unregister", () => {
  test("replaceClient re-lists by difference, and calls from then on go to the new client", async () => {
    const before = new TestServer(tools("a", "b"));
    const after = new TestServer(tools("b", "c"));
    const oldClient = await before.client("r");
    const newClient = await after.client("r");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "r", oldClient);
    try {
      const change = await registration.replaceClient(newClient);
      assert.deepEqual(change, { server: "r", added: ["mcp_r_c"], removed: ["mcp_r_a"] });
      assert.deepEqual(registration.names(), ["mcp_r_b", "mcp_r_c"]);
      await registry.dispatch("mcp_r_b");
      assert.deepEqual([before.callNames(), after.callNames()], [[], ["b"]]);
      // The old client's notifications no longer count.
      const listsBefore = before.listRequests();
      await before.announce(tools("x"));
      await settle();
      assert.equal(before.listRequests(), listsBefore);
      assert.deepEqual(registration.names(), ["mcp_r_b", "mcp_r_c"]);
      // The new client's do.
      const next = nextEvent(registry, "toolschange");
      await after.announce(tools("c"));
      assert.deepEqual(await next, { server: "r", added: [], removed: ["mcp_r_b"] });
    } finally {
      await oldClient.close();
      await newClient.close();
    }
  });

  test("unregister removes every tool, emits the change, stops listening and is idempotent", async () => {
    const server = new TestServer(tools("a", "b"));
    const client = await server.client("u");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "u", client);
    const changes = collect(registry, "toolschange");
    try {
      assert.deepEqual(registration.unregister(), { server: "u", added: [], removed: ["mcp_u_a", "mcp_u_b"] });
      assert.deepEqual(changes, [{ server: "u", added: [], removed: ["mcp_u_a", "mcp_u_b"] }]);
      assert.deepEqual(registry.tools(), []);
      assert.deepEqual(registration.unregister(), { server: "u", added: [], removed: [] });
      await server.announce(tools("a", "b", "c"));
      await settle();
      assert.equal(server.listRequests(), 1);
      assert.deepEqual(registry.tools(), []);
      await assert.rejects(
        registration.refresh(),
        (error: unknown) =>
          error instanceof RegistrationError && error.code === "unregistered" &&
          /server "u": refresh\(\) after unregister\(\); register the server again/.test(error.message),
      );
    } finally {
      await client.close();
    }
  });

  test("unregistering one MCP tool by name emits a change; the next listing brings it back", async () => {
    const server = new TestServer(tools("a", "b"));
    const client = await server.client("one");
    const registry = new ToolRegistry();
    const registration = await registerMcpServer(registry, "one", client);
    const changes = collect(registry, "toolschange");
    try {
      assert.equal(registry.unregister("mcp_one_a"), true);
      assert.deepEqual(registration.names(), ["mcp_one_b"]);
      assert.deepEqual(await registration.refresh(), { server: "one", added: ["mcp_one_a"], removed: [] });
      assert.deepEqual(changes, [
        { server: "one", added: [], removed: ["mcp_one_a"] },
        { server: "one", added: ["mcp_one_a"], removed: [] },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe("a host's redactor", () => {
  const secret = "ghp_0123456789abcdefSECRET";

  test("the server's JSON-RPC errors, tool errors and the registry's warnings about it pass through it", async () => {
    const server = new TestServer(tools("open", `leaky-${secret}`));
    server.onCall = (name) => {
      if (name === "open") throw new RpcError(`token ${secret} was refused`, -32000);
      return { content: [{ type: "text", text: `your token: ${secret}` }], isError: true };
    };
    const client = await server.client("vault");
    const registry = new ToolRegistry();
    const warnings = collect(registry, "warning");
    try {
      await registerMcpServer(registry, "vault", client, { include: ["open", "nothing-*"], redactor: new Redactor([secret]) });
      assert.deepEqual(warnings.map((warning) => warning.message), [
        `server "vault": tools.include pattern "nothing-*" matches none of its tools (it lists open, leaky-${REDACTED}); check the spelling`,
      ]);
      assert.deepEqual(parsed(await registry.dispatch("mcp_vault_open")), {
        error: `server "vault", tool "open": the server answered with JSON-RPC error -32000: token ${REDACTED} was refused`,
      });
      const error = await registry.call("mcp_vault_open").then(() => undefined, (thrown: unknown) => thrown);
      assert.ok(error instanceof ToolCallError);
      assert.equal(error.code, "rpc");
      assert.ok(!error.message.includes(secret), error.message);
    } finally {
      await client.close();
    }
  });
});

describe("a tool schema nested without bound", () => {
  test("is skipped with one warning naming the server and tool, not repeated by a re-list; the other tools register", async () => {
    const deepSchema = JSON.parse('{"type":"object","properties":{"x":'.repeat(1_000) + '{"type":"string"}' + "}}".repeat(1_000)) as Tool["inputSchema"];
    const server = new TestServer([tool("ok"), tool("deep", { inputSchema: deepSchema })]);
    const client = await server.client("s");
    const registry = new ToolRegistry();
    const warnings = collect(registry, "warning");
    try {
      const registration = await registerMcpServer(registry, "s", client);
      assert.deepEqual(registration.names(), ["mcp_s_ok"]);
      await registration.refresh();
      assert.deepEqual(warnings.map((warning) => warning.message), [
        'server "s": tool "deep" is skipped: its inputSchema is nested deeper than 128 levels, too deep to hand to a model; ' +
        "fix the tool's schema on the server, or exclude the tool",
      ]);
    } finally {
      await client.close();
    }
  });
});
