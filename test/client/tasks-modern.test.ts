// Tasks on the 2026-07-28 wire: the io.modelcontextprotocol/tasks extension against the fixture
// server conformance/fixtures/tasks-server.ts over stdio and Streamable HTTP — server-directed
// task creation (resultType "task"), tasks/get polling at pollIntervalMs, input_required answered
// with tasks/update, failed kept apart from isError, tasks/cancel, ttlMs expiry, Mcp-Name, and
// notifications/tasks through the subscriptions/listen stream.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { tasksOf } from "../../src/client/tasks/tasks-extension.ts";
import {
  Client,
  EXTENSIONS,
  MissingClientCapabilityError,
  StdioTransport,
  StreamableHttpTransport,
  TaskError,
  TaskFailedError,
  tasksExtension,
  type TaskStatusUpdate,
} from "../../src/mod.ts";
import { textOf } from "../support/everything-http.ts";
import { guardedRejection, hangGuard } from "../support/hang-guard.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TASKS_SERVER = fileURLToPath(new URL("../../conformance/fixtures/tasks-server.ts", import.meta.url));
const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const GUARD_MS = 15_000;

function stdioTransport(): StdioTransport {
  return new StdioTransport({ command: "node", args: ["--import", "tsx", TASKS_SERVER, "--stdio"], cwd: ROOT });
}

function modernClient(name: string, extra: ConstructorParameters<typeof Client>[1] = {}): Client {
  return new Client(CLIENT_INFO, {
    use: [tasksExtension],
    name,
    protocol: "modern",
    requestTimeoutMs: 10_000,
    handlers: { elicitation: { form: async () => ({ action: "accept", content: { name: "Luca" } }) } },
    ...extra,
  });
}

/** What the fixture saw (listen filters, tasks/update keys, cancels, Mcp-Name headers). */
async function seen(
  client: Client,
): Promise<{ listenFilters: { taskIds?: string[] }[]; updates: { keys: string[] }[]; cancels: string[]; mcpNames: string[] }> {
  return (await client.callTool("seen")).structuredContent as never;
}

/** The behaviours every transport must show; `client()` is connected before them. */
function sharedBehaviour(client: () => Client) {
  test("the extension is declared and negotiated", () => {
    assert.deepEqual(client().capabilities.extensions?.[EXTENSIONS.tasks], {});
    assert.deepEqual(client().extension(EXTENSIONS.tasks), {});
  });

  test("working → completed: callTool polls to the result as pollIntervalMs changes, reporting each step", async () => {
    const updates: TaskStatusUpdate[] = [];
    const result = await hangGuard(client().callTool("slow_job", { steps: 4 }, { onTaskStatus: (u) => updates.push(u) }), GUARD_MS, "slow_job");
    assert.equal(textOf(result.content), "slow_job done after 4 polls");
    assert.deepEqual(result.structuredContent, { polls: 4 });
    assert.deepEqual(updates.map((u) => u.statusMessage), ["queued", "step 1 of 4", "step 2 of 4", "step 3 of 4", "done"]);
    assert.equal(updates.at(-1)?.status, "completed");
  });

  test("working → input_required → working → completed: the elicitation is answered once with tasks/update", async () => {
    const statuses: string[] = [];
    const result = await hangGuard(client().callTool("ask_name", {}, { onTaskStatus: (u) => statuses.push(u.status) }), GUARD_MS, "ask_name");
    assert.equal(textOf(result.content), "Hello, Luca!");
    assert.deepEqual(statuses, ["working", "input_required", "working", "completed"]);
    const updates = (await seen(client())).updates;
    assert.deepEqual(updates.at(-1)?.keys, ["name"]);
  });

  test("failed is a TaskFailedError carrying the JSON-RPC error; a completed isError result is a result", async () => {
    const error = await guardedRejection(client().callTool("fail_job"), "fail_job");
    assert.ok(error instanceof TaskFailedError, String(error));
    assert.equal(error.rpcCode, -32603);
    assert.match(error.message, /upstream exploded/);
    assert.ok(error.taskId.length > 0);
    const result = await client().callTool("tool_error");
    assert.equal(result.isError, true);
    assert.match(textOf(result.content), /invalid input/);
  });

  test("cancel(): tasks/cancel, and the task ends cancelled", async () => {
    const task = await tasksOf(client()).startToolTask("cancel_me");
    assert.equal(task.direct, false);
    assert.equal((await task.status()).status, "working");
    await task.cancel();
    assert.equal((await task.status()).status, "cancelled");
    const error = await guardedRejection(task.result(), "a cancelled task's result");
    assert.ok(error instanceof TaskError);
    assert.equal(error.code, "task-cancelled");
    assert.ok((await seen(client())).cancels.includes(task.taskId));
  });

  test("aborting the call sends tasks/cancel", async () => {
    const controller = new AbortController();
    const call = client().callTool("cancel_me", {}, {
      signal: controller.signal,
      onTaskStatus: (u) => u.statusMessage === "still working (poll 2)" && controller.abort(),
    });
    const error = await guardedRejection(call, "an aborted task");
    assert.ok(error instanceof TaskError);
    assert.equal(error.code, "cancelled");
    assert.ok((await seen(client())).cancels.includes(error.taskId));
  });

  test("a task whose ttlMs ran out is unknown to the server: TaskError unknown-task naming the id", async () => {
    const error = await guardedRejection(client().callTool("short_ttl"), "short_ttl");
    assert.ok(error instanceof TaskError);
    assert.equal(error.code, "unknown-task");
    assert.match(error.message, /expired/);
    assert.ok(error.message.includes(error.taskId));
  });

  test("a direct answer needs no task; startToolTask wraps it", async () => {
    assert.equal(textOf((await client().callTool("quick")).content), "quick answer");
    const task = await tasksOf(client()).startToolTask("quick");
    assert.equal(task.direct, true);
    assert.equal(textOf((await task.result()).content), "quick answer");
  });

  test("notifications/tasks arrive through the listen stream (taskIds in its filter) and wake the poller", async () => {
    // The fixture suggests polling every 60 s; the notification ends the wait long before.
    const result = await hangGuard(client().callTool("notified_job", {}, { maxPollIntervalMs: 60_000 }), GUARD_MS, "notified_job");
    assert.equal(textOf(result.content), "notified_job done");
    assert.ok((await seen(client())).listenFilters.some((filter) => (filter.taskIds ?? []).length > 0));
  });

  test("listTasks is a typed error on this wire", async () => {
    const error = await guardedRejection(tasksOf(client()).listTasks(), "listTasks");
    assert.ok(error instanceof TaskError);
    assert.equal(error.code, "unsupported");
  });

  test("resumeTask picks a task up by its id", async () => {
    const task = await tasksOf(client()).startToolTask("slow_job", { steps: 2 });
    const resumed = tasksOf(client()).resumeTask(task.taskId, { tool: "slow_job" });
    assert.equal(textOf((await hangGuard(resumed.result(), GUARD_MS, "resumed")).content), "slow_job done after 2 polls");
  });
}

