// RFC 8785 (JSON Canonicalization Scheme) against the RFC's own examples: 3.2.2 (the sample
// object), 3.2.3 (property sorting by UTF-16 code units), Appendix B (numbers from their IEEE 754
// bits), and the values JCS refuses.

import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalJson, CanonicalJsonError } from "../../src/common/canonical-json.ts";

test("RFC 8785 3.2.2: the sample object canonicalizes to the RFC's text", () => {
  const input = JSON.parse(`{
    "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
    "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
    "literals": [null, true, false]
  }`);
  assert.equal(
    canonicalJson(input),
    `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA'B\\"\\\\\\\\\\"/"}`,
  );
});

test("RFC 8785 3.2.3: properties sorted by UTF-16 code units (an emoji's surrogates before U+FB33)", () => {
  const input = JSON.parse(`{
    "\\u20ac": "Euro Sign",
    "\\r": "Carriage Return",
    "\\ufb33": "Hebrew Letter Dalet With Dagesh",
    "1": "One",
    "\\ud83d\\ude00": "Emoji: Grinning Face",
    "\\u0080": "Control",
    "\\u00f6": "Latin Small Letter O With Diaeresis"
  }`);
  const text = canonicalJson(input);
  assert.equal(
    text,
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  );
});

/** A double from its IEEE 754 bits, as Appendix B gives them. */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

test("RFC 8785 Appendix B: each number from its IEEE 754 bits serializes as the RFC says", () => {
  const table: Array<[string, string]> = [
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ];
  for (const [bits, expected] of table) assert.equal(canonicalJson(fromBits(bits)), expected, bits);
});

test("RFC 8785 Appendix B: NaN and Infinity have no canonical form", () => {
  for (const bits of ["7fffffffffffffff", "7ff0000000000000"]) {
    assert.throws(() => canonicalJson([fromBits(bits)]), (error: Error) => error instanceof CanonicalJsonError && error.code === "not-canonicalizable");
  }
});

test("no whitespace, nested arrays and objects, and the same text whatever the key order", () => {
  assert.equal(canonicalJson({ b: [1, { y: 2, x: [] }], a: {} }), '{"a":{},"b":[1,{"x":[],"y":2}]}');
  assert.equal(canonicalJson({ x: 1, y: 2 }), canonicalJson({ y: 2, x: 1 }));
});

test("a lone surrogate (not I-JSON), a value that is not JSON and nesting past the bound are refused", () => {
  assert.throws(() => canonicalJson({ text: "a\ud800b" }), CanonicalJsonError);
  assert.throws(() => canonicalJson({ ["\udc00"]: 1 }), CanonicalJsonError);
  assert.throws(() => canonicalJson({ f: () => 1 }), CanonicalJsonError);
  let deep: unknown = 1;
  for (let i = 0; i < 600; i++) deep = [deep];
  assert.throws(() => canonicalJson(deep), /nested deeper/);
  assert.equal(canonicalJson("\ud83d\ude00"), '"\ud83d\ude00"', "a surrogate pair is a character, kept as it is");
});
