// "Did you mean": the nearest registered names for a name nobody registered — spelling
// (`_` for `-`, case), the bare tool name, a few edits, a prefix — and the registry's
// unknown-tool error carrying them to whoever called (a model included).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { didYouMean, editDistance, suggestNames } from "../../src/registry/suggest.ts";
import { ToolCallError } from "../../src/registry/tool-call-error.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";

const NAMES = [
  "mcp_everything_echo",
  "mcp_everything_get-sum",
  "mcp_everything_get-env",
  "mcp_everything_get-tiny-image",
  "mcp_crashy_echo",
  "mcp_memory_read_graph",
  "mcp_memory_search_nodes",
];

describe("suggestNames", () => {
  test("an underscore for a hyphen finds the registered spelling, alone", () => {
    assert.deepEqual(suggestNames("mcp_everything_get_sum", NAMES), ["mcp_everything_get-sum"]);
    assert.deepEqual(suggestNames("MCP_Everything_Get-Sum", NAMES), ["mcp_everything_get-sum"]);
  });

  test("a bare tool name finds the prefixed name", () => {
    assert.deepEqual(suggestNames("get-sum", NAMES), ["mcp_everything_get-sum"]);
    assert.deepEqual(suggestNames("read_graph", NAMES), ["mcp_memory_read_graph"]);
  });

  test("a bare name two servers share suggests both", () => {
    assert.deepEqual(suggestNames("echo", NAMES).sort(), ["mcp_crashy_echo", "mcp_everything_echo"]);
  });

  test("a typo (a swap, a missing letter) is a few edits away", () => {
    assert.deepEqual(suggestNames("mcp_everything_get-smu", NAMES), ["mcp_everything_get-sum"]);
    assert.deepEqual(suggestNames("mcp_everthing_echo", NAMES), ["mcp_everything_echo"]);
    assert.deepEqual(suggestNames("get-tiny-imag", NAMES), ["mcp_everything_get-tiny-image"]);
  });

  test("a typo in a bare name is found against the name's tail", () => {
    assert.deepEqual(suggestNames("serch_nodes", NAMES), ["mcp_memory_search_nodes"]);
  });

  test("the start of a name suggests the names it starts", () => {
    const found = suggestNames("mcp_everything_get", NAMES);
    assert.ok(found.length > 0 && found.every((name) => name.startsWith("mcp_everything_get")), found.join(", "));
  });

  test("every segment of the input in a name suggests it", () => {
    assert.deepEqual(suggestNames("graph_read", NAMES), ["mcp_memory_read_graph"]);
  });

  test("a name near nothing gets no suggestion", () => {
    assert.deepEqual(suggestNames("mcp_everything_nope", NAMES), []);
    assert.deepEqual(suggestNames("zzz", NAMES), []);
    assert.deepEqual(suggestNames("", NAMES), []);
  });

  test("one-letter names are not one edit from every other one-letter name", () => {
    assert.deepEqual(suggestNames("c", ["a", "b"]), []);
    assert.deepEqual(suggestNames("ab", ["ac"]), []);
  });

  test("at most max names, and never the input itself", () => {
    assert.equal(suggestNames("mcp_everything", NAMES, 2).length, 2);
    assert.deepEqual(suggestNames("mcp_everything_echo", ["mcp_everything_echo"]), []);
  });

  test("a very long input is compared by its start only, quickly", () => {
    const long = "x".repeat(100_000);
    assert.deepEqual(suggestNames(long, NAMES), []);
  });

  test("editDistance counts a swap of neighbours as one edit", () => {
    assert.equal(editDistance("sum", "smu"), 1);
    assert.equal(editDistance("kitten", "sitting"), 3);
    assert.equal(editDistance("", "abc"), 3);
    assert.equal(editDistance("same", "same"), 0);
  });

  test("didYouMean quotes the names and joins them", () => {
    assert.equal(didYouMean([]), "");
    assert.equal(didYouMean(["a"]), 'did you mean "a"?');
    assert.equal(didYouMean(["a", "b", "c"]), 'did you mean "a", "b" or "c"?');
  });
});

describe("the registry's unknown-tool error", () => {
  const registry = new ToolRegistry();
  registry.register({ name: "get_weather", toolset: "weather", description: "", handler: () => "sunny" });
  registry.register({ name: "get_time", toolset: "clock", description: "", handler: () => "noon" });

  test("call() names the nearest registered tool", async () => {
    const error = await registry.call("get-weather").then(() => undefined, (caught: unknown) => caught);
    assert.ok(error instanceof ToolCallError);
    assert.equal(error.code, "unknown-tool");
    assert.match(error.message, /unknown tool "get-weather".*did you mean "get_weather"\?/);
  });

  test("dispatch() gives a model the suggestion in its error string", async () => {
    const text = await registry.dispatch("get_wether", {});
    assert.match(JSON.parse(text).error, /did you mean "get_weather"\?/);
  });

  test("a tool of a disabled toolset is not suggested", async () => {
    registry.disableToolset("clock");
    try {
      const text = await registry.dispatch("get_tme", {});
      assert.doesNotMatch(JSON.parse(text).error, /did you mean/);
      assert.match(JSON.parse(text).error, /call one of the listed tools/);
    } finally {
      registry.enableToolset("clock");
    }
  });
});
