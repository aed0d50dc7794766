// Tests for the runtime's byte helpers used by the line framer — src/runtime/types.ts
// (decodeUtf8, indexOfByte, lastIndexOfByte; Node: Buffer over the same memory, Deno: TextDecoder).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { runtime } from "../../src/runtime/mod.ts";

const utf8 = new TextEncoder();

/** The bytes placed at an offset inside a larger buffer, with other bytes around them. */
function inTheMiddle(bytes: Uint8Array): Uint8Array {
  const backing = new Uint8Array(bytes.length + 14).fill(0x0a);
  backing.set(bytes, 7);
  return backing.subarray(7, 7 + bytes.length);
}

describe("runtime.decodeUtf8", () => {
  test("decodes the given range of a view, not of its whole buffer", () => {
    const bytes = inTheMiddle(utf8.encode("a€😀漢字b"));
    assert.equal(runtime.decodeUtf8(bytes, 0, bytes.length), "a€😀漢字b");
    assert.equal(runtime.decodeUtf8(bytes, 1, 4), "€");
    assert.equal(runtime.decodeUtf8(bytes, 4, 4), "");
  });

  test("invalid and cut sequences become U+FFFD exactly as TextDecoder gives them", () => {
    const samples = [
      [0xff],
      [0xc3],
      [0xe2, 0x82],
      [0xf0, 0x9f, 0x98],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0x61, 0xc3, 0x28, 0x62],
      [0xf4, 0x90, 0x80, 0x80],
      [0x80, 0xbf],
      [0xc0, 0xaf],
      [0xf0, 0x9f, 0x61],
    ];
    for (const sample of samples) {
      const bytes = inTheMiddle(new Uint8Array(sample));
      assert.equal(runtime.decodeUtf8(bytes, 0, bytes.length), new TextDecoder().decode(new Uint8Array(sample)), JSON.stringify(sample));
    }
  });

  test("long runs (the ASCII fast path's sizes, and around its threshold) decode as TextDecoder decodes them", () => {
    const decoder = new TextDecoder();
    for (const size of [1023, 1024, 1025, 100_000]) {
      const ascii = '{"x":"' + "a~\\u0001 ".repeat(size).slice(0, size - 8) + '"}';
      const variants: [string, Uint8Array][] = [
        ["all ASCII", utf8.encode(ascii)],
        ["one non-ASCII character at the end", utf8.encode(ascii.slice(0, -2) + 'é"}')],
        ["one non-ASCII character at the start", utf8.encode("漢" + ascii)],
        ["a 0x80 byte in the middle (invalid)", Uint8Array.from([...utf8.encode(ascii.slice(0, size >> 1)), 0x80, ...utf8.encode(ascii.slice(size >> 1))])],
        ["a 0xff byte at the end (invalid)", Uint8Array.from([...utf8.encode(ascii), 0xff])],
      ];
      for (const [what, raw] of variants) {
        const bytes = inTheMiddle(raw);
        assert.equal(runtime.decodeUtf8(bytes, 0, bytes.length), decoder.decode(raw), `${size} bytes, ${what}`);
        assert.equal(runtime.decodeUtf8(bytes, 3, bytes.length - 2), decoder.decode(raw.subarray(3, raw.length - 2)), `${size} bytes, ${what}, a sub-range`);
      }
    }
  });

  test("a byte order mark is kept as U+FEFF (the framer decides what to do with it)", () => {
    const bytes = utf8.encode("\ufeff{}");
    assert.equal(runtime.decodeUtf8(bytes, 0, bytes.length), "\ufeff{}");
  });
});

describe("runtime.indexOfByte and lastIndexOfByte", () => {
  test("search only the view, from the given index, and give -1 when absent", () => {
    const bytes = inTheMiddle(utf8.encode("ab\ncd\nef"));
    assert.equal(runtime.indexOfByte(bytes, 0x0a, 0), 2);
    assert.equal(runtime.indexOfByte(bytes, 0x0a, 3), 5);
    assert.equal(runtime.indexOfByte(bytes, 0x0a, 6), -1);
    assert.equal(runtime.lastIndexOfByte(bytes, 0x0a), 5);
    assert.equal(runtime.lastIndexOfByte(bytes.subarray(0, 2), 0x0a), -1);
    assert.equal(runtime.indexOfByte(bytes.subarray(6), 0x0a, 0), -1);
  });
});
