// mcphost's and Claude Code's formats (issue 27): mcphost's files (~/.mcphost.yml, ~/.mcphost.json,
// the legacy ~/.mcp.json) imported in its shape (type local/remote/builtin, array command,
// environment, headers as "Name: value", allowedTools/excludedTools, ${env://VAR}); that shape in
// our own config; hooks in the nested Claude Code form beside ours. Files only under temp dirs.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { importSources } from "../../src/host/config/import-sources.ts";
import { readImports } from "../../src/host/config/imports.ts";
import { loadConfig } from "../../src/host/config/load.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError, type McpwireConfig, type ServerConfig } from "../../src/host/config/types.ts";
import { rejection } from "../support/rejection.ts";

const scratch = mkdtempSync(join(tmpdir(), "mcpwire-mcphost-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;

function sandbox() {
  const root = join(scratch, String(count++));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), TOKEN: "t0k" };
  const write = (base: string, path: string, text: string): string => {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  const load = (path?: string) => loadConfig({ cwd: project, env, imports: ["mcphost"], trust: "all", ...(path ? { path } : {}) });
  return { home, project, env, write, load };
}

function server(config: McpwireConfig, name: string): ServerConfig {
  const found = config.servers.find((candidate) => candidate.name === name);
  assert.ok(found, `server "${name}" in ${config.servers.map((s) => s.name).join(", ")}`);
  return found;
}

const MCPHOST_YAML = `# mcphost's own example shape
mcpServers:
  files:
    type: local
    command: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    environment:
      DEBUG: "true"
      KEY: "\${env://TOKEN}"
      PRICE: "5$"
    allowedTools: ["read_file", "list_directory"]
  search:
    type: remote
    url: "https://api.example.com/mcp"
    headers: ["Authorization: Bearer \${env://TOKEN}", "X-Mode: \${env://MODE:-fast}"]
    excludedTools: ["delete_index"]
  fs-builtin:
    type: builtin
    name: fs
    options:
      allowed_directories: ["/tmp"]
`;

describe("mcphost as an import source", () => {
  test("its files, in mcphost's order: ~/.mcphost.yml, .yaml, .json, then the legacy ~/.mcp.json", () => {
    const { home, env, project } = sandbox();
    const files = importSources("mcphost", { cwd: project, env }).map((source) => [source.file, source.format]);
    assert.deepEqual(files, [
      [join(home, ".mcphost.yml"), "yaml"],
      [join(home, ".mcphost.yaml"), "yaml"],
      [join(home, ".mcphost.json"), "json"],
      [join(home, ".mcp.json"), "json"],
    ]);
  });

  test("~/.mcphost.yml: local with an array command and environment, remote with headers, tool filters; builtin skipped with a warning", async () => {
    const { home, write, load } = sandbox();
    write(home, ".mcphost.yml", MCPHOST_YAML);
    const config = await load();
    const files = server(config, "files");
    assert.equal(files.transport, "stdio");
    assert.equal(files.enabled, true, String(files.error?.message));
    assert.equal(files.command, "npx");
    assert.deepEqual(files.args, ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]);
    assert.deepEqual(files.env, { DEBUG: "true", KEY: "t0k", PRICE: "5$" });
    assert.deepEqual(files.tools, { include: ["read_file", "list_directory"] });
    assert.equal(files.origin?.app, "mcphost");
    const search = server(config, "search");
    assert.equal(search.transport, "http");
    assert.equal(search.url, "https://api.example.com/mcp");
    assert.deepEqual(search.headers, { Authorization: "Bearer t0k", "X-Mode": "fast" });
    assert.deepEqual(search.tools, { exclude: ["delete_index"] });
    assert.equal(config.servers.some((candidate) => candidate.name === "fs-builtin"), false);
    const warning = config.warnings.find((item) => item.server === "fs-builtin");
    assert.ok(warning, config.warnings.map((item) => item.message).join("\n"));
    assert.match(
      warning.message,
      /^~\/\.mcphost\.yml:16:3: server "fs-builtin": mcphost's builtin server "fs" runs inside mcphost, and mcpwire has no such server; it is skipped/,
    );
  });

  test("~/.mcphost.json and the legacy ~/.mcp.json shape (command + args + env) through readImports", async () => {
    const { home, project, env, write } = sandbox();
    write(
      home,
      ".mcphost.json",
      JSON.stringify({ mcpServers: { time: { type: "local", command: ["uvx", "mcp-server-time"], excludedTools: ["convert_time"] } } }, null, 2),
    );
    write(home, ".mcp.json", JSON.stringify({ mcpServers: { old: { command: "node", args: ["server.js"], env: { A: "1" } }, time: { command: "x" } } }));
    const files = await readImports(["mcphost"], { cwd: project, env });
    const found = files.filter((file) => file.state === "found");
    assert.deepEqual(found.map((file) => file.display), ["~/.mcphost.json", "~/.mcp.json"]);
    const time = found[0]!.servers[0]!;
    assert.equal(time.command, "uvx");
    assert.deepEqual(time.args, ["mcp-server-time"]);
    assert.deepEqual(time.tools, { exclude: ["convert_time"] });
    const old = found[1]!.servers.find((item) => item.name === "old")!;
    assert.equal(old.command, "node");
    assert.deepEqual(old.env, { A: "1" });
  });

  test('a header that is not "Name: value" disables its server, positioned at the entry', async () => {
    const { home, write, load } = sandbox();
    write(home, ".mcphost.yml", `mcpServers:\n  bad:\n    type: remote\n    url: https://x.example/mcp\n    headers: ["no colon here"]\n`);
    const config = await load();
    const bad = server(config, "bad");
    assert.equal(bad.enabled, false);
    assert.match(String(bad.error?.message), /^~\/\.mcphost\.yml:5:15: server "bad": "headers\[0\]" must be a header "Name: value"/);
  });
});

