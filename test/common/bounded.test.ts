// Bounded JSON text and copies of server data: deep nesting, huge values and cycles never
// overflow the stack and always say what was left out.

import assert from "node:assert/strict";
import { test } from "node:test";
import { boundedCopy, boundedJson, depthMarker, depthOf, jsonTextDepth } from "../../src/common/bounded.ts";

/** `{"a":{"a":…}}` nested `depth` levels, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

test("shallow values render exactly as JSON.stringify does", () => {
  const values = [
    null,
    0,
    -1.5,
    'text "quoted" \u001b[31m',
    [1, "a", null, { b: [true, false] }],
    { a: 1, b: undefined, c: () => 1, d: [undefined], e: NaN, f: new Date(0) },
    [],
    {},
  ];
  for (const value of values) {
    assert.equal(boundedJson(value), JSON.stringify(value));
    assert.equal(boundedJson(value, { indent: 2 }), JSON.stringify(value, null, 2));
  }
});

test("a value nested 100,000 levels renders with a marker instead of overflowing", () => {
  const text = boundedJson(nested(100_000), { maxDepth: 10 });
  assert.ok(text.includes(depthMarker(10)));
  assert.equal(text.split("{").length - 1, 10);
  assert.doesNotThrow(() => JSON.parse(text), "the rendering is still JSON");
});

test("text past maxChars is cut and says so", () => {
  const text = boundedJson({ big: "x".repeat(10_000) }, { maxChars: 100 });
  assert.ok(text.length < 200);
  assert.match(text, /… \[cut: more than 100 characters\]$/);
});

test("a huge array stops being walked once the budget is spent", () => {
  const huge = new Array(2_000_000).fill({ k: "v" });
  const started = performance.now();
  const text = boundedJson(huge, { maxChars: 1000 });
  assert.ok(text.length < 1100);
  assert.ok(performance.now() - started < 5000);
});

test("cycles and bigints do not throw", () => {
  const a: Record<string, unknown> = { n: 1n };
  a.self = a;
  assert.equal(boundedJson(a), '{"n":"1n","self":"[cycle]"}');
  assert.deepEqual(boundedCopy(a), { n: "1", self: "[cycle]" });
});

test("boundedCopy keeps shallow data and marks what is too deep or too many", () => {
  assert.deepEqual(boundedCopy({ name: "srv", version: "1", list: [1, 2] }), { name: "srv", version: "1", list: [1, 2] });
  const copy = boundedCopy(nested(100_000), { maxDepth: 3 }) as { a: { a: { a: unknown } } };
  assert.equal(copy.a.a.a, depthMarker(3));
  const many = boundedCopy(Array.from({ length: 50 }, (_, i) => i), { maxNodes: 10 }) as unknown[];
  assert.equal(many.length, 50);
  assert.equal(many[8], 8);
  assert.match(String(many[9]), /more than 10 values/);
});

test("depthOf counts up to its limit only", () => {
  assert.equal(depthOf("x"), 0);
  assert.equal(depthOf({ a: [1] }), 2);
  assert.equal(depthOf(nested(100_000), 50), 50);
});

test("jsonTextDepth counts the nesting of JSON text as depthOf counts the parsed value, brackets in strings aside", () => {
  const texts = [
    "1",
    '"[[{{"',
    "[]",
    '{"a":[1,{"b":"]]}}"}],"c":{}}',
    '["\\"", "\\\\", "[\\"]", [[["x"]]]]',
    JSON.stringify(nested(40)),
    ' { "k" : [ [ ] ] } ',
  ];
  for (const text of texts) assert.equal(jsonTextDepth(text, 1000), depthOf(JSON.parse(text), 1000), text);
});

test("jsonTextDepth stops counting at its limit: 100,000 levels of [ are read only to the limit", () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  assert.equal(jsonTextDepth(deep, 65), 65);
  assert.equal(jsonTextDepth(`{"a":${deep}}`, 65), 65);
  assert.equal(jsonTextDepth(`["${"[".repeat(100_000)}"]`, 65), 1, "brackets inside a string are text");
  assert.equal(jsonTextDepth('["unterminated [[[[', 65), 1);
});
