// The client as a task receiver — spec 2025-11-25 basic/utilities/tasks: the capability it
// declares from its handlers, a server's task-augmented sampling and elicitation answered with
// a CreateTaskResult at once, then tasks/get, tasks/result, tasks/list, tasks/cancel and
// notifications/tasks/status, ttl expiry and the bound on kept tasks; bad input from the server.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ClientOptions } from "../../src/client/client.ts";
import { declaredCapabilities, modernCapabilities } from "../../src/client/client-capabilities.ts";
import { SamplingRejectedError } from "../../src/client/sampling.ts";
import { RELATED_TASK_META } from "../../src/client/tasks/task-store.ts";
import { Client, type CreateMessageRequest, type CreateMessageResult, type Params, tasksExtension } from "../../src/mod.ts";
import { coreCapabilities } from "../support/capabilities.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { type InProcessServer, inProcessServer } from "../support/in-process-server.ts";
import { waitUntil } from "../support/polling.ts";
import { rpcRejection } from "../support/rejection.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const ANSWER: CreateMessageResult = { role: "assistant", content: { type: "text", text: "42" }, model: "test-model", stopReason: "endTurn" };
const SAMPLE = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 50 };
const FORM = {
  message: "Your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const BOTH_REQUESTS = { sampling: { createMessage: {} }, elicitation: { create: {} } };

/** A sampling handler the test finishes by hand; it records what it saw and whether it was aborted. */
function heldSampling() {
  const seen: CreateMessageRequest[] = [];
  const signals: AbortSignal[] = [];
  const pending: Array<{ resolve: (result: CreateMessageResult) => void; reject: (error: unknown) => void }> = [];
  const handler = (request: CreateMessageRequest, context: { signal: AbortSignal }) => {
    seen.push(request);
    signals.push(context.signal);
    return new Promise<CreateMessageResult>((resolve, reject) => {
      pending.push({ resolve, reject });
      context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true });
    });
  };
  return { handler, seen, signals, pending };
}

async function connect(options: ClientOptions): Promise<{ client: Client; server: InProcessServer }> {
  const server = inProcessServer({}, {});
  const client = new Client(CLIENT_INFO, { use: [tasksExtension], name: "tasks", ...options });
  await client.connect(server.clientEnd);
  return { client, server };
}

/** The notifications/tasks/status the server received for one task, in order. */
function statusNotes(server: InProcessServer, taskId: string): Params[] {
  return server.received.flatMap((message) =>
    "method" in message && !("id" in message) && message.method === "notifications/tasks/status" &&
      (message.params as Params | undefined)?.taskId === taskId
      ? [message.params as Params]
      : []
  );
}

async function createTask(server: InProcessServer, method: string, params: Params): Promise<Params> {
  const created = await hangGuard(server.peer.request(method, params), 10_000, `${method} with a task`);
  const task = created.task as Params;
  assert.equal(typeof task?.taskId, "string", JSON.stringify(created));
  return task;
}

describe("the tasks capability follows the handlers", () => {
  const sampling = async () => ANSWER;
  const form = async () => ({ action: "decline" as const });

  test("sampling and elicitation handlers declare list, cancel and their task-augmented requests", () => {
    const use = [tasksExtension];
    assert.deepEqual(declaredCapabilities({ handlers: { sampling, elicitation: { form } }, use }).tasks, { list: {}, cancel: {}, requests: BOTH_REQUESTS });
    assert.deepEqual(declaredCapabilities({ handlers: { sampling }, use }).tasks?.requests, { sampling: { createMessage: {} } });
    assert.deepEqual(declaredCapabilities({ handlers: { elicitation: { url: form } }, use }).tasks?.requests, { elicitation: { create: {} } });
  });

  test("no tasks without a handler to run, with roots only, with taskReceiver: false, or without the tasks extension's code", () => {
    assert.equal(declaredCapabilities({ use: [tasksExtension] }).tasks, undefined);
    assert.equal(declaredCapabilities({ roots: ["/tmp"], use: [tasksExtension] }).tasks, undefined);
    assert.equal(declaredCapabilities({ handlers: { sampling }, taskReceiver: false, use: [tasksExtension] }).tasks, undefined);
    assert.equal(declaredCapabilities({ handlers: { sampling } }).tasks, undefined);
  });

  test("tasks cannot be declared by hand, and the 2026-07-28 wire carries none", () => {
    assert.throws(() => new Client(CLIENT_INFO, { use: [tasksExtension], capabilities: { tasks: { list: {} } } }), /declares tasks.*taskReceiver option/);
    const declared = declaredCapabilities({ handlers: { sampling }, roots: ["/tmp"], extensions: { "io.modelcontextprotocol/tasks": false } });
    assert.deepEqual(coreCapabilities(modernCapabilities(declared)), { sampling: {}, roots: {} });
    assert.equal((modernCapabilities(declared).extensions as Params | undefined)?.["io.modelcontextprotocol/tasks"], undefined);
  });

  test("the initialize request carries the tasks capability", async () => {
    const { client, server } = await connect({ handlers: { sampling, elicitation: { form } } });
    try {
      assert.deepEqual((server.initializeParams()?.capabilities as Params).tasks, { list: {}, cancel: {}, requests: BOTH_REQUESTS });
    } finally {
      await client.close();
    }
  });
});

