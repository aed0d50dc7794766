// The bridge behind a real Server of the server half, a real host in front (our own Client over
// a memory pair) and real backends behind (a handshake-era fixture and the 2026-07-28 reference
// server, both over stdio): a host of each era reaches both backends, and what a backend asks
// comes back to that host — as a request of its own on the handshake era, as an input_required
// result its own MRTR loop answers on 2026-07-28 (spec 2026-07-28 basic/patterns/mrtr).

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { modernServerArgs } from "../../conformance/fixtures/modern-server-launch.ts";
import type { CallToolResult } from "../../src/client/types.ts";
import { Client } from "../../src/mod.ts";
import { createBridge } from "../../src/serve/mod.ts";
import { Server } from "../../src/server/server.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };

function text(result: CallToolResult): string {
  return result.content.map((block) => ("text" in block ? block.text : "")).join("\n");
}

describe("a host of each era through a Server over the bridge", () => {
  const bridge = createBridge({
    config: configOf(
      stdioServerConfig("asking", [fixturePath("serve/asking-server.mjs"), "asking"]),
      stdioServerConfig("modern", modernServerArgs("--stdio", "--era", "modern")),
    ),
    manager: FAST,
  });
  const problems: string[] = [];
  const server = new Server(bridge.handlers, { onProblem: (message) => problems.push(message) });
  const hosts: Client[] = [];

  async function host(protocol: "legacy" | "modern"): Promise<Client> {
    const [hostEnd, serverEnd] = MemoryTransport.pair();
    await server.connect(serverEnd);
    const client = new Client({ name: `host-${protocol}`, version: "1.0.0" }, {
      protocol,
      requestTimeoutMs: 20_000,
      handlers: {
        sampling: () => Promise.resolve({ role: "assistant", content: { type: "text", text: `the ${protocol} host's model` }, model: "m" }),
        elicitation: { form: () => Promise.resolve({ action: "accept", content: { name: protocol } }) },
      },
    });
    await hangGuard(client.connect(hostEnd), 30_000, `the ${protocol} host's connect`);
    hosts.push(client);
    return client;
  }

  before(() => hangGuard(bridge.start(), 30_000, "bridge.start()"));
  after(async () => {
    await Promise.all(hosts.map((client) => client.close()));
    await server.close();
    await bridge.close();
  });

  it("a handshake-era host: names told apart, a backend's sampling asked of it, a 2026-07-28 backend's elicitation too", async () => {
    const client = await host("legacy");
    assert.equal(client.era, "legacy");
    const names = (await client.listTools()).map((tool) => tool.name);
    assert.ok(names.includes("mcp_asking_ask_sampling") && names.includes("mcp_modern_ask_name"), names.join(","));
    assert.equal(text(await client.callTool("mcp_asking_ask_sampling")), "model said: the legacy host's model");
    assert.equal(text(await client.callTool("mcp_modern_ask_name")), "Hello, legacy");
  });

  it("a 2026-07-28 host: the backend's input_required reaches its own MRTR loop, and the answer completes the call", async () => {
    const client = await host("modern");
    assert.equal(client.era, "modern");
    assert.equal(text(await client.callTool("mcp_modern_ask_name")), "Hello, modern");
    assert.equal(text(await client.callTool("mcp_asking_echo", { text: "hi" })), "asking: hi");
  });

  it("a 2026-07-28 host's log level reaches a handshake-era backend, and its log messages come back on the call", async () => {
    const client = await host("modern");
    const logs: unknown[] = [];
    client.on("log", ({ data }) => logs.push(data));
    await client.callTool("mcp_asking_slow");
    assert.equal(logs.length, 0, "no level, no log messages");
    await client.setLoggingLevel("info");
    await client.callTool("mcp_asking_slow");
    await waitUntil(() => logs.includes("slow started"), "the backend's log message");
  });

  it("a 2026-07-28 host: a handshake-era backend's sampling and elicitation requests are held and asked as input_required", async () => {
    const client = await host("modern");
    assert.equal(text(await client.callTool("mcp_asking_ask_sampling")), "model said: the modern host's model");
    assert.equal(text(await client.callTool("mcp_asking_ask_elicit")), "user said: accept modern");
  });

  for (const protocol of ["legacy", "modern"] as const) {
    it(`a ${protocol} host subscribes to a backend's resource and hears it change`, async () => {
      const client = await host(protocol);
      const updated: string[] = [];
      client.on("resourceupdated", ({ uri }) => updated.push(uri));
      await client.subscribeResource("fixture://asking/hello");
      await waitUntil(() => updated.includes("fixture://asking/hello"), "notifications/resources/updated", 15_000);
    });
  }

  it("a handshake-era host hears a lost backend's tools go, and its log messages while it called", async () => {
    const client = await host("legacy");
    await client.listTools();
    const logs: unknown[] = [];
    client.on("log", ({ data }) => logs.push(data));
    await client.setLoggingLevel("debug");
    await client.callTool("mcp_asking_slow");
    await waitUntil(() => logs.includes("slow started"), "the backend's log message");
    let changed = 0;
    client.on("toolslistchanged", () => changed++);
    await assert.rejects(client.callTool("mcp_asking_crash"), /server "asking"/);
    await waitUntil(() => changed > 0, "tools/list_changed");
    const names = (await client.listTools({ fresh: true })).map((tool) => tool.name);
    assert.ok(names.includes("mcp_modern_ask_name"), "the other backend's tools stay");
  });

  it("the server half met no problem through all of it (no handler threw, no message it could not send)", () => {
    assert.deepEqual(problems, []);
  });
});