describe("mcphost's shape in our own config", () => {
  test("type local with an array command, environment and allowedTools; type remote with a url", () => {
    const config = parseConfig(
      [
        "mcp_servers:",
        "  filesystem:",
        "    type: local",
        "    command: [npx, -y, '@modelcontextprotocol/server-filesystem', /tmp]",
        "    environment: { LEVEL: debug, PORT: 8080 }",
        "    excludedTools: [write_file]",
        "  web:",
        "    type: remote",
        "    url: https://api.example.com/mcp",
        "    headers: ['Authorization: Bearer abc']",
        "",
      ].join("\n"),
      { file: "/tmp/mcpwire.yaml", env: {} },
    );
    assert.deepEqual(config.errors, []);
    const fs = server(config, "filesystem");
    assert.equal(fs.transport, "stdio");
    assert.equal(fs.command, "npx");
    assert.deepEqual(fs.args, ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]);
    assert.deepEqual(fs.env, { LEVEL: "debug", PORT: "8080" });
    assert.deepEqual(fs.tools, { exclude: ["write_file"] });
    const web = server(config, "web");
    assert.equal(web.transport, "http");
    assert.equal(web.url, "https://api.example.com/mcp");
    assert.deepEqual(web.headers, { Authorization: "Bearer abc" });
  });

  test(".mcp.json with mcphost's shape (the issue's failing file) loads; a problem is positioned at mcphost's key", () => {
    const text = `{\n  "mcpServers": {\n    "filesystem": {\n      "type": "local",\n      "command": ["npx", 7]\n    }\n  }\n}\n`;
    const config = parseConfig(text, { file: "/tmp/.mcp.json", env: {} });
    const fs = server(config, "filesystem");
    assert.equal(fs.command, "npx");
    assert.equal(fs.enabled, true, String(fs.error?.message));
    assert.deepEqual(fs.args, ["7"]);
    const bad = parseConfig(`{\n  "mcpServers": {\n    "fs": {\n      "type": "local",\n      "command": [3, "x"]\n    }\n  }\n}\n`, {
      file: "/tmp/.mcp.json",
      env: {},
    });
    assert.match(String(server(bad, "fs").error?.message), /^\/tmp\/\.mcp\.json:5:19: /);
  });
});

