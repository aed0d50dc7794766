// The small text helpers every layer shares: durations, thrown values, previews, JSON objects.

import assert from "node:assert/strict";
import { test } from "node:test";
import { durationText } from "../../src/common/duration.ts";
import { messageOf } from "../../src/common/error-text.ts";
import { isObject, jsonKind } from "../../src/common/json.ts";
import { clipJson, clipLine, clipText, fitLine, preview } from "../../src/common/preview.ts";

test("durations read the same everywhere: ms under a second, seconds with one decimal from there", () => {
  assert.equal(durationText(250), "250 ms");
  assert.equal(durationText(999.6), "1000 ms");
  assert.equal(durationText(1000), "1 s");
  assert.equal(durationText(1500), "1.5 s");
  assert.equal(durationText(1549), "1.5 s");
  assert.equal(durationText(300_000), "300 s");
  assert.equal(durationText(Infinity), "Infinity");
});

test("messageOf gives an Error's message and a string of anything else, never throwing", () => {
  assert.equal(messageOf(new TypeError("bad")), "bad");
  assert.equal(messageOf("plain"), "plain");
  assert.equal(messageOf(42), "42");
  assert.equal(messageOf(Object.create(null)), "[object Object]");
});

test("clips mark their cut and keep surrogate pairs whole", () => {
  assert.equal(clipText("abcdef", 10), "abcdef");
  assert.equal(clipText("abcdef", 3), "abc…");
  assert.equal(clipText("ab😀cd", 3), "ab…");
  assert.equal(preview('a"b', 10), '"a\\"b"');
  assert.equal(clipLine("  one\n  two  ", 20), "one two");
});

test("clipJson quotes a value as clipText of its JSON would, at the cost of what it keeps", () => {
  for (const value of [null, 5, "a/b", [1, "two"], { a: { b: [true] } }, "x".repeat(500), { long: "ab😀".repeat(100) }]) {
    for (const max of [1, 7, 40, 120]) assert.equal(clipJson(value, max), clipText(JSON.stringify(value), max), `${JSON.stringify(value).slice(0, 20)} ${max}`);
  }
  // Deeper than JSON.stringify can go, or far larger than the quote: the same start, no throw.
  let deep: unknown = 0;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.equal(clipJson(deep, 10), `${"[".repeat(10)}…`);
  assert.equal(clipJson(Array.from({ length: 1_000_000 }, () => 1), 6), "[1,1,1…");
});

test("fitLine fits a table column: at most `width` characters, the cut's mark included", () => {
  assert.equal(fitLine("  one\n  two  ", 7), "one two");
  assert.equal(fitLine("one two three", 7), "one tw…");
  assert.equal(fitLine("ab😀cd", 4), "ab…");
  assert.equal(fitLine("", 5), "");
});

test("jsonKind names each kind of JSON value with its article, null and arrays apart from objects", () => {
  assert.deepEqual([null, [], {}, "x", 1, true].map(jsonKind), ["null", "an array", "an object", "a string", "a number", "a boolean"]);
});

test("isObject is true for plain objects only", () => {
  assert.ok(isObject({}));
  assert.ok(!isObject([]));
  assert.ok(!isObject(null));
  assert.ok(!isObject("x"));
});
