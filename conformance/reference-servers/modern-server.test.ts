// mcpwire's Client against the 2026-07-28 reference fixture (conformance/fixtures/modern-server.ts,
// built on @modelcontextprotocol/server 2.x) over stdio and Streamable HTTP, and the era choice
// against server-everything — spec 2026-07-28 basic/versioning, server/discover,
// basic/patterns/mrtr, basic/patterns/subscriptions, server/utilities/caching.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type CallToolResult,
  Client,
  type ClientOptions,
  InputRoundsExceededError,
  type JsonRpcMessage,
  ProtocolVersionError,
  StdioTransport,
  StreamableHttpTransport,
  TracingTransport,
  type Transport,
} from "../../src/mod.ts";
import { registerMcpServer, ToolRegistry } from "../../src/registry/mod.ts";
import { EVERYTHING } from "../../test/support/everything-path.ts";
import { type ModernHttpServer, modernServerArgs, startModernHttp } from "../fixtures/modern-server-launch.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function everythingTransport(): StdioTransport {
  return new StdioTransport({ command: "node", args: [EVERYTHING] });
}
const INFO = { name: "mcpwire-modern-test", version: "1.0.0" };
const HANG_GUARD_MS = 30_000;

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}

function stdioFixture(era: "modern" | "dual"): StdioTransport {
  return new StdioTransport({ command: "node", args: modernServerArgs("--stdio", "--era", era), cwd: ROOT });
}

