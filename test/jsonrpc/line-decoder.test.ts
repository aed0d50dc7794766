// Tests for the incoming line framer — src/jsonrpc/line-decoder.ts; spec 2025-11-25
// basic/transports (stdio: one message per line), JSON-RPC 2.0 §6 (batches).

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { describe, test } from "node:test";
import fc from "fast-check";
import { type DecodeProblem, DEFAULT_MAX_MESSAGE_BYTES, LineDecoder } from "../../src/jsonrpc/line-decoder.ts";
import { encodeLine } from "../../src/jsonrpc/line-encoder.ts";
import { type JsonRpcMessage, whyNotJsonRpc } from "../../src/jsonrpc/messages.ts";
import { runtime } from "../../src/runtime/mod.ts";

const utf8 = new TextEncoder();

interface Decoded {
  messages: JsonRpcMessage[];
  problems: DecodeProblem[];
}

/** A decoder that records what it delivers, as a user of it would see it. */
function recorder(maxMessageBytes?: number): Decoded & { decoder: LineDecoder } {
  const messages: JsonRpcMessage[] = [];
  const problems: DecodeProblem[] = [];
  const decoder = new LineDecoder({
    maxMessageBytes,
    onMessage: (message) => messages.push(message),
    onProblem: (problem) => problems.push(problem),
  });
  return { decoder, messages, problems };
}

/** Feed the chunks, then end the stream. */
function decode(chunks: Array<Uint8Array | string>, maxMessageBytes?: number): Decoded {
  const { decoder, messages, problems } = recorder(maxMessageBytes);
  for (const chunk of chunks) decoder.push(typeof chunk === "string" ? utf8.encode(chunk) : chunk);
  decoder.end();
  return { messages, problems };
}

/** The bytes cut at the given offsets (any order, duplicates and out-of-range ones ignored). */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) chunks.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  return chunks;
}

/** The bytes in chunks of `size` bytes. */
function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const ping: JsonRpcMessage = { jsonrpc: "2.0", id: 1, method: "ping" };
const pong: JsonRpcMessage = { jsonrpc: "2.0", id: 1, result: {} };
const unicode: JsonRpcMessage = { jsonrpc: "2.0", id: "é", result: { text: "a€😀漢字b", lines: "one\ntwo" } };

