// MCPWIRE_RECONNECT_DELAY_MS: the first delay before a server that failed to start (or died)
// is started again. A value that is not a whole number of ms is a usage error naming the
// variable; 0 tries a server that dies at start its four connect attempts without waiting in between.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";

const scratch = scratchDir("mcpwire-reconnect-delay-");

/** A config with one stdio server that adds a line to `starts` each time it is started, then exits 3 saying something new. */
async function dyingConfig(name: string): Promise<{ config: string; starts: string }> {
  const starts = join(scratch.path, `${name}.starts`);
  // Its stderr differs at each start (its pid in letters): a failure that may pass, so it is retried (host/servers/start-failure.ts).
  const script = "require('fs').appendFileSync(process.argv[1], 'start\\n'); " +
    "process.stderr.write('busy ' + String(process.pid).replace(/\\d/g, (d) => 'abcdefghij'[d]) + '\\n', () => process.exit(3))";
  const config = await writeConfig(scratch.path, `${name}.yaml`, [
    "mcp_servers:",
    "  dying:",
    "    command: node",
    `    args: ["-e", ${JSON.stringify(script)}, ${JSON.stringify(starts)}]`,
  ]);
  return { config, starts };
}

describe("MCPWIRE_RECONNECT_DELAY_MS", () => {
  test("a value that is not a whole number of milliseconds exits 2 naming the variable", async () => {
    const { config, starts } = await dyingConfig("bad");
    const { code, stdout, stderr } = await mcpwire(["servers", "--config", config], { env: { ...process.env, MCPWIRE_RECONNECT_DELAY_MS: "1s" } });
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /^mcpwire: MCPWIRE_RECONNECT_DELAY_MS must be a whole number of milliseconds \(got "1s"\)/);
    assert.throws(() => readFileSync(starts), /ENOENT/, "no server is started");
  });

  test("0: a server that dies at start is tried four times, then reported as not started", async () => {
    const { config, starts } = await dyingConfig("zero");
    // A list verb tries a server once unless MCPWIRE_CONNECT_RETRIES says otherwise (cli/session/host-session.ts).
    const env = { ...process.env, MCPWIRE_RECONNECT_DELAY_MS: "0", MCPWIRE_CONNECT_RETRIES: "3" };
    const { code, stdout, stderr } = await mcpwire(["servers", "--config", config], { env });
    assert.equal(code, 3, stderr);
    assert.match(stdout, /^dying\s+\S+\s+stdio\s+.*exited with code 3/m);
    // four connect attempts (each may start it more than once: the era probe, then the handshake)
    assert.ok(readFileSync(starts, "utf8").split("\n").filter(Boolean).length >= 4, "started fewer than four times");
  });
});
