// JSON value shapes (src/common/json.ts): the kind of a value as a message names it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { jsonKind } from "../../src/common/json.ts";

describe("jsonKind", () => {
  test("names each kind of JSON value with its article, null and arrays apart from objects", () => {
    const kinds = [null, [], {}, "x", 1, true].map(jsonKind);
    assert.deepEqual(kinds, ["null", "an array", "an object", "a string", "a number", "a boolean"]);
  });
});
