// `mcpwire watch` against a server that floods it (issue 37, item 12): updates of a URI it did
// not subscribe to are not printed (a warning names the first), and when stdout is not read
// the lines waiting for it are bounded: the updates past the bound are counted and said as
// "N updates dropped" once stdout drains; a stdout whose reader goes away (`watch … | head`)
// ends the command as SIGPIPE would, its server closed (runtime/interrupts.ts). The server is
// test/fixtures/update-flood-server.mjs.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { mcpwire, scratchDir, startMcpwire, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { waitUntil } from "../support/polling.ts";
import { descendants, hasProc, isRunning } from "../support/processes.ts";

const FLOOD = fixturePath("update-flood-server.mjs");
const scratch = scratchDir("mcpwire-watch-bounds-");

/** A config whose server "flood" sends `updates` updates of the URI subscribed to (and two of others first). */
function floodConfig(name: string, updates: number, done?: string): Promise<string> {
  const args = [FLOOD, "--updates", String(updates), ...(done === undefined ? [] : ["--done", done])];
  return writeConfig(scratch.path, `${name}.yaml`, ["mcp_servers:", "  flood:", "    command: node", `    args: ${JSON.stringify(args)}`]);
}

describe("mcpwire watch and a server that floods it", () => {
  test("updates of a URI not subscribed to are not printed; the first is named on stderr, sanitized", async () => {
    const config = await floodConfig("filter", 3);
    const { code, stdout, stderr } = await mcpwire(["watch", "flood", "note://a", "--count", "3", "--config", config]);
    assert.equal(code, 0, stderr);
    const lines = stdout.trimEnd().split("\n");
    assert.equal(lines.length, 3, stdout);
    for (const line of lines) assert.match(line, /^\d\d:\d\d:\d\d updated note:\/\/a$/);
    assert.match(stderr, /^mcpwire watch: warning: server "flood" sent an update of note:\/\/unasked, which was not subscribed to; such updates are ignored$/m);
    assert.equal(stderr.match(/not subscribed to/g)?.length, 1, "said once");
    assert.doesNotMatch(stderr, /\x1b/);
  });

  test("stdout not read: the waiting lines are bounded and the rest said as 'N updates dropped'", async () => {
    const updates = 30_000;
    const done = join(scratch.path, "flood.done");
    const config = await floodConfig("bounded", updates, done);
    const watching = startMcpwire(["watch", "flood", "note://a", "--json", "--config", config]);
    const stdout = watching.child.stdout!;
    // Read nothing until the server has handed over its last update: stdout (a pipe) fills.
    stdout.pause();
    try {
      await waitUntil(() => existsSync(done), "the flood server sent its updates", 60_000);
      stdout.resume();
      let printed = 0;
      let dropped = 0;
      const tally = () => {
        const objects = watching.stdout().split("\n").slice(0, -1).map((line) => JSON.parse(line) as { uri?: string; dropped?: number });
        printed = objects.filter((object) => object.uri === "note://a").length;
        dropped = objects.reduce((sum, object) => sum + (object.dropped ?? 0), 0);
        return printed + dropped === updates;
      };
      await waitUntil(tally, `${updates} updates printed or counted as dropped`, 60_000, 50);
      assert.ok(dropped > 0, "some updates were dropped");
      assert.ok(printed < updates / 2, `${printed} of ${updates} lines were kept for a stdout nobody read`);
    } finally {
      watching.child.kill("SIGINT");
      await watching.code;
    }
    assert.match(watching.stderr(), /watching note:\/\/a on server "flood"/);
  });

  test("stdout closed by its reader (watch … | head): exit 141, no stack trace, its server ended", { skip: !hasProc && "needs /proc" }, async () => {
    const config = await floodConfig("head", 200_000);
    const watching = startMcpwire(["watch", "flood", "note://a", "--config", config]);
    await waitUntil(() => watching.stdout().includes("updated note://a"), "the first update printed", 60_000);
    const servers = descendants(watching.child.pid!);
    assert.ok(servers.length > 0, "the server runs under mcpwire");
    // What `head` does once it has its lines: the read end of the pipe is closed.
    watching.child.stdout!.destroy();
    const code = await watching.code;
    assert.equal(code, 141, watching.stderr());
    assert.doesNotMatch(watching.stderr(), /EPIPE|Unhandled|node:events|\n\s+at /);
    await waitUntil(() => servers.every((pid) => !isRunning(pid)), "the server ended with the command", 10_000);
  });
});