describe("a task-augmented sampling request", () => {
  test("is answered with a working task at once; tasks/get, the status notification and tasks/result follow the handler", async () => {
    const held = heldSampling();
    const { client, server } = await connect({ handlers: { sampling: held.handler } });
    try {
      const task = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: { ttl: 60_000 } });
      assert.equal(task.status, "working");
      assert.equal(task.ttl, 60_000);
      assert.equal(typeof task.pollInterval, "number");
      assert.ok(!Number.isNaN(Date.parse(task.createdAt as string)) && !Number.isNaN(Date.parse(task.lastUpdatedAt as string)));
      await waitUntil(() => held.seen.length === 1, "the sampling handler ran");
      assert.equal("task" in held.seen[0]!, false, "the handler sees the request without its task field");
      assert.equal(held.seen[0]!.maxTokens, 50);

      const polled = await server.peer.request("tasks/get", { taskId: task.taskId });
      assert.equal(polled.status, "working");
      assert.equal(polled.statusMessage, "waiting for the model");
      assert.equal(polled[RELATED_TASK_META], undefined);

      // tasks/result blocks until the task is terminal (spec "Result Retrieval" 3).
      let settled = false;
      const result = server.peer.request("tasks/result", { taskId: task.taskId }).finally(() => (settled = true));
      await server.peer.request("tasks/get", { taskId: task.taskId });
      assert.equal(settled, false, "tasks/result waits for the handler");
      held.pending[0]!.resolve(ANSWER);
      const answered = await hangGuard(result, 10_000, "tasks/result");
      assert.deepEqual(answered, { ...ANSWER, _meta: { [RELATED_TASK_META]: { taskId: task.taskId } } });

      const done = await server.peer.request("tasks/get", { taskId: task.taskId });
      assert.equal(done.status, "completed");
      await waitUntil(() => statusNotes(server, task.taskId as string).length === 1, "notifications/tasks/status");
      const note = statusNotes(server, task.taskId as string)[0]!;
      assert.equal(note.status, "completed");
      assert.equal(note._meta, undefined, "no related-task metadata on the status notification");
      // A finished task answers tasks/result again, the same way.
      assert.equal((await server.peer.request("tasks/result", { taskId: task.taskId })).model, "test-model");
    } finally {
      await client.close();
    }
  });

  test("a handler's JSON-RPC error fails the task, and tasks/result returns that same error", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => Promise.reject(new SamplingRejectedError("the user said no")) } });
    try {
      const task = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
      const error = await rpcRejection(server.peer.request("tasks/result", { taskId: task.taskId }));
      assert.equal(error.rpcCode, -1);
      assert.equal(error.message, "the user said no");
      const failed = await server.peer.request("tasks/get", { taskId: task.taskId });
      assert.equal(failed.status, "failed");
      assert.equal(failed.statusMessage, "the user said no");
    } finally {
      await client.close();
    }
  });

  test("the policy still applies inside a task: a request over the rate limit fails its task with -1", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => ANSWER }, sampling: { requestsPerMinute: 1 } });
    try {
      const first = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
      assert.equal((await server.peer.request("tasks/result", { taskId: first.taskId })).model, "test-model");
      const second = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
      const error = await rpcRejection(server.peer.request("tasks/result", { taskId: second.taskId }));
      assert.equal(error.rpcCode, -1);
      assert.match(error.message, /rate limit/);
    } finally {
      await client.close();
    }
  });

  test("without task the request is answered directly, as before", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => ANSWER } });
    try {
      assert.equal((await server.peer.request("sampling/createMessage", SAMPLE)).model, "test-model");
    } finally {
      await client.close();
    }
  });

  test("with taskReceiver: false a request with task is processed normally and tasks/get does not exist", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => ANSWER }, taskReceiver: false });
    try {
      // spec 2025-11-25 basic/utilities/tasks ("Task Support and Handling" 1).
      const answer = await server.peer.request("sampling/createMessage", { ...SAMPLE, task: { ttl: 1000 } });
      assert.equal(answer.model, "test-model");
      assert.equal((await rpcRejection(server.peer.request("tasks/get", { taskId: "x" }))).rpcCode, -32601);
    } finally {
      await client.close();
    }
  });
});

