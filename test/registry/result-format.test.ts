// The LLM-facing string of a tool result: every content type, the structuredContent
// duplication rule, the cap with head and tail kept, and the JSON envelope.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CallToolResult } from "../../src/client/types.ts";
import { depthMarker } from "../../src/common/bounded.ts";
import {
  base64DecodedBytes,
  capText,
  DEFAULT_MAX_RESULT_CHARS,
  errorString,
  formatBytes,
  formatToolResultText,
  formatValueText,
  jsonEqual,
  MAX_RESULT_DEPTH,
  resultString,
} from "../../src/registry/result-format.ts";

function base64(bytes: number): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes).map((_, i) => i % 256)));
}

describe("content blocks", () => {
  test("text blocks are joined with newlines", () => {
    const result: CallToolResult = { content: [{ type: "text", text: "one" }, { type: "text", text: "two\nthree" }] };
    assert.equal(formatToolResultText(result), "one\ntwo\nthree");
  });

  test("an image becomes a placeholder with its MIME type and decoded size, never its base64", () => {
    const data = base64(1229);
    const text = formatToolResultText({ content: [{ type: "image", data, mimeType: "image/png" }] });
    assert.equal(text, "[image: image/png, 1.2 KB]");
    assert.ok(!text.includes(data.slice(0, 16)));
  });

  test("audio becomes a placeholder too", () => {
    assert.equal(formatToolResultText({ content: [{ type: "audio", data: base64(100), mimeType: "audio/wav" }] }), "[audio: audio/wav, 100 bytes]");
  });

  test("megabytes of image data make a short string", () => {
    const data = "A".repeat(4 * 1024 * 1024); // 3 MB decoded
    const text = formatToolResultText({ content: [{ type: "text", text: "here:" }, { type: "image", data, mimeType: "image/jpeg" }] });
    assert.equal(text, "here:\n[image: image/jpeg, 3.0 MB]");
  });

  test("a resource link is listed with uri, name, mimeType, size and description", () => {
    const text = formatToolResultText({
      content: [
        { type: "resource_link", uri: "file:///tmp/a.txt", name: "a.txt", mimeType: "text/plain", size: 2048, description: "notes" },
        { type: "resource_link", uri: "demo://x", name: "x" },
      ],
    });
    assert.equal(
      text,
      '[resource link: uri="file:///tmp/a.txt" name="a.txt" mimeType="text/plain" size=2.0 KB description="notes"]\n' +
        '[resource link: uri="demo://x" name="x"]',
    );
  });

  test("an embedded text resource is included under a line naming it", () => {
    const text = formatToolResultText({
      content: [{ type: "resource", resource: { uri: "demo://r/1", mimeType: "text/plain", text: "Resource 1 body" } }],
    });
    assert.equal(text, "[resource: demo://r/1, text/plain]\nResource 1 body");
  });

  test("an embedded blob resource becomes a placeholder with its size", () => {
    const text = formatToolResultText({
      content: [{ type: "resource", resource: { uri: "demo://r/2", mimeType: "application/gzip", blob: base64(3) } }],
    });
    assert.equal(text, "[resource: demo://r/2, application/gzip, 3 bytes]");
  });

  test("a block of a type this version does not know becomes a placeholder naming the type", () => {
    const result = { content: [{ type: "hologram", data: "…" }] } as unknown as CallToolResult;
    assert.equal(formatToolResultText(result), "[hologram content]");
  });

  test("decoded sizes ignore padding and line breaks", () => {
    assert.equal(base64DecodedBytes(""), 0);
    assert.equal(base64DecodedBytes("YQ=="), 1);
    assert.equal(base64DecodedBytes("YWI="), 2);
    assert.equal(base64DecodedBytes("YWJj"), 3);
    assert.equal(base64DecodedBytes("YWJj\nYWJj\r\n"), 6);
    assert.equal(formatBytes(1), "1 byte");
    assert.equal(formatBytes(1023), "1023 bytes");
    assert.equal(formatBytes(1024), "1.0 KB");
    assert.equal(formatBytes(5 * 1024 * 1024 + 1), "5.0 MB");
  });
});

