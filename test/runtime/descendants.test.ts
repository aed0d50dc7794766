// No orphans after close: a descendant that left the child's process group (setsid) is found
// through /proc before the group is signalled, and ended with it — src/runtime/process-group.ts
// (Descendants), node.ts and deno.ts; spec 2025-11-25 basic/lifecycle ("Shutdown", stdio).
// Linux only: elsewhere there is no /proc to find such a descendant in.

import assert from "node:assert/strict";
import process from "node:process";
import { Client } from "../../src/client/client.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import { behaviour } from "../support/behaviour.ts";
import { fixturePath as fixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { hasProc, isRunning } from "../support/processes.ts";

const skip = hasProc ? false : "needs Linux /proc";

/** Ends a process the test started, if a failed assertion left it running. */
function cleanUp(pid: number | undefined): void {
  if (pid === undefined || !isRunning(pid)) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

behaviour("closing a stdio server also ends its grandchild that left the process group", async () => {
  let found: (match: RegExpMatchArray) => void = () => {};
  const pids = new Promise<RegExpMatchArray>((resolve) => (found = resolve));
  const transport = new StdioTransport({
    command: "node",
    args: [fixture("escaping-grandchild-server.mjs")],
    onStderr: (line) => {
      const match = line.match(/^pids (\d+) (\d+)$/);
      if (match) found(match);
    },
  });
  const client = new Client({ name: "descendants-test", version: "0.0.0" }, { protocol: "legacy" });
  await hangGuard(client.connect(transport), 15_000, "connect");
  let grandchild: number | undefined;
  try {
    const [, server, escaped] = (await hangGuard(pids, 15_000, "the server's pids")).map(Number);
    assert.ok(server !== undefined && escaped !== undefined, "the pids line names two processes");
    grandchild = escaped;
    assert.ok(isRunning(grandchild), "the grandchild runs before close");
    await hangGuard(client.close(), 15_000, "close()");
    assert.equal(client.state, "closed");
    assert.equal(isRunning(server), false, `server ${server} outlived close()`);
    assert.equal(isRunning(grandchild), false, `grandchild ${grandchild}, which left the group with setsid, outlived close()`);
  } finally {
    cleanUp(grandchild);
  }
}, { skip });

behaviour("signalling a child's group also signals its descendant outside the group", async () => {
  let output = "";
  let found: (match: RegExpMatchArray) => void = () => {};
  const pids = new Promise<RegExpMatchArray>((resolve) => (found = resolve));
  const child = await runtime.spawn({
    command: "node",
    args: [fixture("setsid-stubborn-parent.mjs")],
    env: { PATH: process.env.PATH ?? "" },
    onStdout: (chunk) => {
      output += new TextDecoder().decode(chunk);
      const match = output.match(/pids (\d+) (\d+)\n/);
      if (match) found(match);
    },
    onStderr: () => {},
  });
  let grandchild: number | undefined;
  try {
    const [, parent, escaped] = (await hangGuard(pids, 15_000, "the child's pids")).map(Number);
    assert.ok(parent !== undefined && escaped !== undefined, "the pids line names two processes");
    grandchild = escaped;
    assert.equal(parent, child.pid);
    assert.ok(isRunning(grandchild), "the grandchild runs before the signal");
    child.signalGroup("SIGTERM");
    await hangGuard(child.exited, 15_000, "the child's exit");
    await hangGuard(child.dispose(), 15_000, "dispose()");
    assert.equal(child.groupAlive(), false);
    assert.equal(isRunning(grandchild), false, `grandchild ${grandchild} outside the group outlived the group's SIGTERM`);
  } finally {
    cleanUp(grandchild);
    child.signalGroup("SIGKILL");
    await child.dispose();
  }
}, { skip });
