// The interpreting validator (src/client/schema/json-schema-interpreter.ts) against ajv, its oracle:
// fast-check writes small schemas from a grammar of the keywords it knows, per dialect, and
// values to check, and both must give the same verdict (valid, invalid, or the schema unusable),
// then the same failures. Beside them, hand cases in the manner of the JSON-Schema-Test-Suite
// for what a grammar reaches rarely: `$ref` through `$id` and anchors, the dialects'
// differences, deep equality, lengths in code points, and the bounds.

import assert from "node:assert/strict";
import process from "node:process";
import { before, describe, test } from "node:test";
import fc from "fast-check";
import { jsonEqual } from "../../src/client/schema/json-equal.ts";
import { loadJsonSchema } from "../../src/client/schema/json-schema.ts";
import { MAX_CHECK_DEPTH, SchemaInterpreter } from "../../src/client/schema/json-schema-interpreter.ts";
import { type Dialect, SchemaError, type SchemaValidator } from "../../src/client/schema/schema-validator.ts";
import type { JsonObject } from "../../src/client/types.ts";

const DIALECTS: readonly Dialect[] = ["2020-12", "2019-09", "draft-07", "draft-06"];
const NAMES = ["a", "b", "ab", "c"];

/** What a validator says of one value: valid, its failures, or that the schema is unusable. */
function verdict(validator: SchemaValidator, schema: JsonObject, dialect: Dialect, value: unknown): unknown {
  let check;
  try {
    check = validator.compile(schema, dialect);
  } catch (error) {
    assert.ok(error instanceof SchemaError, `${validator.name}: ${String(error)}`);
    return "unusable";
  }
  let failures;
  try {
    failures = check(value);
  } catch (error) {
    if (validator.name === "ajv") return "ajv failed"; // ajv 8 throws a TypeError for some unevaluatedProperties inside unevaluatedItems
    throw error;
  }
  return failures === undefined
    ? "valid"
    : failures.map((failure) => `${failure.path} ${failure.message}${failure.property === undefined ? "" : ` (${failure.property})`}`);
}

const scalar = fc.constantFrom<unknown>(null, true, false, 0, 1, -1, 1.5, 2, 3, 0.5, 1e300, "", "a", "ab", "abc", "b", "1", "😀", "a😀", "é");
/** As JSON.parse gives it (fast-check's objects may lack a prototype; ajv's equality tells them apart). */
const plain = <T>(item: T): T => JSON.parse(JSON.stringify(item)) as T;

const value: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie("node"), { maxKeys: 4 }),
  ),
})).node.map(plain);

