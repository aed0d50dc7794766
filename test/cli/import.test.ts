// The CLI with servers from elsewhere: ~/.mcp.json found from any directory, --import reading
// other apps' files (written under a temporary HOME, never the real one), `mcpwire import --list`.
// Real child processes, real servers: the stdio fixture test/fixtures/echo-server.mjs (these tests
// are about where servers come from, not about one server's behaviour; it starts in a tenth of the
// time server-everything takes).

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, scratchDir } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-import-cli-");
let count = 0;

/** A temporary HOME and a working directory outside it, and the environment pointing at them. */
function sandbox() {
  const root = join(scratch.path, String(count++));
  const home = join(root, "home");
  const elsewhere = join(root, "work", "somewhere");
  mkdirSync(home, { recursive: true });
  mkdirSync(elsewhere, { recursive: true });
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), CODEX_HOME: undefined };
  const write = (path: string, value: unknown) => {
    const file = join(home, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
    return file;
  };
  const run = (args: string[]) => mcpwire(args, { env, cwd: elsewhere });
  return { home, elsewhere, env, write, run };
}

/** The echo fixture over stdio (run by node, whichever runtime runs the test), with its tool "echo". */
const ECHO = fixturePath("echo-server.mjs");
function everything(): Record<string, unknown> {
  return { command: "node", args: [ECHO] };
}

