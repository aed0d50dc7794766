// `mcpwire call` starts only the server that owns the tool (issue 27): the servers it does not
// need are never spawned (each fixture writes a marker file when it runs), a custom-named tool is
// found through the tool-list cache or by asking the servers in config order, a stale cache is not
// trusted, list_changed drops a server's cached list, and a needed broken server is reported.
// Every run keeps its caches in a scratch XDG_CACHE_HOME.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../../src/host/config/parse.ts";
import { readCachedTools, ToolListCache } from "../../src/host/store/tool-list-cache.ts";
import { mcpwire, runtimeArgs, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { hasScript, shellQuote } from "../support/terminal.ts";
import { toolCacheEnv } from "../support/test-env.ts";

const toolbox = fileURLToPath(new URL("../fixtures/toolbox-server.mjs", import.meta.url));
const scratch = scratchDir("mcpwire-lazy-");
let count = 0;

/** One server of a test config: a toolbox fixture with these tools, writing `<dir>/<name>.spawned` when it runs. */
interface Box {
  tools?: string;
  naming?: string;
  sleepMs?: number;
  fail?: boolean;
}

/** A fresh directory with `mcpwire.yaml` of these servers (in this order), its cache, and the runner. */
async function sandbox(servers: Record<string, Box>) {
  const dir = join(scratch.path, `case-${++count}`);
  mkdirSync(dir, { recursive: true });
  const env = { ...toolCacheEnv(join(dir, "cache")), MCPWIRE_RECONNECT_DELAY_MS: "10" };
  const write = (boxes: Record<string, Box>) => {
    const lines = ["mcp_servers:"];
    for (const [name, box] of Object.entries(boxes)) {
      const args = [toolbox, name, box.tools ?? "echo", "--marker", join(dir, `${name}.spawned`)];
      if (box.sleepMs !== undefined) args.push("--sleep", String(box.sleepMs));
      if (box.fail) args.push("--fail");
      lines.push(`  ${name}:`, "    command: node", `    args: ${JSON.stringify(args)}`);
      if (box.naming !== undefined) lines.push(`    naming: ${JSON.stringify(box.naming)}`);
    }
    return writeConfig(dir, "mcpwire.yaml", lines);
  };
  const config = await write(servers);
  const spawned = (name: string) => existsSync(join(dir, `${name}.spawned`));
  return {
    dir,
    env,
    config,
    /** Rewrites the config (a changed server config makes its cached list stale). */
    rewrite: write,
    spawned,
    /** Which of `names` were spawned since the last call (their markers are removed). */
    started(names: string[]): string[] {
      const out = names.filter(spawned);
      for (const name of names) rmSync(join(dir, `${name}.spawned`), { force: true });
      return out;
    },
    call: (...args: string[]) => mcpwire(["call", "--config", config, ...args], { env }),
    /** The cache's tools per server of the config as it is now, read without starting anything. */
    async cached(): Promise<Record<string, string[]>> {
      const parsed = parseConfig(readFileSync(config, "utf8"), { file: config });
      const listings = await readCachedTools(parsed, new ToolListCache(join(dir, "cache", "mcpwire", "tools.json")));
      return Object.fromEntries(listings.map((listing) => [listing.server, listing.tools.map((tool) => tool.name)]));
    },
  };
}

/** Sleeps far longer than any test waits: a server whose initialize is never answered in time. */
const NEVER = 600_000;

describe("mcpwire call starts only the server that owns the tool", () => {
  test("a slow and a broken extra server are never spawned nor mentioned; the call returns its result", async () => {
    const box = await sandbox({ slow: { sleepMs: NEVER }, broken: { fail: true }, a: { tools: "echo" } });
    const { code, stdout, stderr } = await box.call("mcp_a_echo");
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "a:echo\n");
    assert.doesNotMatch(stderr, /slow|broken/);
    assert.deepEqual(box.started(["slow", "broken", "a"]), ["a"]);
  });

  test("a name two servers' names fit (a, a_b) is resolved by their tool lists: the longer name first, then the cache", async () => {
    const box = await sandbox({ a: { tools: "echo,b_x" }, a_b: { tools: "c" } });
    // Nothing cached: a_b (the longer name) is asked first and lacks b_x; a has it.
    let run = await box.call("mcp_a_b_x");
    assert.equal(run.stdout, "a:b_x\n", run.stderr);
    assert.deepEqual(box.started(["a", "a_b"]), ["a", "a_b"]);
    // Both lists are cached now: the server that lists the tool is started alone.
    run = await box.call("mcp_a_b_c");
    assert.equal(run.stdout, "a_b:c\n", run.stderr);
    assert.deepEqual(box.started(["a", "a_b"]), ["a_b"]);
    run = await box.call("mcp_a_b_x");
    assert.equal(run.stdout, "a:b_x\n", run.stderr);
    assert.deepEqual(box.started(["a", "a_b"]), ["a"]);
  });

  test("a custom-named tool: the servers asked one at a time in config order until one has it, then found through the cache", async () => {
    const naming = "{tool}";
    const box = await sandbox({ c1: { tools: "one", naming }, c2: { tools: "two", naming }, c3: { tools: "three", naming } });
    let run = await box.call("two");
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "c2:two\n");
    assert.deepEqual(box.started(["c1", "c2", "c3"]), ["c1", "c2"]);
    run = await box.call("three");
    assert.equal(run.stdout, "c3:three\n", run.stderr);
    // c1 and c2 were cached by the first call: only c3, unknown to the cache, was asked.
    assert.deepEqual(box.started(["c1", "c2", "c3"]), ["c3"]);
    run = await box.call("one");
    assert.equal(run.stdout, "c1:one\n", run.stderr);
    assert.deepEqual(box.started(["c1", "c2", "c3"]), ["c1"]);
    run = await box.call("three");
    assert.equal(run.stdout, "c3:three\n", run.stderr);
    assert.deepEqual(box.started(["c1", "c2", "c3"]), ["c3"]);
    assert.deepEqual(await box.cached(), { c1: ["one", "change-tools"], c2: ["two", "change-tools"], c3: ["three", "change-tools"] });
  });

  test("a cached list whose server's config changed since is not trusted", async () => {
    const naming = "{tool}";
    const box = await sandbox({ c1: { tools: "one", naming }, c2: { tools: "two", naming }, c3: { tools: "three", naming } });
    assert.equal((await box.call("three")).stdout, "c3:three\n");
    box.started(["c1", "c2", "c3"]);
    // c3 no longer has "three" (its args changed); c2 has it now (its args changed too).
    await box.rewrite({ c1: { tools: "one", naming }, c2: { tools: "two,three", naming }, c3: { tools: "four", naming } });
    assert.deepEqual(await box.cached(), { c1: ["one", "change-tools"] });
    const run = await box.call("three");
    assert.equal(run.stdout, "c2:three\n", run.stderr);
    // Had c3's old list been trusted, c3 would have been started first.
    assert.deepEqual(box.started(["c1", "c2", "c3"]), ["c2"]);
  });

  test("notifications/tools/list_changed drops the server's cached list (the re-listed tools may replace it)", async () => {
    const box = await sandbox({ a: { tools: "echo" } });
    assert.equal((await box.call("mcp_a_echo")).code, 0);
    assert.deepEqual(await box.cached(), { a: ["echo", "change-tools"] });
    const run = await box.call("mcp_a_change-tools");
    assert.equal(run.stdout, "a:changed\n", run.stderr);
    const after = (await box.cached()).a;
    assert.ok(after === undefined || after.includes("fresh"), `the list from before list_changed was kept: ${JSON.stringify(after)}`);
  });

  test("a needed server that is broken is reported, with exit 3; the others are not started", async () => {
    const box = await sandbox({ slow: { sleepMs: NEVER }, broken: { fail: true }, a: { tools: "echo" } });
    const { code, stderr } = await box.call("mcp_broken_echo");
    assert.equal(code, 3, stderr);
    assert.match(stderr, /server "broken" is parked: .*exited with code 1/);
    assert.match(stderr, /no tool "mcp_broken_echo" is registered, and the servers above are not ready; it may be theirs/);
    assert.doesNotMatch(stderr, /"slow"|"a"/);
    assert.deepEqual(box.started(["slow", "broken", "a"]), ["broken"]);
  });

  test("an unknown tool keeps call's did-you-mean and exit 2, and names the servers neither asked nor cached", async () => {
    const box = await sandbox({ slow: { sleepMs: NEVER }, a: { tools: "echo" }, b: { tools: "other" } });
    assert.equal((await box.call("mcp_b_other")).code, 0);
    box.started(["slow", "a", "b"]);
    const { code, stderr } = await box.call("mcp_a_ecoh");
    assert.equal(code, 2, stderr);
    assert.match(stderr, /no tool "mcp_a_ecoh" is registered; did you mean "mcp_a_echo"\?/);
    assert.match(
      stderr,
      /^mcpwire call: server "slow" was not started to look for it: its tools are named "mcp_slow_…", and no earlier run listed them; `mcpwire tools` starts every server and lists all their tools$/m,
    );
    assert.deepEqual(box.started(["slow", "a", "b"]), ["a"]);
    // The cached names of servers not started feed the suggestions too.
    const cached = await box.call("mcp_b_othr");
    assert.equal(cached.code, 2);
    assert.match(cached.stderr, /did you mean "mcp_b_other"\?/);
  });
});

