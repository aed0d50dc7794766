// `mcpwire tools --signatures`: a tool as a TypeScript-style signature under its description,
// types read from its inputSchema; the server's schema and text bounded, made visible and wrapped.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { schemaType, signatureListing, toolSignature } from "../../src/cli/tools/signature.ts";

const SUM = {
  name: "mcp_everything_get-sum",
  description: "Returns the sum of two numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
    required: ["a", "b"],
  },
};

describe("a tool's signature", () => {
  test("required parameters with their types, descriptions as @param lines", () => {
    assert.equal(
      toolSignature(SUM),
      [
        "/**",
        " * Returns the sum of two numbers",
        " *",
        " * @param a First number",
        " * @param b Second number",
        " */",
        "mcp_everything_get-sum(a: number, b: number)",
      ].join("\n"),
    );
  });

  test("optional parameters are marked and come after the required ones", () => {
    const text = toolSignature({
      name: "t",
      inputSchema: { type: "object", properties: { b: { type: "string" }, a: { type: "number" } }, required: ["a"] },
    });
    assert.equal(text, "t(a: number, b?: string)");
  });

  test("no parameters and a short description: one comment line", () => {
    assert.equal(toolSignature({ name: "ping", description: "Checks the server.", inputSchema: { type: "object" } }), "/** Checks the server. */\nping()");
    assert.equal(toolSignature({ name: "bare", inputSchema: {} }), "bare()");
  });

  test("an outputSchema becomes the return type", () => {
    const text = toolSignature({ ...SUM, outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] } });
    assert.match(text, /^mcp_everything_get-sum\(a: number, b: number\): \{ total: number \}$/m);
  });

  test("defaults, bounds, integers and formats are noted on the @param line", () => {
    const text = toolSignature({
      name: "t",
      inputSchema: {
        type: "object",
        properties: {
          count: { type: "integer", minimum: 1, maximum: 10, default: 3, description: "How many" },
          url: { type: "string", format: "uri" },
        },
      },
    });
    assert.match(text, / \* @param count How many \(integer, ≥ 1, ≤ 10, default: 3\)/);
    assert.match(text, / \* @param url \(format: uri\)/);
    assert.match(text, /t\(count\?: number, url\?: string\)/);
  });

  test("a long description is wrapped to the width, its line breaks kept", () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    const text = toolSignature({ name: "t", description: `${words}\n\n- first item\n- second item`, inputSchema: {} }, { width: 60 });
    const lines = text.split("\n");
    assert.ok(lines.every((line) => line.length <= 60), lines.find((line) => line.length > 60));
    assert.ok(lines.includes(" * - first item") && lines.includes(" * - second item"));
    assert.ok(lines.includes(" *"), "the blank line between paragraphs");
  });

  test("a signature wider than the width puts one parameter on a line", () => {
    const text = toolSignature({
      name: "mcp_everything_get-annotated-message",
      inputSchema: {
        type: "object",
        properties: { messageType: { type: "string", enum: ["error", "success", "debug"] }, includeImage: { type: "boolean" } },
        required: ["messageType"],
      },
    });
    assert.equal(
      text,
      ["mcp_everything_get-annotated-message(", '  messageType: "error" | "success" | "debug",', "  includeImage?: boolean,", ")"].join("\n"),
    );
  });

  test("an object too wide for its line is spelled out a property a line", () => {
    const item = {
      type: "object",
      properties: { name: { type: "string" }, entityType: { type: "string" }, observations: { type: "array", items: { type: "string" } } },
      required: ["name", "entityType"],
    };
    const text = toolSignature({
      name: "create_entities",
      inputSchema: { type: "object", properties: { entities: { type: "array", items: item } }, required: ["entities"] },
    }, { width: 50 });
    assert.equal(
      text,
      ["create_entities(", "  entities: {", "    name: string;", "    entityType: string;", "    observations?: string[];", "  }[],", ")"].join("\n"),
    );
  });
});

