// Config imports: the servers of other apps' config files (fixtures under
// test/fixtures/config/imports/, placed under a temporary HOME and project, never the real ones)
// read in each app's shape, with origins, positioned problems and our own config winning clashes.

import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { importSources } from "../../src/host/config/import-sources.ts";
import { readImports, withoutComments } from "../../src/host/config/imports.ts";
import { configSearchPaths, loadConfig } from "../../src/host/config/load.ts";
import { ConfigError, type McpwireConfig, type ServerConfig } from "../../src/host/config/types.ts";

const fixtures = fileURLToPath(new URL("../fixtures/config/imports/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "mcpwire-imports-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;

/** A fresh HOME and project directory; `place` copies a fixture to a path under one of them. */
function sandbox() {
  const root = join(scratch, String(count++));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const place = (base: string, path: string, fixture: string): string => {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    const text = readFileSync(join(fixtures, fixture), "utf8").replaceAll("__PROJECT__", project);
    writeFileSync(file, text);
    return file;
  };
  const write = (base: string, path: string, text: string): string => {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  // These tests are about each app's shape, not project trust (test/host/project-trust.test.ts):
  // the project's files (./.cursor/mcp.json, …) are trusted for them.
  const load = (imports: string[], extraEnv: Record<string, string> = {}, path?: string) =>
    loadConfig({ cwd: project, env: { ...env, ...extraEnv }, imports, trust: "all", ...(path ? { path } : {}) });
  return { home, project, env, place, write, load };
}

function server(config: McpwireConfig, name: string): ServerConfig {
  const found = config.servers.find((candidate) => candidate.name === name);
  assert.ok(found, `server "${name}" in ${config.servers.map((s) => s.name).join(", ")}`);
  return found;
}

function warningsText(config: McpwireConfig): string {
  return config.warnings.map((warning) => warning.message).join("\n");
}

describe("~/.mcp.json in the lookup order", () => {
  test("a user with only ~/.mcp.json gets its servers from any directory", async () => {
    const { home, project, env, write } = sandbox();
    write(home, ".mcp.json", JSON.stringify({ mcpServers: { everything: { command: "node", args: ["x.js"] } } }));
    const config = await loadConfig({ cwd: project, env });
    assert.equal(config.file, join(home, ".mcp.json"));
    assert.deepEqual(config.servers.map((s) => s.name), ["everything"]);
  });

  test("it comes after ./.mcp.json and before the XDG file, once when the working directory is HOME", () => {
    const { home, project, env } = sandbox();
    assert.deepEqual(configSearchPaths({ cwd: project, env }), [
      join(project, "mcpwire.yaml"),
      join(project, ".mcp.json"),
      join(home, ".mcp.json"),
      join(home, ".config", "mcpwire", "config.yaml"),
    ]);
    assert.deepEqual(configSearchPaths({ cwd: home, env }), [
      join(home, "mcpwire.yaml"),
      join(home, ".mcp.json"),
      join(home, ".config", "mcpwire", "config.yaml"),
    ]);
  });

  test("./.mcp.json wins over ~/.mcp.json; the no-config message lists ~/.mcp.json", async () => {
    const { home, project, env, write } = sandbox();
    write(home, ".mcp.json", JSON.stringify({ mcpServers: { from_home: { command: "node" } } }));
    write(project, ".mcp.json", JSON.stringify({ mcpServers: { from_project: { command: "node" } } }));
    // Approved (trust: "all"): this test is about the lookup order.
    assert.deepEqual((await loadConfig({ cwd: project, env, trust: "all" })).servers.map((s) => s.name), ["from_project"]);
    const empty = sandbox();
    await assert.rejects(loadConfig({ cwd: empty.project, env: empty.env }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.ok(error.message.includes(`${join(empty.home, ".mcp.json")}, ${join(empty.home, ".config", "mcpwire", "config.yaml")}`), error.message);
      assert.match(error.message, /--import APP/);
      return true;
    });
  });
});

describe("each app's shape", () => {
  test("claude-desktop: mcpServers, strings literal ($ stays $), origin kept", async () => {
    const { home, load } = sandbox();
    const file = joinPath(home, ".config/Claude/claude_desktop_config.json");
    sandboxPlace(file, "claude_desktop_config.json");
    const config = await load(["claude-desktop"]);
    const desk = server(config, "desktop-files");
    assert.equal(desk.enabled, true, desk.error?.message);
    assert.equal(desk.command, "npx");
    assert.deepEqual(desk.args, ["-y", "@modelcontextprotocol/server-filesystem", "/tmp/$HOME"]);
    assert.deepEqual(desk.env, { PRICE: "5$" });
    assert.deepEqual(desk.origin, { app: "claude-desktop", file });
    assert.equal(config.file, undefined, "no own config: the imports are the config");
  });

  test("claude-code: the project's entry in ~/.claude.json wins over the user's, ${VAR:-default} as in Claude Code", async () => {
    const { home, project, place, load } = sandbox();
    place(home, ".claude.json", "claude.json");
    place(project, ".mcp.json", "project-mcp.json");
    const config = await load(["claude-code"], { API_TOKEN: "t0k" });
    // ./.mcp.json is our own config here (the lookup finds it): read once, as ours, no clash with itself.
    assert.equal(config.file, join(project, ".mcp.json"));
    assert.deepEqual(config.servers.map((s) => s.name), ["project-tool", "shared", "code-remote", "code-sse"]);
    assert.equal(server(config, "project-tool").origin, undefined);
    assert.doesNotMatch(warningsText(config), /project-tool/);
    assert.equal(server(config, "shared").command, "local-wins");
    assert.match(
      warningsText(config),
      /~\/\.claude\.json:\d+:\d+: server "shared" of claude-code is not imported: claude-code \(~\/\.claude\.json\) has a server of that name/,
    );
    assert.deepEqual(server(config, "project-tool").env, { MODE: "dev" });
    const remote = server(config, "code-remote");
    assert.equal(remote.transport, "http");
    assert.equal(remote.url, "https://mcp.example.com/eu/mcp");
    assert.deepEqual(remote.headers, { Authorization: "Bearer t0k" });
    assert.equal(server(config, "code-sse").transport, "sse");
    assert.ok(!config.servers.some((s) => s.name === "elsewhere"), "another project's servers are not imported");
  });

  test("claude-code: the project's ./.mcp.json is imported when our own config is another file", async () => {
    const { project, place, write, load } = sandbox();
    place(project, ".mcp.json", "project-mcp.json");
    const own = write(project, "mcpwire.yaml", "mcp_servers:\n  mine:\n    command: node\n");
    const config = await load(["claude-code"], { MODE: "prod" });
    assert.equal(config.file, own);
    assert.deepEqual(config.servers.map((s) => [s.name, s.origin?.app]), [["mine", undefined], ["project-tool", "claude-code"]]);
    assert.deepEqual(server(config, "project-tool").env, { MODE: "prod" });
  });

  test("claude-code: an unset ${VAR} disables that server, positioned in ~/.claude.json", async () => {
    const { home, place, load } = sandbox();
    place(home, ".claude.json", "claude.json");
    const config = await load(["claude-code"]);
    const remote = server(config, "code-remote");
    assert.equal(remote.enabled, false);
    assert.match(remote.error?.message ?? "", /^~\/\.claude\.json:19:\d+: server "code-remote": "headers\.Authorization": \$\{API_TOKEN\} is not set/);
    assert.equal(server(config, "code-sse").enabled, true, "the others still load");
  });

  test("cursor: ${env:NAME}, ${workspaceFolder} and ${userHome} resolved; envFile is warned about", async () => {
    const { home, project, place, load } = sandbox();
    place(project, ".cursor/mcp.json", "cursor-mcp.json");
    const config = await load(["cursor"], { GIT_TOKEN: "g1t" });
    const local = server(config, "cursor-local");
    assert.equal(local.enabled, true, local.error?.message);
    assert.deepEqual(local.args, ["mcp-server-git", "--repository", project]);
    assert.deepEqual(local.env, { TOKEN: "g1t" });
    assert.deepEqual(server(config, "cursor-remote").headers, { "X-Home": home });
    assert.match(warningsText(config), /^\.\/\.cursor\/mcp\.json:7:7: server "cursor-local": "envFile" is not read by mcpwire/m);
    assert.deepEqual(local.origin, { app: "cursor", file: join(project, ".cursor", "mcp.json") });
  });

  test('vscode: "servers", comments and trailing commas, type stdio/http/sse; ${input:…} disables its server with a clear message', async () => {
    const { home, project, place, load } = sandbox();
    place(project, ".vscode/mcp.json", "vscode-mcp.json");
    place(home, ".config/Code/User/settings.json", "vscode-settings.json");
    const config = await load(["vscode"]);
    const github = server(config, "github");
    assert.equal(github.enabled, false);
    assert.equal(github.transport, "http");
    assert.match(
      github.error?.message ?? "",
      /^\.\/\.vscode\/mcp\.json:10:\d+: server "github": "headers\.Authorization" uses \$\{input:github-token\}, a value VS Code asks for in a prompt/,
    );
    assert.match(github.error?.message ?? "", /define this server in your mcpwire config/);
    const memory = server(config, "memory");
    assert.equal(memory.enabled, true, memory.error?.message);
    assert.equal(memory.transport, "stdio");
    assert.deepEqual(memory.env, { MEMORY_FILE_PATH: `${project}/memory.jsonl` });
    assert.equal(server(config, "events").transport, "sse");
    assert.equal(server(config, "from-settings").command, "node");
    assert.equal(server(config, "from-settings").origin?.file, join(home, ".config", "Code", "User", "settings.json"));
  });

  test("vscode: a transport we do not know is a shape we do not know, naming the file and the key", async () => {
    const { project, place, load } = sandbox();
    place(project, ".vscode/mcp.json", "vscode-mcp.json");
    const config = await load(["vscode"]);
    const socket = server(config, "socket");
    assert.equal(socket.enabled, false);
    assert.match(socket.error?.message ?? "", /^\.\/\.vscode\/mcp\.json:19:25: server "socket": "type" is "websocket", a transport mcpwire does not know/);
    assert.equal(socket.error?.key, "type");
  });

  test("windsurf: serverUrl, disabled and disabledTools", async () => {
    const { home, place, load } = sandbox();
    place(home, ".codeium/windsurf/mcp_config.json", "windsurf-mcp_config.json");
    const config = await load(["windsurf"], { ZAPIER_KEY: "z" });
    const zapier = server(config, "zapier");
    assert.equal(zapier.url, "https://actions.zapier.com/mcp/KEY/sse");
    assert.equal(zapier.transport, "auto");
    assert.deepEqual(zapier.headers, { "X-Key": "z" });
    const off = server(config, "off");
    assert.equal(off.enabled, false);
    assert.equal(off.error, undefined, "turned off, not broken");
    assert.deepEqual(off.tools, { exclude: ["rm"] });
  });

  test("gemini-cli: $VAR and ${VAR}, timeout in ms, includeTools/excludeTools, httpUrl is http and url is sse", async () => {
    const { home, project, place, load } = sandbox();
    place(home, ".gemini/settings.json", "gemini-settings.json");
    const config = await load(["gemini-cli"], { MY_API_TOKEN: "k", DB_URL: "db://x" });
    const stdio = server(config, "gemini-stdio");
    assert.equal(stdio.enabled, true, stdio.error?.message);
    assert.deepEqual(stdio.env, { API_KEY: "k", DB: "db://x" });
    assert.equal(stdio.timeoutMs, 15_000);
    assert.deepEqual(stdio.tools, { include: ["safe_tool"], exclude: ["dangerous_tool"] });
    assert.equal(stdio.cwd, join(project, "servers", "python"), "a relative cwd is the project's");
    assert.equal(server(config, "gemini-http").transport, "http");
    assert.equal(server(config, "gemini-sse").transport, "sse");
    assert.doesNotMatch(warningsText(config), /trust/, "gemini's own keys are ignored quietly");
  });

  test("codex: [mcp_servers.NAME] in TOML, with env_vars, timeouts, tool lists, bearer_token_env_var and headers", async () => {
    const { home, place, load } = sandbox();
    const file = place(home, ".codex/config.toml", "codex-config.toml");
    const config = await load(["codex"], { PASSED_ON: "yes", FIGMA_TOKEN: "fig", FIGMA_WORKSPACE: "ws" });
    const docs = server(config, "docs");
    assert.equal(docs.enabled, true, docs.error?.message);
    assert.deepEqual(docs.args, ["--port", "4000"]);
    assert.deepEqual(docs.env, { PASSED_ON: "yes", API_KEY: "literal$value" });
    assert.equal(docs.connectTimeoutMs, 20_000);
    assert.equal(docs.timeoutMs, 30_000);
    assert.deepEqual(docs.tools, { include: ["search", "summarize"], exclude: ["search"] });
    const figma = server(config, "figma");
    assert.equal(figma.transport, "http");
    assert.deepEqual(figma.headers, { Authorization: "Bearer fig", "X-Team": "core", "X-Workspace": "ws" });
    assert.equal(server(config, "parked").enabled, false);
    assert.deepEqual(docs.origin, { app: "codex", file });
  });

  test("codex: CODEX_HOME moves the file; an unset bearer variable is named at its key", async () => {
    const { home, place, load } = sandbox();
    const codexHome = join(home, "elsewhere");
    place(codexHome, "config.toml", "codex-config.toml");
    const config = await load(["codex"], { CODEX_HOME: codexHome });
    const figma = server(config, "figma");
    assert.equal(figma.enabled, false);
    assert.match(figma.error?.message ?? "", /^~\/elsewhere\/config\.toml:15:1: server "figma": "headers\.Authorization": \$\{FIGMA_TOKEN\} is not set/);
  });
});

describe("bad input", () => {
  test("a file that is not JSON is reported with file:line:col and the other apps still load", async () => {
    const { home, project, place, load } = sandbox();
    place(home, ".cursor/mcp.json", "broken.json");
    place(project, ".mcp.json", "project-mcp.json");
    const config = await load(["cursor", "claude-code"]);
    assert.deepEqual(config.servers.map((s) => s.name), ["project-tool"]);
    assert.match(
      warningsText(config),
      /^~\/\.cursor\/mcp\.json:4:5: invalid JSON in cursor's config: expected "," or "}" after a property value, found "\\""; its servers are not imported$/m,
    );
    const error = config.warnings.find((warning) => warning.file === join(home, ".cursor", "mcp.json"));
    assert.equal(error?.line, 4);
    assert.equal(error?.column, 5);
  });

  test("a file that is not TOML is reported with file:line:col", async () => {
    const { home, place, load } = sandbox();
    place(home, ".codex/config.toml", "broken.toml");
    const config = await load(["codex"]);
    assert.deepEqual(config.servers, []);
    assert.match(warningsText(config), /^~\/\.codex\/config\.toml:4:1: invalid TOML in codex's config: .+; its servers are not imported$/m);
  });

  test("a server shape we do not know is reported naming the file and the key; the others load", async () => {
    const { home, place, load } = sandbox();
    place(home, ".cursor/mcp.json", "unknown-shape.json");
    const config = await load(["cursor"]);
    assert.equal(server(config, "fine").enabled, true);
    const mystery = server(config, "mystery");
    assert.equal(mystery.enabled, false);
    assert.match(
      mystery.error?.message ?? "",
      /^~\/\.cursor\/mcp\.json:4:5: server "mystery" has a shape mcpwire does not know: it needs "command" or "url"; its keys are "endpoint", "protocol"$/,
    );
    assert.match(
      server(config, "scalar").error?.message ?? "",
      /^~\/\.cursor\/mcp\.json:5:15: server "scalar" must be a mapping of its settings .*; it is the string "node server\.js"$/,
    );
    assert.match(warningsText(config), /server "mystery": "endpoint" means nothing to mcpwire; it is ignored/);
  });

  test("servers under the key in a shape we do not know: the file and the key are named", async () => {
    const { home, write, load } = sandbox();
    write(home, ".gemini/settings.json", `{\n  "mcpServers": ["a", "b"]\n}\n`);
    const config = await load(["gemini-cli"]);
    assert.match(
      warningsText(config),
      /^~\/\.gemini\/settings\.json:2:17: "mcpServers" must be a mapping of server names to their settings; it is an array; no server is imported from this file$/m,
    );
  });

  test("our own config wins a name clash, with a warning naming both", async () => {
    const { home, project, place, write, load } = sandbox();
    write(project, "mcpwire.yaml", "mcp_servers:\n  cursor-local:\n    command: mine\n");
    place(home, ".cursor/mcp.json", "cursor-mcp.json");
    const config = await load(["cursor"], { GIT_TOKEN: "x" });
    assert.equal(server(config, "cursor-local").command, "mine");
    assert.equal(server(config, "cursor-local").origin, undefined);
    assert.equal(config.servers.filter((s) => s.name === "cursor-local").length, 1);
    assert.match(
      warningsText(config),
      /^~\/\.cursor\/mcp\.json:3:5: server "cursor-local" of cursor is not imported: \.\/mcpwire\.yaml has a server of that name, which wins$/m,
    );
    assert.doesNotMatch(warningsText(config), /envFile/, "a skipped server's own problems are not reported");
  });

  test("two apps with one name: the first app named wins, with a warning", async () => {
    const { home, write, load } = sandbox();
    write(home, ".cursor/mcp.json", JSON.stringify({ mcpServers: { twin: { command: "from-cursor" } } }));
    write(home, ".gemini/settings.json", JSON.stringify({ mcpServers: { twin: { command: "from-gemini" } } }));
    const config = await load(["gemini-cli", "cursor"]);
    assert.equal(server(config, "twin").command, "from-gemini");
    assert.match(warningsText(config), /server "twin" of cursor is not imported: gemini-cli \(~\/\.gemini\/settings\.json\) has a server of that name/);
  });

  test("an app with no file at all is a warning, except under `all`", async () => {
    const { load } = sandbox();
    const named = await load(["windsurf"]);
    assert.match(warningsText(named), /^windsurf: no config file found to import servers from; looked for ~\/\.codeium\/windsurf\/mcp_config\.json$/m);
    const all = await load(["all"]);
    assert.deepEqual(all.warnings, []);
  });

  test("an unknown app name: a ConfigError with a guess from --import, a positioned warning from imports:", async () => {
    const { project, write, load } = sandbox();
    await assert.rejects(load(["cursr"]), /unknown app "cursr" to import from; did you mean "cursor"\?/);
    const file = write(project, "mcpwire.yaml", "imports: [cursor, windsurff]\nmcp_servers:\n  a:\n    command: node\n");
    const config = await load([], {}, file);
    assert.deepEqual(config.imports, ["cursor"]);
    assert.match(warningsText(config), /mcpwire\.yaml:1:19: unknown app "windsurff" to import from; did you mean "windsurf"\? .*it is ignored/);
  });

  test("imports: that is not a list of names is an error for the file", async () => {
    const { project, write, load } = sandbox();
    const file = write(project, "mcpwire.yaml", "imports:\n  cursor: true\nmcp_servers: {}\n");
    await assert.rejects(load([], {}, file), /mcpwire\.yaml:2:3: "imports" must be a list of apps to import servers from .*; it is a mapping/);
  });
});

describe("imports: in our config", () => {
  test("imports: [claude-desktop, cursor] in YAML adds their servers after ours", async () => {
    const { home, project, place, write, load } = sandbox();
    place(home, ".config/Claude/claude_desktop_config.json", "claude_desktop_config.json");
    place(home, ".cursor/mcp.json", "cursor-mcp.json");
    const file = write(project, "mcpwire.yaml", "imports: [claude-desktop, cursor]\nmcp_servers:\n  mine:\n    command: node\n");
    const config = await load([], { GIT_TOKEN: "t" }, file);
    assert.deepEqual(config.servers.map((s) => s.name), ["mine", "desktop-files", "cursor-local", "cursor-remote"]);
    assert.deepEqual(config.servers.map((s) => s.origin?.app), [undefined, "claude-desktop", "cursor", "cursor"]);
  });
});

describe("where the files are", () => {
  test("macOS paths: Application Support for Claude Desktop and VS Code", () => {
    const env = { HOME: "/Users/ada" };
    assert.deepEqual(importSources("claude-desktop", { cwd: "/p", env, os: "darwin" }).map((s) => s.file), [
      "/Users/ada/Library/Application Support/Claude/claude_desktop_config.json",
    ]);
    assert.deepEqual(importSources("vscode", { cwd: "/p", env, os: "darwin" }).map((s) => s.file), [
      "/p/.vscode/mcp.json",
      "/Users/ada/Library/Application Support/Code/User/mcp.json",
      "/Users/ada/Library/Application Support/Code/User/settings.json",
    ]);
  });

  test("Linux paths follow XDG_CONFIG_HOME; the others follow HOME", () => {
    const env = { HOME: "/home/ada", XDG_CONFIG_HOME: "/xdg" };
    assert.deepEqual(importSources("claude-desktop", { cwd: "/p", env, os: "linux" }).map((s) => s.file), ["/xdg/Claude/claude_desktop_config.json"]);
    assert.deepEqual(importSources("cursor", { cwd: "/p", env, os: "linux" }).map((s) => s.file), ["/p/.cursor/mcp.json", "/home/ada/.cursor/mcp.json"]);
    assert.deepEqual(importSources("codex", { cwd: "/p", env, os: "linux" }).map((s) => s.file), ["/p/.codex/config.toml", "/home/ada/.codex/config.toml"]);
    assert.deepEqual(importSources("claude-code", { cwd: "/p", env, os: "linux" }).map((s) => [s.file, s.scope, s.serversPath.join(".")]), [
      ["/home/ada/.claude.json", "local", "projects./p.mcpServers"],
      ["/p/.mcp.json", "project", "mcpServers"],
      ["/home/ada/.claude.json", "user", "mcpServers"],
    ]);
  });

  test("readImports reports a missing file as missing, not as a problem", async () => {
    const { project, env } = sandbox();
    const files = await readImports(["windsurf"], { cwd: project, env });
    assert.deepEqual(files.map((file) => [file.state, file.problems.length]), [["missing", 0]]);
  });

  test("comments and trailing commas are blanked without moving anything", () => {
    const text = `{ "a": "//not a comment", // gone\n  "b": [1, 2, /* gone */ ], }`;
    const out = withoutComments(text);
    assert.equal(out.length, text.length);
    assert.deepEqual(JSON.parse(out), { a: "//not a comment", b: [1, 2] });
    assert.equal(out.indexOf('"b"'), text.indexOf('"b"'));
  });
});

function joinPath(base: string, path: string): string {
  return join(base, ...path.split("/"));
}

function sandboxPlace(file: string, fixture: string): void {
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(join(fixtures, fixture), file);
}
