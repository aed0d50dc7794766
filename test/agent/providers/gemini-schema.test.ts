// JSON Schema → Gemini's Schema subset (src/agent/providers/gemini-schema.ts): what is kept, rewritten,
// folded into the description, and dropped.

import assert from "node:assert/strict";
import { test } from "node:test";
import { toGeminiParameters, toGeminiSchema } from "../../../src/agent/providers/gemini-schema.ts";

test("types are upper-cased; description, required and string keywords are kept", () => {
  assert.deepEqual(
    toGeminiSchema({
      type: "object",
      properties: {
        path: { type: "string", description: "A path", minLength: 1, maxLength: 4096, pattern: "^/" },
        n: { type: "integer", minimum: 0, maximum: 9 },
      },
      required: ["path"],
    }),
    {
      type: "OBJECT",
      properties: {
        path: { type: "STRING", description: "A path", minLength: 1, maxLength: 4096, pattern: "^/" },
        n: { type: "INTEGER", minimum: 0, maximum: 9 },
      },
      required: ["path"],
    },
  );
});

test("$schema, additionalProperties, title, $id, examples and other unknown keywords are dropped", () => {
  assert.deepEqual(
    toGeminiSchema({
      $schema: "http://json-schema.org/draft-07/schema#",
      $id: "x",
      title: "T",
      examples: [{}],
      additionalProperties: false,
      propertyNames: { pattern: "^a" },
      type: "object",
      properties: { a: { type: "boolean", readOnly: true, deprecated: true } },
    }),
    { type: "OBJECT", properties: { a: { type: "BOOLEAN" } } },
  );
});

test("a type list with null becomes nullable; several types become anyOf", () => {
  assert.deepEqual(toGeminiSchema({ type: ["string", "null"], description: "maybe" }), { type: "STRING", description: "maybe", nullable: true });
  assert.deepEqual(toGeminiSchema({ type: ["string", "number"] }), { anyOf: [{ type: "STRING" }, { type: "NUMBER" }] });
  assert.deepEqual(toGeminiSchema({ type: ["object", "null"], properties: { a: { type: "string" } } }), {
    type: "OBJECT",
    properties: { a: { type: "STRING" } },
    nullable: true,
  });
});

test("anyOf/oneOf: a null branch is nullable, a single branch left is the schema, more stay anyOf", () => {
  assert.deepEqual(toGeminiSchema({ anyOf: [{ type: "integer" }, { type: "null" }], description: "d" }), { type: "INTEGER", description: "d", nullable: true });
  assert.deepEqual(toGeminiSchema({ oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }), {
    anyOf: [{ type: "STRING" }, { type: "ARRAY", items: { type: "STRING" } }],
  });
  assert.deepEqual(toGeminiSchema({ anyOf: [{ type: "string" }, {}] }), { type: "STRING", description: "any JSON value" });
});

test("const becomes a one-value enum; string enums are kept; other enums go into the description", () => {
  assert.deepEqual(toGeminiSchema({ const: "fixed" }), { type: "STRING", enum: ["fixed"] });
  assert.deepEqual(toGeminiSchema({ type: "string", enum: ["a", "b", null] }), { type: "STRING", enum: ["a", "b"], nullable: true });
  assert.deepEqual(toGeminiSchema({ type: "integer", enum: [1, 2, 3], description: "level" }), { type: "INTEGER", description: "level; one of: 1, 2, 3" });
  assert.deepEqual(toGeminiSchema({ const: 5 }), { type: "INTEGER", description: "must be: 5" });
});

test("only documented formats are kept; others and numeric bounds Gemini lacks are described", () => {
  assert.deepEqual(toGeminiSchema({ type: "string", format: "date-time" }), { type: "STRING", format: "date-time" });
  assert.deepEqual(toGeminiSchema({ type: "string", format: "uri" }), { type: "STRING", description: "format: uri" });
  assert.deepEqual(toGeminiSchema({ type: "number", format: "double", exclusiveMinimum: 0, multipleOf: 0.5 }), {
    type: "NUMBER",
    format: "double",
    description: "greater than 0; a multiple of 0.5",
  });
});

