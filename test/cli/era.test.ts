// The CLI against a server that exits unless its first message is initialize (as rmcp servers
// do): inspect, tools and call connect to it under protocol auto, and a second run with the same
// config takes the era from the cache file instead of probing (spec 2026-07-28 basic/versioning,
// "Backward Compatibility"). A server that dies at start is reported by its exit and stderr.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { loggedMethods } from "../support/method-log.ts";
import { eraCacheEnv } from "../support/test-env.ts";

const FIXTURE = fixturePath("initialize-first-server.mjs");
const scratch = scratchDir("mcpwire-cli-era-");

/** A folder of its own for one test: a config of the fixture (with `flags`), its method log, a cache home. */
async function setup(name: string, flags: string[] = []): Promise<{ config: string; log: string; cache: string; methods(): string[] }> {
  const folder = join(scratch.path, name);
  mkdirSync(folder);
  const log = join(folder, "methods.log");
  const config = await writeConfig(folder, "mcpwire.yaml", [
    "mcp_servers:",
    "  rusty:",
    "    command: node",
    `    args: ${JSON.stringify([FIXTURE, ...flags, "--log", log])}`,
  ]);
  return { config, log, cache: join(folder, "cache"), methods: () => loggedMethods(log) };
}

/**
 * The first run of the test of a server that ignores server/discover waits out the discover
 * timeout (5 s; the CLI has no setting for it): it starts with the file, so that the wait overlaps
 * the other tests. The test awaits it, then makes its second run.
 */
const silentFirst = (async () => {
  const folder = await setup("silent", ["--silent"]);
  const env = eraCacheEnv(folder.cache);
  return { ...folder, env, first: await mcpwire(["tools", "--config", folder.config], { env }) };
})();
silentFirst.catch(() => {}); // a failure is the test's, when it awaits it

describe("a server that exits unless initialize comes first", () => {
  test("inspect --stdio lists its tool", async () => {
    const { code, stdout, stderr } = await mcpwire(["inspect", "--stdio", `node ${FIXTURE}`]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^server\s+initialize-first 1\.0\.0/m);
    assert.match(stdout, /^protocol\s+2025-06-18 \(legacy: initialize handshake\)/m);
    assert.match(stdout, /^tools \(1\)\n {2}echo/m);
  });

  test("tools and call with a config naming it work", async () => {
    const { config } = await setup("tools-call");
    const [tools, call] = await Promise.all([mcpwire(["tools", "--config", config]), mcpwire(["call", "mcp_rusty_echo", "text=hello", "--config", config])]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^mcp_rusty_echo\s+mcp-rusty\s+Says the text back/m);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /echo: hello/);
  });
});

describe("the era cache of the CLI", () => {
  test("a second run with the same config does not probe: initialize is its first message", async () => {
    const { config, cache, methods } = await setup("second-run");
    const env = eraCacheEnv(cache);
    const first = await mcpwire(["tools", "--config", config], { env });
    assert.equal(first.code, 0, first.stderr);
    const firstRun = methods();
    assert.deepEqual(firstRun.slice(0, 2), ["server/discover", "initialize"], "the first run probes (and starts the server again)");
    const file = join(cache, "mcpwire", "eras.json");
    if (process.platform !== "win32") assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.doesNotMatch(readFileSync(file, "utf8"), /initialize-first-server/, "the file holds digests, not command lines");

    const second = await mcpwire(["call", "mcp_rusty_echo", "text=again", "--config", config], { env });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /echo: again/);
    const secondRun = methods().slice(firstRun.length);
    assert.equal(secondRun[0], "initialize", secondRun.join(", "));
    assert.ok(!secondRun.includes("server/discover"), secondRun.join(", "));
  });

  test("a server that ignores server/discover: the discover wait is paid by the first run only", async () => {
    const { config, env, methods, first } = await silentFirst;
    assert.equal(first.code, 0, first.stderr);
    const firstRun = methods();
    assert.equal(firstRun[0], "server/discover");
    const second = await mcpwire(["tools", "--config", config], { env });
    assert.equal(second.code, 0, second.stderr);
    const secondRun = methods().slice(firstRun.length);
    assert.equal(secondRun[0], "initialize", secondRun.join(", "));
    assert.ok(!secondRun.includes("server/discover"), secondRun.join(", "));
  });

  test("MCPWIRE_ERA_CACHE=off: every run probes", async () => {
    const { config, cache, methods } = await setup("off");
    const env = { ...eraCacheEnv(cache), MCPWIRE_ERA_CACHE: "off" };
    // Two runs at once: with the cache off, neither can take the era from the other.
    const outcomes = await Promise.all([0, 1].map(() => mcpwire(["tools", "--config", config], { env })));
    for (const outcome of outcomes) assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(methods().filter((method) => method === "server/discover").length, 2);
  });
});

describe("a server that dies at start", () => {
  test("inspect reports its exit code and stderr, not the probe", async () => {
    const fixture = fixturePath("exit-at-start-server.mjs");
    const inspect = await mcpwire(["inspect", "--stdio", `node ${fixture}`]);
    assert.equal(inspect.code, 1);
    assert.match(inspect.stderr, /stopped during the initialize handshake: server process exited with code 1; last stderr: fatal: no API key set/);
    assert.doesNotMatch(inspect.stderr, /server\/discover/);
  });
});
