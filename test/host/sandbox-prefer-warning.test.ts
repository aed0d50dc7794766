// `sandbox: prefer` where no sandbox can be had (MCPWIRE_BWRAP names a program that does not
// exist): the server runs unsandboxed with ONE warning, not one at every reconnect (the reason
// does not change while mcpwire runs). A server that crashes in each call is restarted twice.

import process from "node:process";
process.env.MCPWIRE_BWRAP = "/nonexistent/mcpwire-test-bwrap"; // before the first (and only) availability probe of this process

import { test } from "node:test";
import assert from "node:assert/strict";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

test("the `sandbox: prefer` warning is given once per server, across restarts", async () => {
  const server = stdioServerConfig("crashy", [fixturePath("crash-server.mjs")], {
    sandbox: { profile: "prefer", write: [], network: false, env: [], prefer: true },
  });
  const manager = new McpManager(configOf(server), { connectRetries: 0, probeIntervalMs: 600_000, reconnectDelay: { initialMs: 20, maxMs: 40, jitter: 0 } });
  const warnings: string[] = [];
  manager.on("problem", ({ message }) => {
    if (/WITHOUT a sandbox/.test(message)) warnings.push(message);
  });
  try {
    await hangGuard(manager.start(), 20_000, "start");
    for (let crash = 1; crash <= 2; crash++) {
      const client = manager.client("crashy");
      assert.ok(client, JSON.stringify(manager.status()));
      const transport = client.transport;
      await client.callTool("echo").catch(() => undefined); // the server exits in the call
      // The server keeps one Client across its sessions: a restart is a new transport under it.
      await waitUntil(() => client.transport !== transport && client.state === "ready", `restart ${crash}`, 20_000);
    }
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0]!, /^server "crashy" runs WITHOUT a sandbox \(sandbox: prefer\): /);
  } finally {
    await manager.close();
  }
});