describe("tasks extension over stdio", () => {
  const client = modernClient("tasks-stdio");
  before(() => client.connect(stdioTransport()));
  after(() => client.close());
  sharedBehaviour(() => client);

  test("with the extension turned off, -32003 is the typed missing-capability error naming the extension", async () => {
    const off = modernClient("tasks-off", { extensions: { [EXTENSIONS.tasks]: false } });
    await off.connect(stdioTransport());
    try {
      const error = await guardedRejection(off.callTool("slow_job"), "slow_job without the extension");
      assert.ok(error instanceof MissingClientCapabilityError, String(error));
      assert.equal(error.rpcCode, -32003);
      assert.match(error.message, /io\.modelcontextprotocol\/tasks/);
      assert.match(error.message, /tasks-off/);
    } finally {
      await off.close();
    }
  });
});

describe("tasks extension over Streamable HTTP", () => {
  let child: ChildProcess | undefined;
  let url = "";
  const client = modernClient("tasks-http");
  before(async () => {
    child = spawn("node", ["--import", "tsx", TASKS_SERVER, "--http", "--port", "0"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const port = await hangGuard(
      new Promise<number>((resolve) => {
        let text = "";
        child!.stdout!.on("data", (chunk: Uint8Array) => {
          text += new TextDecoder().decode(chunk);
          const match = /PORT (\d+)/.exec(text);
          if (match) {
            child!.stdout!.destroy();
            resolve(Number(match[1]));
          }
        });
      }),
      20_000,
      "the tasks fixture over HTTP to print its port",
    );
    url = `http://127.0.0.1:${port}/mcp`;
    await client.connect(new StreamableHttpTransport({ url }));
  });
  after(async () => {
    await client.close();
    if (child !== undefined && child.exitCode === null) {
      const gone = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGKILL");
      await gone;
    }
  });
  sharedBehaviour(() => client);

  test("a task id kept by the host is resumed by a new client (a host restart)", async () => {
    const task = await tasksOf(client).startToolTask("slow_job", { steps: 2 });
    const restarted = modernClient("tasks-http-restarted");
    await restarted.connect(new StreamableHttpTransport({ url }));
    try {
      const result = await hangGuard(tasksOf(restarted).resumeTask(task.taskId, { tool: "slow_job" }).result(), GUARD_MS, "a resumed task");
      assert.equal(textOf(result.content), "slow_job done after 2 polls");
    } finally {
      await restarted.close();
    }
  });

  test("Mcp-Name carries the task id on tasks/get, tasks/update and tasks/cancel", async () => {
    const { mcpNames } = await seen(client);
    assert.ok(mcpNames.length > 0);
    assert.ok(mcpNames.every((name) => /^[0-9a-f-]{36}$/.test(name)), mcpNames.join(" "));
  });
});
