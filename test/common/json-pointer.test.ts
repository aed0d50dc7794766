// JSON Pointer reference tokens (src/common/json-pointer.ts), by RFC 6901's own examples.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fragmentTarget, pointerKey, pointerToken } from "../../src/common/json-pointer.ts";

describe("JSON Pointer tokens", () => {
  test('"~" is written "~0" and "/" is written "~1" (RFC 6901 section 3); an index as its digits', () => {
    assert.equal(pointerToken("a/b"), "a~1b");
    assert.equal(pointerToken("m~n"), "m~0n");
    assert.equal(pointerToken("~/"), "~0~1");
    assert.equal(pointerToken(3), "3");
  });

  test('a token reads back as its key, "~01" as "~1" and not "/" (RFC 6901 section 4)', () => {
    assert.equal(pointerKey("a~1b"), "a/b");
    assert.equal(pointerKey("m~0n"), "m~n");
    assert.equal(pointerKey("~01"), "~1");
    for (const key of ["", "~", "/", "~0", "~1", "a/~b", "é/😀"]) assert.equal(pointerKey(pointerToken(key)), key);
  });

  test("a same-document reference names its value, its steps percent-decoded then unescaped (RFC 6901 section 6)", () => {
    const root = { $defs: { "a/b": { type: "string" }, "c d": { type: "number" }, "~": 1 } };
    assert.equal(fragmentTarget(root, "#"), root);
    assert.deepEqual(fragmentTarget(root, "#/$defs/a~1b"), { type: "string" });
    assert.deepEqual(fragmentTarget(root, "#/$defs/c%20d"), { type: "number" });
    assert.equal(fragmentTarget(root, "#/$defs/~0"), 1);
    for (const ref of ["#/$defs/missing", "#/$defs/~/x", "other.json#/$defs", "#/constructor", "#/$defs/a~1b/type/length"]) {
      assert.equal(fragmentTarget(root, ref), undefined, ref);
    }
  });
});
