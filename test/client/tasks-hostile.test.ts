// Bad input around tasks, against test/fixtures/tasks-hostile-server.mjs: each case ends in a
// clear error or a survived problem, and nothing hangs — spec 2025-11-25 basic/utilities/tasks,
// the 2026-07-28 io.modelcontextprotocol/tasks extension.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tasksOf } from "../../src/client/tasks/tasks-extension.ts";
import {
  CapabilityError,
  Client,
  type ClientOptions,
  MissingClientCapabilityError,
  ProtocolError,
  StdioTransport,
  StreamableHttpTransport,
  TaskError,
  tasksExtension,
} from "../../src/mod.ts";
import { textOf } from "../support/everything-http.ts";
import { fixturePath, startPortFixture } from "../support/fixture-process.ts";
import { guardedRejection, hangGuard } from "../support/hang-guard.ts";

/** `error` is a TaskError with this code, about this task. */
function assertTaskError(error: unknown, code: TaskError["code"], taskId: string): asserts error is TaskError {
  assert.ok(error instanceof TaskError, String(error));
  assert.equal(error.code, code);
  assert.equal(error.taskId, taskId);
}

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const GUARD_MS = 15_000;
/** The least wait a task status notification leaves before the next tasks/get (src/client/tasks/tasks.ts NOTIFIED_POLL_FLOOR_MS). */
const NOTIFIED_POLL_FLOOR_MS = 100;

/** A connected client of the hostile fixture (started with `args`), closed after `body`. */
async function withHostile(args: string[], body: (client: Client, problems: string[]) => Promise<void>, options: ClientOptions = {}): Promise<void> {
  const legacy = args.includes("legacy");
  const client = new Client(CLIENT_INFO, {
    use: [tasksExtension],
    name: "hostile",
    protocol: legacy ? "legacy" : "modern",
    requestTimeoutMs: 5_000,
    handlers: { elicitation: { form: async () => ({ action: "accept", content: { answer: "yes" } }) } },
    ...options,
  });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  await client.connect(new StdioTransport({ command: "node", args: [fixturePath("tasks-hostile-server.mjs"), ...args] }));
  try {
    await body(client, problems);
  } finally {
    await client.close();
  }
}

async function seen(client: Client): Promise<{ cancels: string[]; updates: { keys: string[] }[]; gets: number; ttls: (number | null)[] }> {
  return (await client.callTool("seen")).structuredContent as never;
}

/**
 * Calls notify_storm (a task that works for 1.5 s and sends a status notification ahead of
 * every tasks/get answer, suggesting a 1 s interval) and checks the polls stayed bounded: a
 * notification shortens the wait to no less than NOTIFIED_POLL_FLOOR_MS since the last poll,
 * so the polls are at most one per floor over the call (about 15 here; thousands unbounded).
 */
async function assertStormBounded(client: Client): Promise<void> {
  const began = Date.now();
  const result = await hangGuard(client.callTool("notify_storm"), GUARD_MS, "notify_storm");
  const elapsed = Date.now() - began;
  assert.equal(textOf(result.content), "storm over");
  const { gets } = await seen(client);
  assert.ok(gets <= Math.floor(elapsed / NOTIFIED_POLL_FLOOR_MS) + 3, `${gets} tasks/get in ${elapsed} ms`);
  // The notifications still shortened the 1 s interval the server suggested.
  assert.ok(gets > 2, `${gets} tasks/get`);
}

