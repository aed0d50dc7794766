// Export to other apps' formats (host/config/export-formats.ts, export-file.ts): for each app the
// servers exported, written to the app's own file under a temporary HOME and read back by our
// own importer come out the same; a `${VAR}` is written as the app's variable, never its value;
// merging into an existing file keeps the rest of it.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { exportTarget, mergeJson, mergeToml } from "../../src/host/config/export-file.ts";
import { EXPORT_APPS, type ExportApp, exportDocument, exportServers } from "../../src/host/config/export-formats.ts";
import { readImports } from "../../src/host/config/imports.ts";
import { interpolationParts } from "../../src/host/config/interpolate.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError, type ServerConfig } from "../../src/host/config/types.ts";

const scratch = mkdtempSync(join(tmpdir(), "mcpwire-export-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;

const SECRET = "s3cret-token-value-0123456789";

function sandbox() {
  const root = join(scratch, String(count++));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), MY_TOKEN: SECRET, API_KEY: SECRET, TEAM: "blue" };
  return { home, project, env };
}

/** What the apps can all say of a server, per app: the config each round trip starts from. */
function configFor(app: ExportApp): string {
  const cwd = ["vscode", "gemini-cli", "codex"].includes(app) ? "    cwd: /srv/tools\n" : "";
  // Codex passes a variable on under its own name only; Claude Desktop has no variables at all.
  const env = app === "claude-desktop"
    ? "      PLAIN: hello\n"
    : app === "codex"
    ? "      API_KEY: ${API_KEY}\n      PLAIN: hello\n"
    : "      API_KEY: ${MY_TOKEN}\n      PLAIN: hello\n";
  const remote = app === "claude-desktop" ? "" : `  remote:
    url: https://example.com/mcp
    headers:
      Authorization: Bearer \${MY_TOKEN}
      X-Team: team-\${TEAM}
`;
  const codexHeaders = app === "codex"
    ? `  remote:
    url: https://example.com/mcp
    headers:
      Authorization: Bearer \${MY_TOKEN}
      X-Team: \${TEAM}
      X-Plain: plain
`
    : remote;
  return `mcp_servers:
  local:
    command: node
    args: [server.mjs, --flag, "100%"]
    env:
${env}${cwd}${codexHeaders}`;
}

/** The parts of a server an import reads back. */
function shape(server: ServerConfig) {
  return { command: server.command, args: server.args, env: server.env, cwd: server.cwd, url: server.url, headers: server.headers, enabled: server.enabled };
}

describe("export to each app, read back by --import", () => {
  for (const app of EXPORT_APPS) {
    test(`${app}: the servers exported and imported again are the same, and the secret is written only as a reference`, async () => {
      const { home, project, env } = sandbox();
      const config = parseConfig(configFor(app), { file: join(project, "mcpwire.yaml"), env });
      assert.deepEqual(config.errors, []);
      const exported = exportServers(app, config.servers);
      assert.deepEqual(exported.warnings, []);
      const document = await exportDocument(app, exported.servers);
      assert.ok(!document.includes(SECRET), document);
      const file = exportTarget(app, { cwd: project, env, project: false }) ?? assert.fail(`${app} has a user file`);
      assert.ok(file.startsWith(home), file);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, document);
      const [imported] = (await readImports([app], { cwd: project, env })).filter((each) => each.file === file && each.scope === "user");
      assert.equal(imported?.state, "found");
      assert.deepEqual(imported.problems.map((problem) => problem.message), []);
      assert.deepEqual(imported.servers.map((server) => server.name), config.servers.map((server) => server.name));
      for (const [index, server] of config.servers.entries()) assert.deepEqual(shape(imported.servers[index]!), shape(server));
    });
  }

  test("the transport comes back where the app names it: http and sse for Claude Code and VS Code, httpUrl and url for Gemini CLI", async () => {
    const { project, env } = sandbox();
    const text = "mcp_servers:\n  h:\n    url: https://a.example/mcp\n    transport: http\n  s:\n    url: https://b.example/sse\n    transport: sse\n";
    const config = parseConfig(text, { file: join(project, "mcpwire.yaml"), env });
    for (const app of ["claude-code", "vscode", "gemini-cli"] as const) {
      const document = await exportDocument(app, exportServers(app, config.servers).servers);
      const file = exportTarget(app, { cwd: project, env, project: false })!;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, document);
      const [imported] = (await readImports([app], { cwd: project, env })).filter((each) => each.file === file && each.scope === "user");
      assert.deepEqual(imported?.servers.map((server) => server.transport), ["http", "sse"], app);
    }
  });
});

