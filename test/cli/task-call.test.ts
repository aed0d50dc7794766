// `mcpwire call` on a tool that runs as a task — spec 2025-11-25 basic/utilities/tasks:
// server-everything's simulate-research-query (execution.taskSupport "required") prints its
// result with a status line per change; Ctrl-C cancels the task; --detach prints the task id;
// the per-server `tasks` key. Real child processes of the runtime under test.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { before, describe, test } from "node:test";
import { everythingYaml, mcpwire, root, runtimeArgs, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { waitUntil } from "../support/polling.ts";

const RESEARCH = ["mcp_everything_simulate-research-query", '{"topic":"mcp"}'];
const scratch = scratchDir("mcpwire-task-call-");
let never = "";
let bad = "";

before(async () => {
  never = await writeConfig(scratch.path, "never.yaml", ["mcp_servers:", ...everythingYaml(), "    tasks: never"]);
  bad = await writeConfig(scratch.path, "bad.yaml", ["mcp_servers:", ...everythingYaml(), "    tasks: sometimes"]);
});

describe("mcpwire call on a task tool", () => {
  test("the issue's check: simulate-research-query prints the research result, its status lines on stderr", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", ...RESEARCH, "--config", "examples/mcpwire.yaml"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^# Research Report: mcp$/m);
    assert.match(stdout, /Stage 4: Generating report ✓/);
    // Off a terminal: a line per status change, like progress.
    assert.match(stderr, /^task [\w-]+: working — Gathering sources\.\.\.$/m);
    assert.match(stderr, /^task [\w-]+: working — Generating report\.\.\.$/m);
    assert.match(stderr, /^task [\w-]+: completed/m);
    assert.doesNotMatch(stderr, /requires task augmentation/);
  });

  test("an input_required task asks through --elicit prompt and goes on with the answer", async () => {
    const { code, stdout, stderr } = await mcpwire(
      ["call", RESEARCH[0]!, '{"topic":"python","ambiguous":true}', "--elicit", "prompt", "--config", "examples/mcpwire.yaml"],
      { input: "1\n\n" },
    );
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^task [\w-]+: input_required — Found multiple interpretations for "python"/m);
    assert.match(stderr, /server "everything" asks: The research query "python" could have multiple interpretations/);
    assert.match(stderr, /^task [\w-]+: working — Continuing with interpretation: "programming"\.\.\.$/m);
    assert.match(stdout, /^# Research Report: python \(programming\)$/m);
  });

  test("Ctrl-C cancels the running task (tasks/cancel) and exits 130", async () => {
    const child = spawn(process.execPath, [...runtimeArgs, "call", ...RESEARCH, "--config", "examples/mcpwire.yaml"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
    child.stdout.on("data", () => {});
    const exited = new Promise<string>((resolve) => child.on("close", (code, signal) => resolve(String(code ?? signal))));
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      await waitUntil(() => /task [\w-]+: working/.test(stderr), "the first status line", 45_000);
      child.kill("SIGINT");
      // 130; Deno's node:child_process reports an exit of 128 + 2 as the signal itself.
      assert.match(await exited, /^(130|SIGINT)$/, stderr);
      assert.match(
        stderr,
        /the call was cancelled: interrupted \(Ctrl-C\) \(task "[\w-]+" \(tool "simulate-research-query"\): aborted by the caller; tasks\/cancel sent/,
      );
      assert.doesNotMatch(stderr, /^task [\w-]+: completed/m);
    } finally {
      clearTimeout(killer);
    }
  });

  test("--detach prints the task id and exits at once, warning that a stdio server ends with the command", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", ...RESEARCH, "--detach", "--config", "examples/mcpwire.yaml"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^[\w-]+\n$/);
    assert.match(stderr, new RegExp(`task ${stdout.trim()} started on server "everything"; follow it with: mcpwire task wait everything ${stdout.trim()}`));
    assert.match(stderr, /runs over stdio as a child of this command, so the task ends when it exits/);
  });

  test("--detach on a tool the server answers at once prints its result", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_echo", '{"message":"hi"}', "--detach", "--config", "examples/mcpwire.yaml"]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "Echo: hi\n");
    assert.match(stderr, /answered tool "echo" at once, without a task/);
  });

  test("tasks: never leaves the required-task tool out, saying why", async () => {
    const { code, stderr } = await mcpwire(["call", ...RESEARCH, "--config", never]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /tool "simulate-research-query" is skipped: it must run as a task .* this server has tasks: never; set tasks: auto to offer it/);
    assert.match(stderr, /no tool "mcp_everything_simulate-research-query" is registered/);
  });

  test("an unknown tasks value is a config error naming the allowed values", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_echo", '{"message":"hi"}', "--config", bad]);
    assert.notEqual(code, 0);
    assert.match(stderr, /tasks.*"auto" \(tools that require a task run as one\), "always" \(tools that allow a task run as one\) or "never"/);
  });
});