describe("a host that calls before it lists", () => {
  it("64 callers of a 2026-07-28 host that never listed all find their tool, call after call", async () => {
    const bridge = createBridge({
      config: configOf(stdioServerConfig("eager", [fixturePath("serve/asking-server.mjs"), "eager"])),
      manager: { ...FAST, pinning: "off" },
    });
    const server = new Server(bridge.handlers);
    const [hostEnd, serverEnd] = MemoryTransport.pair();
    await server.connect(serverEnd);
    const client = new Client({ name: "eager-host", version: "1.0.0" }, { protocol: "modern" });
    try {
      await client.connect(hostEnd);
      // 64 callers, each calling again as soon as it is answered: the first calls race to find the tool.
      let next = 0;
      const seen: string[] = [];
      const caller = async () => {
        while (next < 640) {
          const index = next++;
          seen.push(text(await client.callTool("echo", { text: String(index) })));
        }
      };
      await hangGuard(Promise.all(Array.from({ length: 64 }, caller)), 30_000, "640 calls");
      assert.equal(seen.length, 640);
      assert.ok(seen.every((each) => each.startsWith("eager: ")));
    } finally {
      await client.close();
      await server.close();
      await bridge.close();
    }
  });
});

describe("server-everything behind a Server over the bridge, a host of each era", () => {
  for (const protocol of ["legacy", "modern"] as const) {
    it(`(${protocol} host) its sampling and elicitation requests reach the host's own handlers`, async () => {
      const bridge = createBridge({ config: configOf(stdioServerConfig("everything", [EVERYTHING, "stdio"])), manager: FAST });
      const server = new Server(bridge.handlers);
      const [hostEnd, serverEnd] = MemoryTransport.pair();
      await server.connect(serverEnd);
      const client = new Client({ name: `everything-${protocol}-host`, version: "1.0.0" }, {
        protocol,
        requestTimeoutMs: 20_000,
        handlers: {
          sampling: () => Promise.resolve({ role: "assistant", content: { type: "text", text: `from the ${protocol} host` }, model: "deterministic" }),
          elicitation: { form: () => Promise.resolve({ action: "accept", content: { name: "Ada Lovelace" } }) },
        },
      });
      try {
        await client.connect(hostEnd);
        let names: string[] = [];
        for (let attempt = 0; attempt < 50 && !names.includes("trigger-elicitation-request"); attempt++) {
          names = (await client.listTools({ fresh: true })).map((tool) => tool.name);
          if (!names.includes("trigger-elicitation-request")) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const sampled = text(await client.callTool("trigger-sampling-request", { prompt: "What is 6 x 7?", maxTokens: 20 }));
        assert.match(sampled, new RegExp(`from the ${protocol} host`));
        const elicited = text(await client.callTool("trigger-elicitation-request"));
        assert.match(elicited, /- Name: Ada Lovelace/);
      } finally {
        await client.close();
        await server.close();
        await bridge.close();
      }
    });
  }
});
