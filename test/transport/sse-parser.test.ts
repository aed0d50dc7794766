// The SSE parser: the WHATWG event-stream rules, whatever the chunking.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { type SseEvent, SseParser } from "../../src/transport/sse-parser.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function parse(chunks: (string | Uint8Array)[]): { events: SseEvent[]; retries: number[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onEvent: (event) => events.push(event), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(typeof chunk === "string" ? bytes(chunk) : chunk);
  parser.end();
  return { events, retries, parser };
}

describe("SseParser", () => {
  test("an event's data lines are joined with newlines and its type defaults to message", () => {
    const { events } = parse(["data: one\ndata: two\n\nevent: endpoint\ndata: /messages?x=1\n\n"]);
    assert.deepEqual(events, [
      { type: "message", data: "one\ntwo", id: "" },
      { type: "endpoint", data: "/messages?x=1", id: "" },
    ]);
  });

  test("CR, LF and CRLF all end lines, also when CR and LF arrive in different chunks", () => {
    const { events } = parse(["data: a\r", "\ndata: b\r\r", "data: c\n\r\n", "data: d\r\n\r\n"]);
    assert.deepEqual(events.map((event) => event.data), ["a\nb", "c", "d"]);
  });

  test("comments are skipped, one space after the colon is removed, a field without colon has an empty value", () => {
    const { events } = parse([": keep-alive\ndata:  two spaces\ndata\ndata:x\n\n"]);
    assert.deepEqual(events.map((event) => event.data), [" two spaces\n\nx"]);
  });

  test("id is carried by later events, set by an event with no data, and ignored when it holds NUL", () => {
    const { events, parser } = parse(["id: 7\ndata: a\n\n", "id: 8\n\n", "data: b\n\n", "id: x\0y\ndata: c\n\n"]);
    assert.deepEqual(events.map((event) => [event.data, event.id]), [["a", "7"], ["b", "8"], ["c", "8"]]);
    assert.equal(parser.lastEventId, "8");
  });

  test("retry is taken only when it is all digits", () => {
    const { retries, parser } = parse(["retry: 1500\n\nretry: 2s\n\nretry:300\n\n"]);
    assert.deepEqual(retries, [1500, 300]);
    assert.equal(parser.retryMs, 300);
  });

  test("an event not ended by a blank line before the stream ends is discarded", () => {
    const { events } = parse(["data: whole\n\ndata: cut off"]);
    assert.deepEqual(events.map((event) => event.data), ["whole"]);
  });

  test("a leading byte-order mark is ignored", () => {
    const { events } = parse([new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("data: x\n\n")])]);
    assert.deepEqual(events.map((event) => event.data), ["x"]);
  });

  test("a UTF-8 character split across chunks decodes whole", () => {
    const encoded = bytes("data: héllo ✓ 🎉\n\n");
    for (let cut = 1; cut < encoded.length; cut++) {
      const { events } = parse([encoded.subarray(0, cut), encoded.subarray(cut)]);
      assert.deepEqual(events.map((event) => event.data), ["héllo ✓ 🎉"], `cut at ${cut}`);
    }
  });

  test("any events, with any line endings, cut into any chunks, parse to the same events", () => {
    const line = fc.string({ unit: "grapheme" }).map((text) => text.replace(/[\r\n]/g, ""));
    const event = fc.record({
      type: fc.constantFrom("message", "endpoint", "ping"),
      lines: fc.array(line, { minLength: 1, maxLength: 4 }),
      id: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 8 }),
        fc.constantFrom("\n", "\r", "\r\n"),
        fc.array(fc.nat(), { maxLength: 12 }),
        (list, eol, cuts) => {
          let text = "";
          let id = "";
          const expected: SseEvent[] = [];
          for (const item of list) {
            if (item.id !== undefined) {
              text += `id: ${item.id}${eol}`;
              id = item.id;
            }
            if (item.type !== "message") text += `event: ${item.type}${eol}`;
            for (const dataLine of item.lines) text += `data: ${dataLine}${eol}`;
            text += eol;
            expected.push({ type: item.type, data: item.lines.join("\n"), id });
          }
          const encoded = bytes(text);
          const points = [...new Set(cuts.map((cut) => cut % (encoded.length + 1)))].sort((a, b) => a - b);
          const chunks: Uint8Array[] = [];
          let previous = 0;
          for (const point of points) {
            chunks.push(encoded.subarray(previous, point));
            previous = point;
          }
          chunks.push(encoded.subarray(previous));
          assert.deepEqual(parse(chunks).events, expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("SseParser size limit", () => {
  test("an event over maxEventChars is skipped and reported once; the next event decodes", () => {
    const events: SseEvent[] = [];
    const problems: string[] = [];
    const parser = new SseParser({ onEvent: (event) => events.push(event), onProblem: (message) => problems.push(message), maxEventChars: 50 });
    const big = "x".repeat(30);
    // One oversized event spread over data lines and chunks, then a normal one.
    for (const piece of [`data: ${big}\n`, `data: ${big.slice(0, 10)}`, `${big}\n`, "data: more\n", "\n", "data: small\n\n"]) {
      parser.push(bytes(piece));
    }
    parser.end();
    assert.deepEqual(events.map((event) => event.data), ["small"]);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /more than 50 characters/);
  });

  test("a skipped event's report carries the start of its data, where a JSON-RPC id is", () => {
    const heads: string[] = [];
    const events: SseEvent[] = [];
    const parser = new SseParser({ onEvent: (event) => events.push(event), onProblem: (_message, head) => heads.push(head), maxEventChars: 300 });
    parser.push(bytes(`data: {"jsonrpc":"2.0","id":7,"result":{"text":"${"q".repeat(500)}"}}\n\n`));
    parser.push(bytes(`data: {"id":"a",\ndata: "result":"${"r".repeat(200)}`));
    parser.push(bytes(`${"r".repeat(200)}"}\n\ndata: ok\n\n`));
    assert.deepEqual(events.map((event) => event.data), ["ok"]);
    assert.equal(heads.length, 2);
    assert.ok(heads[0]!.startsWith(`{"jsonrpc":"2.0","id":7,"result":{"text":"qqq`), heads[0]);
    assert.ok(heads[0]!.length <= 256);
    assert.ok(heads[1]!.startsWith(`{"id":"a",\n"result":"rrr`), heads[1]);
  });

  test("a single line that never ends stops being buffered at the limit", () => {
    const events: SseEvent[] = [];
    const problems: string[] = [];
    const parser = new SseParser({ onEvent: (event) => events.push(event), onProblem: (message) => problems.push(message), maxEventChars: 1000 });
    for (let i = 0; i < 100; i++) parser.push(bytes(i === 0 ? "data: " + "y".repeat(100) : "y".repeat(100)));
    parser.push(bytes("\n\ndata: after\n\n"));
    assert.deepEqual(events.map((event) => event.data), ["after"]);
    assert.equal(problems.length, 1);
  });
});