describe("LineDecoder: lines and chunks", () => {
  test("a whole line in one chunk decodes to one message", () => {
    assert.deepEqual(decode([encodeLine(ping)]), { messages: [ping], problems: [] });
  });

  test("several lines in one chunk decode in order", () => {
    const { messages } = decode([encodeLine(ping) + encodeLine(pong) + encodeLine(unicode)]);
    assert.deepEqual(messages, [ping, pong, unicode]);
  });

  test("a line split inside a UTF-8 character decodes once whole, wherever the cut falls", () => {
    const bytes = utf8.encode(encodeLine(unicode));
    for (let at = 1; at < bytes.length; at++) {
      const result = decode([bytes.subarray(0, at), bytes.subarray(at)]);
      assert.deepEqual(result, { messages: [unicode], problems: [] }, `cut at byte ${at}`);
    }
  });

  test("a message fed one byte at a time decodes once whole", () => {
    const bytes = utf8.encode(encodeLine(unicode) + encodeLine(ping));
    assert.deepEqual(decode(chunksOf(bytes, 1)), { messages: [unicode, ping], problems: [] });
  });

  test("no message is delivered before its newline arrives, and bufferedBytes shows the partial message", () => {
    const { decoder, messages } = recorder();
    const bytes = utf8.encode(encodeLine(unicode));
    decoder.push(bytes.subarray(0, 10));
    decoder.push(bytes.subarray(10, bytes.length - 1));
    assert.deepEqual(messages, []);
    assert.equal(decoder.bufferedBytes, bytes.length - 1);
    decoder.push(bytes.subarray(bytes.length - 1));
    assert.deepEqual(messages, [unicode]);
    assert.equal(decoder.bufferedBytes, 0);
  });

  test("an empty chunk changes nothing", () => {
    const { decoder, messages } = recorder();
    decoder.push(new Uint8Array(0));
    decoder.push(utf8.encode(encodeLine(ping)));
    decoder.push(new Uint8Array(0));
    assert.deepEqual(messages, [ping]);
  });

  test("CRLF line ends decode like LF, also when the CR and the LF arrive in different chunks", () => {
    const text = JSON.stringify(ping) + "\r\n" + JSON.stringify(pong) + "\r\n";
    assert.deepEqual(decode([text]), { messages: [ping, pong], problems: [] });
    const crAt = text.indexOf("\r");
    assert.deepEqual(decode([text.slice(0, crAt + 1), text.slice(crAt + 1)]), { messages: [ping, pong], problems: [] });
  });

  test("blank lines, CR-only lines and whitespace-only lines are skipped without a report", () => {
    const text = "\n\n\r\n   \n\t\r\n" + encodeLine(ping) + "\n \n" + encodeLine(pong) + "\n";
    assert.deepEqual(decode([text]), { messages: [ping, pong], problems: [] });
  });

  test("end() decodes a final line that has no newline", () => {
    const { decoder, messages } = recorder();
    decoder.push(utf8.encode(encodeLine(ping) + JSON.stringify(pong)));
    assert.deepEqual(messages, [ping]);
    decoder.end();
    assert.deepEqual(messages, [ping, pong]);
    assert.equal(decoder.bufferedBytes, 0);
  });

  test("end() decodes a final line cut inside a UTF-8 character and ending in CR", () => {
    const bytes = utf8.encode(JSON.stringify(unicode) + "\r");
    const at = utf8.encode(JSON.stringify(unicode).slice(0, JSON.stringify(unicode).indexOf("😀"))).length + 2;
    assert.deepEqual(decode([bytes.subarray(0, at), bytes.subarray(at)]), { messages: [unicode], problems: [] });
  });

  test("end() with nothing buffered delivers and reports nothing", () => {
    assert.deepEqual(decode([encodeLine(ping)]), { messages: [ping], problems: [] });
    assert.deepEqual(decode([]), { messages: [], problems: [] });
  });

  test("a partial line survives the caller reusing its chunk buffer, for a Uint8Array and a Node Buffer", () => {
    const line = encodeLine(unicode);
    const split = 20;
    for (const make of [(text: string) => utf8.encode(text), (text: string) => Buffer.from(text, "utf8")]) {
      const { decoder, messages, problems } = recorder();
      const first = make(line.slice(0, split));
      decoder.push(first);
      first.fill(0x20); // the transport reads its next chunk into the same memory
      decoder.push(make(line.slice(split)));
      assert.deepEqual({ messages, problems }, { messages: [unicode], problems: [] }, first.constructor.name);
    }
  });

  test("a UTF-8 byte order mark at the start of the stream is dropped, wherever it is cut; one inside the stream is not JSON", () => {
    const bytes = concat([new Uint8Array([0xef, 0xbb, 0xbf]), utf8.encode(encodeLine(ping) + encodeLine(pong))]);
    for (let at = 0; at <= 4; at++) {
      assert.deepEqual(decode([bytes.subarray(0, at), bytes.subarray(at)]), { messages: [ping, pong], problems: [] }, `cut at byte ${at}`);
    }
    assert.deepEqual(decode(chunksOf(bytes, 1)), { messages: [ping, pong], problems: [] });
    const later = decode([encodeLine(ping) + "\ufeff" + encodeLine(pong)]);
    assert.deepEqual(later.messages, [ping]);
    assert.deepEqual(later.problems.map((problem) => problem.kind), ["not-json"]);
    // Two bytes that only begin like a BOM are the line's own (here: invalid UTF-8, not JSON).
    const almost = decode([new Uint8Array([0xef, 0xbb]), utf8.encode("x\n" + encodeLine(pong))]);
    assert.deepEqual(almost.messages, [pong]);
    assert.deepEqual(almost.problems.map((problem) => problem.preview), [JSON.stringify("\ufffdx")]);
  });

  test("invalid UTF-8 inside a string decodes with U+FFFD instead of stopping the stream", () => {
    const bytes = concat([utf8.encode('{"jsonrpc":"2.0","method":"a'), new Uint8Array([0xff, 0xc3]), utf8.encode('"}\n'), utf8.encode(encodeLine(ping))]);
    assert.deepEqual(decode([bytes]), { messages: [{ jsonrpc: "2.0", method: "a\ufffd\ufffd" }, ping], problems: [] });
  });
});