describe("a bare tool name", () => {
  test("the refusal leads with the names it may have, then says in plain words which servers were not asked", async () => {
    const box = await sandbox({ broken: { fail: true }, a: { tools: "echo" } });
    // Nothing cached: what each server would call it.
    const first = await box.call("echo");
    assert.equal(first.code, 2, first.stderr);
    const lines = first.stderr.trimEnd().split("\n");
    assert.equal(
      lines[0],
      'mcpwire call: no tool "echo" is registered; did you mean "mcp_broken_echo" (server "broken") or "mcp_a_echo" (server "a")? `mcpwire tools` lists them',
    );
    assert.equal(
      lines[1],
      'mcpwire call: servers "broken", "a" were not started to look for it: their tools are named "mcp_broken_…", "mcp_a_…", and no earlier run listed them; `mcpwire tools` starts every server and lists all their tools',
    );
    assert.equal(lines.length, 2, first.stderr);
    assert.deepEqual(box.started(["broken", "a"]), []);
    // a's tools cached: its name is the suggestion, and only broken is said to be unknown.
    assert.equal((await box.call("mcp_a_echo")).code, 0);
    const second = await box.call("echo");
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, /^mcpwire call: no tool "echo" is registered; did you mean "mcp_a_echo"\? `mcpwire tools` lists them\n/);
    assert.match(
      second.stderr,
      /\nmcpwire call: server "broken" was not started to look for it: its tools are named "mcp_broken_…", and no earlier run listed them;/,
    );
    assert.doesNotMatch(second.stderr, /not asked|naming cannot make/);
  });
});

