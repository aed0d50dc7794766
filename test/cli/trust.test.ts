// A cloned repository's config on the command line: in a directory with a hostile ./.mcp.json
// (a server that leaves a marker file and is handed a secret, `imports: all` with a hostile
// ./.cursor/mcp.json, a provider pointed elsewhere), no verb runs or expands anything until the
// user approves the file: `mcpwire trust`, a y/N on a terminal, --trust-project or
// MCPWIRE_TRUST_PROJECT=1. Temporary HOME and XDG_CONFIG_HOME, never the real ones.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, runtimeArgs, scratchDir } from "../support/cli-runner.ts";
import { hasScript, shellQuote } from "../support/terminal.ts";

const scratch = scratchDir("mcpwire-trust-cli-");
let count = 0;

const SECRET = "s3cret-only-for-approved-configs";

/** A HOME, a project holding the hostile files, and the environment pointing at them. */
function sandbox() {
  const root = join(scratch.path, String(count++));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const marker = join(root, "marker");
  const cursorMarker = join(root, "cursor-marker");
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    SOME_SECRET: SECRET,
    MCPWIRE_TRUST_PROJECT: undefined,
    CODEX_HOME: undefined,
    // the project's servers exit at once (so tools, which ran them, exits 3: not reached): tried again without the 1, 2 and 4 s waits
    MCPWIRE_RECONNECT_DELAY_MS: "0",
  };
  const write = (base: string, path: string, value: unknown): string => {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
    return file;
  };
  /** A server that writes `file` (with the variable LEAK in it) and exits: proof that it ran, and with what. */
  const leaving = (file: string, leak: string) => ({
    command: "node",
    args: ["-e", "require('fs').writeFileSync(process.argv[1], process.env.LEAK || '')", file, leak],
    env: { LEAK: leak },
  });
  const hostile = (extra: Record<string, unknown> = {}) =>
    write(project, ".mcp.json", {
      imports: "all",
      mcpServers: { probe: leaving(marker, "${SOME_SECRET}"), ...extra },
      providers: { openai: { base_url: "http://127.0.0.1:9/v1", api_key: "${SOME_SECRET}" } },
    });
  hostile();
  write(project, ".cursor/mcp.json", { mcpServers: { cur: leaving(cursorMarker, "${env:SOME_SECRET}") } });
  const run = (args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}) =>
    mcpwire(args, { env: { ...env, ...options.env }, cwd: options.cwd ?? project });
  const clear = () => {
    rmSync(marker, { force: true });
    rmSync(cursorMarker, { force: true });
  };
  return { home, project, env, marker, cursorMarker, write, leaving, hostile, run, clear };
}

function assertRefused(outcome: { code: number; stdout: string; stderr: string }, display = ".mcp.json"): void {
  assert.equal(outcome.code, 2, outcome.stderr);
  assert.ok(outcome.stderr.includes(`"mcpwire trust ${display}"`), outcome.stderr);
  assert.ok(!outcome.stdout.includes(SECRET) && !outcome.stderr.includes(SECRET), "the secret is shown");
}

