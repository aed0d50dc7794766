// `mcpwire export --to APP [--write]` run as a user runs it, under a temporary HOME: printed and
// written in each app's format and read back by `mcpwire import`, a commented file kept outside
// the added entry, a name that exists refused without --force, and a secret from ${VAR} never
// in stdout, stderr or a written file.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, scratchDir } from "../support/cli-runner.ts";

const scratch = scratchDir("mcpwire-export-cli-");
let count = 0;
const SECRET = "k3y-never-print-me-4711";
const APPS = ["claude-desktop", "cursor", "vscode", "claude-code", "codex", "gemini-cli"] as const;

function sandbox() {
  const root = join(scratch.path, String(count++));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    CODEX_HOME: undefined,
    MY_SECRET: SECRET,
  };
  const config = join(project, "servers.yaml");
  writeFileSync(
    config,
    `mcp_servers:
  tool:
    command: node
    args: [server.mjs, "--key=\${MY_SECRET}"]
    env:
      MY_SECRET: \${MY_SECRET}
      API_TOKEN: \${MY_SECRET}
      MODE: fast
  remote:
    url: https://example.com/mcp
    headers:
      Authorization: Bearer \${MY_SECRET}
      X-Key: \${MY_SECRET}
`,
  );
  const run = (args: string[]) => mcpwire(args, { env, cwd: project });
  const put = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return { home, project, env, config, run, put };
}

/** Every file under `home` (where --write writes), read as text; Deno's own cache (.cache) left out. */
function filesUnder(dir: string): string {
  let text = "";
  for (const name of readdirSync(dir)) {
    if (name === ".cache") continue;
    const path = join(dir, name);
    text += statSync(path).isDirectory() ? filesUnder(path) : readFileSync(path, "utf8");
  }
  return text;
}

