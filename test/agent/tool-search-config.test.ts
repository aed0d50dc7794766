// The `tool_search:` key of a config (read by `mcpwire run` / `chat`): true, false, a mode, or a
// mapping with mode, max_tools, max_schema_bytes, max_results; each bad value a positioned error.

import assert from "node:assert/strict";
import { test } from "node:test";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError, type McpwireConfig } from "../../src/host/config/types.ts";

function yaml(text: string): McpwireConfig {
  return parseConfig(`mcp_servers: {a: {command: x}}\n${text}\n`, { file: "/etc/mcpwire/mcpwire.yaml", displayName: "mcpwire.yaml", env: {} });
}

test("tool_search: true (always), false (off), a mode, or a mapping; absent: the Runner's default (auto)", () => {
  assert.deepEqual(yaml("tool_search: true").toolSearch, { mode: "always" });
  assert.deepEqual(yaml("tool_search: false").toolSearch, { mode: "off" });
  assert.deepEqual(yaml("tool_search: auto").toolSearch, { mode: "auto" });
  assert.deepEqual(
    yaml("tool_search:\n  mode: auto\n  max_tools: 30\n  max_schema_bytes: 20000\n  max_results: 5").toolSearch,
    { mode: "auto", maxTools: 30, maxSchemaBytes: 20_000, maxResults: 5 },
  );
  assert.equal(yaml("").toolSearch, undefined);
});

for (
  const [what, text, message] of [
    ["an unknown mode", "tool_search: sometimes", /mcpwire\.yaml:2:14: "tool_search" must be one of "auto", "always", "off"; it is the string "sometimes"/],
    [
      "a number",
      "tool_search: 3",
      /"tool_search" must be true, false, one of "auto", "always", "off", or a mapping with mode, max_tools, max_schema_bytes, max_results/,
    ],
    ["an unknown mode in the mapping", "tool_search: {mode: never}", /"tool_search\.mode" must be one of "auto", "always", "off"/],
    ["a negative max_tools", "tool_search: {max_tools: -1}", /"tool_search\.max_tools" must be a whole number of at least 0; it is the number -1/],
    ["a fractional max_schema_bytes", "tool_search: {max_schema_bytes: 1.5}", /"tool_search\.max_schema_bytes" must be a whole number of at least 0/],
    ["max_results 0", "tool_search: {max_results: 0}", /"tool_search\.max_results" must be a whole number of at least 1; it is the number 0/],
  ] as const
) {
  test(`bad input: tool_search with ${what} is a ConfigError at its key`, () => {
    assert.throws(() => yaml(text), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  });
}

test("bad input: an unknown key under tool_search is a warning with a suggestion", () => {
  const config = yaml("tool_search: {max_tool: 3}");
  assert.match(config.warnings.map((warning) => warning.message).join("\n"), /unknown key "tool_search\.max_tool" is ignored; did you mean "max_tools"\?/);
  assert.deepEqual(config.toolSearch, {});
});