/** Keywords of one schema object, drawn per dialect; `sub` is a smaller schema. */
function schemaArbitrary(dialect: Dialect): fc.Arbitrary<JsonObject> {
  const modern = dialect === "2020-12" || dialect === "2019-09";
  const count = fc.integer({ min: 0, max: 3 });
  const number = fc.constantFrom(-1, 0, 0.5, 1, 2, 3);
  const names = fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 });
  const type = fc.constantFrom("null", "boolean", "string", "number", "integer", "array", "object");
  const pattern = fc.constantFrom("^a", "b$", "^[a-c]*$", "\\d", "^.$", "\\p{L}", "^.{2}$");
  const refs = fc.constantFrom(...["#/$defs/d", "#/definitions/e", "#d"], ...(modern ? ["#/$defs/d/properties/a"] : []));
  return fc.letrec<{ schema: unknown; objectSchema: JsonObject; inner: unknown }>((tie) => {
    const sub = tie("schema");
    const list = fc.array(sub, { minLength: 1, maxLength: 3 });
    const map = fc.dictionary(fc.constantFrom(...NAMES), sub, { maxKeys: 3 });
    const keywords: Record<string, fc.Arbitrary<unknown>> = {
      type: fc.oneof(type, fc.uniqueArray(type, { minLength: 1, maxLength: 3 })),
      enum: fc.array(scalar, { minLength: 1, maxLength: 3 }),
      const: fc.oneof(scalar, fc.constant({ a: 1, b: [1, "a"] }), fc.constant([1, 2])),
      multipleOf: fc.constantFrom(1, 2, 0.5, 3, 0.1),
      minimum: number,
      maximum: number,
      exclusiveMinimum: number,
      exclusiveMaximum: number,
      minLength: count,
      maxLength: count,
      pattern,
      minItems: count,
      maxItems: count,
      uniqueItems: fc.boolean(),
      contains: sub,
      required: names,
      minProperties: count,
      maxProperties: count,
      properties: map,
      patternProperties: fc.dictionary(pattern, sub, { maxKeys: 2 }),
      additionalProperties: sub,
      propertyNames: sub,
      dependencies: fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(names, sub), { maxKeys: 2 }),
      allOf: list,
      anyOf: list,
      oneOf: list,
      not: sub,
      if: sub,
      then: sub,
      else: sub,
      $ref: refs,
      // Foreign to some dialects: ignored there by both.
      prefixItems: list,
      minContains: count,
      maxContains: count,
      dependentRequired: fc.dictionary(fc.constantFrom(...NAMES), names, { maxKeys: 2 }),
      dependentSchemas: map,
      unevaluatedProperties: sub,
      unevaluatedItems: sub,
    };
    // items: one schema in 2020-12; a schema or a tuple before, with additionalItems.
    keywords.items = dialect === "2020-12" ? sub : fc.oneof(sub, list);
    if (dialect !== "2020-12") keywords.additionalItems = sub;
    const keys = Object.keys(keywords);
    return {
      objectSchema: fc.uniqueArray(fc.constantFrom(...keys), { maxLength: 4 }).chain((chosen) =>
        fc.record(Object.fromEntries(chosen.map((key) => [key, keywords[key]!])) as Record<string, fc.Arbitrary<unknown>>)
      ) as fc.Arbitrary<JsonObject>,
      inner: tie("objectSchema"),
      schema: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.boolean(), tie("objectSchema"), tie("objectSchema")),
    };
  }).objectSchema.chain((root) =>
    // The targets of `$ref`: $defs/d (anchored "d"), definitions/e; "#" (the root) from inside a property.
    // Not `$ref: "#"` inside `$id: "#d"` (draft-06/07): ajv resolves it against "…#d" and fails.
    fc.tuple(
      fc.constantFrom<unknown>(true, { type: "string" }, { minimum: 1, properties: { a: { type: "integer" } } }, ...(modern ? [{ items: { $ref: "#" } }] : [])),
      fc.boolean(),
    )
      .map(([target, recursive]) => {
        const anchor = dialect === "draft-07" || dialect === "draft-06" ? { $id: "#d" } : { $anchor: "d" };
        const d = typeof target === "object" ? { ...anchor, ...target } : { ...anchor, properties: { a: {} } };
        const schema: JsonObject = { ...root, $defs: { d }, definitions: { e: { type: ["number", "string"] } } };
        if (recursive) schema.properties = { ...(typeof root.properties === "object" ? root.properties : {}), c: { $ref: "#" } };
        return plain(schema);
      })
  );
}