describe("structuredContent", () => {
  const weather = { temperature: 22.5, conditions: "Sunny", humidity: 40 };

  test("is added as JSON when no text block carries it", () => {
    const text = formatToolResultText({ content: [{ type: "text", text: "It is sunny" }], structuredContent: weather });
    assert.equal(text, `It is sunny\n${JSON.stringify(weather)}`);
  });

  test("is not repeated when a text block is exactly its JSON", () => {
    const text = formatToolResultText({ content: [{ type: "text", text: JSON.stringify(weather) }], structuredContent: weather });
    assert.equal(text, JSON.stringify(weather));
  });

  test("the comparison is of parsed JSON: other whitespace and key order still count as the same", () => {
    const pretty = JSON.stringify({ humidity: 40, conditions: "Sunny", temperature: 22.5 }, null, 2);
    const text = formatToolResultText({ content: [{ type: "text", text: pretty }], structuredContent: weather });
    assert.equal(text, pretty);
  });

  test("a text block with different JSON does not count: both are shown", () => {
    const other = JSON.stringify({ ...weather, humidity: 41 });
    const text = formatToolResultText({ content: [{ type: "text", text: other }], structuredContent: weather });
    assert.equal(text, `${other}\n${JSON.stringify(weather)}`);
  });

  test("structuredContent alone (no content blocks) is the whole text", () => {
    assert.equal(formatToolResultText({ content: [], structuredContent: weather }), JSON.stringify(weather));
  });

  test("jsonEqual compares deeply, regardless of key order, and tells arrays from objects", () => {
    assert.ok(jsonEqual({ a: [1, { b: 2, c: null }] }, { a: [1, { c: null, b: 2 }] }));
    assert.ok(!jsonEqual({ a: [1, 2] }, { a: [2, 1] }));
    assert.ok(!jsonEqual({ a: 1 }, { a: 1, b: 2 }));
    assert.ok(!jsonEqual([], {}));
    assert.ok(!jsonEqual({ a: "1" }, { a: 1 }));
  });
});

describe("the cap", () => {
  test("the default is 100,000 characters", () => {
    assert.equal(DEFAULT_MAX_RESULT_CHARS, 100_000);
    const text = "x".repeat(100_000);
    assert.equal(capText(text), text);
    assert.equal(capText(text + "y").length, 100_000);
  });

  test("a long text keeps its head and tail, says how many characters were cut, and fits the cap", () => {
    const text = "HEAD" + "-".repeat(10_000) + "TAIL";
    const capped = capText(text, 1000);
    assert.ok(capped.length <= 1000, `length ${capped.length}`);
    assert.ok(capped.startsWith("HEAD"));
    assert.ok(capped.endsWith("TAIL"));
    const match = /\n\[… ([\d,]+) characters cut …\]\n/.exec(capped);
    assert.ok(match, capped.slice(400, 600));
    const cut = Number(match[1]!.replaceAll(",", ""));
    assert.equal(capped.length - match[0].length + cut, text.length, "kept + cut is the original length");
  });

  test("the cut never splits a character outside the BMP", () => {
    const text = "😀".repeat(5000);
    for (const max of [999, 1000, 1001]) {
      const capped = capText(text, max);
      assert.ok(capped.length <= max);
      assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(capped), `lone surrogate at max ${max}`);
    }
  });

  test("the cap applies inside the JSON envelope, which stays valid JSON", () => {
    const text = 'a"b\\c\n'.repeat(10_000);
    const result = JSON.parse(resultString(text, { maxChars: 500 })) as { result: string };
    assert.ok(result.result.length <= 500);
    assert.match(result.result, /characters cut/);
    const error = JSON.parse(errorString("e".repeat(2000), { maxChars: 300 })) as { error: string };
    assert.ok(error.error.length <= 300);
  });
});