describe("a task-augmented elicitation request", () => {
  test("runs the form handler; its answer is checked against the schema as without a task", async () => {
    const answers = [{ name: "Ada" }, { name: 7 }];
    const form = async () => ({ action: "accept" as const, content: answers.shift() as Record<string, string> });
    const { client, server } = await connect({ handlers: { elicitation: { form } } });
    try {
      const task = await createTask(server, "elicitation/create", { ...FORM, task: { ttl: 600_000 } });
      assert.equal(task.statusMessage, "waiting for the user's answer");
      const answered = await server.peer.request("tasks/result", { taskId: task.taskId });
      assert.deepEqual(answered.content, { name: "Ada" });
      assert.equal(answered.action, "accept");

      const bad = await createTask(server, "elicitation/create", { ...FORM, task: {} });
      const error = await rpcRejection(server.peer.request("tasks/result", { taskId: bad.taskId }));
      assert.equal(error.rpcCode, -32603);
      assert.match(error.message, /does not match the requestedSchema/);
    } finally {
      await client.close();
    }
  });

  test("an undeclared mode fails the task with -32602, as it would fail the request", async () => {
    const { client, server } = await connect({ handlers: { elicitation: { form: async () => ({ action: "decline" }) } } });
    try {
      const task = await createTask(server, "elicitation/create", { mode: "url", url: "https://example.com", elicitationId: "e1", message: "go", task: {} });
      assert.equal((await rpcRejection(server.peer.request("tasks/result", { taskId: task.taskId }))).rpcCode, -32602);
    } finally {
      await client.close();
    }
  });
});

