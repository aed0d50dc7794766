// The CLI closing a 2026-07-28 stdio server whose listen stream is open: the listen is
// cancelled before stdin closes, the server exits by itself, and nothing is printed about a
// close the user asked for — spec 2026-07-28 basic/patterns/subscriptions ("Cancellation"),
// basic/transports/stdio ("Shutdown").

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-cli-quiet-close-");

describe("mcpwire closing a 2026-07-28 server with an open listen stream", { timeout: 120_000 }, () => {
  test("servers: the listen is cancelled before stdin closes, the server exits 0 unsignalled, and stderr says nothing", async () => {
    const events = join(scratch.path, "events");
    const config = await writeConfig(scratch.path, "mcpwire.yaml", [
      "mcp_servers:",
      "  hold:",
      "    command: node",
      `    args: [${JSON.stringify(fixturePath("listen-hold-server.mjs"))}, ${JSON.stringify(events)}]`,
    ]);
    const env = { ...process.env, HOME: scratch.path, XDG_CONFIG_HOME: join(scratch.path, "config"), XDG_CACHE_HOME: join(scratch.path, "cache") };
    const { code, stdout, stderr } = await mcpwire(["servers", "--config", config], { env });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^hold\s+ready\s+stdio\s+2026-07-28 \(modern\)/m);
    assert.equal(stderr, "");
    const lines = readFileSync(events, "utf8").trim().split("\n");
    const id = (lines[0] ?? "").replace(/^listen /, "");
    assert.deepEqual(lines, [`listen ${id}`, `cancelled ${id}`, "stdin-end", "exit 0"]);
  });
});
