// `mcpwire task get|wait|cancel|list` across commands — spec 2025-11-25 basic/utilities/tasks,
// the 2026-07-28 tasks extension: `mcpwire call --detach` starts a task on the hand-written tasks
// fixture over Streamable HTTP (its tasks outlive a session), later commands follow it by id.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { mcpwire, root, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { compiledFixture } from "../support/compiled-fixtures.ts";
import { hangGuard } from "../support/hang-guard.ts";

const scratch = scratchDir("mcpwire-task-verb-");
let child: ChildProcess | undefined;
let config = "";

before(async () => {
  child = spawn("node", [compiledFixture("tasks-server"), "--http", "--port", "0"], {
    cwd: root,
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
  config = await writeConfig(scratch.path, "tasks.yaml", ["mcp_servers:", "  tasks:", `    url: http://127.0.0.1:${port}/mcp`]);
});

after(async () => {
  if (child !== undefined && child.exitCode === null) {
    const gone = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGKILL");
    await gone;
  }
});

async function detached(args: string): Promise<string> {
  const { code, stdout, stderr } = await mcpwire(["call", "mcp_tasks_slow_job", args, "--detach", "--config", config]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^[\w-]+\n$/);
  assert.doesNotMatch(stderr, /runs over stdio/, "an HTTP server's task outlives the command");
  return stdout.trim();
}

describe("mcpwire task", () => {
  test("call --detach, then task get shows it working and task wait prints its result with the status lines", async () => {
    const id = await detached('{"steps":3}');
    const got = await mcpwire(["task", "get", "tasks", id, "--config", config]);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, new RegExp(`^task ${id}: working`));
    assert.match(got.stdout, /^ {2}ttl {11}\d/m);
    const json = await mcpwire(["task", "get", "tasks", id, "--json", "--config", config]);
    assert.equal(JSON.parse(json.stdout).taskId, id);

    const waited = await mcpwire(["task", "wait", "tasks", id, "--config", config]);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, /^slow_job done after 3 polls$/m);
    assert.match(waited.stderr, new RegExp(`^task ${id}: completed — done$`, "m"));
  });

  test("task cancel cancels a running task; cancelling it again is refused by the server", async () => {
    const id = await detached('{"steps":50}');
    const cancelled = await mcpwire(["task", "cancel", "tasks", id, "--config", config]);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.match(cancelled.stdout, new RegExp(`^task ${id} cancelled: now cancelled$`, "m"));
    const waited = await mcpwire(["task", "wait", "tasks", id, "--config", config]);
    assert.equal(waited.code, 1, waited.stderr);
    assert.match(waited.stderr, /the task was cancelled/);
  });

  test("an unknown task id exits 3 saying the server does not know it", async () => {
    const { code, stderr } = await mcpwire(["task", "get", "tasks", "no-such-task", "--config", config]);
    assert.equal(code, 3, stderr);
    assert.match(stderr, /mcpwire task get: server "tasks": task "no-such-task": the server does not know this task/);
  });

  test("task list on the 2026-07-28 wire says there is no tasks/list (exit 2)", async () => {
    const { code, stderr } = await mcpwire(["task", "list", "tasks", "--config", config]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /the tasks extension of the 2026-07-28 wire has no tasks\/list/);
  });

  test("usage errors: no action, an unknown server, a missing id", async () => {
    const none = await mcpwire(["task", "--config", config]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /task needs one of get, wait, cancel, list/);
    const missing = await mcpwire(["task", "get", "tasks", "--config", config]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /task get needs a task id/);
    const unknown = await mcpwire(["task", "get", "elsewhere", "x", "--config", config]);
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /no server "elsewhere" in the config \(it has "tasks"\)/);
  });

  test("task list on a 2025-11-25 server lists this session's tasks (none for a new command)", async () => {
    const { code, stdout, stderr } = await mcpwire(["task", "list", "everything", "--config", "examples/mcpwire.yaml"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /lists no tasks/);
  });
});
