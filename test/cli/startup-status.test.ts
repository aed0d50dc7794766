// The servers' startup status line (src/cli/startup-status.ts): drawn in place on a terminal
// with each server's time since it began, cleared when the last is up or when another line is
// written, nothing at all off a terminal; and which servers' naming can make a tool name
// (src/cli/tool-owner.ts namingFit), the first step of `call` choosing the server to start.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { StartupStatus } from "../../src/cli/startup-status.ts";
import { interruptProgress } from "../../src/cli/progress.ts";
import { namingFit } from "../../src/cli/tool-owner.ts";
import { toolName } from "../../src/registry/naming.ts";

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
