// Tests of config loading: YAML (`mcp_servers:`) and JSON (`mcpServers`), positioned errors and
// warnings, `${VAR}` interpolation, transport inference, defaults, the lookup order, unreadable files.

import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { configSearchPaths, loadConfig } from "../../src/host/config/load.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { SERVER_KEYS } from "../../src/host/config/schema.ts";
import { ConfigError, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, type McpwireConfig, type ServerConfig } from "../../src/host/config/types.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/config/", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

function yaml(text: string, env: Record<string, string> = {}): McpwireConfig {
  return parseConfig(text, { file: "/etc/mcpwire/mcpwire.yaml", displayName: "mcpwire.yaml", env });
}

function json(text: string, env: Record<string, string> = {}): McpwireConfig {
  return parseConfig(text, { file: "/etc/mcpwire/.mcp.json", displayName: ".mcp.json", env });
}

function server(config: McpwireConfig, name: string): ServerConfig {
  const found = config.servers.find((candidate) => candidate.name === name);
  assert.ok(found, `no server "${name}"; got ${config.servers.map((s) => s.name).join(", ")}`);
  return found;
}

function fatal(parse: () => unknown): ConfigError {
  try {
    parse();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${error}`);
    return error;
  }
  assert.fail("no ConfigError was thrown");
}

async function fatalAsync(load: () => Promise<unknown>): Promise<ConfigError> {
  try {
    await load();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${error}`);
    return error;
  }
  assert.fail("no ConfigError was thrown");
}

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-config-"));
  temps.push(dir);
  return dir;
}
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("YAML config (mcp_servers)", () => {
  test("the sample file loads every key: command, args, env, cwd, tools, timeouts, naming, url, headers, transport", async () => {
    const config = await loadConfig({ path: join(FIXTURES, "mcpwire.yaml"), env: { GITHUB_TOKEN: "ghp_x" } });
    assert.deepEqual(config.warnings, []);
    assert.deepEqual(config.errors, []);
    assert.equal(config.file, join(FIXTURES, "mcpwire.yaml"));
    assert.deepEqual(config.servers.map((s) => s.name), ["everything", "github", "legacy"]);
    assert.deepEqual(server(config, "everything"), {
      name: "everything",
      transport: "stdio",
      command: "node",
      args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
      env: { LOG_LEVEL: "info", PORT: "8080" },
      cwd: REPO, // "../../.." from test/fixtures/config/
      headers: {},
      tools: { include: ["echo", "get-*"], exclude: ["get-env"] },
      enabled: true,
      timeoutMs: 30_000,
      connectTimeoutMs: 5_500,
      naming: "{server}__{tool}",
    });
    const github = server(config, "github");
    assert.equal(github.transport, "auto", "a url without transport is tried with Streamable HTTP, then legacy SSE");
    assert.equal(github.url, "https://api.example.com/mcp");
    assert.deepEqual(github.headers, { Authorization: "Bearer ghp_x" });
    const legacy = server(config, "legacy");
    assert.equal(legacy.transport, "sse");
    assert.equal(legacy.url, "http://localhost:3001/sse");
    assert.equal(legacy.enabled, false);
    assert.equal(legacy.error, undefined);
  });

  test("a minimal server gets the defaults", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n");
    assert.deepEqual(config.servers, [{
      name: "s",
      transport: "stdio",
      command: "node",
      args: [],
      env: {},
      headers: {},
      tools: {},
      enabled: true,
      timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
    }]);
    assert.equal(DEFAULT_TOOL_TIMEOUT_MS, 300_000);
    assert.equal(DEFAULT_CONNECT_TIMEOUT_MS, 60_000);
  });

  test("protocol pins the era per server (auto, modern, legacy); anything else disables the server saying what is allowed", () => {
    const config = yaml(
      "mcp_servers:\n  a:\n    command: node\n    protocol: modern\n  b:\n    url: http://127.0.0.1:1/mcp\n    protocol: legacy\n" +
        "  c:\n    command: node\n  d:\n    command: node\n    protocol: newest\n",
    );
    assert.equal(server(config, "a").protocol, "modern");
    assert.equal(server(config, "b").protocol, "legacy");
    assert.equal(server(config, "c").protocol, undefined, "absent means the Client's default, auto");
    const d = server(config, "d");
    assert.equal(d.enabled, false);
    assert.match(d.error?.message ?? "", /server "d": "protocol" must be "auto", "modern" or "legacy"/);
  });

  test("numbers and booleans where strings are meant are kept exactly as written", () => {
    const config = yaml(
      "mcp_servers:\n  s:\n    command: node\n    args: [--port, 8080, --ratio, 1.10, --verbose, true, 0x1F]\n" +
        "    env:\n      PORT: 8080\n      VERSION: 1.10\n      DEBUG: true\n",
    );
    const s = server(config, "s");
    assert.deepEqual(s.args, ["--port", "8080", "--ratio", "1.10", "--verbose", "true", "0x1F"]);
    assert.deepEqual(s.env, { PORT: "8080", VERSION: "1.10", DEBUG: "true" });
    assert.equal(s.enabled, true);
  });

  test("a wrong type disables that server with a positioned error saying what was expected; the others load", async () => {
    const config = await loadConfig({ path: "bad-types.yaml", cwd: FIXTURES, env: {} });
    assert.equal(server(config, "fine").enabled, true);
    const github = server(config, "github");
    assert.equal(github.enabled, false);
    assert.ok(github.error instanceof ConfigError);
    assert.equal(
      github.error.message,
      'bad-types.yaml:7:11: server "github": "args" must be an array of strings; it is the string "--yes @modelcontextprotocol/server-githu…"',
    );
    assert.equal(github.error.file, join(FIXTURES, "bad-types.yaml"));
    assert.deepEqual([github.error.line, github.error.column, github.error.server, github.error.key], [7, 11, "github", "args"]);
    assert.equal(
      server(config, "slow").error?.message,
      'bad-types.yaml:10:14: server "slow": "timeout" must be a number of seconds greater than 0; it is the string "300"',
    );
    assert.equal(
      server(config, "picky").error?.message,
      'bad-types.yaml:14:16: server "picky": "tools.include" must be an array of tool names or * globs; it is the string "echo"',
    );
    assert.deepEqual(config.errors?.map((error) => error.server), ["github", "slow", "picky"]);
  });

  test("a wrong item inside a list is pointed at, and named with its index", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    args:\n      - ok\n      - { nested: map }\n");
    const error = server(config, "s").error;
    assert.equal(error?.message, 'mcpwire.yaml:6:9: server "s": "args" must be an array of strings; "args[1]" is a mapping');
    assert.equal(error?.key, "args[1]");
  });

  test("every problem of a server is reported, in file order; its error is the first", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    enabled: yes please\n    timeout: 0\n    env: [A]\n");
    const s = server(config, "s");
    assert.deepEqual(config.errors?.map((error) => [error.key, error.line]), [["enabled", 4], ["timeout", 5], ["env", 6]]);
    assert.equal(s.error, config.errors?.[0]);
    assert.match(s.error?.message ?? "", /"enabled" must be true or false; it is the string "yes please"/);
    assert.match(config.errors?.[2]?.message ?? "", /"env" must be a mapping of variable names to strings; it is a list/);
  });

  test("unknown keys are positioned warnings with a suggestion; the servers still load", async () => {
    const config = await loadConfig({ path: join(FIXTURES, "unknown-keys.yaml"), env: {} });
    assert.deepEqual(config.errors, []);
    assert.ok(config.servers.every((s) => s.enabled));
    const file = join(FIXTURES, "unknown-keys.yaml");
    assert.deepEqual(config.warnings.map((warning) => warning.message), [
      `${file}:5:5: server "everything": unknown key "enviroment" is ignored; did you mean "env"?`,
      `${file}:7:5: server "everything": unknown key "connectTimeout" is ignored; did you mean "connect_timeout"?`,
      `${file}:10:5: server "memory": unknown key "disabled" is ignored; this server stays enabled; write enabled: false to disable it`,
      `${file}:11:1: unknown key "log_level" is ignored; the servers go under "mcp_servers"`,
    ]);
    assert.deepEqual(config.warnings.map((warning) => warning.key), ["enviroment", "connectTimeout", "disabled", undefined]);
    assert.ok(config.warnings.every((warning) => warning instanceof ConfigError));
  });

  test("an unknown key under tools is a warning listing the known ones", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    tools:\n      allow: [echo]\n");
    assert.deepEqual(config.warnings.map((w) => w.message), [
      'mcpwire.yaml:5:7: server "s": unknown key "tools.allow" is ignored; known keys: include, exclude',
    ]);
    assert.equal(server(config, "s").enabled, true);
  });

  test("a YAML syntax error throws, positioned", async () => {
    const error = await fatalAsync(() => loadConfig({ path: join(FIXTURES, "syntax-error.yaml"), env: {} }));
    // The [ that is not closed, on line 4: not where the parser noticed it (the next key, line 5).
    assert.match(error.message, /syntax-error\.yaml:4:11: invalid YAML: this \[ is not closed: a list written in brackets ends with \]/);
    assert.deepEqual([error.line, error.column], [4, 11]);
  });

  test("tabs as indentation and a repeated server name are YAML errors, positioned", () => {
    assert.match(fatal(() => yaml("mcp_servers:\n\ts:\n\t\tcommand: node\n")).message, /^mcpwire\.yaml:2:1: invalid YAML: Tabs/);
    assert.match(
      fatal(() => yaml("mcp_servers:\n  s:\n    command: a\n  s:\n    command: b\n")).message,
      /^mcpwire\.yaml:4:3: invalid YAML: Map keys must be unique/,
    );
  });

  test("each kind of YAML error is placed at its fault, not where the parser noticed it", () => {
    const cases: [string, string[], RegExp][] = [
      // A line indented too deep continues the value above: the yaml package blames line 3.
      [
        "deeper",
        ["mcp_servers:", "  a:", "    command: node", "      args: [x]"],
        /^mcpwire\.yaml:4:7: invalid YAML: this line is indented deeper \(6 spaces\) than the line above \(4: "command: node"\)/,
      ],
      [
        "shallower",
        ["mcp_servers:", "  a:", "    command: node", "   args: [x]"],
        /^mcpwire\.yaml:4:4: invalid YAML: All mapping items must start at the same column/,
      ],
      ["tab", ["mcp_servers:", "  a:", "    command: node", "\targs: [x]"], /^mcpwire\.yaml:4:1: invalid YAML: Tabs are not allowed as indentation/],
      [
        "unclosed [",
        ["mcp_servers:", "  a:", "    command: node", "    args: [x,", "      y", "  b:", "    command: node"],
        /^mcpwire\.yaml:4:11: invalid YAML: this \[ is not closed/,
      ],
      ["unclosed {", ["mcp_servers: {a: {command: node}"], /^mcpwire\.yaml:1:14: invalid YAML: this \{ is not closed/],
      ['unclosed "', ["mcp_servers:", "  a:", '    command: "node', "    args: [x]"], /^mcpwire\.yaml:3:14: invalid YAML: this " is not closed/],
      ["unclosed '", ["mcp_servers:", "  a:", "    command: 'node", "    args: [x]", "  b: 1"], /^mcpwire\.yaml:3:14: invalid YAML: this ' is not closed/],
      [
        "a colon in a value",
        ["mcp_servers:", "  a:", "    command: node: x"],
        /^mcpwire\.yaml:3:14: invalid YAML: Nested mappings .*; a value that holds ": " must be quoted/,
      ],
      [
        "no space after a colon",
        ["mcp_servers:", "  a:", "    command:node", "    args: x"],
        /^mcpwire\.yaml:3:5: invalid YAML: .*; a key's colon needs a space after it/,
      ],
      [
        "a list item among keys",
        ["mcp_servers:", "  a:", "    command: node", "    - x"],
        /^mcpwire\.yaml:4:5: invalid YAML: A block sequence may not be used as an implicit map key/,
      ],
      [
        "a key without a value",
        ["mcp_servers:", "  a:", "    command: node", "  b"],
        /^mcpwire\.yaml:4:3: invalid YAML: Implicit map keys need to be followed by map values/,
      ],
    ];
    for (const [name, lines, pattern] of cases) {
      for (const end of ["\n", ""]) {
        assert.match(fatal(() => yaml(lines.join("\n") + end)).message, pattern, `${name}${end === "" ? " (no final line feed)" : ""}`);
      }
    }
  });

  test("YAML anchors and merge keys share settings between servers", () => {
    const config = yaml(
      "defaults: &defaults\n  command: node\n  timeout: 10\nmcp_servers:\n  a:\n    <<: *defaults\n    args: [a.js]\n  b:\n    <<: *defaults\n    timeout: 20\n",
    );
    assert.deepEqual(config.servers.map((s) => [s.name, s.command, s.args, s.timeoutMs, s.enabled]), [
      ["a", "node", ["a.js"], 10_000, true],
      ["b", "node", [], 20_000, true],
    ]);
    assert.deepEqual(config.warnings.map((w) => w.message), ['mcpwire.yaml:1:1: unknown key "defaults" is ignored; the servers go under "mcp_servers"']);
  });

  test("an empty mcp_servers is a config with no servers", () => {
    assert.deepEqual(yaml("mcp_servers:\n").servers, []);
    assert.deepEqual(yaml("mcp_servers: {}\n").servers, []);
  });

  test("a file that is empty, not a mapping, or without mcp_servers throws, saying what is expected", () => {
    assert.equal(fatal(() => yaml("")).message, 'mcpwire.yaml: the file is empty; put the servers under "mcp_servers:" (YAML) or "mcpServers" (JSON)');
    assert.match(fatal(() => yaml("- a\n- b\n")).message, /^mcpwire\.yaml:1:1: the file must be a mapping .*; it is a list$/);
    assert.equal(
      fatal(() => yaml("servers:\n  s:\n    command: node\n")).message,
      'mcpwire.yaml:1:1: no "mcp_servers" key; put the servers under "mcp_servers:" (YAML) or "mcpServers" (JSON); found "servers"',
    );
    assert.equal(
      fatal(() => yaml("mcp_servers: [a, b]\n")).message,
      'mcpwire.yaml:1:14: "mcp_servers" must be a mapping of server names to their settings; it is a list',
    );
    assert.equal(
      fatal(() => yaml("mcp_servers: {}\nmcpServers: {}\n")).message,
      'mcpwire.yaml:2:1: both "mcp_servers" and "mcpServers" are present; keep one',
    );
  });

  test("a server that is empty or not a mapping is an error for that server only", () => {
    const config = yaml("mcp_servers:\n  empty:\n  word: npx server\n  fine:\n    command: node\n");
    assert.equal(
      server(config, "empty").error?.message,
      'mcpwire.yaml:2:3: server "empty" has no settings; give it "command" (a stdio server) or "url" (an http or sse server)',
    );
    assert.match(
      server(config, "word").error?.message ?? "",
      /^mcpwire\.yaml:3:9: server "word" must be a mapping of its settings .*; it is the string "npx server"$/,
    );
    assert.equal(server(config, "fine").enabled, true);
  });
});

describe("transport", () => {
  test("is stdio for a command and auto (Streamable HTTP, else legacy SSE) for a url when not given", () => {
    const config = yaml("mcp_servers:\n  local:\n    command: node\n  remote:\n    url: https://example.com/mcp\n");
    assert.equal(server(config, "local").transport, "stdio");
    assert.equal(server(config, "remote").transport, "auto");
  });

  test("transport or .mcp.json's type selects it; streamable-http means http", () => {
    const config = json(JSON.stringify({
      mcpServers: {
        a: { type: "stdio", command: "node" },
        b: { type: "http", url: "https://example.com/mcp" },
        c: { type: "streamable-http", url: "https://example.com/mcp" },
        d: { type: "sse", url: "https://example.com/sse" },
        e: { transport: "sse", url: "https://example.com/sse" },
        f: { transport: "http", type: "streamable-http", url: "https://example.com/mcp" },
        g: { transport: "auto", url: "https://example.com/mcp" },
        h: { url: "https://example.com/mcp" },
      },
    }));
    assert.deepEqual(config.servers.map((s) => [s.name, s.transport, s.enabled]), [
      ["a", "stdio", true],
      ["b", "http", true],
      ["c", "http", true],
      ["d", "sse", true],
      ["e", "sse", true],
      ["f", "http", true],
      ["g", "auto", true],
      ["h", "auto", true],
    ]);
  });

  test("a server with neither command nor url is an error for that server", () => {
    const config = yaml("mcp_servers:\n  nothing:\n    args: [x]\n  fine:\n    command: node\n");
    const error = server(config, "nothing").error;
    assert.equal(
      error?.message,
      'mcpwire.yaml:2:3: server "nothing" has neither "command" (to run a stdio server) nor "url" (to reach an http or sse server); add one',
    );
    assert.equal(error?.server, "nothing");
    assert.equal(server(config, "fine").enabled, true);
  });

  test("both command and url need a transport to choose; given one, the other's keys are warned about", () => {
    const both = yaml("mcp_servers:\n  s:\n    command: node\n    url: https://example.com/mcp\n");
    assert.match(server(both, "s").error?.message ?? "", /server "s" has both "command" and "url"; remove one, or say which with transport/);
    const chosen = yaml("mcp_servers:\n  s:\n    transport: stdio\n    command: node\n    url: https://example.com/mcp\n");
    assert.equal(server(chosen, "s").enabled, true);
    assert.deepEqual(chosen.warnings.map((w) => w.message), [
      'mcpwire.yaml:5:5: server "s": "url" does not apply to a stdio server; it is ignored',
    ]);
  });

  test("a declared transport without what it needs, or two that disagree, is an error", () => {
    const config = yaml(
      "mcp_servers:\n  a:\n    transport: stdio\n    url: http://x/mcp\n  b:\n    transport: sse\n    command: node\n" +
        "  c:\n    transport: http\n    type: sse\n    url: http://x/mcp\n  d:\n    transport: grpc\n    url: http://x\n",
    );
    assert.match(server(config, "a").error?.message ?? "", /:3:16: server "a": transport "stdio" needs "command"/);
    assert.match(server(config, "b").error?.message ?? "", /:6:16: server "b": transport "sse" needs "url"/);
    assert.match(server(config, "c").error?.message ?? "", /:10:11: server "c": "transport: http" and "type: sse" disagree; keep one/);
    assert.match(
      server(config, "d").error?.message ?? "",
      /:13:16: server "d": "transport" must be one of "stdio", "http", "sse" or "auto"; it is the string "grpc"/,
    );
  });

  test("a url that is not http(s), or a naming without {tool}, is an error", () => {
    const config = yaml("mcp_servers:\n  a:\n    url: ftp://example.com\n  b:\n    command: node\n    naming: mcp_{server}\n");
    assert.match(
      server(config, "a").error?.message ?? "",
      /:3:10: server "a": "url" must be an http:\/\/ or https:\/\/ URL; it is the string "ftp:\/\/example.com"/,
    );
    assert.match(server(config, "b").error?.message ?? "", /:6:13: server "b": "naming" must be a name format containing \{tool\}/);
  });
});

describe("client features: log_level, roots, sampling", () => {
  test("log_level, roots and sampling become the server's level, roots and sampling policy", () => {
    const config = yaml(
      "mcp_servers:\n  s:\n    command: node\n    log_level: warning\n" +
        '    roots: [/srv/data, ./projects/a, "../shared", "file:///opt/x%20y", "${HOME}/work"]\n' +
        "    sampling:\n      max_tokens: 500\n      requests_per_minute: 6\n      models: [m-small, m-large]\n" +
        "      timeout: 12.5\n      tools: true\n",
      { HOME: "/home/me" },
    );
    assert.deepEqual(config.warnings, []);
    assert.deepEqual(config.errors, []);
    const s = server(config, "s");
    assert.equal(s.logLevel, "warning");
    assert.deepEqual(s.roots, ["/srv/data", "/etc/mcpwire/projects/a", "/etc/shared", "file:///opt/x%20y", "/home/me/work"]);
    assert.deepEqual(s.sampling, { maxTokens: 500, requestsPerMinute: 6, models: ["m-small", "m-large"], timeoutMs: 12_500, tools: true });
  });

  test("an invalid log_level disables the server with a positioned error listing the levels", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    log_level: verbose\n  t:\n    command: node\n");
    const s = server(config, "s");
    assert.equal(s.enabled, false);
    assert.equal(
      s.error?.message,
      'mcpwire.yaml:4:16: server "s": "log_level" must be one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"; it is the string "verbose"',
    );
    assert.equal(s.error?.key, "log_level");
    assert.equal(server(config, "t").enabled, true);
  });

  test("a root that is not a path or a file:// URI, or a sampling value of the wrong kind, is a positioned error", () => {
    const config = yaml(
      'mcp_servers:\n  r:\n    command: node\n    roots: [/ok, "https://example.com/x"]\n' +
        "  p:\n    command: node\n    sampling:\n      max_tokens: 0\n",
    );
    assert.equal(server(config, "r").enabled, false);
    assert.equal(
      server(config, "r").error?.message,
      'mcpwire.yaml:4:18: server "r": "roots[1]" must be a path or a file:// URI; it is the string "https://example.com/x"',
    );
    assert.equal(server(config, "p").enabled, false);
    assert.equal(
      server(config, "p").error?.message,
      'mcpwire.yaml:8:19: server "p": "sampling.max_tokens" must be a whole number of tokens greater than 0; it is the number 0',
    );
  });

  test("an unknown key under sampling is a warning with a suggestion", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    sampling:\n      maxTokens: 10\n      rate: 3\n");
    assert.deepEqual(config.warnings.map((w) => w.message), [
      'mcpwire.yaml:5:7: server "s": unknown key "sampling.maxTokens" is ignored; did you mean "sampling.max_tokens"?',
      'mcpwire.yaml:6:7: server "s": unknown key "sampling.rate" is ignored; known keys: max_tokens, requests_per_minute, models, timeout, tools',
    ]);
    assert.deepEqual(server(config, "s").sampling, {});
  });

  test("in .mcp.json the same keys load, and a relative root resolves against the file's directory", () => {
    const config = json('{"mcpServers":{"s":{"command":"node","log_level":"debug","roots":["sub"],"sampling":{"timeout":1}}}}');
    const s = server(config, "s");
    assert.equal(s.logLevel, "debug");
    assert.deepEqual(s.roots, ["/etc/mcpwire/sub"]);
    assert.deepEqual(s.sampling, { timeoutMs: 1000 });
  });
});