describe("servers from elsewhere on the command line", () => {
  test("a user with only ~/.mcp.json runs mcpwire tools from another directory and sees its servers", async () => {
    const { write, run } = sandbox();
    write(".mcp.json", { mcpServers: { everything: everything() } });
    const { code, stdout, stderr } = await run(["tools"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^mcp_everything_echo\s+mcp-everything\s/m);
  });

  test("mcpwire tools --import claude-desktop,cursor sees the servers of both apps' files", async () => {
    const { write, run } = sandbox();
    write(".config/Claude/claude_desktop_config.json", { mcpServers: { desk: everything() } });
    write(".cursor/mcp.json", `{\n  // Cursor's file\n  "mcpServers": { "cur": ${JSON.stringify(everything())} }\n}\n`);
    const { code, stdout, stderr } = await run(["tools", "--import", "claude-desktop,cursor"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^mcp_desk_echo\s+mcp-desk\s/m);
    assert.match(stdout, /^mcp_cur_echo\s+mcp-cur\s/m);
  });

  test("mcpwire servers --import shows where each server comes from; our own config wins a clash, with a warning", async () => {
    const { write, run, elsewhere } = sandbox();
    write(".cursor/mcp.json", { mcpServers: { cur: everything(), mine: { command: "not-this-one" } } });
    writeFileSync(join(elsewhere, "mcpwire.yaml"), `mcp_servers:\n  mine:\n    command: node\n    args: [${JSON.stringify(ECHO)}]\n`);
    // About origins, not trust: the project's ./mcpwire.yaml is trusted for the run.
    const [{ code, stdout, stderr }, json] = await Promise.all([
      run(["servers", "--import", "cursor", "--trust-project"]),
      run(["servers", "--import", "cursor", "--json", "--trust-project"]),
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^SERVER\s+STATE\s+TRANSPORT\s+PROTOCOL\s+INFO\s+TOOLS\s+ORIGIN\s+SANDBOX\s+LAST ERROR/m);
    assert.match(stdout, /^cur\s+ready\s+stdio\s.*\scursor ~\/\.cursor\/mcp\.json/m);
    assert.match(stdout, /^mine\s+ready\s+stdio\s.*\s\.\/mcpwire\.yaml/m);
    assert.match(
      stderr,
      /^warning: ~\/\.cursor\/mcp\.json:\d+:\d+: server "mine" of cursor is not imported: \.\/mcpwire\.yaml has a server of that name, which wins$/m,
    );
    const statuses = JSON.parse(json.stdout) as { name: string; origin?: { app: string; file: string } }[];
    assert.equal(statuses.find((status) => status.name === "cur")?.origin?.app, "cursor");
    assert.equal(statuses.find((status) => status.name === "mine")?.origin, undefined);
  });

  test("a broken imported file is reported with file:line:col and the others still start", async () => {
    const { write, run } = sandbox();
    write(".config/Claude/claude_desktop_config.json", { mcpServers: { desk: everything() } });
    write(".gemini/settings.json", `{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n`);
    const { code, stdout, stderr } = await run(["tools", "--import", "gemini-cli,claude-desktop"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^mcp_desk_echo\s/m);
    assert.match(
      stderr,
      /^warning: ~\/\.gemini\/settings\.json:4:5: invalid JSON in gemini-cli's config: expected "," or "}" after a property value, found "\\""; its servers are not imported$/m,
    );
  });

  test("an unknown app is a usage error with a guess", async () => {
    const { run } = sandbox();
    const { code, stderr } = await run(["tools", "--import", "cursorr"]);
    assert.equal(code, 2);
    assert.match(stderr, /^mcpwire: --import: unknown app "cursorr" to import from; did you mean "cursor"\?/m);
  });
});

describe("mcpwire import --list", () => {
  test("shows every app's files, their servers and their problems, starting nothing", async () => {
    const { write, run } = sandbox();
    write(".cursor/mcp.json", { mcpServers: { cur: everything(), odd: { endpoint: "tcp://x" } } });
    write(".vscode-unused", "");
    write(".codex/config.toml", `[mcp_servers.docs]\ncommand = "docs-server"\n\n[mcp_servers.bad\n`);
    const { code, stdout, stderr } = await run(["import", "--list"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^APP\s+SCOPE\s+FILE\s+SERVERS$/m);
    assert.match(stdout, /^cursor\s+user\s+~\/\.cursor\/mcp\.json\s+cur, odd \(disabled\)$/m);
    assert.match(stdout, /^claude-desktop\s+user\s+~\/\.config\/Claude\/claude_desktop_config\.json\s+\(no file\)$/m);
    assert.match(stdout, /^codex\s+user\s+~\/\.codex\/config\.toml\s+\(not read: see below\)$/m);
    assert.match(
      stdout,
      /^ {2}~\/\.cursor\/mcp\.json:\d+:\d+: server "odd" has a shape mcpwire does not know: it needs "command" or "url"; its keys are "endpoint"/m,
    );
    assert.match(stdout, /^ {2}~\/\.codex\/config\.toml:4:\d+: invalid TOML in codex's config: /m);
  });

  test("--json gives app, file, state, servers and problems; names narrow the apps", async () => {
    const { home, write, run } = sandbox();
    write(".codeium/windsurf/mcp_config.json", { mcpServers: { zap: { serverUrl: "https://example.com/sse" } } });
    const { code, stdout, stderr } = await run(["import", "--list", "windsurf", "--json"]);
    assert.equal(code, 0, stderr);
    const list = JSON.parse(stdout) as {
      app: string;
      file: string;
      state: string;
      servers: { name: string; transport: string; imported: boolean }[];
      problems: string[];
    }[];
    assert.deepEqual(list.map((entry) => [entry.app, entry.file, entry.state]), [["windsurf", join(home, ".codeium", "windsurf", "mcp_config.json"), "found"]]);
    assert.deepEqual(list[0]!.servers, [{ name: "zap", transport: "auto", enabled: true, imported: true }]);
    assert.deepEqual(list[0]!.problems, []);
  });

  test("Claude Code's ./.mcp.json that is our own config is shown as such, not as clashes", async () => {
    const { elsewhere, run } = sandbox();
    writeFileSync(join(elsewhere, ".mcp.json"), JSON.stringify({ mcpServers: { p: { command: "node" } } }));
    const { code, stdout, stderr } = await run(["import", "--list", "claude-code", "--trust-project"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^claude-code\s+project\s+\.\/\.mcp\.json\s+p \(your config\)$/m);
    assert.doesNotMatch(stdout, /problems:/);
  });

  test("a VS Code ${input:…} is named with its file and server", async () => {
    const { elsewhere, run } = sandbox();
    mkdirSync(join(elsewhere, ".vscode"));
    writeFileSync(
      join(elsewhere, ".vscode", "mcp.json"),
      `{\n  "inputs": [{ "type": "promptString", "id": "key", "password": true }],\n  "servers": {\n    "api": { "type": "http", "url": "https://example.com/mcp", "headers": { "X-Key": "\${input:key}" } }\n  }\n}\n`,
    );
    const { code, stdout, stderr } = await run(["import", "--list", "vscode", "--trust-project"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^vscode\s+project\s+\.\/\.vscode\/mcp\.json\s+api \(disabled\)$/m);
    assert.match(stdout, /^ {2}\.\/\.vscode\/mcp\.json:4:\d+: server "api": "headers\.X-Key" uses \$\{input:key\}, a value VS Code asks for in a prompt/m);
  });

  test("a project file not approved is listed as such, its servers unbuilt, with the command that approves it", async () => {
    const { elsewhere, run } = sandbox();
    mkdirSync(join(elsewhere, ".vscode"));
    writeFileSync(join(elsewhere, ".vscode", "mcp.json"), JSON.stringify({ servers: { api: { type: "http", url: "https://example.com/mcp" } } }));
    const { code, stdout, stderr } = await run(["import", "--list", "vscode"]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^vscode\s+project\s+\.\/\.vscode\/mcp\.json\s+\(not approved: api; see below\)$/m);
    assert.match(
      stdout,
      /^ {2}\.\/\.vscode\/mcp\.json \(.*\) is vscode's project config, not approved by you yet, so its servers are not imported; approve it with "mcpwire trust \.\/\.vscode\/mcp\.json"/m,
    );
  });
});
