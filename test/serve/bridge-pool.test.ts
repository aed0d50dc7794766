// The pool of backend sets (src/serve/backend-pool.ts): a handshake-era session's own set ends
// with it; 2026-07-28 hosts share a set per capabilities, bounded in number, closed when idle.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import { type Bridge, createBridge, type PoolLimits } from "../../src/serve/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { waitUntil } from "../support/polling.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";
import { hostContext, hostIdentity, testSession } from "./host-context.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };

function bridgeWith(pool: PoolLimits): Bridge {
  const bridge = createBridge({ config: configOf(stdioServerConfig("pooled", [fixturePath("serve/asking-server.mjs"), "pooled"])), manager: FAST, pool });
  after(() => bridge.close());
  return bridge;
}

describe("the pool of backend sets", () => {
  it("a handshake-era session gets its own backends, which end with the session", async () => {
    const bridge = bridgeWith({});
    const host = hostIdentity("legacy", { sampling: {} });
    await bridge.handlers.capabilities(host);
    const session = testSession(host);
    bridge.handlers.sessionOpened?.(session);
    await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
    assert.deepEqual(bridge.status().map((set) => [set.host, set.sessions, set.servers[0]?.state]), [["legacy", 1, "ready"]]);
    bridge.handlers.sessionClosed?.(session);
    await waitUntil(() => bridge.status().length === 0, "the session's set to close");
  });

  it("2026-07-28 hosts with the same capabilities share a set; past the bound the idle one makes room", async () => {
    const bridge = bridgeWith({ maxShared: 1 });
    const plain = hostIdentity("modern", {});
    const sampling = hostIdentity("modern", { sampling: {} });
    for (const host of [plain, plain]) await bridge.handlers.request("tools/list", {}, hostContext(testSession(host), host, "tools/list"));
    assert.equal(bridge.status().length, 1);
    const { tools } = await bridge.handlers.request("tools/list", {}, hostContext(testSession(sampling), sampling, "tools/list"));
    assert.ok((tools as { name: string }[]).some((tool) => tool.name === "ask_sampling"), "the new set declares the new host's sampling");
    assert.equal(bridge.status().length, 1);
  });

  it("past the bound with every set busy, a host is refused -32603 saying so", async () => {
    const bridge = bridgeWith({ maxShared: 1 });
    const busy = hostIdentity("modern", {});
    const other = hostIdentity("modern", { roots: {} });
    const controller = new AbortController();
    const hanging = bridge.handlers.request(
      "tools/call",
      { name: "hang", arguments: {} },
      hostContext(testSession(busy), busy, "tools/call", { signal: controller.signal }),
    );
    await waitUntil(() => bridge.status()[0]?.servers[0]?.state === "ready", "the busy set");
    await assert.rejects(
      bridge.handlers.request("tools/list", {}, hostContext(testSession(other), other, "tools/list")),
      (error: unknown) => error instanceof RpcError && error.rpcCode === -32603 && /pool\.maxShared/.test(error.message),
    );
    controller.abort();
    await assert.rejects(hanging);
  });

  it("a 2026-07-28 set unused for idleMs is closed", async () => {
    const bridge = bridgeWith({ idleMs: 200 });
    const host = hostIdentity("modern", {});
    await bridge.handlers.request("tools/list", {}, hostContext(testSession(host), host, "tools/list"));
    assert.equal(bridge.status().length, 1);
    await waitUntil(() => bridge.status().length === 0, "the idle set to close", 5_000);
  });
});
