// include / exclude filters on a server's original tool names: exact names and `*` globs,
// include wins over exclude, `include: []` keeps nothing, and what matched nothing.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { filterToolNames, globToRegExp, matchesAny } from "../../src/registry/filters.ts";

const NAMES = ["echo", "get-env", "get-sum", "get-tiny-image", "toggle-simulated-logging", "a.b", "x*y"];

describe("patterns", () => {
  test("an exact name matches only itself", () => {
    assert.ok(matchesAny("echo", ["echo"]));
    assert.ok(!matchesAny("echo2", ["echo"]));
    assert.ok(!matchesAny("ech", ["echo"]));
  });

  test("* matches any run of characters, including none, anywhere in the pattern", () => {
    assert.ok(matchesAny("get-env", ["get-*"]));
    assert.ok(matchesAny("get-", ["get-*"]));
    assert.ok(matchesAny("get-tiny-image", ["*-image"]));
    assert.ok(matchesAny("get-tiny-image", ["g*t*y*e"]));
    assert.ok(matchesAny("anything at all", ["*"]));
    assert.ok(!matchesAny("echo", ["get-*"]));
  });

  test("other characters are literal: . ? + ( [ are not regular-expression syntax", () => {
    assert.ok(matchesAny("a.b", ["a.b"]));
    assert.ok(!matchesAny("axb", ["a.b"]));
    assert.ok(!matchesAny("ab", ["a?b"]));
    assert.ok(matchesAny("f(x)+[y]", ["f(x)+[*]"]));
    assert.equal(globToRegExp("a.*").source, "^a\\..*$");
  });
});

describe("filterToolNames", () => {
  test("no filter keeps every tool in listing order", () => {
    assert.deepEqual(filterToolNames(NAMES).selected, NAMES);
  });

  test("include keeps only what it matches", () => {
    assert.deepEqual(filterToolNames(NAMES, { include: ["echo", "get-*"] }).selected, ["echo", "get-env", "get-sum", "get-tiny-image"]);
  });

  test("exclude removes what it matches", () => {
    assert.deepEqual(filterToolNames(NAMES, { exclude: ["get-*", "toggle-*"] }).selected, ["echo", "a.b", "x*y"]);
  });

  test("include wins over exclude, and the tool in both is reported", () => {
    const outcome = filterToolNames(NAMES, { include: ["get-*"], exclude: ["get-env"] });
    assert.deepEqual(outcome.selected, ["get-env", "get-sum", "get-tiny-image"]);
    assert.deepEqual(outcome.overridden, [{ tool: "get-env", include: "get-*", exclude: "get-env" }]);
    assert.deepEqual(outcome.unmatched, []);
  });

  test("include: [] keeps nothing; an absent include keeps everything", () => {
    assert.deepEqual(filterToolNames(NAMES, { include: [] }).selected, []);
    assert.deepEqual(filterToolNames(NAMES, { include: [], exclude: ["echo"] }).selected, []);
    assert.deepEqual(filterToolNames(NAMES, { exclude: [] }).selected, NAMES);
  });

  test("patterns that match nothing are reported per list, each once", () => {
    const outcome = filterToolNames(NAMES, { include: ["echo", "ecko", "ecko", "nope-*"], exclude: ["gone"] });
    assert.deepEqual(outcome.unmatched, [
      { list: "include", pattern: "ecko" },
      { list: "include", pattern: "nope-*" },
      { list: "exclude", pattern: "gone" },
    ]);
  });

  test("a pattern counts as matching even when an earlier pattern matched the same tool", () => {
    const outcome = filterToolNames(NAMES, { include: ["echo", "e*"] });
    assert.deepEqual(outcome.unmatched, []);
  });
});