describe("JSON config (mcpServers)", () => {
  test("the .mcp.json sample loads, with type and ${VAR}", async () => {
    const config = await loadConfig({ path: join(FIXTURES, "mcp.json"), env: { HOME: "/home/ada" } });
    assert.deepEqual(config.errors, []);
    assert.deepEqual(config.warnings, []);
    const memory = server(config, "memory");
    assert.equal(memory.transport, "stdio");
    assert.equal(memory.command, "npx");
    assert.deepEqual(memory.args, ["-y", "@modelcontextprotocol/server-memory"]);
    assert.deepEqual(memory.env, { MEMORY_FILE_PATH: "/home/ada/memory.json" });
    assert.deepEqual(server(config, "remote").headers, { "X-Api-Key": "none" });
    assert.equal(server(config, "remote").transport, "http");
    assert.equal(server(config, "events").transport, "sse");
  });

  test("a wrong type is positioned by line and column in the JSON text", () => {
    const config = json(
      '{\n  "mcpServers": {\n    "a": {\n      "command": "node",\n      "args": "--stdio"\n    },\n    "b": { "command": "node", "env": { "X": null } }\n  }\n}\n',
    );
    assert.equal(server(config, "a").error?.message, '.mcp.json:5:15: server "a": "args" must be an array of strings; it is the string "--stdio"');
    assert.equal(
      server(config, "b").error?.message,
      '.mcp.json:7:45: server "b": "env" must be a mapping of variable names to strings; "env.X" is empty (null)',
    );
  });

  test("unknown keys are positioned warnings; $schema at the top is allowed", () => {
    const config = json(
      '{\n  "$schema": "https://example.com/schema.json",\n  "globalShortcut": "Ctrl+Space",\n  "mcpServers": {\n    "a": { "command": "node", "autoApprove": [] }\n  }\n}\n',
    );
    assert.deepEqual(config.warnings.map((w) => w.message), [
      '.mcp.json:3:3: unknown key "globalShortcut" is ignored; the servers go under "mcpServers"',
      `.mcp.json:5:31: server "a": unknown key "autoApprove" is ignored; known keys: ${SERVER_KEYS.join(", ")}`,
    ]);
    assert.equal(server(config, "a").enabled, true);
  });

  test("malformed JSON throws, positioned, saying what was expected", async () => {
    const error = await fatalAsync(() => loadConfig({ path: join(FIXTURES, "malformed.json"), env: {} }));
    assert.equal(error.message, `${join(FIXTURES, "malformed.json")}:5:7: invalid JSON: expected "," or "}" after a property value, found "\\""`);
    assert.deepEqual([error.line, error.column], [5, 7]);
    const cases: [string, string][] = [
      [
        '{\n  "mcpServers": {\n    "a": { "command": "node", }\n  }\n}',
        '.mcp.json:3:31: invalid JSON: a trailing comma before "}"; JSON allows none, remove it',
      ],
      ['{\n  // servers\n  "mcpServers": {}\n}', ".mcp.json:2:3: invalid JSON: JSON has no comments; remove it (or use a YAML config, which has)"],
      ["{'mcpServers': {}}", ".mcp.json:1:2: invalid JSON: property names take double quotes"],
      ['{"mcpServers": {"a": {"command": "no', '.mcp.json:1:37: invalid JSON: a string is not closed; add the closing "'],
      ['{"mcpServers": [1, 2,]}', '.mcp.json:1:22: invalid JSON: a trailing comma before "]"; JSON allows none, remove it'],
      ['{"mcpServers": {}} {}', '.mcp.json:1:20: invalid JSON: unexpected "{" after the end of the JSON value'],
      ["", ".mcp.json:1:1: invalid JSON: expected a value (a string, number, object, array, true, false or null), found the end of the file"],
    ];
    for (const [text, message] of cases) assert.equal(fatal(() => json(text)).message, message, text);
  });

  test("a key given twice is a warning: the last one is used, and positions follow it", () => {
    const config = json('{"mcpServers": {\n "a": {"command": "one"},\n "a": {"command": "two", "args": 3}\n}}');
    assert.deepEqual(config.warnings.map((w) => w.message), ['.mcp.json:3:2: "a" appears twice in one object; the last one is used']);
    assert.equal(server(config, "a").command, "two");
    assert.equal(server(config, "a").error?.message, '.mcp.json:3:34: server "a": "args" must be an array of strings; it is the number 3');
  });

  test("the format follows the extension, else the first character; format overrides both", () => {
    const text = '{"mcpServers": {"a": {"command": "node"}}}';
    assert.equal(parseConfig(text, { file: "servers.conf", env: {} }).servers[0]!.command, "node");
    const asYaml = parseConfig("mcp_servers:\n  a:\n    command: node\n", { file: "servers.conf", env: {} });
    assert.equal(asYaml.servers[0]!.command, "node");
    // JSON read as YAML parses; as JSON, a YAML comment does not.
    assert.match(fatal(() => parseConfig("# x\n{}", { file: "a.yaml", format: "json", env: {} })).message, /^a\.yaml:1:1: invalid JSON/);
    // A YAML file may use mcpServers too: both keys are read in both formats.
    assert.equal(parseConfig("mcpServers:\n  a:\n    command: node\n", { file: "a.yaml", env: {} }).servers[0]!.command, "node");
  });
});