/** Resolves when `predicate` holds, checking on each event; rejects after the hang guard. */
function eventually(client: Client, type: "toolslistchanged" | "resourceupdated", what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${what} within ${HANG_GUARD_MS} ms`));
    }, HANG_GUARD_MS);
    const off = client.on(type, () => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

const handlers: ClientOptions["handlers"] = {
  // The user's answers, by field: each form gets the fields its schema asks for.
  elicitation: {
    form: (request) => {
      const answers: Record<string, string> = { name: "Ada", first: "one", second: "two" };
      const content = Object.fromEntries(Object.keys(request.requestedSchema.properties).map((field) => [field, answers[field] ?? "x"]));
      return Promise.resolve({ action: "accept", content });
    },
  },
  sampling: () => Promise.resolve({ role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model", stopReason: "endTurn" }),
};

interface Wire {
  name: string;
  connect(
    options?: ClientOptions,
    trace?: (direction: "send" | "receive", message: JsonRpcMessage) => void,
  ): Promise<{ client: Client; done: () => Promise<void> }>;
}

const WIRES: Wire[] = [
  {
    name: "stdio",
    async connect(options = {}, trace) {
      const client = new Client(INFO, { handlers, roots: ["/tmp/project"], ...options });
      const transport: Transport = trace ? new TracingTransport(stdioFixture("modern"), trace) : stdioFixture("modern");
      await client.connect(transport);
      return { client, done: () => client.close() };
    },
  },
  {
    name: "Streamable HTTP",
    async connect(options = {}, trace) {
      const server: ModernHttpServer = await startModernHttp("modern");
      const client = new Client(INFO, { handlers, roots: ["/tmp/project"], ...options });
      const http = new StreamableHttpTransport({ url: server.url });
      try {
        await client.connect(trace ? new TracingTransport(http, trace) : http);
      } catch (error) {
        await server.stop();
        throw error;
      }
      return {
        client,
        done: async () => {
          await client.close();
          await server.stop();
        },
      };
    },
  },
];

for (const wire of WIRES) {
  describe(`the 2026-07-28 fixture over ${wire.name}`, { timeout: 120_000 }, () => {
    test("auto finds a modern server with server/discover: era, version, serverInfo; tools work, outputs validated", async () => {
      const sent: string[] = [];
      const { client, done } = await wire.connect({}, (direction, message) => {
        if (direction === "send" && "method" in message) sent.push(message.method);
      });
      try {
        assert.equal(client.era, "modern");
        assert.equal(client.protocolVersion, "2026-07-28");
        assert.equal(client.serverInfo?.name, "mcpwire-modern-fixture");
        assert.equal(sent[0], "server/discover");
        assert.ok(!sent.includes("initialize"), `initialize was sent: ${sent.join(", ")}`);
        const tools = await client.listTools();
        assert.ok(tools.some((tool) => tool.name === "echo"));
        assert.equal(textOf(await client.callTool("echo", { message: "hi" })), "hi");
        const sum = await client.callTool("add", { a: 2, b: 40 });
        assert.deepEqual(sum.structuredContent, { sum: 42 });
      } finally {
        await done();
      }
    });

    test("multi round-trip requests: elicitation, sampling and roots are fulfilled by the handlers and retried", async () => {
      const { client, done } = await wire.connect();
      try {
        await client.listTools();
        assert.equal(textOf(await client.callTool("ask_name")), "Hello, Ada");
        assert.match(textOf(await client.callTool("ask_model")), /test-model.*Paris/);
        assert.match(textOf(await client.callTool("ask_roots")), /file:\/\/\/tmp\/project/);
        assert.match(textOf(await client.callTool("two_rounds")), /after 2 rounds of input: one, two/);
      } finally {
        await done();
      }
    });

    test("more rounds than maxInputRounds end with InputRoundsExceededError naming the bound", async () => {
      const { client, done } = await wire.connect({ maxInputRounds: 1 });
      try {
        const error = await client.callTool("two_rounds").then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof InputRoundsExceededError, String(error));
        assert.match(error.message, /after 1 round trips/);
      } finally {
        await done();
      }
    });

    test("subscriptions/listen delivers tools list_changed and resource updates; the cached list is refreshed", async () => {
      const { client, done } = await wire.connect();
      try {
        const before = await client.listTools();
        assert.ok(!before.some((tool) => tool.name === "late_tool"));
        const changed = eventually(client, "toolslistchanged", "notifications/tools/list_changed");
        await client.callTool("add_tool", { name: "late_tool" });
        await changed;
        const after = await client.listTools(); // the notification made the cached list stale
        assert.ok(after.some((tool) => tool.name === "late_tool"), after.map((tool) => tool.name).join(", "));

        const resources = await client.listResources();
        const counter = resources.find((resource) => resource.uri.includes("counter"));
        assert.ok(counter, "the fixture lists a counter resource");
        await client.subscribeResource(counter.uri);
        // The subscription travels in the listen filter; touch until the update arrives
        // (the re-opened stream may need a moment to be acknowledged).
        const updated = eventually(client, "resourceupdated", "notifications/resources/updated");
        let arrived = false;
        void updated.then(() => (arrived = true), () => {});
        for (let i = 0; i < 50 && !arrived; i++) {
          await client.callTool("touch");
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await updated;
      } finally {
        await done();
      }
    });

    test("the registry registers the tools and re-registers them on a list change, as on the handshake wire", async () => {
      const { client, done } = await wire.connect();
      try {
        const registry = new ToolRegistry();
        await registerMcpServer(registry, "modern", client);
        assert.ok(registry.has("mcp_modern_echo"));
        const changed = new Promise<void>((resolve) => {
          const off = registry.on("toolschange", ({ added }) => {
            if (added.includes("mcp_modern_registry_tool")) {
              off();
              resolve();
            }
          });
        });
        await client.callTool("add_tool", { name: "registry_tool" });
        await Promise.race([changed, new Promise((_, reject) => setTimeout(() => reject(new Error("no re-registration")), HANG_GUARD_MS))]);
        assert.equal(await registry.dispatch("mcp_modern_echo", { message: "via the registry" }), JSON.stringify({ result: "via the registry" }));
      } finally {
        await done();
      }
    });

    test("lists are served from cache within ttlMs; fresh: true asks the server again", async () => {
      const lists: number[] = [];
      const { client, done } = await wire.connect({}, (direction, message) => {
        if (direction === "send" && "method" in message && message.method === "tools/list") lists.push(1);
      });
      try {
        await client.listTools();
        await client.listTools();
        assert.equal(lists.length, 1, "the second listTools() should come from the cache (ttlMs 60000)");
        await client.listTools({ fresh: true });
        assert.equal(lists.length, 2);
      } finally {
        await done();
      }
    });

    test("the log level travels in _meta: no logging/setLevel, and log_demo's messages arrive", async () => {
      const sent: string[] = [];
      const { client, done } = await wire.connect({}, (direction, message) => {
        if (direction === "send" && "method" in message) sent.push(message.method);
      });
      try {
        const logs: string[] = [];
        client.on("log", ({ data }) => logs.push(String(data)));
        await client.setLoggingLevel("debug");
        await client.callTool("log_demo");
        assert.ok(!sent.includes("logging/setLevel"));
        assert.ok(logs.some((line) => line.includes("a debug line")), logs.join(" | "));
      } finally {
        await done();
      }
    });
  });
}

describe("choosing the era", { timeout: 120_000 }, () => {
  test("auto against server-everything (stdio) falls back to the handshake, initialized once", async () => {
    const sent: string[] = [];
    const client = new Client(INFO);
    await client.connect(
      new TracingTransport(everythingTransport(), (direction, message) => {
        if (direction === "send" && "method" in message) sent.push(message.method);
      }),
    );
    try {
      assert.equal(client.era, "legacy");
      assert.equal(client.protocolVersion, "2025-11-25");
      assert.deepEqual(sent.slice(0, 3), ["server/discover", "initialize", "notifications/initialized"]);
      assert.equal(sent.filter((method) => method === "initialize").length, 1);
    } finally {
      await client.close();
    }
  });

  test("pinning modern against server-everything fails with an error that says to use legacy", async () => {
    const client = new Client(INFO, { protocol: "modern" });
    const error = await client.connect(everythingTransport()).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ProtocolVersionError, String(error));
    assert.match(error.message, /did not answer server\/discover as a 2026-07-28 server.*protocol: legacy/);
    assert.equal(client.state, "failed");
  });

  test("pinning legacy against the modern-only fixture fails naming the versions it supports", async () => {
    const client = new Client(INFO, { protocol: "legacy" });
    const error = await client.connect(stdioFixture("modern")).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ProtocolVersionError, String(error));
    assert.match(error.message, /refused the initialize handshake: it supports 2026-07-28.*protocol: auto/);
  });

  test("a dual-era fixture serves a pinned legacy client with the handshake", async () => {
    const client = new Client(INFO, { protocol: "legacy" });
    await client.connect(stdioFixture("dual"));
    try {
      assert.equal(client.era, "legacy");
      assert.equal(textOf(await client.callTool("echo", { message: "old school" })), "old school");
    } finally {
      await client.close();
    }
  });
});
