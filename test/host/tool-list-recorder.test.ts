// McpManager.startServer (one server started, the others never spawned) and the recorder that
// keeps the tool-list cache in step with a manager (src/host/servers/tool-list-recorder.ts): what a ready
// server listed is recorded through its filter, with titles; list_changed drops it.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { ServerConfig } from "../../src/host/config/types.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { followToolLists } from "../../src/host/servers/tool-list-recorder.ts";
import { type CachedTool, ToolListCache } from "../../src/host/store/tool-list-cache.ts";
import { fixturePath as fixture } from "../support/fixture-process.ts";
import { until } from "../support/polling.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

function scratch(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-recorder-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe("McpManager.startServer and the tool-list recorder", () => {
  test("startServer starts that server alone: the others are never spawned; an unknown name rejects", async () => {
    const { dir, remove } = scratch();
    const box = (name: string) => stdioServerConfig(name, [fixture("toolbox-server.mjs"), name, "echo", "--marker", join(dir, `${name}.spawned`)]);
    const manager = new McpManager(configOf(box("a"), box("b")), { eraCache: false });
    try {
      await manager.startServer("a");
      assert.deepEqual(manager.status().map((status) => [status.name, status.state]), [["a", "ready"], ["b", "connecting"]]);
      assert.ok(manager.registry.has("mcp_a_echo"));
      assert.equal(manager.registry.has("mcp_b_echo"), false);
      assert.equal(existsSync(join(dir, "b.spawned")), false);
      await assert.rejects(manager.startServer("c"), (error: unknown) => {
        // a name the config does not hold is the calling program's mistake (docs/errors.md)
        assert.ok(error instanceof RangeError);
        assert.match(error.message, /no server "c" is configured \(configured: "a", "b"\)/);
        return true;
      });
    } finally {
      await manager.close();
      remove();
    }
  });

  test("what a ready server listed is recorded (filter applied, titles); its list_changed drops it", async () => {
    const { dir, remove } = scratch();
    const server = stdioServerConfig("a", [fixture("toolbox-server.mjs"), "a", "echo,hidden"], { tools: { exclude: ["hidden"] } });
    const config = configOf(server);
    const cache = new LoggingCache(join(dir, "tools.json"));
    const manager = new McpManager(config, { eraCache: false });
    const recorder = followToolLists(manager, config, cache);
    try {
      await manager.start();
      await recorder.settled();
      const listing = await new ToolListCache(cache.path).get(server);
      assert.deepEqual(listing?.tools, [
        { name: "echo", title: "Answers a:echo" },
        { name: "change-tools", title: "Adds the tool fresh and says so (notifications/tools/list_changed)" },
      ]);
      await manager.registry.call("mcp_a_change-tools", {});
      // Dropped on the notification, then the re-listed tools (fresh among them) recorded.
      await until("the re-listed tools recorded", () => (cache.calls.length >= 3 ? true : undefined));
      await recorder.settled();
      assert.deepEqual(cache.calls, ["record echo,change-tools", "forget", "record echo,change-tools,fresh"]);
      assert.deepEqual((await new ToolListCache(cache.path).get(server))?.tools.map((tool) => tool.name), ["echo", "change-tools", "fresh"]);
    } finally {
      recorder.stop();
      await manager.close();
      remove();
    }
  });
});

/** A ToolListCache that notes each record and forget, in order. */
class LoggingCache extends ToolListCache {
  readonly calls: string[] = [];
  override record(server: ServerConfig, tools: readonly CachedTool[]): Promise<void> {
    this.calls.push(`record ${tools.map((tool) => tool.name).join(",")}`);
    return super.record(server, tools);
  }
  override forget(server: ServerConfig): Promise<void> {
    this.calls.push("forget");
    return super.forget(server);
  }
}