describe("types from schemas", () => {
  test("enums and consts are unions of literals", () => {
    assert.equal(schemaType({ type: "string", enum: ["a", "b"] }), '"a" | "b"');
    assert.equal(schemaType({ enum: [1, null, true] }), "1 | null | true");
    assert.equal(schemaType({ const: "v1" }), '"v1"');
  });

  test("type lists, anyOf and oneOf are unions; allOf an intersection", () => {
    assert.equal(schemaType({ type: ["string", "null"] }), "string | null");
    assert.equal(schemaType({ anyOf: [{ type: "number" }, { type: "string" }] }), "number | string");
    assert.equal(schemaType({ oneOf: [{ type: "integer" }, { type: "boolean" }] }), "number | boolean");
    assert.equal(schemaType({ allOf: [{ type: "object", properties: { a: { type: "number" } } }, { $ref: "#/$defs/Named" }] }), "{ a?: number } & Named");
  });

  test("arrays, tuples, objects and maps", () => {
    assert.equal(schemaType({ type: "array", items: { type: "string" } }), "string[]");
    assert.equal(schemaType({ type: "array", items: { enum: ["x", "y"] } }), '("x" | "y")[]');
    assert.equal(schemaType({ type: "array" }), "unknown[]");
    assert.equal(schemaType({ type: "array", prefixItems: [{ type: "number" }, { type: "string" }] }), "[number, string]");
    assert.equal(
      schemaType({ type: "object", properties: { k: { type: "number" }, "two words": { type: "string" } }, required: ["k"] }),
      '{ k: number; "two words"?: string }',
    );
    assert.equal(schemaType({ type: "object", additionalProperties: { type: "number" } }), "Record<string, number>");
    assert.equal(schemaType({ type: "object" }), "object");
  });

  test("what a schema does not say is unknown; false is never", () => {
    assert.equal(schemaType({}), "unknown");
    assert.equal(schemaType(true), "unknown");
    assert.equal(schemaType(false), "never");
    assert.equal(schemaType("nonsense"), "unknown");
  });
});

describe("a hostile server's schema and text", () => {
  test("escape sequences in descriptions, names and literals are shown, not sent", () => {
    const text = toolSignature({
      name: "t",
      description: "evil \x1b[31mred\x1b[0m \u202e",
      inputSchema: { type: "object", properties: { "x\x1b]0;t\x07": { type: "string", enum: ["\x1b[2J"], description: "d\x1b[1m" } } },
    });
    assert.doesNotMatch(text, /[\x1b\x07\u202e]/);
    assert.match(text, /\\x1b\[31mred/);
    assert.match(text, /\\u202e/);
  });

  test("a description cannot close the comment early", () => {
    const text = toolSignature({ name: "t", description: "first */ second", inputSchema: {} });
    assert.equal(text.indexOf("*/"), text.lastIndexOf("*/"));
  });

  test("a huge description is cut", () => {
    const text = toolSignature({ name: "t", description: "x ".repeat(1_000_000), inputSchema: {} });
    assert.ok(text.length < 5_000, String(text.length));
  });

  test("a schema nested 100,000 levels deep does not overflow the stack", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 100_000; i++) deep = { type: "array", items: deep };
    const text = toolSignature({ name: "t", inputSchema: { type: "object", properties: { d: deep } } });
    assert.match(text, /d\?: …\[\]\[\]\[\]/);
  });

  test("anyOf nested in anyOf (2^40 branches) is cut short, not spelled out", () => {
    let bomb: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i++) bomb = { anyOf: [bomb, { ...bomb, description: String(i) }] };
    const text = toolSignature({ name: "t", inputSchema: { type: "object", properties: { x: bomb } } });
    assert.match(text, /^t\(x\?: /m);
    assert.ok(text.length < 10_000, String(text.length));
  });

  test("thousands of properties and enum members are bounded", () => {
    const members = Array.from({ length: 5_000 }, (_, j) => j);
    const properties = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`p${i}`, { enum: members }]));
    const text = toolSignature({ name: "t", inputSchema: { type: "object", properties } });
    assert.match(text, /…4960 more/);
    assert.ok(text.length < 200_000, String(text.length));
  });
});

describe("the listing", () => {
  test("tools grouped under their server, with a count", () => {
    const text = signatureListing([
      { ...SUM, server: "everything" },
      { name: "mcp_memory_read_graph", inputSchema: {}, server: "memory" },
      {
        name: "mcp_everything_echo",
        inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
        server: "everything",
      },
    ]);
    assert.match(text, /^\/\/ server "everything": 2 tools\n\n/);
    assert.match(text, /mcp_everything_echo\(message: string\)\n\n\/\/ server "memory": 1 tool\n\nmcp_memory_read_graph\(\)\n$/);
    assert.equal(signatureListing([]), "");
  });
});
