// `mcpwire call --detach` over Streamable HTTP (issue 37, item 6), against server-everything,
// which keeps tasks per session (a server and task store per MCP-Session-Id): the detached
// task's session is left open (no DELETE), and the command printed to follow it works as
// printed: the server as it was given (--http URL --name, or --config FILE) and --session, which
// joins that session. `task get` leaves it open for the next command; `task wait` runs to the end.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { splitCommandLine } from "../../src/cli/command-line.ts";
import { type HttpServerProcess, startEverything } from "../fixtures/sse-servers.ts";
import { mcpwire, type Outcome, scratchDir, writeConfig } from "../support/cli-runner.ts";

const scratch = scratchDir("mcpwire-task-detach-http-");
let server: HttpServerProcess | undefined;
let url = "";
let config = "";

before(async () => {
  server = await startEverything("streamableHttp");
  url = `${server.origin}/mcp`;
  config = await writeConfig(scratch.path, "ev.yaml", ["mcp_servers:", "  ev:", `    url: ${url}`]);
});

after(async () => {
  await server?.stop();
});

/** The task id (stdout) and the words of the command printed to follow it, without the leading `mcpwire`. */
function detached(outcome: Outcome): { id: string; follow: string[] } {
  assert.equal(outcome.code, 0, outcome.stderr);
  const id = outcome.stdout.trim();
  assert.match(id, /^\S+$/);
  const printed = /follow it with: (.*)$/m.exec(outcome.stderr)?.[1];
  assert.ok(printed !== undefined, outcome.stderr);
  const words = splitCommandLine(printed);
  assert.deepEqual(words.slice(0, 5), ["mcpwire", "task", "wait", "ev", id]);
  return { id, follow: words.slice(1) };
}

describe("call --detach over Streamable HTTP, then the command it prints", () => {
  test("a server given with --http: the printed command names it and the session, and waits the task to its result", async () => {
    const outcome = await mcpwire(["call", "--http", url, "--name", "ev", "--detach", "simulate-research-query", "topic=detached"]);
    const { follow } = detached(outcome);
    assert.ok(follow.includes("--http") && follow.includes(url), follow.join(" "));
    assert.deepEqual(follow.slice(follow.indexOf("--name"), follow.indexOf("--name") + 2), ["--name", "ev"]);
    assert.ok(follow.includes("--session"), follow.join(" "));
    assert.doesNotMatch(outcome.stderr, /runs over stdio/);
    const waited = await mcpwire(follow);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, /^# Research Report: detached$/m);
    assert.match(waited.stderr, /: completed/);
  });

  test("a configured server: --config and --session are printed; task get leaves the session for the task wait after it", async () => {
    const outcome = await mcpwire(["call", "mcp_ev_simulate-research-query", "topic=configured", "--detach", "--config", config]);
    const { id, follow } = detached(outcome);
    assert.deepEqual(follow.slice(follow.indexOf("--config"), follow.indexOf("--config") + 2), ["--config", config]);
    const session = follow[follow.indexOf("--session") + 1];
    assert.ok(session !== undefined && follow.includes("--session"), follow.join(" "));
    // Another session does not know the task: server-everything keeps tasks per session.
    const elsewhere = await mcpwire(["task", "get", "ev", id, "--config", config]);
    assert.equal(elsewhere.code, 3, elsewhere.stderr);
    assert.match(elsewhere.stderr, /the server does not know this task/);
    const got = await mcpwire(["task", "get", "ev", id, "--config", config, "--session", session]);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, new RegExp(`^task ${id}: (working|completed)`));
    const waited = await mcpwire(follow);
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stdout, /^# Research Report: configured$/m);
  });

  test("--session on a stdio server and --session-version alone are usage errors", async () => {
    const stdio = await mcpwire(["task", "get", "echo", "x", "--stdio", "node test/fixtures/echo-server.mjs", "--name", "echo", "--session", "abc"]);
    assert.equal(stdio.code, 2, stdio.stderr);
    assert.match(stdio.stderr, /--session joins a Streamable HTTP session; server "echo" runs over stdio/);
    const alone = await mcpwire(["task", "get", "ev", "x", "--config", config, "--session-version", "2025-06-18"]);
    assert.equal(alone.code, 2, alone.stderr);
    assert.match(alone.stderr, /--session-version goes with --session ID/);
  });
});