describe("LineDecoder: bad lines are reported and skipped", () => {
  test("a line that is not JSON is reported with a preview, and the next line still decodes", () => {
    const { messages, problems } = decode(["hello, I am a log line\n" + encodeLine(ping)]);
    assert.deepEqual(messages, [ping]);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.kind, "not-json");
    assert.equal(problems[0]!.preview, '"hello, I am a log line"');
    assert.equal(problems[0]!.message, 'line is not JSON; skipped: "hello, I am a log line"');
  });

  test("JSON that is not JSON-RPC is reported with the reason, and the next line still decodes", () => {
    const { messages, problems } = decode(['{"hello":1}\n42\n"text"\n{"jsonrpc":"1.0","method":"x"}\n' + encodeLine(ping)]);
    assert.deepEqual(messages, [ping]);
    assert.deepEqual(problems.map((problem) => problem.kind), ["not-jsonrpc", "not-jsonrpc", "not-jsonrpc", "not-jsonrpc"]);
    assert.equal(problems[0]!.message, 'line is JSON but not JSON-RPC 2.0 (missing "jsonrpc": "2.0"); skipped: "{\\"hello\\":1}"');
    assert.match(problems[1]!.message, /not a JSON object/);
    assert.match(problems[3]!.message, /missing "jsonrpc": "2\.0"/);
  });

  test("a long bad line's preview is cut to 80 characters with an ellipsis", () => {
    const line = "x".repeat(5000);
    const { problems } = decode([line + "\n"]);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.preview, JSON.stringify("x".repeat(80) + "…"));
    assert.ok(problems[0]!.message.length < 200, "the report stays short");
  });

  test("a preview never ends in half an emoji", () => {
    for (const lead of ["", "a"]) {
      const { problems } = decode([lead + "😀".repeat(100) + "\n"]);
      const shown: string = JSON.parse(problems[0]!.preview);
      assert.equal(LONE_SURROGATE.test(shown), false, JSON.stringify(shown));
      assert.ok(shown.endsWith("😀…"));
    }
  });

  test("a final line without newline that is not JSON is reported by end()", () => {
    const { decoder, problems } = recorder();
    decoder.push(utf8.encode(encodeLine(ping) + "oops"));
    assert.equal(problems.length, 0);
    decoder.end();
    assert.deepEqual(problems.map((problem) => problem.kind), ["not-json"]);
  });
});

describe("LineDecoder: batches", () => {
  test("a batch (JSON array) is unpacked into its messages, in order", () => {
    const line = JSON.stringify([ping, pong, unicode]) + "\n";
    assert.deepEqual(decode([line, encodeLine(ping)]), { messages: [ping, pong, unicode, ping], problems: [] });
  });

  test("a batch's elements that are not JSON-RPC are reported one each, and its good ones delivered", () => {
    const { messages, problems } = decode([JSON.stringify([ping, { nope: true }, 7, pong]) + "\n"]);
    assert.deepEqual(messages, [ping, pong]);
    assert.deepEqual(problems.map((problem) => problem.kind), ["not-jsonrpc", "not-jsonrpc"]);
  });

  test("an empty batch is reported", () => {
    const { messages, problems } = decode(["[]\n" + encodeLine(ping)]);
    assert.deepEqual(messages, [ping]);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.kind, "not-jsonrpc");
    assert.match(problems[0]!.message, /empty batch/);
  });
});