describe("what an app cannot express", () => {
  test("a ${VAR} for an app without variables is left out with a warning naming the server and field, never resolved", () => {
    const { project, env } = sandbox();
    const config = parseConfig("mcp_servers:\n  gh:\n    command: gh-server\n    env:\n      GITHUB_TOKEN: ${MY_TOKEN}\n      MODE: fast\n", {
      file: join(project, "mcpwire.yaml"),
      env,
    });
    const exported = exportServers("claude-desktop", config.servers);
    assert.deepEqual(exported.servers, [{ name: "gh", entry: { command: "gh-server", env: { MODE: "fast" } } }]);
    assert.equal(exported.warnings.length, 1);
    assert.match(exported.warnings[0]!, /^server "gh": "env\.GITHUB_TOKEN" is left out: comes from \$\{MY_TOKEN\}, and Claude Desktop's file has no variables/);
    assert.ok(!JSON.stringify([exported.servers, exported.warnings]).includes(SECRET));
  });

  test("a key the app has no place for is named in a warning; a disabled server is left out, except for Codex's enabled = false", () => {
    const { project, env } = sandbox();
    const config = parseConfig(
      "mcp_servers:\n  a:\n    command: a\n    naming: '{tool}'\n    tools: { include: [x] }\n  b:\n    command: b\n    enabled: false\n",
      {
        file: join(project, "mcpwire.yaml"),
        env,
      },
    );
    const cursor = exportServers("cursor", config.servers);
    assert.deepEqual(cursor.servers.map((server) => server.name), ["a"]);
    assert.deepEqual(cursor.warnings, [
      `server "a": "naming" is left out: Cursor has no such setting`,
      `server "a": "tools" is left out: Cursor has no such setting`,
      `server "b": is left out: it is disabled (enabled: false), and Cursor has no way to say so`,
    ]);
    const codex = exportServers("codex", config.servers);
    assert.deepEqual(codex.servers, [
      { name: "a", entry: { command: "a", enabled_tools: ["x"] } },
      { name: "b", entry: { command: "b", enabled: false } },
    ]);
    assert.deepEqual(codex.warnings, [`server "a": "naming" is left out: Codex has no such setting`]);
  });
});

describe("merging into the app's file", () => {
  test("JSON with comments: the rest of the file is kept byte for byte, and an existing name is refused without force", () => {
    const head = `{
  // my servers, by hand
  "mcpServers": {
    /* the one I keep */
    "keep": { "command": "keep-me",   "args": ["x"] }`;
    const tail = `
  },
  "other": [1, 2, 3], // a trailing comment
}
`;
    const before = head + tail;
    const { text } = mergeJson(before, "/x/mcp.json", "mcpServers", [{ name: "new", entry: { command: "n" } }], false);
    assert.ok(text.startsWith(head) && text.endsWith(tail), text);
    assert.equal(text.slice(head.length, text.length - tail.length), `,\n    "new": {\n      "command": "n"\n    }`);
    assert.throws(
      () => mergeJson(before, "/x/mcp.json", "mcpServers", [{ name: "keep", entry: { command: "other" } }], false),
      (error: unknown) => error instanceof ConfigError && /has a server "keep" already; pass --force/.test(error.message),
    );
    const forced = mergeJson(before, "/x/mcp.json", "mcpServers", [{ name: "keep", entry: { command: "other" } }], true);
    assert.deepEqual(forced.replaced, ["keep"]);
    assert.ok(forced.text.startsWith(`{\n  // my servers, by hand\n  "mcpServers": {\n    /* the one I keep */\n    "keep": `) && forced.text.endsWith(tail));
  });

  test("TOML: the servers are appended as tables, the file's comments kept; --force cuts the old tables only", async () => {
    const before = `# Codex settings
model = "o3" # the model

[mcp_servers.keep]
command = "keep-me"

[mcp_servers.old]
command = "old"
[mcp_servers.old.env]
A = "1"

# the profile follows
[profiles.fast]
model = "o4-mini"
`;
    const { text } = await mergeToml(before, "/x/config.toml", [{ name: "new", entry: { command: "n", env_vars: ["K"] } }], false);
    assert.ok(text.startsWith(before));
    assert.equal(text.slice(before.length), `\n[mcp_servers.new]\ncommand = "n"\nenv_vars = [ "K" ]\n\n`);
    await assert.rejects(mergeToml(before, "/x/config.toml", [{ name: "old", entry: { command: "o2" } }], false), /has a server "old" already/);
    const forced = await mergeToml(before, "/x/config.toml", [{ name: "old", entry: { command: "o2" } }], true);
    assert.ok(
      forced.text.startsWith(
        `# Codex settings\nmodel = "o3" # the model\n\n[mcp_servers.keep]\ncommand = "keep-me"\n\n\n# the profile follows\n[profiles.fast]\n`,
      ),
      forced.text,
    );
    assert.ok(forced.text.endsWith(`[mcp_servers.old]\ncommand = "o2"\n\n`));
    assert.ok(!forced.text.includes(`A = "1"`));
  });
});

describe("a config string as written, in pieces", () => {
  test("literal text ($$ as one $), ${NAME} and ${NAME:-default} with its default as written; nothing is read", () => {
    assert.deepEqual(interpolationParts("Bearer ${TOKEN}"), [{ text: "Bearer " }, { variable: "TOKEN" }]);
    assert.deepEqual(interpolationParts("a$$b $HOME ${X:-${Y:-z}}!"), [{ text: "a$b $HOME " }, { variable: "X", fallback: "${Y:-z}" }, { text: "!" }]);
    assert.deepEqual(interpolationParts("plain"), [{ text: "plain" }]);
    assert.throws(() => interpolationParts("${1X}"), /not a variable reference/);
    assert.throws(() => interpolationParts("${OPEN"), /not a variable reference/);
  });
});