describe("tasks/cancel, tasks/list and bad requests", () => {
  test("tasks/cancel moves the task to cancelled before it answers and aborts the handler; it stays cancelled", async () => {
    const held = heldSampling();
    const { client, server } = await connect({ handlers: { sampling: held.handler } });
    try {
      const task = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
      await waitUntil(() => held.signals.length === 1, "the sampling handler ran");
      const cancelled = await server.peer.request("tasks/cancel", { taskId: task.taskId });
      assert.equal(cancelled.status, "cancelled");
      assert.equal(cancelled.taskId, task.taskId);
      assert.equal(held.signals[0]!.aborted, true, "the handler was told to stop");
      held.pending[0]!.resolve(ANSWER); // finishing afterwards changes nothing
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal((await server.peer.request("tasks/get", { taskId: task.taskId })).status, "cancelled");

      const again = await rpcRejection(server.peer.request("tasks/cancel", { taskId: task.taskId }));
      assert.equal(again.rpcCode, -32602);
      assert.match(again.message, /already in terminal status "cancelled"/);
      const result = await rpcRejection(server.peer.request("tasks/result", { taskId: task.taskId }));
      assert.equal(result.rpcCode, -32602);
      assert.match(result.message, /was cancelled .* it has no result/);
      assert.deepEqual(statusNotes(server, task.taskId as string).map((note) => note.status), ["cancelled"]);
    } finally {
      await client.close();
    }
  });

  test("an unknown or missing taskId is -32602 on every task method", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => ANSWER } });
    try {
      for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
        const unknown = await rpcRejection(server.peer.request(method, { taskId: "no-such-task" }));
        assert.equal(unknown.rpcCode, -32602, method);
        assert.match(unknown.message, /no task "no-such-task"/);
        assert.equal((await rpcRejection(server.peer.request(method, {}))).rpcCode, -32602, method);
      }
    } finally {
      await client.close();
    }
  });

  test("a malformed task field or ttl is -32602 and creates nothing", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => ANSWER } });
    try {
      for (const task of [5, "soon", { ttl: -1 }, { ttl: "long" }]) {
        const error = await rpcRejection(server.peer.request("sampling/createMessage", { ...SAMPLE, task }));
        assert.equal(error.rpcCode, -32602, JSON.stringify(task));
      }
      assert.deepEqual((await server.peer.request("tasks/list", {})).tasks, []);
    } finally {
      await client.close();
    }
  });

  test("tasks/list pages through every task in creation order with an opaque cursor; a bad cursor is -32602", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => ANSWER } });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 60; i++) ids.push((await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} })).taskId as string);
      const first = await server.peer.request("tasks/list", {});
      assert.equal(typeof first.nextCursor, "string");
      const second = await server.peer.request("tasks/list", { cursor: first.nextCursor });
      assert.equal(second.nextCursor, undefined);
      const listed = [...(first.tasks as Params[]), ...(second.tasks as Params[])].map((task) => task.taskId);
      assert.deepEqual(listed, ids);
      assert.equal((await rpcRejection(server.peer.request("tasks/list", { cursor: "not-ours" }))).rpcCode, -32602);
    } finally {
      await client.close();
    }
  });

  test("a ttl that passes deletes the task and stops its handler", async () => {
    const held = heldSampling();
    const { client, server } = await connect({ handlers: { sampling: held.handler } });
    try {
      const task = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: { ttl: 30 } });
      assert.equal(task.ttl, 30, "a shorter ttl than the ceiling is granted as asked");
      await waitUntil(() => held.signals.length === 1, "the sampling handler ran");
      let gone: number | undefined;
      await waitUntil(() => {
        void server.peer.request("tasks/get", { taskId: task.taskId }).catch((error) => (gone = error.rpcCode));
        return gone !== undefined;
      }, "the task was deleted after its ttl");
      assert.equal(gone, -32602);
      assert.equal(held.signals[0]!.aborted, true);
    } finally {
      await client.close();
    }
  });

  test("a ttl above maxTtlMs is lowered to it", async () => {
    const { client, server } = await connect({ handlers: { sampling: async () => ANSWER }, taskReceiver: { maxTtlMs: 5000, pollIntervalMs: 250 } });
    try {
      const task = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: { ttl: 3_600_000 } });
      assert.equal(task.ttl, 5000);
      assert.equal(task.pollInterval, 250);
      assert.equal((await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} })).ttl, 5000, "no ttl asked: the ceiling");
    } finally {
      await client.close();
    }
  });

  test("at maxTasks the oldest finished task makes room; when all still run, the request is refused naming the limit", async () => {
    const held = heldSampling();
    const { client, server } = await connect({ handlers: { sampling: held.handler }, taskReceiver: { maxTasks: 2 } });
    try {
      const first = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
      await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
      const refused = await rpcRejection(server.peer.request("sampling/createMessage", { ...SAMPLE, task: {} }));
      assert.equal(refused.rpcCode, -32603);
      assert.match(refused.message, /already runs 2 tasks for the server, its limit; wait for one to finish or cancel one/);

      await waitUntil(() => held.pending.length === 2, "both handlers ran");
      held.pending[0]!.resolve(ANSWER);
      await server.peer.request("tasks/result", { taskId: first.taskId });
      const third = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
      const listed = ((await server.peer.request("tasks/list", {})).tasks as Params[]).map((task) => task.taskId);
      assert.equal(listed.length, 2);
      assert.ok(!listed.includes(first.taskId) && listed.includes(third.taskId));
    } finally {
      await client.close();
    }
  });

  test("closing the client stops a running task's handler and answers a blocked tasks/result with nothing", async () => {
    const held = heldSampling();
    const { client, server } = await connect({ handlers: { sampling: held.handler } });
    const task = await createTask(server, "sampling/createMessage", { ...SAMPLE, task: {} });
    await waitUntil(() => held.signals.length === 1, "the sampling handler ran");
    const blocked = server.peer.request("tasks/result", { taskId: task.taskId }, { timeoutMs: 20_000 });
    blocked.catch(() => {});
    await server.peer.request("tasks/get", { taskId: task.taskId });
    await hangGuard(client.close(), 10_000, "client.close()");
    assert.equal(held.signals[0]!.aborted, true);
    // The client's end is closed: the server's pending tasks/result fails with the connection.
    await assert.rejects(hangGuard(blocked, 10_000, "the blocked tasks/result"));
  });
});