describe("${VAR} interpolation in a config", () => {
  const text = [
    "mcp_servers:",
    "  github:",
    "    command: ${NODE_BIN:-node}",
    "    args: [server.js, --token, '${GITHUB_TOKEN}']",
    "    cwd: ${WORK}/github",
    "    env:",
    "      GITHUB_TOKEN: ${GITHUB_TOKEN}",
    "      LEVEL: ${LEVEL:-info}",
    "      PRICE: $$5",
    "  remote:",
    "    url: https://${HOST:-example.com}/mcp",
    "    headers:",
    "      Authorization: Bearer ${API_KEY}",
    "  fine:",
    "    command: node",
    "    tools:",
    "      include: ['${NOT_INTERPOLATED}']",
    "",
  ].join("\n");

  test("set variables and defaults fill command, args, env, cwd, url and headers; $$ is a literal $", () => {
    const config = yaml(text, { GITHUB_TOKEN: "ghp_1", API_KEY: "k", WORK: "/srv" });
    assert.deepEqual(config.errors, []);
    const github = server(config, "github");
    assert.equal(github.command, "node");
    assert.deepEqual(github.args, ["server.js", "--token", "ghp_1"]);
    assert.equal(github.cwd, "/srv/github");
    assert.deepEqual(github.env, { GITHUB_TOKEN: "ghp_1", LEVEL: "info", PRICE: "$5" });
    assert.equal(server(config, "remote").url, "https://example.com/mcp");
    assert.deepEqual(server(config, "remote").headers, { Authorization: "Bearer k" });
    assert.deepEqual(server(config, "fine").tools.include, ["${NOT_INTERPOLATED}"]);
  });

  test("an unset variable disables its server with a ConfigError naming server, key and variable; the others load", () => {
    const config = yaml(text, { API_KEY: "k", WORK: "/srv" });
    const github = server(config, "github");
    assert.equal(github.enabled, false);
    assert.ok(github.error instanceof ConfigError);
    assert.equal(
      github.error.message,
      'mcpwire.yaml:4:32: server "github": "args[2]": ${GITHUB_TOKEN} is not set; set it in the environment, or give ' +
        "a default with ${GITHUB_TOKEN:-default}; the server is disabled until then",
    );
    assert.deepEqual(
      config.errors?.map((error) => [error.server, error.key, error.variable, error.line, error.column]),
      [["github", "args[2]", "GITHUB_TOKEN", 4, 32], ["github", "env.GITHUB_TOKEN", "GITHUB_TOKEN", 7, 21]],
    );
    assert.equal(server(config, "remote").enabled, true);
    assert.equal(server(config, "fine").enabled, true);
  });

  test("a malformed ${ is an error for its server, saying how to write a literal", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    args: ['${oops']\n");
    assert.match(server(config, "s").error?.message ?? "", /:4:12: server "s": "args\[0\]": "\$\{oops" has no closing "\}"; .* or \$\$\{ for a literal \$\{/);
  });

  test("a server the config disables is not failed by its unset variables", () => {
    const config = yaml("mcp_servers:\n  off:\n    enabled: false\n    command: node\n    env:\n      TOKEN: ${NOT_SET}\n");
    const off = server(config, "off");
    assert.equal(off.enabled, false);
    assert.equal(off.error, undefined);
    assert.deepEqual(config.errors, []);
  });
});

describe("loadConfig: files and the lookup order", () => {
  const yamlServer = (name: string) => `mcp_servers:\n  ${name}:\n    command: node\n`;
  const jsonServer = (name: string) => JSON.stringify({ mcpServers: { [name]: { command: "node" } } });

  test("without a path: ./mcpwire.yaml, then ./.mcp.json, then $XDG_CONFIG_HOME/mcpwire/config.yaml", async () => {
    const cwd = tempDir();
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg, HOME: "/nonexistent-home" };
    // The lookup order, not project trust (test/host/project-trust.test.ts): the project's files are trusted here.
    const trust = "all";
    mkdirSync(join(xdg, "mcpwire"));
    writeFileSync(join(xdg, "mcpwire", "config.yaml"), yamlServer("from_xdg"));
    assert.equal((await loadConfig({ cwd, env, trust })).servers[0]!.name, "from_xdg");
    writeFileSync(join(cwd, ".mcp.json"), jsonServer("from_mcp_json"));
    const fromJson = await loadConfig({ cwd, env, trust });
    assert.equal(fromJson.servers[0]!.name, "from_mcp_json");
    assert.equal(fromJson.file, join(cwd, ".mcp.json"));
    writeFileSync(join(cwd, "mcpwire.yaml"), yamlServer("from_mcpwire_yaml"));
    const fromYaml = await loadConfig({ cwd, env, trust });
    assert.equal(fromYaml.servers[0]!.name, "from_mcpwire_yaml");
    assert.equal(fromYaml.file, join(cwd, "mcpwire.yaml"));
  });

  test("XDG_CONFIG_HOME defaults to ~/.config", async () => {
    const cwd = tempDir();
    const home = tempDir();
    mkdirSync(join(home, ".config", "mcpwire"), { recursive: true });
    writeFileSync(join(home, ".config", "mcpwire", "config.yaml"), yamlServer("from_home"));
    assert.equal((await loadConfig({ cwd, env: { HOME: home } })).servers[0]!.name, "from_home");
    assert.deepEqual(configSearchPaths({ cwd, env: { HOME: home } }), [
      join(cwd, "mcpwire.yaml"),
      join(cwd, ".mcp.json"),
      join(home, ".mcp.json"),
      join(home, ".config", "mcpwire", "config.yaml"),
    ]);
  });

  test("no config anywhere is a ConfigError listing every place it looked", async () => {
    const cwd = tempDir();
    const xdg = tempDir();
    const error = await fatalAsync(() => loadConfig({ cwd, env: { XDG_CONFIG_HOME: xdg } }));
    assert.equal(
      error.message,
      `no config file found; looked for ${join(cwd, "mcpwire.yaml")}, ${join(cwd, ".mcp.json")}, ` +
        `${join(xdg, "mcpwire", "config.yaml")}; create mcpwire.yaml or pass --config FILE ` +
        `(or use servers other apps have: --import APP, see mcpwire import --list)`,
    );
  });

  test("a found config that cannot be read is an error, not skipped", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "mcpwire.yaml")); // a directory where the file should be
    writeFileSync(join(cwd, ".mcp.json"), jsonServer("would_be_next"));
    const error = await fatalAsync(() => loadConfig({ cwd, env: {} }));
    assert.match(error.message, /^cannot read config file ".*mcpwire\.yaml": it is a directory, not a file \(EISDIR\)/);
  });

  test("a path is read relative to cwd; positions name it as given", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "conf"));
    writeFileSync(join(cwd, "conf", "servers.yaml"), "mcp_servers:\n  s:\n    command: node\n    timeout: never\n");
    const config = await loadConfig({ path: "conf/servers.yaml", cwd, env: {} });
    assert.equal(config.file, join(cwd, "conf", "servers.yaml"));
    assert.match(server(config, "s").error?.message ?? "", /^conf\/servers\.yaml:4:14: server "s": "timeout"/);
    assert.equal(server(config, "s").error?.file, join(cwd, "conf", "servers.yaml"));
  });

  test("a relative server cwd resolves against the config file's directory, not the working directory", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "conf"));
    writeFileSync(
      join(cwd, "conf", "mcpwire.yaml"),
      "mcp_servers:\n  a:\n    command: node\n    cwd: ./data\n  b:\n    command: node\n    cwd: ../other\n  c:\n    command: node\n    cwd: /abs/path\n",
    );
    const config = await loadConfig({ path: "conf/mcpwire.yaml", cwd, env: {} });
    assert.deepEqual(config.servers.map((s) => s.cwd), [join(cwd, "conf", "data"), join(cwd, "other"), "/abs/path"]);
  });

  test("a missing --config file is a ConfigError naming the path and the OS reason", async () => {
    const cwd = tempDir();
    const error = await fatalAsync(() => loadConfig({ path: "nope.yaml", cwd, env: {} }));
    assert.equal(
      error.message,
      `config file "nope.yaml" (${join(cwd, "nope.yaml")}) not found: no such file or directory (ENOENT); check the --config path`,
    );
    assert.equal(error.file, join(cwd, "nope.yaml"));
  });

  test("a --config that is a directory, or not readable, is a ConfigError naming the reason", async () => {
    const cwd = tempDir();
    const dirError = await fatalAsync(() => loadConfig({ path: cwd, env: {} }));
    assert.equal(dirError.message, `cannot read config file "${cwd}": it is a directory, not a file (EISDIR); check the --config path`);
    const file = join(cwd, "secret.yaml");
    writeFileSync(file, yamlServer("s"));
    chmodSync(file, 0o000);
    const denied = await loadConfig({ path: file, env: {} }).then(() => undefined, (error: unknown) => error);
    if (denied === undefined) return; // root reads anything; the directory case above stands
    assert.ok(denied instanceof ConfigError);
    assert.equal(denied.message, `cannot read config file "${file}": permission denied (EACCES); check the --config path`);
  });
});
