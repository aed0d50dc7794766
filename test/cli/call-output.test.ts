// What `mcpwire call` prints of a result: the text content for people, once (structuredContent
// only when there is no text, pretty-printed), the whole result with --json; and a
// structuredContent that its protocol version does not allow, warned about with the text
// shown as it is — spec 2025-11-25 server/tools ("Structured Content"), 2026-07-28 server/tools.

import assert from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import { before, describe, test } from "node:test";
import { mcpwire as runMcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-cli-call-output-");
let config = "";

function mcpwire(args: string[]) {
  const env = { ...process.env, HOME: scratch.path, XDG_CONFIG_HOME: join(scratch.path, "config"), XDG_CACHE_HOME: join(scratch.path, "cache") };
  return runMcpwire([...args, "--config", config], { env });
}

before(async () => {
  const server = fixturePath("structured-content-server.mjs");
  config = await writeConfig(scratch.path, "mcpwire.yaml", [
    "mcp_servers:",
    "  sc:",
    "    command: node",
    `    args: [${JSON.stringify(server)}]`,
    "  modern:",
    "    command: node",
    `    args: [${JSON.stringify(server)}, "--modern"]`,
  ]);
});

describe("mcpwire call prints a result once", { timeout: 120_000 }, () => {
  test("a result with text and structuredContent prints the text only", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_sc_words"]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "Sunny, 22 °C\n");
  });

  test("--json prints the whole result, structuredContent included", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_sc_words", "--json"]);
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout) as { content: { text: string }[]; structuredContent: unknown };
    assert.equal(result.content[0]!.text, "Sunny, 22 °C");
    assert.deepEqual(result.structuredContent, { temperature: 22, conditions: "Sunny" });
  });

  test("a result with structuredContent and no text prints the structured content pretty-printed", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_sc_only-structured"]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, JSON.stringify({ temperature: 22, tags: ["a", "b"] }, null, 2) + "\n");
  });
});

describe("mcpwire call and a structuredContent its protocol version does not allow", { timeout: 120_000 }, () => {
  test("2025-11-25, an array: a warning naming the server, the tool and the rule; the text is printed unchanged, exit 0", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_sc_array"]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "2 users: Alice and Bob\n");
    assert.match(
      stderr,
      /^mcpwire call: warning: server "sc": tools\/call "array" returned structuredContent that is not a JSON object \(an array\), which protocol 2025-11-25 requires/m,
    );
  });

  test("2026-07-28, an array: allowed there, no warning", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_modern_array"]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "2 users: Alice and Bob\n");
    assert.doesNotMatch(stderr, /warning/);
  });
});