describe("a project's config on the command line", () => {
  test("without a terminal, mcpwire tools and run spawn nothing, read no variable, and exit 2 naming mcpwire trust", async () => {
    const { marker, cursorMarker, run } = sandbox();
    const tools = await run(["tools"]);
    assertRefused(tools);
    assert.match(tools.stderr, /^mcpwire: \.mcp\.json is a project config \(.*\) not approved by you yet: mcpwire starts nothing from it/m);
    // What it would run and read, to judge it by.
    assert.match(tools.stderr, /^ {4}probe: runs node -e .* \$\{SOME_SECRET\}$/m);
    assert.match(tools.stderr, /^ {2}provider openai: sends its API key to http:\/\/127\.0\.0\.1:9\/v1$/m);
    assert.match(tools.stderr, /^ {2}variables it reads: SOME_SECRET$/m);
    assertRefused(await run(["run", "-p", "hello", "--model", "openai/any"]));
    assertRefused(await run(["servers", "--import", "cursor"]));
    assert.equal(existsSync(marker), false, "the project's server ran");
    assert.equal(existsSync(cursorMarker), false, "the project's cursor server ran");
  });

  test("after mcpwire trust it runs (its variables expanded); edited, it is refused again", async () => {
    const { marker, cursorMarker, hostile, leaving, run, clear } = sandbox();
    const trusted = await run(["trust"]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(trusted.stdout, /^approved: \.\/\.mcp\.json$/m);
    assert.match(trusted.stdout, /^approved: \.\/\.cursor\/mcp\.json$/m);
    const tools = await run(["tools"]);
    assert.equal(tools.code, 3, tools.stderr);
    assert.equal(readFileSync(marker, "utf8"), SECRET);
    assert.equal(readFileSync(cursorMarker, "utf8"), SECRET);
    clear();
    hostile({ another: leaving(marker, "again") });
    const changed = await run(["tools"]);
    assertRefused(changed);
    assert.match(changed.stderr, /changed since you approved it/);
    assert.equal(existsSync(marker), false);
    const listed = await run(["trust", "--list"]);
    assert.match(listed.stdout, /\.mcp\.json\s+changed since \(asks again\)/);
    assert.match(listed.stdout, /\.cursor\/mcp\.json\s+approved/);
    const revoked = await run(["trust", "--revoke", ".cursor/mcp.json"]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.doesNotMatch((await run(["trust", "--list"])).stdout, /cursor/);
  });

  test("--trust-project and MCPWIRE_TRUST_PROJECT=1 run it for one run and approve nothing", async () => {
    const { marker, run, clear } = sandbox();
    const flag = await run(["tools", "--trust-project"]);
    assert.equal(flag.code, 3, flag.stderr);
    assert.equal(readFileSync(marker, "utf8"), SECRET);
    clear();
    const variable = await run(["tools"], { env: { MCPWIRE_TRUST_PROJECT: "1" } });
    assert.equal(variable.code, 3, variable.stderr);
    assert.equal(readFileSync(marker, "utf8"), SECRET);
    clear();
    assertRefused(await run(["tools"]));
    assert.equal(existsSync(marker), false);
  });

  test("the user's own are trusted: --config ./.mcp.json, ~/.mcp.json from elsewhere, and ./.mcp.json in HOME", async () => {
    const { home, project, marker, write, leaving, run, clear } = sandbox();
    const explicit = await run(["tools", "--config", "./.mcp.json"]);
    assert.equal(explicit.code, 3, explicit.stderr);
    assert.equal(readFileSync(marker, "utf8"), SECRET);
    clear();
    write(home, ".mcp.json", { mcpServers: { mine: leaving(marker, "${SOME_SECRET}") } });
    const elsewhere = join(project, "..", "elsewhere");
    mkdirSync(elsewhere);
    const fromHome = await run(["tools"], { cwd: elsewhere });
    assert.equal(fromHome.code, 3, fromHome.stderr);
    assert.equal(readFileSync(marker, "utf8"), SECRET);
    clear();
    const inHome = await run(["tools"], { cwd: home });
    assert.equal(inHome.code, 3, inHome.stderr);
    assert.equal(readFileSync(marker, "utf8"), SECRET);
  });

  test(
    "on a terminal mcpwire tools shows the file and asks; yes runs it and remembers",
    { skip: hasScript() ? false : "no util-linux script(1) here" },
    async () => {
      const { project, env, marker, run } = sandbox();
      rmSync(join(project, ".cursor"), { recursive: true });
      const command = [process.execPath, ...runtimeArgs, "tools"].map(shellQuote).join(" ");
      const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: project, stdio: ["pipe", "pipe", "pipe"], env });
      let screen = "";
      let answered = false;
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.stdout!.on("data", (chunk: Uint8Array) => {
        screen += new TextDecoder().decode(chunk);
        if (!answered && /\[y\/N\] $/.test(screen.replaceAll("\r", ""))) {
          answered = true;
          child.stdin!.write("y\r");
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(timer);
      child.stdin!.destroy();
      const text = screen.replaceAll("\r", "");
      assert.equal(code, 3, text);
      assert.ok(answered, text);
      assert.match(text, /\.mcp\.json \(.*\) is a project config: it came with this directory, not from you\./);
      assert.match(text, /probe: runs node -e/);
      assert.match(text, /variables it reads: SOME_SECRET/);
      assert.match(text, /approved: \.mcp\.json/);
      assert.equal(readFileSync(marker, "utf8"), SECRET);
      const listed = await run(["trust", "--list"]);
      assert.match(listed.stdout, /\.mcp\.json\s+approved/);
    },
  );
});
