// Tasks in the host — spec 2025-11-25 basic/utilities/tasks: the config key `tasks`, the
// manager's `taskStatus` events for a tool call that runs as a task, and dispatchSync on such a
// tool through the sync bridge (the task is polled in the worker, the caller blocks once).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createSyncBridge, type SyncBridge } from "../../src/host/bridge/sync-bridge.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import type { ServerEvents } from "../../src/host/servers/server-status.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const RESEARCH = "mcp_everything_simulate-research-query";
const everything = () => stdioServerConfig("everything", [EVERYTHING, "stdio"], { timeoutMs: 30_000, connectTimeoutMs: 20_000 });

const yaml = (value: string) =>
  parseConfig(["mcp_servers:", "  s:", "    command: node", `    tasks: ${value}`].join("\n"), {
    file: "/tmp/mcpwire.yaml",
    displayName: "mcpwire.yaml",
    env: {},
  });

describe("the tasks config key", () => {
  test("auto, always and never are read; absent means auto (left unset)", () => {
    assert.equal(yaml("auto").servers[0]!.tasks, "auto");
    assert.equal(yaml("always").servers[0]!.tasks, "always");
    assert.equal(yaml("never").servers[0]!.tasks, "never");
    const none = parseConfig("mcp_servers:\n  s:\n    command: node\n", { file: "/tmp/mcpwire.yaml", env: {} });
    assert.equal(none.servers[0]!.tasks, undefined);
  });

  test("another value disables the server with a positioned message naming the values", () => {
    const config = yaml("sometimes");
    const error = config.servers[0]!.error;
    assert.ok(error !== undefined, "the server is disabled");
    assert.equal(error.line, 4);
    assert.match(error.message, /"tasks" must be "auto" \(tools that require a task run as one\), "always" \(tools that allow a task run as one\) or "never"/);
  });
});

/** Polls until the registry has `name` (server-everything registers its task tool after initialize). */
async function registered(manager: McpManager, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50 && !manager.registry.has(name); attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.ok(manager.registry.has(name), `${name} is registered`);
}

describe("the manager and a task tool", () => {
  const manager = new McpManager(configOf(everything()), { connectRetries: 0 });
  const updates: ServerEvents["taskStatus"][] = [];
  manager.on("taskStatus", (update) => updates.push(update));
  before(() => manager.start());
  after(() => manager.close());

  test("dispatch runs the task tool like any other; its status changes are taskStatus events naming the server", async () => {
    await registered(manager, RESEARCH);
    const reply = JSON.parse(await manager.registry.dispatch(RESEARCH, { topic: "tasks" })) as { result?: string; error?: string };
    assert.match(reply.result ?? reply.error ?? "", /# Research Report: tasks/);
    assert.ok(updates.length >= 2, JSON.stringify(updates));
    assert.ok(updates.every((update) => update.server === "everything" && typeof update.taskId === "string"));
    assert.ok(updates.some((update) => update.statusMessage === "Gathering sources..."));
    assert.equal(updates.at(-1)!.status, "completed");
  });

  test("registry.call passes onTaskStatus through to the client", async () => {
    const seen: string[] = [];
    await manager.registry.call(RESEARCH, { topic: "x" }, { onTaskStatus: (update) => seen.push(update.status) });
    assert.equal(seen.at(-1), "completed");
    assert.ok(seen.includes("working"));
  });
});

describe("dispatchSync and a task tool", () => {
  let bridge: SyncBridge;
  before(() => {
    bridge = createSyncBridge({ config: configOf(everything()) }, { manager: { connectRetries: 0 } });
  });
  after(() => bridge.close());

  test("a plain synchronous caller gets the research result of a task tool", { timeout: 60_000 }, () => {
    for (let attempt = 0; attempt < 100 && !bridge.listTools().some((tool) => tool.name === RESEARCH); attempt++) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
    const reply = JSON.parse(bridge.dispatchSync(RESEARCH, { topic: "sync" }, { timeoutMs: 30_000 })) as { result?: string; error?: string };
    assert.match(reply.result ?? reply.error ?? "", /# Research Report: sync/);
  });
});