describe("mcpwire export", () => {
  test("mcpwire help export prints the verb's usage", async () => {
    const { code, stdout } = await mcpwire(["help", "export"]);
    assert.equal(code, 0);
    assert.match(stdout, /^usage: mcpwire export --to APP/);
    assert.match(stdout, /--write/);
  });

  test("an unknown app is a usage error with the nearest name", async () => {
    const { run, config } = sandbox();
    const { code, stderr } = await run(["export", "--to", "vscod", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /--to vscod: not an app mcpwire exports to; did you mean "vscode"\?/);
  });

  for (const app of APPS) {
    test(`${app}: a secret from \${VAR} is in neither stdout, stderr nor the written file; the written file is imported back`, async () => {
      const { run, config, home } = sandbox();
      // Printing writes nothing: the two runs go side by side.
      const [printed, written] = await Promise.all([
        run(["export", "--to", app, "--config", config]),
        run(["export", "--to", app, "--config", config, "--write"]),
      ]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.ok(!printed.stdout.includes(SECRET) && !printed.stderr.includes(SECRET), printed.stdout + printed.stderr);
      assert.equal(written.code, 0, written.stderr);
      assert.ok(!written.stdout.includes(SECRET) && !written.stderr.includes(SECRET));
      if (app === "claude-desktop") assert.match(written.stderr, /no server to write for Claude Desktop; .* was not changed/);
      else assert.ok(written.stdout.startsWith("added ") && written.stdout.includes(` in ${home}/`), written.stdout);
      assert.ok(!filesUnder(home).includes(SECRET));
      const imported = await run(["import", app, "--json"]);
      assert.equal(imported.code, 0, imported.stderr);
      const names = (JSON.parse(imported.stdout) as { scope: string; servers: { name: string }[] }[]).flatMap((file) =>
        file.servers.map((server) => server.name)
      );
      // Claude Desktop cannot name a variable: the stdio server needs one in an argument, the other is remote.
      assert.deepEqual(names.sort(), app === "claude-desktop" ? [] : app === "codex" ? ["remote"] : ["remote", "tool"]);
    });
  }

  test("--serve exports one entry that launches mcpwire serve with this config, the servers named and those of the command line", async () => {
    const { run, config } = sandbox();
    const [desktop, vscode] = await Promise.all([
      run(["export", "--to", "claude-desktop", "--serve", "tool", "remote", "--config", config]),
      run([
        "export",
        "--to",
        "vscode",
        "--serve",
        "--config",
        config,
        "--http",
        "https://other.example/mcp",
        "--name",
        "other",
        "--stdio",
        "node s.mjs",
        "--sandbox",
      ]),
    ]);
    assert.equal(desktop.code, 0, desktop.stderr);
    assert.ok(!desktop.stdout.includes(SECRET) && !desktop.stderr.includes(SECRET));
    assert.deepEqual(JSON.parse(desktop.stdout), {
      mcpServers: { mcpwire: { command: "npx", args: ["-y", "mcpwire@0.2.0", "serve", "tool", "remote", "--config", config] } },
    });
    assert.equal(vscode.code, 0, vscode.stderr);
    assert.deepEqual(JSON.parse(vscode.stdout).servers.mcpwire.args, [
      "-y",
      "mcpwire@0.2.0",
      "serve",
      "--config",
      config,
      "--http",
      "https://other.example/mcp",
      "--name",
      "other",
      "--stdio",
      "node s.mjs",
      "--sandbox",
    ]);
    const unknown = await run(["export", "--to", "cursor", "--serve", "nope", "--config", config]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no server "nope" is configured/);
  });

  test("--write into a commented Cursor file keeps the rest byte for byte; a name that exists is refused without --force", async () => {
    const { run, config, home, put } = sandbox();
    const head = `{
  // Cursor: my own servers
  "mcpServers": {
    "mine": {
      "command": "my-server" /* keep this */
    }`;
    const tail = `
  }
}
`;
    const file = put(join(home, ".cursor/mcp.json"), head + tail);
    const first = await run(["export", "--to", "cursor", "--config", config, "--write", "remote"]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `added "remote" in ${file} for Cursor\n`);
    const after = readFileSync(file, "utf8");
    assert.ok(after.startsWith(head) && after.endsWith(tail), after);
    assert.match(after.slice(head.length, after.length - tail.length), /^,\n {4}"remote": \{\n {6}"url": "https:\/\/example\.com\/mcp",/);

    const again = await run(["export", "--to", "cursor", "--config", config, "--write", "remote"]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /has a server "remote" already; pass --force to replace it/);
    assert.equal(readFileSync(file, "utf8"), after);

    const forced = await run(["export", "--to", "cursor", "--config", config, "--write", "--force", "remote"]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.stdout, `replaced "remote" in ${file} for Cursor\n`);
    assert.ok(readFileSync(file, "utf8").startsWith(head));
  });

  test("--write --project writes the app's project file; Codex's TOML keeps its comments", async () => {
    const { run, config, project, put } = sandbox();
    const before = '# Codex, by hand\nmodel = "o3"\n';
    const file = put(join(project, ".codex/config.toml"), before);
    const { code, stdout, stderr } = await run(["export", "--to", "codex", "--config", config, "--write", "--project", "remote"]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `added "remote" in ${file} for Codex\n`);
    const after = readFileSync(file, "utf8");
    assert.ok(after.startsWith(before));
    assert.match(after, /\[mcp_servers\.remote\]\nurl = "https:\/\/example\.com\/mcp"\nbearer_token_env_var = "MY_SECRET"\n/);
    assert.ok(!existsSync(join(project, "servers.yaml.tmp")));
  });

  test("without --write nothing is written, and an ad-hoc --stdio server is exported too", async () => {
    const { run, home } = sandbox();
    const { code, stdout, stderr } = await run(["export", "--to", "vscode", "--stdio", "node echo-server.mjs --verbose", "--name", "echo"]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(JSON.parse(stdout), { servers: { echo: { type: "stdio", command: "node", args: ["echo-server.mjs", "--verbose"] } } });
    assert.equal(filesUnder(home), "");
  });

  test("servers imported from another app are exported with their variables in the target's syntax", async () => {
    const { run, home, put, project } = sandbox();
    put(
      join(home, ".config/Code/User/mcp.json"),
      JSON.stringify({ servers: { gh: { type: "http", url: "https://api.example/mcp", headers: { Authorization: "Bearer ${env:MY_SECRET}" } } } }),
    );
    const empty = put(join(project, "empty.yaml"), "mcp_servers: {}\nextensions: {}\n");
    const { code, stdout, stderr } = await run(["export", "--to", "claude-code", "--config", empty, "--import", "vscode"]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(JSON.parse(stdout), {
      mcpServers: { gh: { type: "http", url: "https://api.example/mcp", headers: { Authorization: "Bearer ${MY_SECRET}" } } },
    });
    assert.ok(!stdout.includes(SECRET) && !stderr.includes(SECRET));
  });
});