describe("hooks in Claude Code's nested form", () => {
  test("each command of a group becomes one of ours with the group's matcher; timeout in seconds", () => {
    const config = parseConfig(
      [
        "mcp_servers: {}",
        "hooks:",
        "  PreToolUse:",
        "    - matcher: 'get-sum'",
        "      hooks:",
        "        - type: command",
        "          command: echo one",
        "          timeout: 30",
        "        - type: command",
        "          command: echo two",
        "    - command: echo ours",
        "  Stop:",
        "    - hooks: [{ type: command, command: echo done }]",
        "",
      ].join("\n"),
      { file: "/tmp/mcpwire.yaml", env: {} },
    );
    assert.deepEqual(config.hooks, {
      PreToolUse: [
        { matcher: "get-sum", command: "echo one", timeoutMs: 30_000 },
        { matcher: "get-sum", command: "echo two" },
        { command: "echo ours" },
      ],
      Stop: [{ command: "echo done" }],
    });
  });

  test("JSON, as Claude Code's settings write it", () => {
    const text = JSON.stringify({
      mcpServers: {},
      hooks: { PostToolUse: [{ matcher: "echo", hooks: [{ type: "command", command: "cat > /dev/null", timeout: 5 }] }] },
    });
    const config = parseConfig(text, { file: "/tmp/.mcp.json", env: {} });
    assert.deepEqual(config.hooks, { PostToolUse: [{ matcher: "echo", command: "cat > /dev/null", timeoutMs: 5000 }] });
  });

  test("an unknown type, or hooks that are not a list, is a config error with file:line:col", () => {
    const bad = (lines: string[]) => {
      try {
        parseConfig(["mcp_servers: {}", "hooks:", "  PreToolUse:", ...lines, ""].join("\n"), { file: "/tmp/mcpwire.yaml", env: {} });
      } catch (error) {
        return error;
      }
      assert.fail("the config loaded");
    };
    const prompt = bad(["    - matcher: x", "      hooks:", "        - type: prompt", "          command: judge it"]);
    assert.ok(prompt instanceof ConfigError && prompt.code === "invalid-config");
    assert.equal(prompt.line, 6);
    assert.equal(prompt.column, 17);
    assert.match(prompt.message, /^\/tmp\/mcpwire\.yaml:6:17: "hooks\.PreToolUse\[0\]\.hooks\[0\]\.type" must be "command".*it is the string "prompt"/);
    const notList = bad(["    - matcher: x", "      hooks: echo"]);
    assert.match(String((notList as Error).message), /^\/tmp\/mcpwire\.yaml:5:14: "hooks\.PreToolUse\[0\]\.hooks" must be a list/);
    const matcher = bad(["    - matcher: 'mcp_(fs'", "      hooks: [{ type: command, command: x }]"]);
    assert.match(String((matcher as Error).message), /^\/tmp\/mcpwire\.yaml:4:16: "hooks\.PreToolUse\[0\]\.matcher" is not a regular expression/);
    const noCommand = bad(["    - hooks: [{ type: command }]"]);
    assert.match(String((noCommand as Error).message), /^\/tmp\/mcpwire\.yaml:4:\d+: "hooks\.PreToolUse\.0\.hooks\.0\.command" must be a shell command/);
  });

  test("loadConfig of a file with nested hooks rejects it the same way", async () => {
    const { project, env } = sandbox();
    const file = join(project, "mcpwire.yaml");
    writeFileSync(file, "mcp_servers: {}\nhooks:\n  Stop:\n    - hooks: [{ type: agent, command: x }]\n");
    const error = await rejection(loadConfig({ cwd: project, env, path: file, trust: "all" }));
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /mcpwire\.yaml:4:\d+: "hooks\.Stop\[0\]\.hooks\[0\]\.type" must be "command"/);
  });
});
