// The tasks extension is code a Client is given (`use: [tasksExtension]`, issue 28): a client
// without it declares no tasks (neither spec 2025-11-25's `tasks` capability nor the 2026-07-28
// io.modelcontextprotocol/tasks extension), refuses a tool that requires a task before sending
// anything, and its task methods say what to import; a client with it declares and runs tasks.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tasksOf } from "../../src/client/tasks/tasks-extension.ts";
import { Client, EXTENSIONS, TaskError, tasksExtension } from "../../src/mod.ts";
import { coded } from "../support/coded-error.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { inProcessServer, requestsFor } from "../support/in-process-server.ts";
import { rejection } from "../support/rejection.ts";

const INFO = { name: "opt-in", version: "1.0.0" };
const sampling = async () => ({ role: "assistant" as const, content: { type: "text" as const, text: "ok" }, model: "m" });

/** A handshake-era server with two tools: `slow` requires a task, `plain` does not; it answers tools/call and tasks/list directly. */
function server() {
  return inProcessServer({ tools: {}, tasks: { list: {}, requests: { tools: { call: {} } } } }, {
    "tools/list": () => ({
      tools: [
        { name: "slow", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
        { name: "plain", inputSchema: { type: "object" } },
      ],
    }),
    "tools/call": (params) => ({ content: [{ type: "text", text: `called ${String(params?.name)}` }] }),
    "tasks/list": () => ({ tasks: [] }),
  });
}

describe("a Client without the tasks extension", () => {
  test("declares no tasks: no `tasks` capability, no tasks extension, though it has a sampling handler", () => {
    const client = new Client(INFO, { handlers: { sampling } });
    assert.equal(client.capabilities.tasks, undefined);
    assert.equal(client.capabilities.extensions?.[EXTENSIONS.tasks], undefined);
    // Nor any other extension: a client declares the extensions it was given (ClientOptions.use).
    assert.equal(client.capabilities.extensions, undefined);
  });

  test("refuses to declare the tasks extension by `true` alone, saying what to import", () => {
    assert.throws(
      () => new Client(INFO, { extensions: { [EXTENSIONS.tasks]: true } }),
      (error: unknown) => error instanceof TypeError && /use: \[tasksExtension\]/.test(error.message) && /import \{ tasksExtension \}/.test(error.message),
    );
  });

  test("refuses a `use` entry that is not an extension's code", () => {
    assert.throws(
      () => new Client(INFO, { use: [{ id: "x/y" } as never] }),
      /`use` takes extensions \(tasksExtension, skillsExtension, appsExtension, or a ClientExtension\)/,
    );
  });

  test("a tool that requires a task fails at once with TaskError unsupported, and no tools/call is sent; a plain tool is called", async () => {
    const far = server();
    const client = new Client(INFO, { protocol: "legacy", requestTimeoutMs: 10_000 });
    try {
      await hangGuard(client.connect(far.clientEnd), 15_000, "connect");
      await client.listTools();
      const error = coded(await rejection(client.callTool("slow")), TaskError, "unsupported");
      assert.match(error.message, /tools\/call "slow".*requires a task.*use: \[tasksExtension\]/);
      assert.equal(requestsFor(far, "tools/call").length, 0);
      assert.deepEqual((await client.callTool("plain")).content, [{ type: "text", text: "called plain" }]);
      // Asking for a task on a plain call is refused too, before anything is sent.
      coded(await rejection(client.callTool("plain", {}, { task: true })), TaskError, "unsupported");
      assert.equal(requestsFor(far, "tools/call").length, 1);
    } finally {
      await client.close();
    }
  });

  test("tasksOf() and a task option say the tasks extension is missing and how to install it", async () => {
    const far = server();
    const client = new Client(INFO, { protocol: "legacy", requestTimeoutMs: 10_000 });
    try {
      await hangGuard(client.connect(far.clientEnd), 15_000, "connect");
      assert.match(
        coded(await rejection(client.callTool("slow", {}, { task: true })), TaskError, "unsupported").message,
        /needs the tasks extension.*use: \[tasksExtension\]/,
      );
      assert.throws(
        () => tasksOf(client),
        (error: unknown) => error instanceof TaskError && error.code === "unsupported" && /use: \[tasksExtension\]/.test(error.message),
      );
      assert.equal(requestsFor(far, "tasks/list").length, 0);
    } finally {
      await client.close();
    }
  });
});

describe("a Client given the tasks extension", () => {
  test("declares the tasks capability its handlers can serve and the tasks extension", () => {
    const client = new Client(INFO, { handlers: { sampling }, use: [tasksExtension] });
    assert.deepEqual(client.capabilities.tasks, { list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } });
    assert.deepEqual(client.capabilities.extensions?.[EXTENSIONS.tasks], {});
    // …and may still turn the declaration off.
    assert.equal(new Client(INFO, { use: [tasksExtension], extensions: { [EXTENSIONS.tasks]: false } }).capabilities.extensions?.[EXTENSIONS.tasks], undefined);
  });

  test("calls a tool that requires a task as a task, and lists tasks", async () => {
    const far = server();
    const client = new Client(INFO, { protocol: "legacy", requestTimeoutMs: 10_000, use: [tasksExtension] });
    try {
      await hangGuard(client.connect(far.clientEnd), 15_000, "connect");
      await client.listTools();
      // The server answers directly (no CreateTaskResult): the call still went out task-augmented.
      await client.callTool("slow").catch(() => undefined);
      const [sent] = requestsFor(far, "tools/call");
      assert.ok(sent?.task !== undefined, JSON.stringify(sent));
      assert.deepEqual(await tasksOf(client).listTasks(), []);
    } finally {
      await client.close();
    }
  });
});
