// The two JSON Schema validators (src/client/schema/schema-validator.ts) side by side: ajv, which
// compiles schemas to code, and the interpreting one (json-schema-interpreter.ts), which needs no
// `new Function`. For each schema and value they must give the same verdict, the same paths and
// the same words; a schema neither can use is a SchemaError "schema-invalid" from both.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { validateAnswer } from "../../src/client/elicitation.ts";
import { JSON_SCHEMA_VALIDATORS, jsonSchemaValidator, loadJsonSchema } from "../../src/client/schema/json-schema.ts";
import { OutputValidators } from "../../src/client/schema/output-validator.ts";
import { type Dialect, MAX_FAILURES, SchemaError, type SchemaValidator } from "../../src/client/schema/schema-validator.ts";
import type { ElicitationSchema, JsonObject } from "../../src/client/types.ts";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** What a validator says of one value: its failures, in order, or that the schema is unusable. */
function verdict(validator: SchemaValidator, schema: JsonObject, dialect: Dialect, value: unknown): unknown {
  let check;
  try {
    check = validator.compile(schema, dialect);
  } catch (error) {
    assert.ok(error instanceof SchemaError, `${validator.name}: ${String(error)}`);
    return { unusable: error.code };
  }
  const failures = check(value);
  if (failures === undefined) return "valid";
  return failures.map((failure) => `${failure.path} ${failure.message}${failure.property === undefined ? "" : ` (${failure.property})`}`);
}

type Case = { name: string; schema: JsonObject; dialect?: Dialect; values: unknown[] };

