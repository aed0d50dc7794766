// Task tools in the registry — spec 2025-11-25 basic/utilities/tasks ("Tool-Level
// Negotiation"): a tool whose execution.taskSupport is "required" is registered only when the
// server can run it as a task; the `tasks` option (auto, always, never) decides for "optional"
// ones; a task tool is dispatched like any other. A hand-written in-process server.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client, type Params, tasksExtension } from "../../src/mod.ts";
import { registerMcpServer } from "../../src/registry/mcp-server.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import type { TaskMode } from "../../src/registry/types.ts";
import { inProcessServer, requestsFor } from "../support/in-process-server.ts";

const TOOLS = [
  { name: "plain", inputSchema: { type: "object" } },
  { name: "maybe", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
  { name: "long", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
];
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** A server that runs any task-augmented tools/call as a task completing at the first poll. */
function taskServer(capabilities: Params) {
  const done = new Map<string, string>();
  let next = 0;
  const stamp = new Date().toISOString();
  const task = (taskId: string, status: string) => ({ taskId, status, createdAt: stamp, lastUpdatedAt: stamp, ttl: 60_000, pollInterval: 100 });
  return inProcessServer({ tools: {}, ...capabilities }, {
    "tools/list": () => ({ tools: TOOLS }),
    "tools/call": (params) => {
      const text = `${String(params?.name)} ran ${params?.task === undefined ? "directly" : "as a task"}`;
      if (params?.task === undefined) return { content: [{ type: "text", text }] };
      const taskId = `task-${++next}`;
      done.set(taskId, text);
      return { task: task(taskId, "working") };
    },
    "tasks/get": (params) => task(String(params?.taskId), "completed"),
    "tasks/result": (params) => ({ content: [{ type: "text", text: done.get(String(params?.taskId)) ?? "?" }] }),
  });
}

async function registryFor(capabilities: Params, tasks?: TaskMode) {
  const server = taskServer(capabilities);
  const client = new Client({ name: "t", version: "1" }, { use: [tasksExtension], name: "s" });
  await client.connect(server.clientEnd);
  const registry = new ToolRegistry();
  const warnings: string[] = [];
  registry.on("warning", ({ message }) => warnings.push(message));
  await registerMcpServer(registry, "s", client, tasks === undefined ? {} : { tasks });
  return { server, client, registry, warnings };
}

describe("which task tools are offered", () => {
  test("without tasks.requests.tools.call a required-task tool is skipped with a warning; the others stay", async () => {
    const { client, registry, warnings } = await registryFor({});
    try {
      assert.deepEqual(registry.tools().map((tool) => tool.name), ["mcp_s_plain", "mcp_s_maybe"]);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /server "s": tool "long" is skipped: it must run as a task .* does not declare tasks\.requests\.tools\.call/);
    } finally {
      await client.close();
    }
  });

  test("with the capability it is offered, and dispatch runs it as a task (tasks/get, tasks/result)", async () => {
    const { server, client, registry, warnings } = await registryFor({ tasks: TASKS_CAPABILITY });
    try {
      assert.deepEqual(warnings, []);
      assert.equal(await registry.dispatch("mcp_s_long", {}), JSON.stringify({ result: "long ran as a task" }));
      assert.equal(requestsFor(server, "tasks/result").length, 1);
      assert.equal(await registry.dispatch("mcp_s_maybe", {}), JSON.stringify({ result: "maybe ran directly" }), "auto: optional runs directly");
    } finally {
      await client.close();
    }
  });

  test("tasks: always runs an optional tool as a task too; a forbidden one stays direct", async () => {
    const { client, registry } = await registryFor({ tasks: TASKS_CAPABILITY }, "always");
    try {
      assert.equal(await registry.dispatch("mcp_s_maybe", {}), JSON.stringify({ result: "maybe ran as a task" }));
      assert.equal(await registry.dispatch("mcp_s_plain", {}), JSON.stringify({ result: "plain ran directly" }));
    } finally {
      await client.close();
    }
  });

  test("tasks: never leaves the required-task tool out, naming the setting", async () => {
    const { client, registry, warnings } = await registryFor({ tasks: TASKS_CAPABILITY }, "never");
    try {
      assert.ok(!registry.has("mcp_s_long"));
      assert.match(warnings.join("\n"), /tool "long" is skipped: .* this server has tasks: never; set tasks: auto to offer it/);
      assert.equal(await registry.dispatch("mcp_s_maybe", {}), JSON.stringify({ result: "maybe ran directly" }));
    } finally {
      await client.close();
    }
  });

  test("registry.call reports the task's status changes through onTaskStatus", async () => {
    const { client, registry } = await registryFor({ tasks: TASKS_CAPABILITY });
    try {
      const statuses: string[] = [];
      await registry.call("mcp_s_long", {}, { onTaskStatus: (update) => statuses.push(update.status) });
      assert.equal(statuses.at(-1), "completed");
    } finally {
      await client.close();
    }
  });
});