describe("LineDecoder: maxMessageBytes", () => {
  const max = 64;
  const big: JsonRpcMessage = { jsonrpc: "2.0", method: "notifications/message", params: { data: "é".repeat(100) } };
  const bigBytes = utf8.encode(JSON.stringify(big)).length; // 2 bytes per é: well over 64

  test("the default limit is 64 MiB", () => {
    assert.equal(DEFAULT_MAX_MESSAGE_BYTES, 64 * 1024 * 1024);
    assert.equal(recorder().decoder.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES);
  });

  test("an oversized line in one chunk is reported with its size and the limit, and the next message decodes", () => {
    const { messages, problems } = decode([encodeLine(big) + encodeLine(ping)], max);
    assert.deepEqual(messages, [ping]);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.kind, "too-large");
    assert.match(problems[0]!.message, new RegExp(`^line of ${bigBytes} bytes exceeds maxMessageBytes \\(64\\); skipped`));
    assert.match(problems[0]!.preview, /^"\{\\"jsonrpc\\":\\"2\.0\\"/);
  });

  test("an oversized line spread over many chunks is reported once, buffering stays bounded, and the stream resynchronises at the next newline", () => {
    for (const size of [1, 3, 7, 16, 63, 64, 65, 100]) {
      const { decoder, messages, problems } = recorder(max);
      let mostBuffered = 0;
      for (const chunk of chunksOf(utf8.encode(encodeLine(big) + encodeLine(ping) + encodeLine(pong)), size)) {
        decoder.push(chunk);
        mostBuffered = Math.max(mostBuffered, decoder.bufferedBytes);
      }
      decoder.end();
      assert.deepEqual(messages, [ping, pong], `chunks of ${size}`);
      assert.equal(problems.length, 1, `chunks of ${size}`);
      assert.equal(problems[0]!.kind, "too-large");
      assert.match(problems[0]!.message, new RegExp(`^line of ${bigBytes} bytes exceeds`), `chunks of ${size}`);
      assert.match(problems[0]!.preview, /^"\{\\"jsonrpc\\":\\"2\.0\\"/, `chunks of ${size}`);
      assert.ok(mostBuffered <= max + 1, `chunks of ${size}: buffered ${mostBuffered} bytes`);
    }
  });

  test("an oversized final line without newline is reported by end()", () => {
    for (const size of [5, 1000]) {
      const { messages, problems } = decode(chunksOf(utf8.encode(encodeLine(ping) + JSON.stringify(big)), size), max);
      assert.deepEqual(messages, [ping]);
      assert.deepEqual(problems.map((problem) => problem.kind), ["too-large"]);
    }
  });

  test("a message of exactly maxMessageBytes is accepted and one byte more is refused, with LF or CRLF, wherever the stream is cut", () => {
    const exact = JSON.stringify({ jsonrpc: "2.0", method: "m", params: { s: "" } });
    const pad = "x".repeat(max - exact.length);
    const fits: JsonRpcMessage = { jsonrpc: "2.0", method: "m", params: { s: pad } };
    const over: JsonRpcMessage = { jsonrpc: "2.0", method: "m", params: { s: pad + "y" } };
    assert.equal(JSON.stringify(fits).length, max);
    for (const end of ["\n", "\r\n"]) {
      const bytes = utf8.encode(JSON.stringify(fits) + end + JSON.stringify(over) + end + JSON.stringify(ping) + end);
      for (let at = 0; at <= bytes.length; at++) {
        for (const tail of [bytes.length, at + 1, at + 2]) {
          const { messages, problems } = decode([bytes.subarray(0, at), bytes.subarray(at, tail), bytes.subarray(tail)], max);
          const where = `${JSON.stringify(end)}, cuts at ${at} and ${tail}`;
          assert.deepEqual(messages, [fits, ping], where);
          assert.deepEqual(problems.map((problem) => problem.message.slice(0, 20)), ["line of 65 bytes exc"], where);
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Linear work. Wall-clock time is not asserted (it depends on the machine); instead the test
// meters the bytes that the byte and text primitives touch while the decoder runs: scanning
// (indexOf and friends), copying (slice, set, the Uint8Array constructor), UTF-8 decoding and
// JSON.parse, and the string searches a string-buffer framer would use. A framer that re-joins
// or re-scans the unfinished line on every chunk touches about chunks/2 times the message size
// (64 times for 8 MB in 64 KB chunks); a linear one a small constant times it. A framer that
// walks bytes in a hand-written loop escapes the meter, so the same test is also a hang guard:
// the many-small-chunks case would not finish in reasonable time if it were quadratic.

type Method = (this: unknown, ...args: unknown[]) => unknown;

function lengthOf(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (typeof value === "object" && value !== null && "length" in value && typeof value.length === "number") return value.length;
  return 0;
}

/** The units from `from` up to and including the match (or to the end): what a search scans. */
function searched(self: unknown, args: unknown[], result: unknown): number {
  const length = lengthOf(self);
  const raw = typeof args[1] === "number" ? Math.trunc(args[1]) : 0;
  const from = raw < 0 ? Math.max(0, length + raw) : Math.min(raw, length);
  return typeof result === "number" && result >= 0 ? result + 1 - from : length - from;
}

/** Runs `run` and returns the bytes and string units the metered primitives touched. */
function meterWork(run: () => void): number {
  let work = 0;
  const restores: Array<() => void> = [];
  const patch = (owner: object, name: string, cost: (self: unknown, args: unknown[], result: unknown) => number) => {
    const before = Object.getOwnPropertyDescriptor(owner, name);
    const original = Reflect.get(owner, name) as Method;
    const metered: Method = function (this: unknown, ...args: unknown[]): unknown {
      const result = original.apply(this, args);
      work += cost(this, args, result);
      return result;
    };
    if (before?.configurable === false) {
      // Bun's TextDecoder.prototype.decode is writable but not configurable: assigned, not redefined.
      Reflect.set(owner, name, metered);
      restores.push(() => Reflect.set(owner, name, before.value));
      return;
    }
    Object.defineProperty(owner, name, { value: metered, configurable: true, writable: true });
    restores.push(() => before ? Object.defineProperty(owner, name, before) : Reflect.deleteProperty(owner, name));
  };
  const whole = (self: unknown) => lengthOf(self);
  for (const name of ["indexOf", "lastIndexOf", "includes", "findIndex"]) patch(Uint8Array.prototype, name, searched);
  for (const name of ["copyWithin", "fill", "reverse", "sort", "join", "toString"]) patch(Uint8Array.prototype, name, whole);
  patch(Uint8Array.prototype, "slice", (_self, _args, result) => lengthOf(result));
  patch(Uint8Array.prototype, "set", (_self, args) => lengthOf(args[0]));
  patch(TextDecoder.prototype, "decode", (_self, args) => lengthOf(args[0]));
  patch(JSON, "parse", (_self, args) => lengthOf(args[0]));
  for (const name of ["indexOf", "lastIndexOf"]) patch(String.prototype, name, searched);
  for (const name of ["includes", "split", "search", "match", "startsWith", "endsWith", "trim"]) patch(String.prototype, name, whole);
  patch(String.prototype, "slice", (_self, _args, result) => lengthOf(result));
  patch(String.prototype, "substring", (_self, _args, result) => lengthOf(result));
  if (runtime.name === "node") {
    // The decoder decodes and searches through the runtime; on Node that is Buffer's native
    // code, which the patches above do not see (on Deno it is TextDecoder and Uint8Array's own).
    patch(runtime, "decodeUtf8", (_self, args) => (args[2] as number) - (args[1] as number));
    patch(runtime, "indexOfByte", (_self, args, result) => searched(args[0], args.slice(1), result));
    patch(runtime, "lastIndexOfByte", (_self, args, result) => lengthOf(args[0]) - Math.max(0, result as number));
  }
  const RealUint8Array = Uint8Array;
  globalThis.Uint8Array = new Proxy(RealUint8Array, {
    construct(target, args, newTarget) {
      const made: Uint8Array = Reflect.construct(target, args, newTarget === globalThis.Uint8Array ? target : newTarget);
      work += made.length;
      return made;
    },
  });
  try {
    run();
  } finally {
    globalThis.Uint8Array = RealUint8Array;
    for (const restore of restores.reverse()) restore();
  }
  return work;
}

describe("LineDecoder: total work is linear in the bytes received", () => {
  /** One result message whose UTF-8 form is about `bytes` long, full of multi-byte characters. */
  function hugeMessage(bytes: number): { message: JsonRpcMessage; encoded: Uint8Array } {
    const piece = "héllo 世界 😀 line\n"; // 27 bytes of UTF-8, 28 once "\n" is escaped
    const message: JsonRpcMessage = { jsonrpc: "2.0", id: 42, result: { text: piece.repeat(Math.ceil(bytes / 28)) } };
    return { message, encoded: utf8.encode(encodeLine(message)) };
  }

  function decodeMetered(chunks: Uint8Array[]): { work: number; result: Decoded } {
    const { decoder, messages, problems } = recorder();
    const work = meterWork(() => {
      for (const chunk of chunks) decoder.push(chunk);
      decoder.end();
    });
    return { work, result: { messages, problems } };
  }

  test("the meter sees the quadratic cost of re-joining the unfinished line on every chunk", () => {
    const { encoded } = hugeMessage(1024 * 1024);
    const chunks = chunksOf(encoded, 64 * 1024);
    const work = meterWork(() => {
      let buffer = new Uint8Array(0);
      for (const chunk of chunks) {
        const grown = new Uint8Array(buffer.length + chunk.length);
        grown.set(buffer);
        grown.set(chunk, buffer.length);
        buffer = grown;
        buffer.indexOf(0x0a);
      }
    });
    assert.ok(work > 20 * encoded.length, `metered ${work} for ${encoded.length} bytes`);
  });

  test("an 8 MB message in 64 KB chunks decodes exactly, touching a small constant times its size", { timeout: 60_000 }, () => {
    const { message, encoded } = hugeMessage(8 * 1024 * 1024);
    const whole = decodeMetered([encoded]);
    const chunked = decodeMetered(chunksOf(encoded, 64 * 1024));
    assert.deepEqual(chunked.result, { messages: [message], problems: [] });
    assert.deepEqual(whole.result, { messages: [message], problems: [] });
    assert.ok(chunked.work <= 10 * encoded.length, `metered ${chunked.work} for ${encoded.length} bytes`);
    assert.ok(chunked.work <= 4 * whole.work, `metered ${chunked.work} in chunks, ${whole.work} whole`);
  });

  test("a 1 MB message in 100-byte chunks decodes exactly, touching a small constant times its size", { timeout: 60_000 }, () => {
    const { message, encoded } = hugeMessage(1024 * 1024);
    const chunked = decodeMetered(chunksOf(encoded, 100));
    assert.deepEqual(chunked.result, { messages: [message], problems: [] });
    assert.ok(chunked.work <= 10 * encoded.length, `metered ${chunked.work} for ${encoded.length} bytes`);
  });

  test("many small messages in 64 KB chunks cost a small constant times their size", { timeout: 60_000 }, () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => encodeLine({ jsonrpc: "2.0", id: i, result: { text: "漢字 😀 ok" } }));
    const encoded = utf8.encode(lines.join(""));
    const chunked = decodeMetered(chunksOf(encoded, 64 * 1024 + 3));
    assert.equal(chunked.result.messages.length, 20_000);
    assert.deepEqual(chunked.result.messages[19_999], { jsonrpc: "2.0", id: 19_999, result: { text: "漢字 😀 ok" } });
    assert.ok(chunked.work <= 10 * encoded.length, `metered ${chunked.work} for ${encoded.length} bytes`);
  });

  test("an oversized line being skipped in small chunks costs a small constant times its size", { timeout: 60_000 }, () => {
    const { encoded } = hugeMessage(1024 * 1024);
    const { decoder, messages, problems } = recorder(4096);
    const stream = concat([encoded, utf8.encode(encodeLine(ping))]);
    const work = meterWork(() => {
      for (const chunk of chunksOf(stream, 100)) decoder.push(chunk);
      decoder.end();
    });
    assert.deepEqual(messages, [ping]);
    assert.deepEqual(problems.map((problem) => problem.kind), ["too-large"]);
    assert.ok(work <= 10 * stream.length, `metered ${work} for ${stream.length} bytes`);
  });
});

describe("LineDecoder: a response it cannot deliver is reported with the id its ends show", () => {
  const max = 256;
  const filler = "é".repeat(400); // 800 bytes: over the limit however the envelope is written
  /** The reported response of each problem, as a user of the decoder sees it. */
  function responses(text: string, chunkSize: number) {
    const { messages, problems } = decode(chunksOf(utf8.encode(text + "\n" + encodeLine(ping)), chunkSize), max);
    assert.deepEqual(messages, [ping], `chunks of ${chunkSize}`);
    return problems.map((problem) => ({
      kind: problem.kind,
      id: problem.response?.id,
      reason: problem.response?.reason,
      attached: problem.response !== undefined,
    }));
  }
  const cuts = [1, 7, 64, 255, 256, 257, 5000];

  test('a too-large line with "id" among its first members: that id, however the stream is cut', () => {
    for (const size of cuts) {
      assert.deepEqual(responses(`{"jsonrpc":"2.0","id":17,"result":{"text":"${filler}"}}`, size), [
        { kind: "too-large", id: 17, reason: "too-large", attached: true },
      ], `chunks of ${size}`);
      assert.deepEqual(responses(`{ "id" : "call-\\"7\\"", "jsonrpc": "2.0", "result": {"text":"${filler}"} }`, size), [
        { kind: "too-large", id: 'call-"7"', reason: "too-large", attached: true },
      ], `chunks of ${size}`);
    }
  });

  test('a too-large line with "id" written last (result first): the id from its last bytes', () => {
    for (const size of cuts) {
      assert.deepEqual(responses(`{"result":{"text":"${filler}","id":99},"jsonrpc":"2.0","id":4}`, size), [
        { kind: "too-large", id: 4, reason: "too-large", attached: true },
      ], `chunks of ${size}`);
      assert.deepEqual(responses(`{"result":{"text":"${filler}"},"jsonrpc":"2.0","id":4}\r`, size), [
        { kind: "too-large", id: 4, reason: "too-large", attached: true },
      ], `chunks of ${size} (CRLF)`);
    }
  });

  test("an id inside the result is never taken for the response's", () => {
    for (const size of cuts) {
      assert.deepEqual(responses(`{"jsonrpc":"2.0","result":{"id":3,"text":"${filler}"},"tail":{"id":5}}`, size), [
        { kind: "too-large", id: undefined, reason: "too-large", attached: true },
      ], `chunks of ${size}`);
    }
  });

  test("a too-large request or notification from the server is not taken for a response", () => {
    for (const size of cuts) {
      assert.deepEqual(responses(`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"text":"${filler}"}}`, size), [
        { kind: "too-large", id: undefined, reason: undefined, attached: false },
      ], `chunks of ${size}`);
      assert.deepEqual(responses(`{"method":"notifications/message","params":{"data":"${filler}"},"jsonrpc":"2.0","id":2}`, size), [
        { kind: "too-large", id: undefined, reason: undefined, attached: false },
      ], `chunks of ${size}`);
    }
  });

  test("a too-large line that does not start as a JSON-RPC message (a log line on stdout) is skipped output, not taken for a response, even with an id at its end", () => {
    for (const size of cuts) {
      for (const line of [`[info] cache state: ${filler}`, `  ${filler} {"jsonrpc":"2.0","id":4}`, `"${filler}"`]) {
        assert.deepEqual(responses(line, size), [
          { kind: "too-large", id: undefined, reason: undefined, attached: false },
        ], `chunks of ${size}: ${line.slice(0, 20)}`);
      }
    }
    const { problems } = decode([`[info] ${filler}\n`], max);
    assert.match(
      problems[0]!.message,
      /^line of \d+ bytes exceeds maxMessageBytes \(256\); skipped: it does not start as a JSON-RPC message, so it is output and no request fails for it/,
    );
  });

  test('a too-large JSON line whose start shows no "result", "error" or "id", and whose end no id, is not taken for a response', () => {
    for (const size of cuts) {
      assert.deepEqual(responses(`{"level":"info","msg":"state","state":{"text":"${filler}"}}`, size), [
        { kind: "too-large", id: undefined, reason: undefined, attached: false },
      ], `chunks of ${size}`);
      // An id read from either end is enough, "result" or not.
      assert.deepEqual(responses(`{"jsonrpc":"2.0","id":6,"data":{"text":"${filler}"}}`, size), [
        { kind: "too-large", id: 6, reason: "too-large", attached: true },
      ], `chunks of ${size}`);
      assert.deepEqual(responses(`{"data":{"text":"${filler}"},"id":7}`, size), [
        { kind: "too-large", id: 7, reason: "too-large", attached: true },
      ], `chunks of ${size}`);
    }
    const { problems } = decode([`{"level":"info","msg":"${filler}"}\n`], max);
    assert.match(problems[0]!.message, /; skipped: its start shows no response \("result", "error" or an "id"\), so no request fails for it/);
  });

  test("the report names the size, the limit and maxMessageBytes", () => {
    const { problems } = decode([`{"jsonrpc":"2.0","id":1,"result":{"t":"${filler}"}}\n`], max);
    const response = problems[0]!.response!;
    assert.equal(response.limit, max);
    assert.equal(response.bytes, utf8.encode(`{"jsonrpc":"2.0","id":1,"result":{"t":"${filler}"}}`).length);
    assert.match(
      response.detail,
      new RegExp(`^the response is ${response.bytes} bytes, over the maxMessageBytes limit of ${max} bytes, and was skipped unread$`),
    );
    assert.match(response.remedy ?? "", /raise maxMessageBytes/);
  });

  test("a response with both result and error, or a result that is not an object, is reported with its id", () => {
    const { messages, problems } = decode([
      '{"jsonrpc":"2.0","id":8,"result":{},"error":{"code":1,"message":"m"}}\n',
      '{"jsonrpc":"2.0","id":9,"result":"done"}\n',
      '{"jsonrpc":"2.0","method":"x","params":[1]}\n',
    ]);
    assert.deepEqual(messages, []);
    assert.deepEqual(problems.map((problem) => [problem.kind, problem.response?.id, problem.response?.reason]), [
      ["not-jsonrpc", 8, "result-and-error"],
      ["not-jsonrpc", 9, "result-not-object"],
      ["not-jsonrpc", undefined, undefined],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties: whatever the messages and however the stream is cut.

/** Characters that break naive framers: newlines, CR, line separators, quotes, emoji, CJK. */
const awkward = fc.constantFrom("\n", "\r", "\r\n", "\u2028", "\u2029", "\u0000", '"', "\\", "😀", "👩‍💻", "漢", "字", "é", "\t", "{", "}");
const unit = fc.oneof(awkward, fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }));
const text = fc.string({ unit, maxLength: 16 });
// jsonValue may give -0, which JSON writes as 0: compare against what JSON can carry.
const json = fc.jsonValue({ maxDepth: 3, stringUnit: unit }).map((value) => JSON.parse(JSON.stringify(value)) as fc.JsonValue);
// JSON.parse builds objects with Object.prototype, so the generated ones must have it too.
const params = fc.dictionary(text, json, { maxKeys: 4, noNullPrototype: true });
const id = fc.oneof(fc.integer(), text);
const options = { noNullPrototype: true };

const request = fc.record({ jsonrpc: fc.constant("2.0" as const), id, method: text, params }, { ...options, requiredKeys: ["jsonrpc", "id", "method"] });
const notification = fc.record({ jsonrpc: fc.constant("2.0" as const), method: text, params }, { ...options, requiredKeys: ["jsonrpc", "method"] });
const result = fc.record({ jsonrpc: fc.constant("2.0" as const), id, result: params }, options);
const error = fc.record({
  jsonrpc: fc.constant("2.0" as const),
  id: fc.oneof(id, fc.constant(null)),
  error: fc.record({ code: fc.integer(), message: text, data: json }, { ...options, requiredKeys: ["code", "message"] }),
}, options);
const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(request, notification, result, error);

const roundTrip = (line: string) => new TextDecoder().decode(utf8.encode(line)); // lone surrogates become U+FFFD
function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** A line (no newline, no trailing CR) that is not JSON and not blank. */
const notJsonLine = fc.string({ unit, minLength: 1, maxLength: 30 })
  .map((line) => line.replaceAll("\n", " ").replace(/\r+$/, ""))
  .filter((line) => roundTrip(line).trim() !== "" && !parses(roundTrip(line)));

/** A line of JSON that is neither a JSON-RPC message nor a batch: a value or a near-miss envelope. */
const notRpcLine = fc.oneof(
  json.filter((value) => !Array.isArray(value) && whyNotJsonRpc(value) !== undefined),
  message.map((sent) => ({ ...sent, jsonrpc: "1.0" })),
  message.map((sent) => ({ ...sent, id: true })),
  request.map((sent) => ({ ...sent, params: [1] })),
).map((value) => JSON.stringify(value));

type Item =
  | { kind: "message"; message: JsonRpcMessage }
  | { kind: "not-json" | "not-jsonrpc"; line: string };

const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 3, arbitrary: message.map((sent): Item => ({ kind: "message", message: sent })) },
  { weight: 1, arbitrary: notJsonLine.map((line): Item => ({ kind: "not-json", line })) },
  { weight: 1, arbitrary: notRpcLine.map((line): Item => ({ kind: "not-jsonrpc", line })) },
);

/** Cut offsets: anywhere, often many (down to one-byte chunks). */
const cuts = fc.oneof(fc.array(fc.nat(), { maxLength: 12 }), fc.array(fc.nat(), { minLength: 50, maxLength: 400 }));

function streamOf(items: Item[], lineEnd: "\n" | "\r\n"): string {
  return items.map((entry) => entry.kind === "message" ? encodeLine(entry.message) : entry.line + "\n")
    .join("")
    .replaceAll("\n", lineEnd); // every "\n" is a delimiter: encodeLine escapes the others
}

describe("LineDecoder: properties", () => {
  test("any messages, encoded, concatenated and cut into any chunks, decode to the same messages in order", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), cuts, (sent, offsets) => {
        const bytes = utf8.encode(sent.map(encodeLine).join(""));
        assert.deepEqual(decode(cut(bytes, offsets)), { messages: sent, problems: [] });
      }),
      { numRuns: 150 },
    );
  });

  test("with CRLF line ends, any messages cut into any chunks decode the same", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), cuts, (sent, offsets) => {
        const bytes = utf8.encode(sent.map((each) => encodeLine(each).replace(/\n$/, "\r\n")).join(""));
        assert.deepEqual(decode(cut(bytes, offsets)), { messages: sent, problems: [] });
      }),
      { numRuns: 150 },
    );
  });

  test("non-JSON and non-JSON-RPC lines among messages are each reported once, by kind, and skipped, with LF or CRLF, cut anywhere, with or without a final newline", () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 15 }),
        fc.constantFrom<"\n" | "\r\n">("\n", "\r\n"),
        fc.boolean(),
        cuts,
        (items, lineEnd, dropFinalNewline, offsets) => {
          let stream = streamOf(items, lineEnd);
          if (dropFinalNewline) stream = stream.slice(0, stream.length - lineEnd.length);
          const { messages, problems } = decode(cut(utf8.encode(stream), offsets));
          const expected = items.flatMap((entry) => entry.kind === "message" ? [entry.message] : []);
          const reported = items.flatMap((entry) => entry.kind === "message" ? [] : [entry.kind]);
          assert.deepEqual(messages, expected);
          assert.deepEqual(problems.map((problem) => problem.kind), reported);
          for (const problem of problems) assert.ok(problem.preview.length <= 2 * 80 + 10, "a short preview");
        },
      ),
      { numRuns: 200 },
    );
  });

  test("a small maxMessageBytes gives the same verdict on each line however the stream is cut: too large when the message is over the limit, decoded otherwise", () => {
    const line = fc.record({
      message: fc.oneof(notification, result),
      lineEnd: fc.constantFrom("\n", "\r\n"),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), fc.array(line, { maxLength: 10 }), cuts, (max, lines, offsets) => {
        const bytes = utf8.encode(lines.map((each) => JSON.stringify(each.message) + each.lineEnd).join(""));
        const { messages, problems } = decode(cut(bytes, offsets), max);
        const sizes = lines.map((each) => utf8.encode(JSON.stringify(each.message)).length);
        assert.deepEqual(messages, lines.filter((_, i) => sizes[i]! <= max).map((each) => each.message));
        assert.deepEqual(
          problems.map((problem) => problem.message.slice(0, problem.message.indexOf(" exceeds"))),
          sizes.filter((size) => size > max).map((size) => `line of ${size} bytes`),
        );
      }),
      { numRuns: 200 },
    );
  });
});