const CASES: Case[] = [
  {
    name: "types, required and additionalProperties: false",
    schema: {
      type: "object",
      properties: { temperature: { type: "number" }, conditions: { type: "string" }, tags: { type: ["string", "null"] } },
      required: ["temperature", "conditions"],
      additionalProperties: false,
    },
    values: [{ temperature: 1, conditions: "fog" }, { temperature: "warm", conditions: "sunny" }, { temperature: 1, wind: "strong" }, [], null, {
      temperature: 1,
      conditions: "x",
      tags: 3,
    }],
  },
  {
    name: "numbers, strings and arrays: bounds, pattern, enum, const, uniqueItems",
    schema: {
      type: "object",
      properties: {
        n: { type: "integer", minimum: 0, maximum: 10, multipleOf: 2 },
        x: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
        s: { type: "string", minLength: 2, maxLength: 4, pattern: "^[a-z]+$" },
        e: { enum: ["a", "b"] },
        c: { const: 7 },
        list: { type: "array", minItems: 1, maxItems: 2, uniqueItems: true, items: { type: "string" } },
        map: { type: "object", minProperties: 1, maxProperties: 1 },
      },
    },
    values: [
      { n: 4, x: 0.5, s: "ab", e: "a", c: 7, list: ["a"], map: { a: 1 } },
      { n: -2, x: 1, s: "A", e: "z", c: 8, list: [], map: {} },
      { n: 11.5, x: 0, s: "abcdef", list: ["a", "a", "b"], map: { a: 1, b: 2 } },
      { n: 3, list: [1] },
    ],
  },
  {
    name: "anyOf, oneOf, not, allOf, if/then/else",
    schema: {
      anyOf: [{ type: "string" }, { type: "number" }],
      oneOf: [{ minimum: 0 }, { maximum: 10 }],
      not: { const: 5 },
      allOf: [{ not: { const: "no" } }],
      if: { type: "number" },
      then: { multipleOf: 1 },
      else: { minLength: 1 },
    },
    values: [-1, 5, 3, true, "", "no", 1.5],
  },
  {
    name: "$ref into $defs (2020-12) and a recursive $ref",
    schema: {
      type: "object",
      properties: { n: { $ref: "#/$defs/count" }, child: { $ref: "#" } },
      $defs: { count: { type: "integer", minimum: 0 } },
    },
    values: [{ n: 3 }, { n: -1 }, { child: { n: 1.5, child: { n: "x" } } }],
  },
  {
    name: "$ref into definitions (draft-07)",
    schema: { $schema: DRAFT_07, type: "object", properties: { n: { $ref: "#/definitions/count" } }, definitions: { count: { type: "integer", minimum: 0 } } },
    dialect: "draft-07",
    values: [{ n: 3 }, { n: 1.5 }],
  },
  {
    name: "a schema with $id and $ref '#'",
    schema: { $id: "https://example.com/schemas/node", type: "object", properties: { n: { type: "number" }, child: { $ref: "#" } }, required: ["n"] },
    values: [{ n: 1, child: { n: 2 } }, { n: 1, child: { n: "two" } }, {}],
  },
  {
    name: "prefixItems in 2020-12",
    schema: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
    values: [["a", 1], ["a", "b"], [1]],
  },
  {
    name: "prefixItems in draft-07 (not a keyword there) and items as a tuple",
    schema: {
      type: "object",
      properties: { p: { prefixItems: [{ type: "string" }] }, t: { items: [{ type: "string" }, { type: "number" }], additionalItems: false } },
    },
    dialect: "draft-07",
    values: [{ p: [1] }, { t: ["a", "b"] }, { t: ["a", 1, 2] }],
  },
  {
    name: "2020-12: items false and unevaluatedItems false after prefixItems",
    schema: { type: "object", properties: { closed: { prefixItems: [{}], items: false }, sealed: { prefixItems: [{}, {}], unevaluatedItems: false } } },
    values: [{ closed: [1], sealed: [1, 2] }, { closed: [1, 2, 3] }, { sealed: [1, 2, 3, 4] }],
  },
  {
    name: "2019-09: dependentRequired, unevaluatedProperties, minContains",
    schema: {
      type: "object",
      properties: { a: {}, list: { contains: { type: "string" }, minContains: 2 } },
      dependentRequired: { a: ["b"] },
      unevaluatedProperties: false,
    },
    dialect: "2019-09",
    values: [{ a: 1 }, { list: ["x"] }, { zzz: 1 }, { list: ["x", "y"] }, { list: ["x"], zzz: 1, b: 2 }],
  },
  {
    name: "formats are annotations in an outputSchema",
    schema: { type: "object", properties: { email: { type: "string", format: "email" }, when: { type: "string", format: "date-time" } } },
    values: [{ email: "not an email", when: "yesterday" }],
  },
  {
    name: "property names that need escaping in a pointer",
    schema: { type: "object", properties: { "a/b": { type: "number" }, "c~d": { type: "number" }, "e f%": { type: "number" } } },
    values: [{ "a/b": "x", "c~d": "y", "e f%": "z" }],
  },
  // Schemas that cannot be used: the same code from both.
  { name: "an unknown type", schema: { type: "object", properties: { n: { type: "no-such-type" } } }, values: [{ n: 1 }] },
  { name: "items as an array in 2020-12", schema: { type: "array", items: [{ type: "string" }] }, values: [["a"]] },
  { name: "a $ref that does not resolve", schema: { type: "object", properties: { n: { $ref: "#/$defs/missing" } } }, values: [{ n: 1 }] },
  { name: "required that is not a list", schema: { type: "object", required: "n" }, values: [{}] },
  { name: "a pattern that is not a regular expression", schema: { type: "string", pattern: "(" }, values: ["x"] },
  { name: "a negative minLength", schema: { type: "string", minLength: -1 }, values: ["x"] },
  { name: "a properties value that is not a schema", schema: { type: "object", properties: { n: 3 } }, values: [{ n: 1 }] },
];

