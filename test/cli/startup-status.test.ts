// The servers' startup status line (src/cli/session/startup-status.ts): drawn in place on a terminal
// with each server's time since it began, the attempt of one being retried, those that failed
// while others still start, cleared when the last is up or when another line is written,
// nothing at all off a terminal; and which servers' naming can make a tool name
// (src/cli/session/tool-owner.ts namingFit), the first step of `call` choosing the server to start.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { interruptProgress } from "../../src/cli/progress.ts";
import { startServers, StartupStatus } from "../../src/cli/session/startup-status.ts";
import { namingFit } from "../../src/cli/session/tool-owner.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { toolName } from "../../src/registry/naming.ts";
import { behaviour } from "../support/behaviour.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

function status(terminal: boolean) {
  const out: string[] = [];
  let now = 0;
  const line = new StartupStatus((text) => out.push(text), terminal, () => now);
  return { line, out, advance: (ms: number) => (now += ms) };
}

describe("StartupStatus", () => {
  test("on a terminal: the servers starting and for how long, redrawn in place; cleared when the last one is up", () => {
    const { line, out, advance } = status(true);
    line.begin("everything");
    advance(400);
    line.begin("slow");
    advance(1100);
    line.draw();
    assert.equal(out.at(-1), "\rstarting everything (1.5 s), slow (1.1 s)…\x1b[K");
    line.end("everything");
    assert.equal(out.at(-1), "\rstarting slow (1.1 s)…\x1b[K");
    line.end("slow");
    assert.equal(out.at(-1), "\r\x1b[K");
    line.draw();
    assert.equal(out.at(-1), "\r\x1b[K", "nothing is drawn once none is starting");
  });

  test("another line on stderr clears it first; the next tick draws it again", () => {
    const { line, out } = status(true);
    line.begin("slow");
    line.draw();
    interruptProgress();
    assert.equal(out.at(-1), "\r\x1b[K");
    line.draw();
    assert.match(out.at(-1)!, /^\rstarting slow/);
    line.finish();
    assert.equal(out.at(-1), "\r\x1b[K");
  });

  test("a retried server shows its attempt; one that gave up shows as failed while another still starts", () => {
    const { line, out, advance } = status(true);
    line.begin("broken");
    line.begin("slow");
    advance(2000);
    line.retry("broken", 2, 4);
    line.draw();
    assert.equal(out.at(-1), "\rstarting broken (2 s, attempt 2 of 4), slow (2 s)…\x1b[K");
    line.end("broken", true);
    assert.equal(out.at(-1), "\rstarting slow (2 s)…; broken failed\x1b[K");
    line.end("slow");
    assert.equal(out.at(-1), "\r\x1b[K");
  });

  test("off a terminal nothing is written", () => {
    const { line, out, advance } = status(false);
    line.begin("slow");
    advance(5000);
    line.draw();
    line.end("slow");
    line.finish();
    assert.deepEqual(out, []);
  });

  test("a server's name is shown with its control characters visible, and the line fits 78 columns", () => {
    const { line, out } = status(true);
    line.begin("evil\x1b[2Jname");
    for (let i = 0; i < 10; i++) line.begin(`server-with-a-long-name-${i}`);
    line.draw();
    const drawn = out.at(-1)!.slice(1, -"\x1b[K".length);
    assert.doesNotMatch(drawn, /\x1b/);
    assert.ok(drawn.length <= 78, drawn);
    line.finish();
  });
});

// Real servers under a real manager: one whose exits differ (retried), one that exits the same way twice (given up).
behaviour("startServers: the line shows a retried server's attempt, and a server that gave up as failed", async () => {
  const varying = "process.stderr.write('busy ' + String(process.pid).replace(/\\d/g, (d) => 'abcdefghij'[d]) + '\\n', () => process.exit(2))";
  const manager = new McpManager(
    configOf(stdioServerConfig("flaky", ["-e", varying]), stdioServerConfig("fatal", [fixturePath("exit-at-start-server.mjs")])),
    { reconnectDelay: { initialMs: 300, maxMs: 300, jitter: 0 }, connectRetries: 3, probeIntervalMs: 600_000 },
  );
  const out: string[] = [];
  try {
    await startServers(manager, ["flaky", "fatal"], new StartupStatus((text) => out.push(text), true));
  } finally {
    await manager.close();
  }
  assert.ok(out.some((text) => /flaky \([^)]*, attempt [234] of 4\)/.test(text)), out.join("\n"));
  assert.ok(out.some((text) => /…; fatal failed\x1b\[K$/.test(text)), out.join("\n"));
  assert.equal(out.at(-1), "\r\x1b[K", "cleared at the end");
});

describe("namingFit: which servers' naming can make a tool name", () => {
  test("mcp_<server>_<tool> fits the servers whose name it starts with, the longer name more specific", () => {
    const a = namingFit({ name: "a" }, "mcp_a_b_c");
    const ab = namingFit({ name: "a_b" }, "mcp_a_b_c");
    assert.ok(a !== undefined && ab !== undefined && ab > a);
    assert.equal(namingFit({ name: "b" }, "mcp_a_b_c"), undefined);
    assert.equal(namingFit({ name: "a" }, "mcp_a_"), undefined, "the tool's part cannot be empty");
    assert.notEqual(namingFit({ name: "my server" }, "mcp_my_server_echo"), undefined, "the server's name is sanitised as in the registry");
  });

  test("custom namings: text before and after {tool}; {tool} alone fits every name", () => {
    assert.notEqual(namingFit({ name: "gh", naming: "{server}__{tool}" }, "gh__issues"), undefined);
    assert.equal(namingFit({ name: "gh", naming: "{server}__{tool}" }, "mcp_gh_issues"), undefined);
    assert.notEqual(namingFit({ name: "gh", naming: "{tool}@{server}" }, "issues_gh"), undefined);
    assert.equal(namingFit({ name: "gh", naming: "{tool}" }, "anything"), 0);
    assert.equal(namingFit({ name: "gh", naming: "no-tool-placeholder" }, "no-tool-placeholder"), undefined);
  });

  test("a name cut to 64 characters with a hash still fits its server", () => {
    const server = { name: "a-server-with-a-rather-long-name" };
    const name = toolName(server.name, "a-tool-with-an-even-longer-name-than-its-server-has");
    assert.equal(name.length, 64);
    assert.notEqual(namingFit(server, name), undefined);
    assert.equal(namingFit({ name: "another" }, name), undefined);
  });
});
