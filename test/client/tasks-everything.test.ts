// Tasks on the 2025-11-25 wire against server-everything, over stdio and Streamable HTTP: its
// simulate-research-query tool declares execution.taskSupport "required" — spec 2025-11-25
// basic/utilities/tasks (tools/call with `task`, tasks/get polling, tasks/result, tasks/list,
// tasks/cancel, input_required answered through tasks/result).

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { tasksOf } from "../../src/client/tasks/tasks-extension.ts";
import {
  Client,
  type JsonRpcMessage,
  StdioTransport,
  StreamableHttpTransport,
  TaskError,
  tasksExtension,
  type TaskStatusUpdate,
  TracingTransport,
} from "../../src/mod.ts";
import { EVERYTHING } from "../support/everything.ts";
import { freePort, startEverything, stop, textOf } from "../support/everything-http.ts";
import { guardedRejection, hangGuard } from "../support/hang-guard.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const TOOL = "simulate-research-query";
/** server-everything suggests polling each 1 s; a task's stages take 1 s each, so the tests poll at most each 200 ms. */
const POLL = { maxPollIntervalMs: 200 };

/** A client of server-everything with every message it sent recorded. */
function tracedClient(transport: StdioTransport | StreamableHttpTransport, options: ConstructorParameters<typeof Client>[1] = {}) {
  const sent: JsonRpcMessage[] = [];
  const traced = new TracingTransport(transport, (direction, message) => {
    if (direction === "send") sent.push(message);
  });
  const client = new Client(CLIENT_INFO, { use: [tasksExtension], name: "everything", requestTimeoutMs: 20_000, ...options });
  return { client, traced, sent, methods: () => sent.flatMap((m) => ("method" in m ? [m.method] : [])) };
}

describe("tasks on the 2025-11-25 wire: server-everything over stdio", () => {
  const elicited: unknown[] = [];
  const { client, traced, methods } = tracedClient(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"] }), {
    handlers: {
      elicitation: {
        form: async (request) => {
          elicited.push(request);
          return { action: "accept", content: { interpretation: "snake" } };
        },
      },
    },
  });
  before(async () => {
    await client.connect(traced);
  });
  after(async () => {
    await client.close();
  });

  test("the server declares tasks for tools/call and the tool requires a task", async () => {
    assert.deepEqual(client.serverCapabilities?.tasks?.requests, { tools: { call: {} } });
    const tools = await client.listTools();
    assert.equal(tools.find((tool) => tool.name === TOOL)?.execution?.taskSupport, "required");
  });

  test("callTool resolves to the research report, through a task, with its status changes", async () => {
    const updates: TaskStatusUpdate[] = [];
    const events: (TaskStatusUpdate & { server?: string })[] = [];
    const off = client.on("taskStatus", (update) => events.push(update));
    const result = await hangGuard(
      client.callTool(TOOL, { topic: "mcp" }, { onTaskStatus: (update) => updates.push(update), timeoutMs: 30_000, ...POLL }),
      40_000,
      "callTool of a task tool",
    );
    off();
    assert.match(textOf(result.content), /Research Report: mcp/);
    assert.equal(updates[0]?.status, "working");
    assert.equal(updates.at(-1)?.status, "completed");
    assert.ok(updates.some((update) => /Gathering sources|Analyzing|Synthesizing|Generating/.test(update.statusMessage ?? "")));
    assert.deepEqual(events.map((event) => event.status), updates.map((update) => update.status));
    assert.equal(events[0]?.server, "everything");
    const sent = methods();
    assert.ok(sent.includes("tasks/get") && sent.includes("tasks/result"));
    assert.ok(!sent.includes("notifications/cancelled"));
  });

  test("startToolTask gives a handle: its id, status(), result(); tasks/list knows the id", async () => {
    const task = await tasksOf(client).startToolTask(TOOL, { topic: "handles" });
    assert.equal(task.direct, false);
    assert.ok(task.taskId.length > 0);
    const status = await task.status();
    assert.equal(status.taskId, task.taskId);
    assert.ok(["working", "completed"].includes(status.status));
    assert.equal(typeof status.pollIntervalMs, "number");
    const listed = await tasksOf(client).listTasks();
    assert.ok(listed.some((info) => info.taskId === task.taskId));
    const result = await hangGuard(task.result({ timeoutMs: 30_000, ...POLL }), 40_000, "task.result()");
    assert.match(textOf(result.content), /Research Report: handles/);
  });

  test("resumeTask picks up a task by id alone", async () => {
    const started = await tasksOf(client).startToolTask(TOOL, { topic: "resumed" });
    const resumed = tasksOf(client).resumeTask(started.taskId, { tool: TOOL });
    const result = await hangGuard(resumed.result({ timeoutMs: 30_000, ...POLL }), 40_000, "resumed result()");
    assert.match(textOf(result.content), /Research Report: resumed/);
  });

  test("aborting the signal sends tasks/cancel, never notifications/cancelled; the task ends cancelled", async () => {
    const controller = new AbortController();
    const before = methods().length;
    const call = tasksOf(client).startToolTask(TOOL, { topic: "abort me" });
    const task = await call;
    const result = task.result({
      signal: controller.signal,
      ...POLL,
      onTaskStatus: (update) => update.status === "working" && controller.abort(),
    });
    const error = await guardedRejection(result, "an aborted task");
    assert.ok(error instanceof TaskError);
    assert.equal(error.code, "cancelled");
    assert.equal(error.taskId, task.taskId);
    const sent = methods().slice(before);
    assert.ok(sent.includes("tasks/cancel"), sent.join(" "));
    assert.ok(!sent.includes("notifications/cancelled"));
    assert.equal((await task.status()).status, "cancelled");
  });

  test("an input_required task gets its elicitation answered through tasks/result, then completes", async () => {
    const statuses: string[] = [];
    const result = await hangGuard(
      client.callTool(TOOL, { topic: "python", ambiguous: true }, { onTaskStatus: (u) => statuses.push(u.status), timeoutMs: 30_000, ...POLL }),
      40_000,
      "an ambiguous research query",
    );
    assert.equal(elicited.length, 1);
    assert.match(textOf(result.content), /snake/);
    assert.ok(statuses.includes("input_required") || statuses.includes("working"));
  });

  test("the call's timeout spans the task's life: the task is cancelled and the error names it", async () => {
    const error = await guardedRejection(client.callTool(TOOL, { topic: "too slow" }, { timeoutMs: 1500 }), "a timed-out task");
    assert.ok(error instanceof TaskError);
    assert.equal(error.code, "timeout");
    assert.match(error.message, /did not finish within 1\.5 s/);
    assert.equal((await tasksOf(client).resumeTask(error.taskId).status()).status, "cancelled");
  });

  test("a tool that forbids tasks is called directly even when a task is asked for", async () => {
    const result = await client.callTool("echo", { message: "plain" }, { task: true });
    assert.match(textOf(result.content), /plain/);
    const task = await tasksOf(client).startToolTask("echo", { message: "direct" });
    assert.equal(task.direct, true);
    assert.match(textOf((await task.result()).content), /direct/);
  });
});