describe("the envelope", () => {
  test('a result is {"result": "<text>"} — always a string', () => {
    assert.equal(resultString("Echo: hi"), '{"result":"Echo: hi"}');
    assert.deepEqual(JSON.parse(resultString("")), { result: "" });
  });

  test('an error is {"error": "<message>"}', () => {
    assert.deepEqual(JSON.parse(errorString('server "s", tool "t" failed: boom')), { error: 'server "s", tool "t" failed: boom' });
  });

  test("a built-in's value: strings as they are, CallToolResults as content, anything else as JSON", () => {
    assert.equal(formatValueText("plain"), "plain");
    assert.equal(formatValueText(undefined), "");
    assert.equal(formatValueText(null), "null");
    assert.equal(formatValueText(42), "42");
    assert.equal(formatValueText({ a: [1, 2] }), '{"a":[1,2]}');
    assert.equal(formatValueText({ content: [{ type: "text", text: "from content" }] }), "from content");
  });
});

describe("depth", () => {
  const levels = 100_000;
  const deepText = '{"a":'.repeat(levels) + '"bottom"' + "}".repeat(levels);
  const deep = (): unknown => JSON.parse(deepText); // JSON.parse does not recurse: any depth parses

  test("structuredContent nested 100,000 levels deep is shown to 64 levels, marked, with a line naming the source", () => {
    const text = formatToolResultText({ content: [], structuredContent: deep() as Record<string, unknown> }, { source: 'server "s", tool "t"' });
    const [json, note] = text.split("\n");
    assert.equal(json, '{"a":'.repeat(MAX_RESULT_DEPTH) + JSON.stringify(depthMarker(MAX_RESULT_DEPTH)) + "}".repeat(MAX_RESULT_DEPTH));
    assert.equal(note, '[server "s", tool "t": structuredContent is nested deeper than 64 levels; the levels past 64 were left out]');
  });

  test("without a source the line says what was cut; a value of exactly 64 levels is shown whole", () => {
    const text = formatToolResultText({ content: [], structuredContent: deep() as Record<string, unknown> });
    assert.ok(text.endsWith("\n[structuredContent is nested deeper than 64 levels; the levels past 64 were left out]"), text.slice(-100));
    const exact = JSON.parse('{"a":'.repeat(63) + "[1]" + "}".repeat(63)) as Record<string, unknown>;
    assert.equal(formatToolResultText({ content: [], structuredContent: exact }), JSON.stringify(exact));
  });

  test("a text block repeating a deep structuredContent is compared without overflowing the stack", () => {
    const text = formatToolResultText({ content: [{ type: "text", text: deepText }], structuredContent: deep() as Record<string, unknown> });
    assert.ok(text.startsWith(deepText.slice(0, 100)));
    assert.ok(text.includes(depthMarker(MAX_RESULT_DEPTH)));
    assert.equal(jsonEqual(deep(), deep()), false); // past 1,000 levels values count as different
    assert.equal(jsonEqual(JSON.parse('{"a":'.repeat(900) + "1" + "}".repeat(900)), JSON.parse('{"a":'.repeat(900) + "1" + "}".repeat(900))), true);
  });

  test("a deep built-in value: formatValueText marks it; a cycle or a BigInt still throws as before", () => {
    assert.ok(
      formatValueText(deep(), { source: 'tool "x"' }).endsWith('[tool "x": the value is nested deeper than 64 levels; the levels past 64 were left out]'),
    );
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.throws(() => formatValueText(cycle), TypeError);
    assert.throws(() => formatValueText({ n: 1n }), TypeError);
  });

  test("a cycle or a BigInt below 64 levels still throws a TypeError; a value reached twice but no cycle is shown", () => {
    const chain = (bottom: unknown): Record<string, unknown> => {
      let value: Record<string, unknown> = { bottom };
      for (let level = 0; level < 100; level++) value = { a: value };
      return value;
    };
    const looped: Record<string, unknown> = {};
    looped.back = chain(looped);
    assert.throws(() => formatValueText(looped), /circular/);
    assert.throws(() => formatValueText(chain(1n)), /BigInt/);
    const shared = { n: 1 };
    assert.ok(formatValueText([chain(shared), chain(shared)]).includes(depthMarker(MAX_RESULT_DEPTH)));
  });
});
