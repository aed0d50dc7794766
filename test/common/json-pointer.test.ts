// JSON Pointer reference tokens (src/common/json-pointer.ts), by RFC 6901's own examples.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pointerKey, pointerToken } from "../../src/common/json-pointer.ts";

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
});
