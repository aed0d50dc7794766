// A stdio server's stdout as the stdio probe reads it (stdio-probe.ts): bytes split into lines at
// each `\n`, every line sized and decoded on its own so that a line which is not UTF-8 is seen as
// such — spec 2025-11-25 basic/transports ("JSON-RPC messages MUST be UTF-8 encoded"; stdio:
// "Messages are delimited by newlines"). What is kept is bounded: a line past MAX_LINE_BYTES
// keeps its head only, and past MAX_LINES lines are counted, not kept.

import { coreRuntime } from "../runtime/mod.ts";

/** Bytes of a line kept whole: past it only its head (HEAD_BYTES) is kept, to show. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Lines handed on: a server could write millions; the rest are only counted. */
export const MAX_LINES = 10_000;
const HEAD_BYTES = 1024;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** One line of stdout, its `\n` (and a `\r` before it) off. */
export interface StdoutLine {
  /** From 1, in the order the lines came. */
  number: number;
  /** The line decoded (invalid UTF-8 as U+FFFD); its head only when `clipped`. */
  text: string;
  /** False when its bytes are not valid UTF-8. */
  utf8: boolean;
  /** Its size in bytes. */
  bytes: number;
  /** Longer than MAX_LINE_BYTES: `text` is its head, and it cannot be judged as a message. */
  clipped: boolean;
  /** The last line, ended by the end of output rather than by a `\n`. */
  unterminated: boolean;
}

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/** Splits the bytes of a stream into StdoutLines, given to `onLine` as each one ends. */
export class StdoutLines {
  readonly #onLine: (line: StdoutLine) => void;
  /** The partial line's pieces (only up to MAX_LINE_BYTES of them) and its whole size. */
  #pieces: Uint8Array[] = [];
  #size = 0;
  #lines = 0;
  #bytes = 0;
  #ended = false;

  constructor(onLine: (line: StdoutLine) => void) {
    this.#onLine = onLine;
  }

  /** Every byte received, kept or not. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Every line ended so far, handed on or not. */
  get lines(): number {
    return this.#lines;
  }

  push(chunk: Uint8Array): void {
    if (this.#ended) return;
    this.#bytes += chunk.length;
    let start = 0;
    for (let newline = coreRuntime.indexOfByte(chunk, NEWLINE, 0); newline !== -1; newline = coreRuntime.indexOfByte(chunk, NEWLINE, start)) {
      this.#keep(chunk.subarray(start, newline));
      this.#finish(false);
      start = newline + 1;
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
  }

  /** The output ended: a last line without its `\n` is handed on too. */
  end(): void {
    if (this.#ended) return;
    if (this.#size > 0) this.#finish(true);
    this.#ended = true;
  }

  #keep(piece: Uint8Array): void {
    if (piece.length === 0) return;
    const room = MAX_LINE_BYTES + 1 - this.#size; // one byte more: the \r of a CRLF may follow
    if (room > 0) this.#pieces.push(piece.length <= room ? piece.slice() : piece.slice(0, room));
    this.#size += piece.length;
  }

  #finish(unterminated: boolean): void {
    const number = ++this.#lines;
    const pieces = this.#pieces;
    let size = this.#size;
    this.#pieces = [];
    this.#size = 0;
    if (number > MAX_LINES) return;
    let bytes = join(pieces, Math.min(size, MAX_LINE_BYTES + 1));
    if (size <= MAX_LINE_BYTES + 1 && bytes.length > 0 && bytes[bytes.length - 1] === RETURN) {
      bytes = bytes.subarray(0, bytes.length - 1);
      size--;
    }
    const clipped = size > MAX_LINE_BYTES;
    if (clipped) bytes = bytes.subarray(0, HEAD_BYTES);
    let text: string;
    let utf8 = true;
    try {
      text = strict.decode(bytes);
    } catch {
      utf8 = false;
      text = lenient.decode(bytes);
    }
    // A clipped head may end inside a character: that says nothing about the line.
    if (clipped) utf8 = true;
    this.#onLine({ number, text, utf8, bytes: size, clipped, unterminated });
  }
}

function join(pieces: Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    const part = piece.subarray(0, Math.min(piece.length, size - at));
    bytes.set(part, at);
    at += part.length;
    if (at >= size) break;
  }
  return bytes;
}
