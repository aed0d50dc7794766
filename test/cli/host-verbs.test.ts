// The config-driven verbs — servers, tools, call — run as real child processes of the
// runtime under test, against real servers, checking what a user sees and the exit codes.

import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { everythingConfig, mcpwire as runMcpwire } from "../support/cli-runner.ts";

const memory = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));
const crashServer = fileURLToPath(new URL("../fixtures/crash-server.mjs", import.meta.url));

const mcpwire = (args: string[], env: Record<string, string | undefined> = process.env) => runMcpwire(args, { env });

const scratch = everythingConfig("mcpwire-cli-", ["echo", "get-sum", "trigger-long-running-operation", "get-env"], (folder) => [
  "  memory:",
  "    command: node",
  `    args: [${JSON.stringify(memory)}]`,
  "    env:",
  `      MEMORY_FILE_PATH: ${JSON.stringify(join(folder, "memory.jsonl"))}`,
  '    naming: "{server}__{tool}"',
  "  crashy:",
  "    command: node",
  `    args: [${JSON.stringify(crashServer)}]`,
]);
const { config } = scratch;

describe("mcpwire servers", () => {
  test("prints one row per server with state, protocol and tool count", async () => {
    const { code, stdout, stderr } = await mcpwire(["servers", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^SERVER\s+STATE\s+TRANSPORT/m);
    assert.match(stdout, /^everything\s+ready\s+stdio\s+2025-11-25 \(legacy\)\s+mcp-servers\/everything \S+\s+4\b/m);
    assert.match(stdout, /^memory\s+ready\s+stdio\s+2025-11-25 \(legacy\)\s+memory-server/m);
    assert.match(stdout, /^crashy\s+ready/m);
  });

  test("--json prints the status of every server", async () => {
    const { code, stdout, stderr } = await mcpwire(["servers", "--json", "--config", config]);
    assert.equal(code, 0, stderr);
    const statuses = JSON.parse(stdout) as { name: string; state: string; tools: number; protocolVersion: string; era?: string }[];
    assert.deepEqual(statuses.map((status) => status.name).sort(), ["crashy", "everything", "memory"]);
    const everythingStatus = statuses.find((status) => status.name === "everything")!;
    assert.equal(everythingStatus.state, "ready");
    assert.equal(everythingStatus.tools, 4);
    assert.equal(everythingStatus.protocolVersion, "2025-11-25");
    assert.equal(everythingStatus.era, "legacy");
  });
});

describe("mcpwire tools", () => {
  test("lists tools of several servers under their registered names", async () => {
    const { code, stdout, stderr } = await mcpwire(["tools", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^mcp_everything_echo\s+mcp-everything\s+Echoes back/m);
    assert.match(stdout, /^memory__read_graph\s+mcp-memory\s/m);
    assert.match(stdout, /^mcp_crashy_echo\s+mcp-crashy/m);
    assert.doesNotMatch(stdout, /get-tiny-image/, "include filter");
  });

  test("--json gives name, toolset, server, tool, description and inputSchema", async () => {
    const { code, stdout, stderr } = await mcpwire(["tools", "--json", "--config", config]);
    assert.equal(code, 0, stderr);
    const { tools, unreached } = JSON.parse(stdout) as {
      tools: { name: string; toolset: string; server: string; tool: string; description: string; inputSchema: { type: string } }[];
      unreached: unknown[];
    };
    assert.deepEqual(unreached, []);
    const echo = tools.find((tool) => tool.name === "mcp_everything_echo")!;
    assert.equal(echo.toolset, "mcp-everything");
    assert.equal(echo.server, "everything");
    assert.equal(echo.tool, "echo");
    assert.equal(echo.inputSchema.type, "object");
    assert.ok(tools.some((tool) => tool.name === "memory__create_entities" && tool.tool === "create_entities"));
  });
});

describe("mcpwire call", () => {
  test("prints the result text and exits 0", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_echo", '{"message":"hello from a test"}', "--config", config]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "Echo: hello from a test\n");
  });

  test("--json prints the whole CallToolResult", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_get-sum", '{"a":2,"b":40}', "--json", "--config", config]);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout);
    assert.ok(Array.isArray(result.content));
    assert.match(result.content[0].text, /42/);
  });

  test("progress goes to stderr as plain lines when stderr is not a terminal", async () => {
    const { code, stderr } = await mcpwire([
      "call",
      "mcp_everything_trigger-long-running-operation",
      '{"duration":0.6,"steps":3}',
      "--config",
      config,
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^progress 33% \(1\/3\)/m);
    assert.match(stderr, /^progress 100% \(3\/3\)/m);
  });

  test("the server's environment holds only the safe baseline plus its own env", async () => {
    const { code, stdout, stderr } = await mcpwire(
      ["call", "mcp_everything_get-env", "--config", config],
      { ...process.env, MCPWIRE_TEST_SECRET: "do-not-leak" },
    );
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stdout, /do-not-leak/);
    assert.match(stdout, /PATH/);
  });

  test("a tool error (isError) exits 1 with its text", async () => {
    // A JSON object is sent untyped: the server's own validation answers with isError.
    const { code, stdout } = await mcpwire(["call", "mcp_everything_echo", '{"message":5}', "--config", config]);
    assert.equal(code, 1);
    assert.match(stdout, /message/);
  });

  test("an unknown tool, bad JSON arguments and a missing config file exit 2", async () => {
    const unknown = await mcpwire(["call", "mcp_everything_nope", "--config", config]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no tool "mcp_everything_nope" is registered/);
    const badJson = await mcpwire(["call", "mcp_everything_echo", "{message:", "--config", config]);
    assert.equal(badJson.code, 2);
    assert.match(badJson.stderr, /not valid JSON/);
    const missing = await mcpwire(["call", "mcp_everything_echo", "--config", join(scratch.path, "absent.yaml")]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /absent\.yaml/);
    assert.match(missing.stderr, /not found/);
  });

  test("a config error names the file, line and column and exits 2", async () => {
    const broken = join(scratch.path, "broken.yaml");
    await writeFile(broken, "mcp_servers:\n  x:\n    command: node\n    args: 7\n");
    const { code, stderr } = await mcpwire(["tools", "--config", broken]);
    assert.equal(code, 2);
    assert.match(stderr, /broken\.yaml:4:\d+/);
    assert.match(stderr, /args/);
  });

  test("a server that dies during the call exits 3 and names the exit", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_crashy_echo", "{}", "--config", config]);
    assert.equal(code, 3);
    assert.match(stderr, /exited with code 3|connection closed/);
  });

  test("a call that outlives --timeout exits 4 and names the limit", async () => {
    const { code, stderr } = await mcpwire([
      "call",
      "mcp_everything_trigger-long-running-operation",
      '{"duration":20,"steps":2}',
      "--timeout",
      "1",
      "--config",
      config,
    ]);
    assert.equal(code, 4);
    assert.match(stderr, /timed out after 1 s/);
  });
});
