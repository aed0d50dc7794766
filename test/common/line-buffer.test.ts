// Tests for LineBuffer (src/common/line-buffer.ts), which splits this process's stdin into lines for
// prompts and hands it back whole for `mcpwire call --args-file -`: lines however the text is
// cut, the text unchanged, and each character scanned once (a 24 MB line on stdin once took
// 8 s and 400 MB because every chunk re-scanned the partial line before it).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LineBuffer } from "../../src/common/line-buffer.ts";

/** The text cut into pieces of `size` characters. */
function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** Every line the buffer gives for these pieces, the input then ended. */
function linesOf(pieces: string[]): string[] {
  const buffer = new LineBuffer();
  const lines: string[] = [];
  for (const piece of pieces) {
    buffer.push(piece);
    for (let line = buffer.take(); line !== undefined; line = buffer.take()) lines.push(line);
  }
  buffer.end();
  for (let line = buffer.take(); line !== undefined; line = buffer.take()) lines.push(line);
  return lines;
}

describe("LineBuffer", () => {
  const text = 'first\r\n{"a":\n\n  "b é 😀"}\nlast without newline';
  const expected = ["first", '{"a":', "", '  "b é 😀"}', "last without newline"];

  test("gives the same lines (\\n or \\r\\n) however the text is cut, a last line without its newline too", () => {
    for (const size of [1, 2, 3, 5, 7, 100]) assert.deepEqual(linesOf(piecesOf(text, size)), expected, `pieces of ${size}`);
  });

  test("settled once a line is ready or the input ended; nothing after the end", () => {
    const buffer = new LineBuffer();
    buffer.push("par");
    assert.equal(buffer.settled, false);
    assert.equal(buffer.take(), undefined);
    buffer.push("tial\nnext");
    assert.equal(buffer.settled, true);
    assert.equal(buffer.take(), "partial");
    assert.equal(buffer.settled, false);
    buffer.end();
    assert.equal(buffer.settled, true);
    assert.equal(buffer.take(), "next");
    assert.equal(buffer.take(), undefined);
  });

  test("takeText hands back what was not taken exactly as it came, line endings included", () => {
    for (const size of [1, 4, 9, 100]) {
      const buffer = new LineBuffer();
      for (const piece of piecesOf(text, size)) buffer.push(piece);
      assert.equal(buffer.take(), "first", `pieces of ${size}`);
      assert.equal(buffer.holdsText, true);
      assert.equal(buffer.takeText(), text.slice("first\r\n".length), `pieces of ${size}`);
      assert.equal(buffer.holdsText, false);
      assert.equal(buffer.takeText(), "");
      buffer.end();
      assert.equal(buffer.ended, true);
      assert.equal(buffer.take(), undefined);
    }
  });

  test("partialLength counts the line begun and not ended, and is 0 once it is taken", () => {
    const buffer = new LineBuffer();
    buffer.push("ab");
    buffer.push("cd\nef");
    assert.equal(buffer.partialLength, 2);
    buffer.push("gh");
    assert.equal(buffer.partialLength, 4);
    assert.equal(buffer.take(), "abcd");
    assert.equal(buffer.takeText(), "efgh");
    assert.equal(buffer.partialLength, 0);
    buffer.push("i\n");
    assert.equal(buffer.partialLength, 0);
  });

  test("each character is scanned once: a long line in small pieces costs what the line costs", () => {
    // The buffer's own work, counted by the string searches it makes (charged the characters
    // each one looks at), while pushing a 256 KiB line in 256-character pieces and then lines
    // of every length. Joining pieces once per line is not a search and is not counted.
    const line = "x".repeat(256 * 1024);
    const lines = Array.from({ length: 2000 }, (_, i) => "y".repeat(i % 300)).join("\n");
    const input = `${line}\n${lines}\n`;
    const pieces = piecesOf(input, 256);
    const scanned = countingScans(() => {
      const buffer = new LineBuffer();
      for (const piece of pieces) {
        buffer.push(piece);
        while (buffer.take() !== undefined);
      }
    });
    assert.ok(scanned <= 2 * input.length, `scanned ${scanned} characters for ${input.length} of input`);
  });
});

/**
 * Runs `work` (synchronous) with String.prototype's searching methods and RegExp exec counting
 * the characters each call looks at; returns the total. The originals are back before it returns.
 */
function countingScans(work: () => void): number {
  let scanned = 0;
  const proto = String.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const regexp = RegExp.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const saved: Array<[Record<string, (...args: unknown[]) => unknown>, string, (...args: unknown[]) => unknown]> = [];
  const wrap = (target: Record<string, (...args: unknown[]) => unknown>, name: string, cost: (self: unknown, args: unknown[], result: unknown) => number) => {
    const original = target[name]!;
    saved.push([target, name, original]);
    target[name] = function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      scanned += cost(this, args, result);
      return result;
    };
  };
  const whole = (self: unknown) => String(self).length;
  try {
    wrap(proto, "indexOf", (self, args, result) => {
      const from = Math.max(0, Number(args[1] ?? 0) || 0);
      const end = result === -1 ? String(self).length : (result as number) + String(args[0]).length;
      return Math.max(0, end - from);
    });
    for (const name of ["lastIndexOf", "includes", "split", "search", "match", "matchAll", "replace", "replaceAll"]) wrap(proto, name, whole);
    wrap(regexp, "exec", (_self, args) => String(args[0]).length);
    work();
  } finally {
    for (const [target, name, original] of saved.reverse()) target[name] = original;
  }
  return scanned;
}
