// Registered names of MCP tools: the format, sanitising to [A-Za-z0-9_-], and the 64-character
// cut with a stable hash suffix — docs/registry.md "Names".

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DEFAULT_NAMING,
  fitToolName,
  fnv1a32,
  isValidToolName,
  MAX_TOOL_NAME_LENGTH,
  namingFormatProblem,
  sanitizeName,
  toolName,
} from "../../src/registry/naming.ts";

describe("name format", () => {
  test("the default is mcp_<server>_<tool>", () => {
    assert.equal(DEFAULT_NAMING, "mcp_{server}_{tool}");
    assert.equal(toolName("everything", "echo"), "mcp_everything_echo");
    assert.equal(toolName("everything", "get-sum"), "mcp_everything_get-sum");
  });

  test("another format fills {server} and {tool}, each as often as it appears", () => {
    assert.equal(toolName("github", "create_issue", "{server}__{tool}"), "github__create_issue");
    assert.equal(toolName("gh", "x", "{tool}"), "x");
    assert.equal(toolName("gh", "x", "{server}-{tool}-{server}"), "gh-x-gh");
  });

  test("a format without {tool} or with an unknown placeholder is reported, with what to use", () => {
    assert.match(namingFormatProblem("mcp_{server}") ?? "", /no \{tool\}.*every tool would get the same name.*"\{server\}__\{tool\}"/);
    assert.match(namingFormatProblem("{srv}_{tool}") ?? "", /unknown placeholder \{srv\}; use \{server\} and \{tool\}/);
    assert.equal(namingFormatProblem("mcp_{server}_{tool}"), undefined);
    assert.equal(namingFormatProblem("{tool}"), undefined);
  });
});

describe("sanitising", () => {
  test("characters outside [A-Za-z0-9_-] become _", () => {
    assert.equal(sanitizeName("a.b/c d:e"), "a_b_c_d_e");
    assert.equal(toolName("my.server", "files/read v2"), "mcp_my_server_files_read_v2");
    assert.equal(sanitizeName("Az09_-"), "Az09_-");
  });

  test("a character outside the BMP becomes one _, not two", () => {
    assert.equal(sanitizeName("a😀b"), "a_b");
    assert.equal(sanitizeName("café"), "caf_");
  });

  test("every result is a valid LLM function name", () => {
    for (const [server, tool] of [["s", "ünïcødé ✓"], ["a b", "c.d"], ["x", "$(rm -rf)"], ["日本", "ツール"]] as const) {
      const name = toolName(server, tool);
      assert.ok(isValidToolName(name), `${JSON.stringify(name)} is not valid`);
    }
  });
});

describe("names over 64 characters", () => {
  const longTool = "a_very_long_tool_name_that_keeps_going_and_going_well_past_the_limit";

  test("are cut to exactly 64 characters ending in _ and 8 hex digits", () => {
    const name = toolName("server", longTool);
    assert.equal(name.length, MAX_TOOL_NAME_LENGTH);
    assert.match(name, /^mcp_server_a_very_long_tool_name_that_keeps_going_and_g_[0-9a-f]{8}$/);
    assert.ok(isValidToolName(name));
  });

  test("a name of exactly 64 characters is kept as it is", () => {
    const raw = "x".repeat(64);
    assert.equal(fitToolName(raw), raw);
    assert.equal(fitToolName("y".repeat(65)).length, 64);
    assert.notEqual(fitToolName("y".repeat(65)), "y".repeat(64));
  });

  test("the cut is stable: the same name gives the same result every time", () => {
    assert.equal(toolName("server", longTool), toolName("server", longTool));
    // Pinned, so a change of the hash (which would rename users' tools) fails a test.
    assert.equal(fnv1a32(""), "811c9dc5");
    assert.equal(fnv1a32("a"), "e40c292c");
    assert.equal(fnv1a32("foobar"), "bf9cf968");
  });

  test("different long names that share their first 55 characters get different names", () => {
    const names = new Set<string>();
    for (let i = 0; i < 200; i++) names.add(toolName("server", `${longTool}_${i}`));
    assert.equal(names.size, 200);
    for (const name of names) assert.equal(name.length, 64);
  });

  test("long names differing only in characters that sanitise alike still differ", () => {
    const dotted = toolName("server", `${longTool}.x`);
    const slashed = toolName("server", `${longTool}/x`);
    assert.notEqual(dotted, slashed);
    assert.equal(dotted.slice(0, 55), slashed.slice(0, 55));
  });

  test("a long name of non-ASCII characters is cut to a valid name too", () => {
    const name = toolName("サーバー", "道具".repeat(40));
    assert.equal(name.length, 64);
    assert.ok(isValidToolName(name));
  });
});