describe("ajv and the interpreting validator agree", () => {
  let ajv: SchemaValidator;
  let interpreting: SchemaValidator;
  before(async () => {
    [ajv, interpreting] = await Promise.all([loadJsonSchema("ajv"), loadJsonSchema("interpreting")]);
  });

  for (const { name, schema, dialect = "2020-12", values } of CASES) {
    test(`${name}: the same verdicts, paths and messages`, () => {
      for (const value of values) {
        const expected = verdict(ajv, schema, dialect, value);
        assert.deepEqual(verdict(interpreting, schema, dialect, value), expected, `value ${JSON.stringify(value)}`);
      }
    });
  }

  test("the cases cover every verdict: valid, failures and an unusable schema", () => {
    const kinds = new Set(CASES.flatMap(({ schema, dialect = "2020-12", values }) =>
      values.map((value) => {
        const result = verdict(ajv, schema, dialect, value);
        return result === "valid" ? "valid" : Array.isArray(result) ? "failures" : "unusable";
      })
    ));
    assert.deepEqual([...kinds].sort(), ["failures", "unusable", "valid"]);
  });

  test("the schema given is never changed (the interpreting validator works on a copy)", () => {
    for (const { schema, dialect = "2020-12" } of CASES) {
      const before = structuredClone(schema);
      try {
        interpreting.compile(schema, dialect)({});
      } catch {
        // an unusable schema
      }
      assert.deepEqual(schema, before);
      assert.deepEqual(Object.getOwnPropertyNames(schema).sort(), Object.keys(before).sort());
    }
  });

  test("the failures are in one order, by place (outermost first, array indexes as numbers), then by message", () => {
    const schema = { type: "object", properties: { list: { items: { type: "string", minLength: 2 } } }, required: ["name"], additionalProperties: false };
    const value = { list: Array.from({ length: 12 }, (_, index) => index === 2 ? "x" : index), extra: 1 };
    const expected = [
      " must NOT have additional properties (extra)",
      " must have required property 'name'",
      "/list/0 must be string",
      "/list/1 must be string",
      "/list/2 must NOT have fewer than 2 characters",
      "/list/3 must be string",
    ];
    for (const validator of [ajv, interpreting]) {
      assert.deepEqual((verdict(validator, schema, "2020-12", value) as string[]).slice(0, 6), expected, validator.name);
    }
  });

  test("the failures of one value are bounded", () => {
    const schema = { type: "array", items: { type: "string" } };
    for (const validator of [ajv, interpreting]) {
      const failures = validator.compile(schema, "2020-12")(Array.from({ length: 500 }, (_, index) => index));
      assert.equal(failures?.length, MAX_FAILURES, validator.name);
      assert.deepEqual(failures?.[0], { path: "/0", keyword: "type", message: "must be string" });
    }
  });
});

for (const name of JSON_SCHEMA_VALIDATORS) {
  describe(`the ${name} validator behind the client's checks`, () => {
    before(() => loadJsonSchema(name).then(() => undefined));

    test("a value nested 100,000 levels against a recursive schema is unchecked, never a stack overflow", () => {
      const validators = new OutputValidators(() => {}, name);
      const node = { type: "object", properties: { next: { $ref: "#/$defs/node" } } };
      const schema = { ...node, $defs: { node } };
      let deep: JsonObject = {};
      for (let i = 0; i < 100_000; i++) deep = { next: deep };
      const outcome = validators.judge("deep", schema, deep);
      assert.ok(outcome !== undefined && "unchecked" in outcome, JSON.stringify(outcome));
      assert.match(outcome.unchecked, /nested more than 1000 levels deep, too deep for the validator/);
      assert.equal(validators.judge("deep", schema, { next: { next: {} } }), undefined);
    });

    test("a schema nested 100,000 levels is reported as not compiling, once, and its values pass", () => {
      const reported: string[] = [];
      const validators = new OutputValidators((message) => reported.push(message), name);
      let schema: JsonObject = { type: "string" };
      for (let i = 0; i < 100_000; i++) schema = { type: "object", properties: { next: schema } };
      assert.equal(validators.judge("deep-schema", schema, { next: 1 }), undefined);
      assert.equal(validators.judge("deep-schema", schema, { next: 2 }), undefined);
      assert.equal(reported.length, 1, reported.join("\n"));
      assert.match(reported[0]!, /^tool "deep-schema": outputSchema does not compile \(.+\); its results are not validated$/);
    });

    test("an elicitation answer: the four formats of the restricted form are asserted, others are not", () => {
      const schema: ElicitationSchema = {
        type: "object",
        properties: {
          email: { type: "string", format: "email" },
          site: { type: "string", format: "uri" },
          day: { type: "string", format: "date" },
          at: { type: "string", format: "date-time" },
          host: { type: "string", format: "hostname" as "uri" }, // outside the restricted form: not asserted
        },
        required: ["email"],
      };
      assert.equal(
        validateAnswer(schema, { email: "ada@example.com", site: "https://example.com/", day: "2026-12-04", at: "2026-12-04T16:00:00Z" }, name),
        undefined,
      );
      assert.deepEqual(validateAnswer(schema, { email: "ada", site: "not a uri", day: "2026-13-45", at: "today", host: "!!" }, name)?.sort(), [
        `"at" must match format "date-time"`,
        `"day" must match format "date"`,
        `"email" must match format "email"`,
        `"site" must match format "uri"`,
      ]);
      assert.deepEqual(validateAnswer(schema, { extra: "x" }, name)?.sort(), [
        `the answer has "extra", which the schema does not ask for`,
        `the answer must have required property 'email'`,
      ]);
    });

    test("the loaded validator is the one named", () => {
      assert.equal(jsonSchemaValidator(name).name, name);
    });
  });
}