test("an array always has items; a tuple or missing items allows any value", () => {
  assert.deepEqual(toGeminiSchema({ type: "array", items: { type: "number" }, minItems: 1, maxItems: 3, uniqueItems: true }), {
    type: "ARRAY",
    items: { type: "NUMBER" },
    minItems: 1,
    maxItems: 3,
    description: "items are unique",
  });
  assert.deepEqual(toGeminiSchema({ type: "array" }), { type: "ARRAY", items: { type: "STRING", description: "any JSON value" } });
  assert.deepEqual(toGeminiSchema({ type: "array", prefixItems: [{ type: "string" }] }), {
    type: "ARRAY",
    items: { type: "STRING", description: "any JSON value" },
  });
});

test("a schema with no type is inferred from its keywords, or is any value", () => {
  assert.deepEqual(toGeminiSchema({ properties: { a: { type: "string" } } }), { type: "OBJECT", properties: { a: { type: "STRING" } } });
  assert.deepEqual(toGeminiSchema({ items: { type: "string" } }), { type: "ARRAY", items: { type: "STRING" } });
  assert.deepEqual(toGeminiSchema({}), { type: "STRING", description: "any JSON value" });
  assert.deepEqual(toGeminiSchema(true), { type: "STRING", description: "any JSON value" });
});

test("required names missing from properties are dropped; properties only on objects", () => {
  assert.deepEqual(toGeminiSchema({ type: "object", properties: { a: { type: "string" } }, required: ["a", "ghost", "a"] }), {
    type: "OBJECT",
    properties: { a: { type: "STRING" } },
    required: ["a"],
  });
  assert.deepEqual(toGeminiSchema({ type: "string", properties: { a: { type: "string" } }, required: ["a"] }), { type: "STRING" });
});

test("local $refs are inlined; a recursive one ends as a free-form object", () => {
  const schema = {
    type: "object",
    $defs: {
      Node: { type: "object", description: "a node", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } } },
    },
    properties: { root: { $ref: "#/$defs/Node" } },
  };
  assert.deepEqual(toGeminiSchema(schema), {
    type: "OBJECT",
    properties: {
      root: {
        type: "OBJECT",
        description: "a node",
        properties: { name: { type: "STRING" }, children: { type: "ARRAY", items: { type: "OBJECT", description: "a node; recursive" } } },
      },
    },
  });
  assert.deepEqual(toGeminiSchema({ $ref: "https://example.com/other.json" }), { type: "OBJECT", description: "see https://example.com/other.json" });
  assert.deepEqual(toGeminiSchema({ definitions: { S: { type: "string" } }, $ref: "#/definitions/S", description: "mine" }), {
    type: "STRING",
    description: "mine",
  });
});

test("allOf is merged: properties and required joined", () => {
  assert.deepEqual(
    toGeminiSchema({
      allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { type: "number" } }, required: ["b"] }],
    }),
    { type: "OBJECT", properties: { a: { type: "STRING" }, b: { type: "NUMBER" } }, required: ["a", "b"] },
  );
});

test("defaults of a primitive are kept, others dropped", () => {
  assert.deepEqual(toGeminiSchema({ type: "integer", default: 10 }), { type: "INTEGER", default: 10 });
  assert.deepEqual(toGeminiSchema({ type: "object", default: {} }), { type: "OBJECT" });
});

test("a tool without arguments has no parameters (Gemini refuses an empty OBJECT)", () => {
  assert.equal(toGeminiParameters({ type: "object" }), undefined);
  assert.equal(toGeminiParameters({ type: "object", properties: {}, additionalProperties: false }), undefined);
  assert.deepEqual(toGeminiParameters({ type: "object", properties: { q: { type: "string" } } }), { type: "OBJECT", properties: { q: { type: "STRING" } } });
});