describe("tasks on the 2025-11-25 wire: server-everything over Streamable HTTP", () => {
  let child: ChildProcess | undefined;
  let client: Client;
  let port = 0;
  before(async () => {
    port = await freePort();
    child = await startEverything(port);
    client = new Client(CLIENT_INFO, { use: [tasksExtension], name: "everything-http", requestTimeoutMs: 20_000 });
    await client.connect(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp` }));
  });
  after(async () => {
    await client?.close();
    if (child !== undefined) await stop(child);
  });

  test("callTool polls the task to the research report", async () => {
    const statuses: string[] = [];
    const result = await hangGuard(
      client.callTool(TOOL, { topic: "http" }, { onTaskStatus: (u) => statuses.push(u.status), timeoutMs: 30_000, ...POLL }),
      40_000,
      "callTool over HTTP",
    );
    assert.match(textOf(result.content), /Research Report: http/);
    assert.equal(statuses.at(-1), "completed");
  });

  test("a task of another session is unknown to server-everything: resumeTask says so, naming the id", async () => {
    // server-everything keeps tasks per session, so a host restart cannot resume them there
    // (tasks-modern.test.ts resumes one across clients on a server that keeps them).
    const first = new Client(CLIENT_INFO, { use: [tasksExtension], name: "before-restart", requestTimeoutMs: 20_000 });
    await first.connect(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp` }));
    const { taskId } = await tasksOf(first).startToolTask(TOOL, { topic: "restart" });
    await first.close();
    const second = new Client(CLIENT_INFO, { use: [tasksExtension], name: "after-restart", requestTimeoutMs: 20_000 });
    await second.connect(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp` }));
    try {
      const error = await guardedRejection(tasksOf(second).resumeTask(taskId, { tool: TOOL }).result({ timeoutMs: 30_000 }), "a task of another session");
      assert.ok(error instanceof TaskError);
      assert.equal(error.code, "unknown-task");
      assert.ok(error.message.includes(taskId));
    } finally {
      await second.close();
    }
  });

  test("keepSession() leaves the session open at close; a client given it as `session` joins it without initialize and gets the result", async () => {
    const first = new Client(CLIENT_INFO, { use: [tasksExtension], name: "detaching", requestTimeoutMs: 20_000 });
    await first.connect(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp` }));
    const { taskId } = await tasksOf(first).startToolTask(TOOL, { topic: "kept" });
    const session = first.keepSession();
    assert.ok(session !== undefined);
    assert.equal(session.protocolVersion, "2025-11-25");
    await first.close();
    const { client: second, traced, methods } = tracedClient(new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp` }), { session });
    await second.connect(traced);
    try {
      const result = await hangGuard(
        tasksOf(second).resumeTask(taskId, { tool: TOOL }).result({ timeoutMs: 30_000, ...POLL }),
        40_000,
        "the kept session's task",
      );
      assert.match(textOf(result.content), /Research Report: kept/);
      assert.ok(!methods().includes("initialize"), methods().join(", "));
    } finally {
      await second.close();
    }
  });

  test("a session given to a transport without sessions is a TypeError from connect()", async () => {
    const joined = new Client(CLIENT_INFO, { use: [tasksExtension], session: { id: "abc" } });
    const error = await guardedRejection(
      joined.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"] })),
      "connect with a session over stdio",
    );
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /session abc cannot be joined: .* has no sessions/);
  });
});