describe("bad input on the 2026-07-28 wire", () => {
  test("a task result for tools/list is a ProtocolError task-not-allowed", async () => {
    await withHostile(["--task-for-list"], async (client) => {
      const error = await guardedRejection(client.listTools({ fresh: true }), "tools/list answered with a task");
      assert.ok(error instanceof ProtocolError, String(error));
      assert.equal(error.code, "task-not-allowed");
      assert.match(error.message, /tools\/list/);
    });
  });

  test("a taskId that tasks/get then calls unknown is a TaskError unknown-task naming the id", async () => {
    await withHostile([], async (client) => {
      const error = await guardedRejection(client.callTool("vanishing"), "a vanishing task");
      assertTaskError(error, "unknown-task", "task-1-vanishing");
      assert.match(error.message, /task-1-vanishing/);
    });
  });

  test("a status going back from a terminal state is a ProtocolError bad-task", async () => {
    await withHostile([], async (client) => {
      const task = await tasksOf(client).startToolTask("regress");
      assert.equal((await task.status()).status, "completed");
      const error = await guardedRejection(task.status(), "a regressing task");
      assert.ok(error instanceof ProtocolError, String(error));
      assert.equal(error.code, "bad-task");
      assert.match(error.message, /from "completed" back to "working"/);
    });
  });

  for (const [tool, shown] of [["poll_zero", "0"], ["poll_negative", "-5"], ["poll_hour", "3600000"]] as const) {
    test(`pollIntervalMs ${shown} is clamped with a problem event, and the task still completes`, async () => {
      await withHostile([], async (client, problems) => {
        const result = await hangGuard(client.callTool(tool, {}, { maxPollIntervalMs: 300 }), GUARD_MS, tool);
        assert.equal(textOf(result.content), `${tool} done`);
        const clamped = problems.filter((message) => message.includes(`polling every ${shown} ms`));
        assert.equal(clamped.length, 1, problems.join("\n"));
      });
    });
  }

  test("a task that never ends: the caller's timeout cancels it", async () => {
    await withHostile([], async (client) => {
      const error = await guardedRejection(client.callTool("forever", {}, { timeoutMs: 600 }), "a task that never ends");
      assert.ok(error instanceof TaskError, String(error));
      assert.equal(error.code, "timeout");
      assert.match(error.message, /tasks\/cancel sent/);
      assert.deepEqual((await seen(client)).cancels, [error.taskId]);
    });
  });

  test("input_required keys that repeat across polls are answered once each", async () => {
    const asked: string[] = [];
    await withHostile([], async (client) => {
      const result = await hangGuard(client.callTool("repeat_keys"), GUARD_MS, "repeat_keys");
      assert.equal(textOf(result.content), "answers: k1,k2");
      const keys = (await seen(client)).updates.flatMap((update) => update.keys);
      assert.deepEqual(keys.sort(), ["k1", "k2"]);
      assert.deepEqual(asked.sort(), ["first?", "second?"]);
    }, {
      handlers: {
        elicitation: {
          form: async (request) => {
            asked.push(String(request.message));
            return { action: "accept", content: { answer: "yes" } };
          },
        },
      },
    });
  });

  test("an input request the handler cannot answer fails the call with a ProtocolError and cancels the task", async () => {
    await withHostile([], async (client) => {
      const error = await guardedRejection(client.callTool("repeat_keys"), "an unanswerable input request");
      assert.ok(error instanceof ProtocolError, String(error));
      assert.equal(error.code, "input-failed");
      assert.match(error.message, /"k1"/);
      assert.deepEqual((await seen(client)).cancels, ["task-1-repeat_keys"]);
    }, {
      handlers: {
        elicitation: {
          form: () => {
            throw new Error("no human at the keyboard");
          },
        },
      },
    });
  });

  test("a stdio server that dies while a task runs: the task is reported lost with its id, not retried", async () => {
    await withHostile([], async (client) => {
      const error = await guardedRejection(client.callTool("die"), "a task whose server died");
      assertTaskError(error, "lost", "task-1-die");
      assert.match(error.message, /resumeTask\("task-1-die"\)/);
      assert.equal(client.state, "failed");
    });
  });

  test("-32021 naming the tasks extension is a MissingClientCapabilityError that says so", async () => {
    await withHostile([], async (client) => {
      const error = await guardedRejection(client.callTool("needs_ext"), "a call needing the extension");
      assert.ok(error instanceof MissingClientCapabilityError, String(error));
      assert.equal(error.rpcCode, -32021);
      assert.match(error.message, /server "hostile": tools\/call "needs_ext".*io\.modelcontextprotocol\/tasks/);
    });
  });

  test("a notifications/tasks ahead of every tasks/get answer does not make a poll storm", async () => {
    await withHostile([], (client) => assertStormBounded(client));
  });

  test("over HTTP a dropped stream while polling: polling goes on to the result", async () => {
    const server = await startPortFixture("tasks-hostile-server.mjs", { args: ["--http"] });
    const client = new Client(CLIENT_INFO, { use: [tasksExtension], name: "hostile-http", protocol: "modern", requestTimeoutMs: 5_000 });
    const problems: string[] = [];
    client.on("problem", ({ message }) => problems.push(message));
    try {
      await client.connect(new StreamableHttpTransport({ url: `${server.origin}/mcp` }));
      const result = await hangGuard(client.callTool("drop_stream"), GUARD_MS, "drop_stream");
      assert.equal(textOf(result.content), "survived a dropped stream");
      assert.ok(problems.some((message) => /stream was lost|tasks\/get failed/.test(message)), problems.join("\n"));
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe("bad input on the 2025-11-25 wire", () => {
  test("a tasks/result that never answers: the call's timeout ends it, naming tasks/result", async () => {
    await withHostile(["--era", "legacy"], async (client) => {
      const error = await guardedRejection(client.callTool("stuck_result", {}, { timeoutMs: 800 }), "a stuck tasks/result");
      assert.ok(error instanceof TaskError, String(error));
      assert.equal(error.code, "timeout");
      assert.match(error.message, /tasks\/result/);
      // The task had completed: nothing left to cancel.
      assert.deepEqual((await seen(client)).cancels, []);
    });
  });

  test("a required task tool on a server without tasks.requests.tools.call is a CapabilityError naming server and tool", async () => {
    await withHostile(["--era", "legacy", "--no-task-capability"], async (client) => {
      await client.listTools();
      const error = await guardedRejection(client.callTool("required_tool"), "a required task without the capability");
      assert.ok(error instanceof CapabilityError, String(error));
      assert.equal(error.capability, "tasks.requests.tools.call");
      assert.match(error.message, /server "hostile".*tool "required_tool"/);
      assert.equal((await seen(client)).gets, 0);
    });
  });

  test("an optional tool runs as a task only when the call asks, with the ttl asked for", async () => {
    await withHostile(["--era", "legacy"], async (client) => {
      await client.listTools();
      assert.equal(textOf((await client.callTool("optional_tool")).content), "optional_tool answered directly");
      assert.equal((await seen(client)).gets, 0);
      const result = await client.callTool("optional_tool", {}, { task: { ttlMs: 4321 } });
      assert.equal(textOf(result.content), "optional_tool ran as a task");
      assert.deepEqual((await seen(client)).ttls, [4321]);
    });
  });

  test("notifications/tasks/status wakes the poller before the suggested pollInterval", async () => {
    await withHostile(["--era", "legacy"], async (client) => {
      // The fixture suggests polling every 60 s; its notification ends the wait long before.
      const result = await hangGuard(client.callTool("notify_legacy", {}, { maxPollIntervalMs: 60_000 }), GUARD_MS, "notify_legacy");
      assert.equal(textOf(result.content), "notified");
    });
  });

  test("a notifications/tasks/status ahead of every tasks/get answer does not make a poll storm", async () => {
    await withHostile(["--era", "legacy"], (client) => assertStormBounded(client));
  });

  test("listTasks without tasks.list is a CapabilityError; cancel without tasks.cancel a TaskError unsupported", async () => {
    await withHostile(["--era", "legacy", "--no-task-capability"], async (client) => {
      const error = await guardedRejection(tasksOf(client).listTasks(), "listTasks");
      assert.ok(error instanceof CapabilityError);
      const cancel = await guardedRejection(tasksOf(client).resumeTask("task-9").cancel(), "cancel");
      assert.ok(cancel instanceof TaskError);
      assert.equal(cancel.code, "unsupported");
    });
  });
});