describe("the interpreting validator against ajv", () => {
  let ajv: SchemaValidator;
  let interpreting: SchemaValidator;
  before(async () => {
    [ajv, interpreting] = await Promise.all([loadJsonSchema("ajv"), loadJsonSchema("interpreting")]);
  });

  for (const dialect of DIALECTS) {
    test(`${dialect}: the same verdict and failures on generated schemas and values`, () => {
      fc.assert(
        fc.property(schemaArbitrary(dialect), fc.array(value, { minLength: 1, maxLength: 4 }), (schema, values) => {
          // Where ajv departs from the specification (what `contains`, a passing `if` and dependentSchemas
          // evaluate), the interpreter follows the specification: the hand cases below check those.
          const text = JSON.stringify(schema);
          fc.pre(!(text.includes('"unevaluated') && /"(contains|if|dependentSchemas|dependencies)"/.test(text)));
          // ajv counts the items a failed anyOf or oneOf branch evaluated (it counts them as it compiles).
          fc.pre(!(text.includes('"unevaluatedItems"') && /"(anyOf|oneOf)"/.test(text)));
          // ajv 8 forgets a failed `contains` in additionalProperties' schema once one property passed (a bug).
          fc.pre(!/"(additional|unevaluated)Properties":\{.*"contains"/.test(text));
          for (const each of values) {
            const expected = verdict(ajv, schema, dialect, each);
            if (expected === "ajv failed") continue;
            let actual = verdict(interpreting, schema, dialect, each);
            // ajv counts the items a failed subschema (or a failed `contains`) evaluated; we do not: with
            // unevaluatedItems, an invalid value may list other failures. The verdict is the same.
            if (JSON.stringify(schema).includes('"unevaluatedItems"') && Array.isArray(actual) && Array.isArray(expected)) actual = expected;
            const context = `schema ${JSON.stringify(schema)}\nvalue ${JSON.stringify(each)}\najv ${JSON.stringify(expected)}\nours ${JSON.stringify(actual)}`;
            assert.deepEqual(actual, expected, context);
          }
        }),
        // A fixed seed in the suite (a failure then names a case anyone can run again), a random one with
        // MCPWIRE_FUZZ_SEED=random to look for more; MCPWIRE_FUZZ_SEED=N replays a run's seed.
        { numRuns: 400, ...fuzzSeed() },
      );
    });
  }
});

/** fast-check's seed: fixed, unless MCPWIRE_FUZZ_SEED says `random` or gives one. */
function fuzzSeed(): { seed?: number } {
  const given = process.env.MCPWIRE_FUZZ_SEED;
  if (given === "random") return {};
  return { seed: given !== undefined && /^-?\d+$/.test(given) ? Number(given) : 20261204 };
}

/** Our verdict on each value: "valid" or the failures' places and words; "unusable" for a SchemaError. */
function ours(schema: JsonObject, dialect: Dialect, values: unknown[]): unknown[] {
  let interpreter: SchemaInterpreter;
  try {
    interpreter = new SchemaInterpreter(schema, dialect);
  } catch (error) {
    assert.ok(error instanceof SchemaError, String(error));
    return ["unusable"];
  }
  return values.map((value) => {
    const failures = interpreter.check(value);
    return failures.length === 0 ? "valid" : failures.map((failure) => `${failure.path} ${failure.message}`).sort().join("; ");
  });
}

describe("the interpreting validator by hand (cases in the manner of the JSON-Schema-Test-Suite)", () => {
  let ajv: SchemaValidator;
  let interpreting: SchemaValidator;
  before(async () => {
    [ajv, interpreting] = await Promise.all([loadJsonSchema("ajv"), loadJsonSchema("interpreting")]);
  });

  /** Both validators' verdicts on each value, asserted equal; ours returned. */
  function both(schema: JsonObject, dialect: Dialect, values: unknown[]): unknown[] {
    const found = values.map((value) => verdict(interpreting, schema, dialect, value));
    assert.deepEqual(found, values.map((value) => verdict(ajv, schema, dialect, value)));
    return found.map((each) => Array.isArray(each) ? each.length : each);
  }

  test("$ref through $id: relative and absolute URIs, a nested resource's own base, $anchor and a pointer", () => {
    const schema = {
      $id: "https://example.com/root.json",
      properties: { x: { $ref: "a.json" }, y: { $ref: "nested/b.json#c" }, z: { $ref: "https://example.com/root.json#/$defs/a" }, w: { $ref: "#top" } },
      $defs: {
        a: { $id: "a.json", type: "integer" },
        b: { $id: "https://example.com/nested/b.json", $defs: { c: { $anchor: "c", $ref: "d.json" }, d: { $id: "d.json", type: "string" } } },
        top: { $anchor: "top", const: 1 },
      },
    };
    assert.deepEqual(both(schema, "2020-12", [{ x: 1, y: "s", z: 2, w: 1 }, { x: 1.5 }, { y: 1 }, { z: "s" }, { w: 2 }]), ["valid", 1, 1, 1, 1]);
    // Into a subschema by pointer, through an escaped name; a pointer that leads nowhere is unusable.
    assert.deepEqual(both({ properties: { n: { $ref: "#/$defs/a~1b%25" } }, $defs: { "a/b%": { type: "null" } } }, "2020-12", [{ n: null }, { n: 1 }]), [
      "valid",
      1,
    ]);
    assert.deepEqual(ours({ $ref: "#/$defs/none" }, "2020-12", [1]), ["unusable"]);
    assert.deepEqual(ours({ $ref: "other.json" }, "2020-12", [1]), ["unusable"]);
  });

  test('draft-07: `$id: "#name"` is an anchor and definitions hold the targets; $anchor is not a keyword there', () => {
    const schema = { properties: { n: { $ref: "#count" } }, definitions: { count: { $id: "#count", type: "integer" } } };
    assert.deepEqual(both(schema, "draft-07", [{ n: 1 }, { n: "one" }]), ["valid", 1]);
    assert.deepEqual(ours({ properties: { n: { $ref: "#count" } }, definitions: { count: { $anchor: "count" } } }, "draft-07", [{}]), ["unusable"]);
  });

  test("dialects: a tuple is `items` with additionalItems before 2020-12, prefixItems with `items` after; `items` as a list is refused in 2020-12", () => {
    const old = { items: [{ type: "string" }], additionalItems: { type: "number" }, prefixItems: [{ type: "null" }] };
    assert.deepEqual(both(old, "draft-07", [["a", 1], [1], ["a", "b"]]), ["valid", 1, 1]);
    assert.deepEqual(both(old, "2019-09", [["a", 1], ["a", "b"]]), ["valid", 1]);
    assert.deepEqual(both(old, "2020-12", [["a"]]), ["unusable"]);
    const modern = { prefixItems: [{ type: "string" }], items: { type: "number" }, additionalItems: false };
    assert.deepEqual(both(modern, "2020-12", [["a", 1, 2], ["a", "b"]]), ["valid", 1]);
    // draft-07 ignores prefixItems; `items` (a schema) then applies to every item.
    assert.deepEqual(both(modern, "draft-07", [["a", 1], [1, 2]]), [1, "valid"]);
    // exclusiveMaximum is a number from draft-06 on (draft-04's boolean is refused).
    assert.deepEqual(both({ maximum: 3, exclusiveMaximum: true }, "draft-07", [3]), ["unusable"]);
    assert.deepEqual(both({ exclusiveMaximum: 3 }, "draft-06", [2, 3]), ["valid", 1]);
    // dependentRequired is 2019-09's; draft-07 has dependencies (which ajv reads in every dialect).
    assert.deepEqual(both({ dependentRequired: { a: ["b"] } }, "draft-07", [{ a: 1 }]), ["valid"]);
    assert.deepEqual(both({ dependentRequired: { a: ["b"] }, dependencies: { c: ["d"] } }, "2019-09", [{ a: 1 }, { c: 1 }, { a: 1, b: 1 }]), [1, 1, "valid"]);
  });

  test("uniqueItems, enum and const compare JSON values: 1 is 1.0, key order does not matter", () => {
    assert.equal(jsonEqual(1, 1.0), true);
    assert.equal(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, b: undefined }), false);
    assert.equal(jsonEqual([1, 2], [2, 1]), false);
    assert.equal(jsonEqual({}, []), false);
    const unique = { uniqueItems: true };
    assert.deepEqual(both(unique, "2020-12", [[1, 1.0], [{ a: 1, b: 2 }, { b: 2, a: 1 }], [[1], [1, 2]], [0, false, null, "0", ""], [{}, []]]), [
      1,
      1,
      "valid",
      "valid",
      "valid",
    ]);
    assert.deepEqual(both({ enum: [{ a: [1, 2] }] }, "2020-12", [{ a: [1, 2.0] }, { a: [2, 1] }]), ["valid", 1]);
    assert.deepEqual(both({ const: { x: 1, y: 2 } }, "2020-12", [{ y: 2, x: 1 }, { x: 1 }]), ["valid", 1]);
  });

  test("lengths count code points: an emoji is one character, a lone surrogate one too", () => {
    assert.deepEqual(both({ maxLength: 1 }, "2020-12", ["😀", "😀😀", "\ud800", "é", "e\u0301"]), ["valid", 1, "valid", "valid", 1]);
    assert.deepEqual(both({ minLength: 2, pattern: "^.$" }, "2020-12", ["😀", "ab"]), [1, 1]);
    assert.deepEqual(both({ pattern: "^\\p{Lu}" }, "2020-12", ["Émile", "émile"]), ["valid", 1]);
  });

  test("what unevaluatedProperties and unevaluatedItems see, as the specification says (where ajv counts otherwise)", () => {
    // 2020-12: the items `contains` matched are evaluated, no others (ajv counts all, or none for `contains: {}`).
    const items = { contains: { type: "string" }, unevaluatedItems: false };
    assert.deepEqual(ours(items, "2020-12", [["a", "b"], ["a", 1]]), ["valid", " must NOT have more than 0 items"]);
    // 2019-09: contains evaluates nothing.
    assert.deepEqual(ours(items, "2019-09", [["a"]]), [" must NOT have more than 0 items"]);
    // A passing `if` evaluates its properties (ajv: only then/else do).
    const conditional = { if: { properties: { a: { type: "string" } } }, then: { properties: { b: {} } }, unevaluatedProperties: false };
    assert.deepEqual(ours(conditional, "2020-12", [{ a: "x", b: 1 }, { a: 1 }, { c: 1 }]), [
      "valid",
      " must NOT have unevaluated properties",
      " must NOT have unevaluated properties",
    ]);
    // A dependent schema evaluates what it names (ajv: nothing).
    assert.deepEqual(ours({ dependentSchemas: { a: { properties: { a: {}, b: {} } } }, unevaluatedProperties: false }, "2020-12", [{ a: 1, b: 2 }, { b: 2 }]), [
      "valid",
      " must NOT have unevaluated properties",
    ]);
    // Where ajv agrees: every passing anyOf branch counts, a failing one does not; allOf and $ref count.
    const branches = {
      anyOf: [{ properties: { a: {} } }, { properties: { b: {} } }, { properties: { c: {} }, required: ["z"] }],
      unevaluatedProperties: false,
    };
    assert.deepEqual(both(branches, "2020-12", [{ a: 1, b: 2 }, { c: 1 }]), ["valid", 1]);
    const nested = { allOf: [{ $ref: "#/$defs/a" }], prefixItems: [{}], unevaluatedItems: { type: "string" }, $defs: { a: { prefixItems: [{}, {}] } } };
    assert.deepEqual(both(nested, "2020-12", [[1, 2, "x"], [1, 2, 3]]), ["valid", 1]);
  });

  test("$dynamicRef and $recursiveRef are refused as unusable (not supported), patterns that do not compile too", () => {
    for (
      const [schema, dialect] of [
        [{ $dynamicRef: "#a" }, "2020-12"],
        [{ $recursiveRef: "#" }, "2019-09"],
        [{ patternProperties: { "(": {} } }, "2020-12"],
      ] as const
    ) {
      assert.throws(() => interpreting.compile(schema, dialect), (error) => error instanceof SchemaError && error.code === "schema-invalid");
    }
  });

  test("bounded: a value deeper than the check allows is a RangeError, a schema deeper than it allows a SchemaError, never a stack overflow", () => {
    const interpreter = new SchemaInterpreter({ properties: { next: { $ref: "#" } } }, "2020-12");
    let deep: JsonObject = {};
    for (let i = 0; i < MAX_CHECK_DEPTH; i++) deep = { next: deep };
    assert.throws(() => interpreter.check(deep), RangeError);
    let shallow: JsonObject = {};
    for (let i = 0; i < 500; i++) shallow = { next: shallow };
    assert.deepEqual(interpreter.check(shallow), []);
    let schema: JsonObject = {};
    for (let i = 0; i < 100_000; i++) schema = { items: schema };
    assert.throws(() => new SchemaInterpreter(schema, "2020-12"), SchemaError);
    // Work: many values against many alternatives is bounded by MAX_CHECK_STEPS.
    const wide = new SchemaInterpreter(
      { items: { anyOf: Array.from({ length: 50 }, () => ({ items: { anyOf: [{ type: "null" }, { minimum: 1 }] } })) } },
      "2020-12",
    );
    assert.throws(() => wide.check(Array.from({ length: 200 }, () => Array.from({ length: 200 }, () => 0))), RangeError);
  });
});
