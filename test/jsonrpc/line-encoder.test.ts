// Tests for the outgoing line framer — src/jsonrpc/line-encoder.ts; spec 2025-11-25
// basic/transports (stdio): messages are delimited by newlines and contain none.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { encodeLine } from "../../src/jsonrpc/line-encoder.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";

/** Characters that break naive framers: newlines, CR, line separators, quotes, emoji, CJK. */
const awkward = fc.constantFrom("\n", "\r", "\r\n", "\u2028", "\u2029", "\u0000", '"', "\\", "😀", "漢", "é", "\t");
const unit = fc.oneof(awkward, fc.string({ unit: "binary", minLength: 1, maxLength: 1 }));
const text = fc.string({ unit, maxLength: 16 });
// jsonValue may give -0, which JSON writes as 0: compare against what JSON can carry.
const json = fc.jsonValue({ maxDepth: 3, stringUnit: unit }).map((value) => JSON.parse(JSON.stringify(value)) as fc.JsonValue);
const params = fc.dictionary(text, json, { maxKeys: 4, noNullPrototype: true });
const id = fc.oneof(fc.integer(), text);

// JSON.parse builds objects with Object.prototype, so the generated ones must have it too.
const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0" as const), id, method: text, params }, { requiredKeys: ["jsonrpc", "id", "method"], noNullPrototype: true }),
  fc.record({ jsonrpc: fc.constant("2.0" as const), method: text, params }, { requiredKeys: ["jsonrpc", "method"], noNullPrototype: true }),
  fc.record({ jsonrpc: fc.constant("2.0" as const), id, result: params }, { noNullPrototype: true }),
  fc.record({
    jsonrpc: fc.constant("2.0" as const),
    id: fc.oneof(id, fc.constant(null)),
    error: fc.record({ code: fc.integer(), message: text, data: json }, { requiredKeys: ["code", "message"], noNullPrototype: true }),
  }, { noNullPrototype: true }),
);

describe("encodeLine", () => {
  test("a message becomes its JSON followed by one newline", () => {
    assert.equal(encodeLine({ jsonrpc: "2.0", id: 1, method: "ping" }), '{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  });

  test("a newline inside a string is escaped, so the line holds only the delimiter", () => {
    const line = encodeLine({ jsonrpc: "2.0", method: "notifications/message", params: { data: "one\ntwo\r\nthree" } });
    assert.equal(line, '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"one\\ntwo\\r\\nthree"}}\n');
  });

  test("emoji and CJK text are written as themselves and read back unchanged", () => {
    const sent: JsonRpcMessage = { jsonrpc: "2.0", id: "漢字", result: { text: "héllo 😀 世界" } };
    const line = encodeLine(sent);
    assert.ok(line.includes("héllo 😀 世界"));
    assert.deepEqual(JSON.parse(line), sent);
  });

  test("any message is one line: exactly one newline, at the end, no CR, and it parses back to the message", () => {
    fc.assert(
      fc.property(message, (sent) => {
        const line = encodeLine(sent);
        assert.ok(line.endsWith("\n"));
        assert.equal(line.indexOf("\n"), line.length - 1, "no embedded newline");
        assert.equal(line.includes("\r"), false, "no carriage return");
        assert.deepEqual(JSON.parse(line), sent);
      }),
      { numRuns: 200 },
    );
  });

  test("any message's UTF-8 bytes hold one 0x0A byte, the last", () => {
    const utf8 = new TextEncoder();
    fc.assert(
      fc.property(message, (sent) => {
        const bytes = utf8.encode(encodeLine(sent));
        assert.equal(bytes.indexOf(0x0a), bytes.length - 1);
      }),
      { numRuns: 200 },
    );
  });
});
