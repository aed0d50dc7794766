// `--import mcphost` from the command line: mcphost's ~/.mcphost.yml / ~/.mcphost.json (under a
// temporary HOME) in its shape, with a real server (server-everything) whose tools the file's
// allowedTools / excludedTools filter, and its builtin servers skipped with a warning.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, scratchDir } from "../support/cli-runner.ts";
import { EVERYTHING } from "../support/everything-path.ts";

const scratch = scratchDir("mcpwire-mcphost-cli-");
let count = 0;

function sandbox() {
  const root = join(scratch.path, String(count++));
  const home = join(root, "home");
  const elsewhere = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(elsewhere, { recursive: true });
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const write = (path: string, text: string) => writeFileSync(join(home, path), text);
  const run = (args: string[]) => mcpwire(args, { env, cwd: elsewhere });
  return { write, run };
}

describe("mcpwire --import mcphost", () => {
  test("~/.mcphost.yml: a local server with an array command and excludedTools; the builtin one is skipped with a warning", async () => {
    const { write, run } = sandbox();
    write(
      ".mcphost.yml",
      [
        "mcpServers:",
        "  everything:",
        "    type: local",
        `    command: ["node", ${JSON.stringify(EVERYTHING)}, "stdio"]`,
        "    environment: { EVERYTHING_NOTE: on }",
        '    excludedTools: ["echo"]',
        "  bash:",
        "    type: builtin",
        "    name: bash",
        "",
      ].join("\n"),
    );
    const { code, stdout, stderr } = await run(["tools", "--import", "mcphost"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^mcp_everything_get-sum\s/m);
    assert.doesNotMatch(stdout, /^mcp_everything_echo\s/m, "excludedTools hides echo");
    assert.match(stderr, /^warning: ~\/\.mcphost\.yml:7:3: server "bash": mcphost's builtin server "bash" runs inside mcphost.*skipped/m);
  });

  test("~/.mcphost.json: allowedTools registers only the tools it names", async () => {
    const { write, run } = sandbox();
    write(
      ".mcphost.json",
      JSON.stringify({ mcpServers: { ev: { type: "local", command: ["node", EVERYTHING, "stdio"], allowedTools: ["echo"] } } }, null, 2),
    );
    const { code, stdout, stderr } = await run(["tools", "--import", "mcphost"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^mcp_ev_echo\s/m);
    assert.doesNotMatch(stdout, /^mcp_ev_get-sum\s/m);
  });
});
