// The CLI with hostile config files (issue 24 items 8, 9): nesting deep enough to abort Node in
// the yaml position lookup, and imported servers named __proto__/constructor. Files are written
// under a temporary HOME and working directory, never the real ones.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { mcpwire, scratchDir } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-config-hostile-cli-");
let count = 0;

function sandbox() {
  const root = join(scratch.path, String(count++));
  const home = join(root, "home");
  const work = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), CODEX_HOME: undefined };
  const write = (base: string, path: string, text: string) => {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  return { home, work, write, run: (args: string[]) => mcpwire(args, { env, cwd: work }) };
}

const DEEP = `{"mcpServers": {"deep": {"command": "node", "x": ${"[".repeat(900)}${"]".repeat(900)}}}}`;

test("900-deep JSON in the config and in an imported ./.mcp.json: exit 2 (config error) naming file:line:col and the limit, not an abort (134)", async () => {
  const { work, write, run } = sandbox();
  write(work, ".mcp.json", DEEP);
  write(work, "deep.json", DEEP);
  const { code, stdout, stderr } = await run(["servers", "--config", "deep.json", "--import", "claude-code"]);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.match(stderr, /^mcpwire: deep\.json:1:\d+: invalid JSON: nested more than 100 levels/m);
  assert.doesNotMatch(stderr, /FATAL ERROR/);
});

test("a deep imported file is a warning; the user's own servers and the imported servers named __proto__ and constructor are listed", async () => {
  const { home, work, write, run } = sandbox();
  write(work, ".mcp.json", DEEP);
  const server = JSON.stringify({ command: "node", args: [fixturePath("names-server.mjs")] });
  write(home, ".config/Claude/claude_desktop_config.json", `{"mcpServers": {"__proto__": ${server}, "constructor": ${server}}}`);
  write(work, "mine.yaml", `mcp_servers:\n  mine:\n    command: node\n    args: [${JSON.stringify(fixturePath("names-server.mjs"))}]\n`);
  const { code, stdout, stderr } = await run(["tools", "--config", "mine.yaml", "--import", "claude-code,claude-desktop", "--trust-project"]);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /\.\/\.mcp\.json:1:\d+: invalid JSON in claude-code's config: nested more than 100 levels/);
  for (const name of ["mcp_mine_argv", "mcp___proto___argv", "mcp___proto_____proto__", "mcp_constructor_constructor", "mcp_constructor_toString"]) {
    assert.match(stdout, new RegExp(`^${name}\\s`, "m"), `${name} in\n${stdout}`);
  }
});

/** mkfifo(1), from coreutils. */
const noMkfifo = (() => {
  try {
    execFileSync("mkfifo", ["--version"], { stdio: "ignore" });
    return false;
  } catch {
    return "mkfifo is not installed";
  }
})();

test("a FIFO named mcpwire.yaml in the working directory: exit 2 at once, saying it is not a regular file (opening it used to hang the CLI)", {
  skip: noMkfifo,
}, async () => {
  const { work, run } = sandbox();
  execFileSync("mkfifo", [join(work, "mcpwire.yaml")]);
  const { code, stdout, stderr } = await run(["servers"]);
  assert.equal(code, 2, stderr);
  assert.equal(stdout, "");
  assert.match(stderr, /cannot read config file ".*mcpwire\.yaml": it is not a regular file \(a FIFO, a device or a socket\) \(ENOTREG\)/);
});

test("a YAML mistake is reported at its line: a line indented too deep, a quote never closed (exit 2, nothing started)", async () => {
  const { run } = sandbox();
  const [deep, quote] = await Promise.all([
    run(["tools", "--config", fixturePath("config/indented-too-deep.yaml")]),
    run(["tools", "--config", fixturePath("config/unclosed-quote.yaml")]),
  ]);
  assert.equal(deep.code, 2, deep.stderr);
  assert.match(
    deep.stderr,
    /indented-too-deep\.yaml:6:7: invalid YAML: this line is indented deeper \(6 spaces\) than the line above \(4: "command: node"\), so YAML reads it as part of that line's value; indent it as the keys above it/,
  );
  assert.equal(quote.code, 2, quote.stderr);
  assert.match(quote.stderr, /unclosed-quote\.yaml:4:14: invalid YAML: this " is not closed: a quoted string ends with the same quote/);
  assert.equal(deep.stdout + quote.stdout, "");
});
