// Hooks (mcphost-style PreToolUse, PostToolUse, UserPromptSubmit, Stop) as real shell
// commands: JSON on stdin, exit 2 blocks with stderr as the reason, other exits are reported,
// a timeout kills the process group; with the Runner over server-everything.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { HookConfigError, type HookProblem, Hooks } from "../../src/agent/hooks.ts";
import { Runner, RunnerError, type RunnerEvent } from "../../src/agent/runner.ts";
import { everythingRegistry } from "../support/everything.ts";
import { rejection } from "../support/rejection.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpwire-hooks-"));
const file = (name: string) => join(dir, name);
const quoted = (path: string) => `'${path}'`;

/** Whether a process is alive and not a zombie (Linux /proc; elsewhere: whether it exists). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\S+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

describe("hooks around the Runner's tool calls", () => {
  const { registry } = everythingRegistry();

  test("a PreToolUse hook exiting 2 blocks the matching call with its stderr as the reason; another tool runs", async () => {
    const hooks = new Hooks({
      PreToolUse: [{ matcher: "get-sum$", command: `cat > ${quoted(file("pre.json"))}; echo "sums are not allowed today" >&2; exit 2` }],
    });
    const provider = new ScriptedProvider([
      callTools(
        { id: "s", name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } },
        { id: "e", name: "mcp_everything_echo", arguments: { message: "hi" } },
      ),
      answer("ok"),
    ]);
    const events: RunnerEvent[] = [];
    const runner = new Runner({ provider, registry, hooks, onEvent: (event) => events.push(event) });
    await runner.run("x");
    const [sum, echo] = toolResults(provider.requests[1]!);
    assert.match(JSON.parse(sum!).error, /a PreToolUse hook blocked this call to "mcp_everything_get-sum": sums are not allowed today/);
    assert.match(echo!, /Echo: hi/);
    const blocked = events.filter((event) => event.type === "hook-blocked");
    assert.equal(blocked.length, 1);
    assert.ok(blocked[0]!.type === "hook-blocked" && blocked[0]!.event === "PreToolUse" && blocked[0]!.call?.id === "s");
    assert.ok(!events.some((event) => event.type === "tool-call" && event.call.id === "s"), "the blocked call must not run");
    const input = JSON.parse(readFileSync(file("pre.json"), "utf8")) as Record<string, unknown>;
    assert.equal(input.hook_event_name, "PreToolUse");
    assert.equal(input.tool_name, "mcp_everything_get-sum");
    assert.deepEqual(input.tool_input, { a: 2, b: 40 });
  });

  test("a PostToolUse hook gets the tool's response on stdin", async () => {
    const hooks = new Hooks({ PostToolUse: [{ command: `cat > ${quoted(file("post.json"))}` }] });
    const provider = new ScriptedProvider([callTools({ name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } }), answer("ok")]);
    await new Runner({ provider, registry, hooks }).run("x");
    const input = JSON.parse(readFileSync(file("post.json"), "utf8")) as Record<string, unknown>;
    assert.equal(input.hook_event_name, "PostToolUse");
    assert.match(String(input.tool_response), /The sum of 2 and 40 is 42/);
  });

  test("a UserPromptSubmit hook exiting 2 stops the run before the model is asked", async () => {
    const hooks = new Hooks({ UserPromptSubmit: [{ command: `grep -q secret && { echo "no secrets in prompts" >&2; exit 2; }; exit 0` }] });
    const provider = new ScriptedProvider([answer("never")]);
    const runner = new Runner({ provider, registry, hooks });
    const error = await rejection(runner.run("tell me the secret"));
    assert.ok(error instanceof RunnerError && error.code === "blocked");
    assert.match(error.message, /UserPromptSubmit hook: no secrets in prompts/);
    assert.equal(provider.requests.length, 0);
    assert.deepEqual(runner.history, []);
  });

  test("a Stop hook exiting 2 sends the model on with the reason; its next answer ends the run", async () => {
    const marker = file("stopped-once");
    const hooks = new Hooks({
      Stop: [{ command: `test -e ${quoted(marker)} && exit 0; touch ${quoted(marker)}; echo "say which tool you used" >&2; exit 2` }],
    });
    const provider = new ScriptedProvider([answer("42"), answer("42, from get-sum")]);
    const runner = new Runner({ provider, registry, hooks });
    assert.equal(await runner.run("x"), "42, from get-sum");
    const last = provider.requests[1]!.messages.at(-1)!;
    assert.ok(last.role === "user" && /say which tool you used/.test(last.content));
  });
});

describe("Hooks", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("another non-zero exit is reported and does not block", async () => {
    const problems: HookProblem[] = [];
    const hooks = new Hooks({ PreToolUse: [{ command: "echo oops >&2; exit 3" }] }, { onProblem: (problem) => problems.push(problem) });
    const outcome = await hooks.run("PreToolUse", { toolName: "t", toolInput: {} });
    assert.equal(outcome.blocked, false);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, /PreToolUse hook "echo oops >&2; exit 3" exited with code 3: oops; it did not block/);
  });

  test("the matcher is a regular expression on the tool name; non-matching hooks do not run", async () => {
    const hooks = new Hooks({ PreToolUse: [{ matcher: "^mcp_memory_", command: "exit 2" }] });
    assert.equal((await hooks.run("PreToolUse", { toolName: "mcp_everything_echo", toolInput: {} })).blocked, false);
    assert.equal((await hooks.run("PreToolUse", { toolName: "mcp_memory_read_graph", toolInput: {} })).blocked, true);
  });

  test("a hook over its timeout is killed with its whole process group, reported, and does not block", async () => {
    const pidFile = file("grandchild.pid");
    const problems: HookProblem[] = [];
    const hooks = new Hooks(
      { PreToolUse: [{ command: `sleep 30 & echo $! > ${quoted(pidFile)}; wait`, timeoutMs: 300 }] },
      { onProblem: (problem) => problems.push(problem) },
    );
    const outcome = await hooks.run("PreToolUse", { toolName: "t", toolInput: {} });
    assert.equal(outcome.blocked, false);
    assert.match(problems[0]?.message ?? "", /did not finish within 300 ms and was killed/);
    assert.ok(existsSync(pidFile));
    const pid = Number(readFileSync(pidFile, "utf8"));
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(alive(pid), false, "the hook's background child must be killed with its group");
  });

  test("a matcher that is not a regular expression is refused when the hooks are made", () => {
    assert.throws(() => new Hooks({ PostToolUse: [{ matcher: "(", command: "true" }] }), HookConfigError);
    assert.throws(() => new Hooks({ Stop: [{ command: " " }] }), /hooks.Stop\[0\]: "command" must be a non-empty/);
  });

  test("a command that does not exist is reported (sh says 127), never thrown", async () => {
    const problems: HookProblem[] = [];
    const hooks = new Hooks({ Stop: [{ command: "/no/such/hook-command" }] }, { onProblem: (problem) => problems.push(problem) });
    assert.equal((await hooks.run("Stop", { response: "x" })).blocked, false);
    assert.match(problems[0]?.message ?? "", /exited with code 127/);
  });
});