describe("the startup status line", () => {
  test("not a terminal: nothing is said while servers start", async () => {
    // 700 ms: past the status line's first draw (STARTUP_REDRAW_MS, 250 ms) were it on a terminal.
    const box = await sandbox({ slow: { sleepMs: 700 }, a: { tools: "echo" } });
    const { code, stderr, stdout } = await mcpwire(["servers", "--config", box.config], { env: box.env });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^slow\s+ready/m);
    assert.doesNotMatch(stderr, /starting/);
  });

  test(
    "on a terminal: one line rewritten in place names the servers starting and for how long, and is cleared",
    { skip: hasScript() ? false : "no util-linux script(1) here" },
    async () => {
      const box = await sandbox({ slow: { sleepMs: 1500 }, a: { tools: "echo" } });
      const command = [process.execPath, ...runtimeArgs, "servers", "--config", box.config].map(shellQuote).join(" ");
      const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: box.dir, stdio: ["ignore", "pipe", "pipe"], env: box.env });
      let screen = "";
      child.stdout.on("data", (chunk: Uint8Array) => (screen += new TextDecoder().decode(chunk)));
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(timer);
      assert.equal(code, 0, screen);
      assert.match(screen, /\rstarting slow \(\d+(\.\d)? (ms|s)\)…\x1b\[K/);
      assert.match(screen, /\r\x1b\[K/, "the line is cleared");
      assert.match(screen, /^slow\s+ready/m);
    },
  );
});
