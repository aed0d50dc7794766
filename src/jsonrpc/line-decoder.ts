// Newline-delimited JSON-RPC decoding: bytes in, whole messages out — MCP spec 2025-11-25
// basic/transports (stdio: one message per line); batches per JSON-RPC 2.0 §6 (MCP 2025-03-26).

import { type JsonRpcMessage, whyNotJsonRpc } from "./messages.ts";

/** A line that was skipped, and why. The stream always goes on after one. */
export interface DecodeProblem {
  kind: "not-json" | "not-jsonrpc" | "too-large";
  /** A human-readable account, with a short preview of the line. */
  message: string;
  /** The first characters of the offending line. */
  preview: string;
}

export interface LineDecoderOptions {
  /**
   * Largest message accepted, in bytes of UTF-8 (the line without its `\n` or `\r\n`);
   * longer lines are skipped whole. Default 64 MiB.
   */
  maxMessageBytes?: number;
  /** Called for each whole message, in order. */
  onMessage: (message: JsonRpcMessage) => void;
  /** Called for each skipped line. Default: ignore. */
  onProblem?: (problem: DecodeProblem) => void;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const PREVIEW_CHARS = 80;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** The first PREVIEW_CHARS UTF-16 units of a line, quoted; never half a surrogate pair. */
function preview(text: string): string {
  if (text.length <= PREVIEW_CHARS) return JSON.stringify(text);
  let cut = PREVIEW_CHARS;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // keep a pair whole: drop its first half
  return JSON.stringify(text.slice(0, cut) + "…");
}

function tooLargeText(bytes: number, max: number): string {
  return `line of ${bytes} bytes exceeds maxMessageBytes (${max}); skipped ` +
    `(raise maxMessageBytes if the peer sends messages this large)`;
}

/**
 * Splits a byte stream into lines and each line into a JSON-RPC message.
 *
 * Each chunk is decoded once, whole, by a streaming TextDecoder (a character split across
 * chunks waits inside the decoder for its last bytes), and the bytes and the text are walked
 * side by side: a newline byte (0x0A) never occurs inside a multi-byte UTF-8 sequence, so the
 * n-th newline byte of a chunk is the n-th "\n" of its text. The bytes give each line's exact
 * UTF-8 size, the text gives the string JSON.parse reads. Only the newest chunk is scanned, and
 * the unfinished line is kept as text and joined once when its newline arrives, so the total
 * work is linear in the bytes received however the stream is cut.
 *
 * The size limit applies to the message, the line without its `\n` or `\r\n`, in bytes of
 * UTF-8, and gives the same verdict however the stream is cut: while the newline has not
 * arrived, one byte more than the limit is buffered, since it may turn out to be the `\r` of
 * a CRLF.
 */
export class LineDecoder {
  readonly maxMessageBytes: number;
  readonly #onMessage: (message: JsonRpcMessage) => void;
  readonly #onProblem: (problem: DecodeProblem) => void;
  /** Streaming: holds the first bytes of a character split across chunks. Used for nothing else. */
  readonly #text = new TextDecoder("utf-8");
  /** The text of the unfinished line so far. */
  #partial = "";
  /** Its size in bytes (including bytes of a split character still inside the decoder). */
  #partBytes = 0;
  /** True while skipping the rest of a line that went over the size limit. */
  #discarding = false;
  #discardedBytes = 0;
  #discardPreview = "";
  /** The last byte kept or discarded, to tell whether a line's last byte was a \r. */
  #lastByte: number | undefined;

  constructor(options: LineDecoderOptions) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#onMessage = options.onMessage;
    this.#onProblem = options.onProblem ?? (() => {});
  }

  /** Bytes received that do not yet form a whole line (a partial message). */
  get bufferedBytes(): number {
    return this.#partBytes;
  }

  /** Feed one chunk; every line it completes is decoded before push returns. */
  push(chunk: Uint8Array): void {
    const length = chunk.length;
    if (length === 0) return;
    const text = this.#text.decode(chunk, { stream: true });
    let start = 0;
    let textStart = 0;
    while (start < length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#keep(length - start, textStart === 0 ? text : text.slice(textStart), chunk[length - 1]);
        return;
      }
      const textNewline = text.indexOf("\n", textStart);
      const tail = newline - start;
      if (this.#discarding) {
        this.#finishDiscard(tail, tail > 0 ? chunk[newline - 1] : this.#lastByte);
      } else if (this.#partBytes === 0) {
        this.#line(text.slice(textStart, textNewline), tail);
      } else if (this.#partBytes + tail > this.maxMessageBytes + 1) {
        // Over the limit even if its last byte is the \r of a CRLF: no need to join it.
        const last = tail > 0 ? chunk[newline - 1] : this.#lastByte;
        const bytes = this.#partBytes + tail - (last === CARRIAGE_RETURN ? 1 : 0);
        this.#report("too-large", tooLargeText(bytes, this.maxMessageBytes), this.#head(text.slice(textStart, Math.min(textNewline, textStart + PREVIEW_CHARS + 1))));
        this.#reset();
      } else {
        const line = this.#partial + text.slice(textStart, textNewline);
        const bytes = this.#partBytes + tail;
        this.#reset();
        this.#line(line, bytes);
      }
      start = newline + 1;
      textStart = textNewline + 1;
    }
  }

  /** The stream ended: a last line without its newline is decoded too. */
  end(): void {
    const rest = this.#text.decode(); // flushes a character cut short by the end of the stream
    if (this.#discarding) this.#finishDiscard(0, this.#lastByte);
    else if (this.#partBytes > 0) {
      const line = this.#partial + rest;
      const bytes = this.#partBytes;
      this.#reset();
      this.#line(line, bytes);
    }
  }

  /** Keeps the start of an unfinished line: `bytes` bytes, decoded as `text`. */
  #keep(bytes: number, text: string, lastByte: number): void {
    this.#lastByte = lastByte;
    if (this.#discarding) {
      this.#discardedBytes += bytes;
      return;
    }
    if (this.#partBytes + bytes > this.maxMessageBytes + 1) {
      // Over the limit before the newline: stop buffering, skip to the next newline.
      this.#discarding = true;
      this.#discardedBytes = this.#partBytes + bytes;
      this.#discardPreview = this.#head(text.slice(0, PREVIEW_CHARS + 1));
      this.#reset();
      return;
    }
    this.#partial += text;
    this.#partBytes += bytes;
  }

  #reset(): void {
    this.#partial = "";
    this.#partBytes = 0;
  }

  /** The start of the unfinished line followed by `more`, enough for a preview (bounded work). */
  #head(more: string): string {
    return this.#partial.length > PREVIEW_CHARS ? this.#partial.slice(0, PREVIEW_CHARS + 1) : (this.#partial + more).slice(0, PREVIEW_CHARS + 1);
  }

  #finishDiscard(extra: number, lastByte: number | undefined): void {
    const bytes = this.#discardedBytes + extra - (lastByte === CARRIAGE_RETURN ? 1 : 0);
    this.#discarding = false;
    this.#discardedBytes = 0;
    this.#report("too-large", tooLargeText(bytes, this.maxMessageBytes), this.#discardPreview);
  }

  #report(kind: DecodeProblem["kind"], what: string, text: string): void {
    const shown = preview(text);
    this.#onProblem({ kind, message: `${what}: ${shown}`, preview: shown });
  }

  /** One whole line: its text and its size in bytes, both with any \r but without the \n. */
  #line(line: string, bytes: number): void {
    let text = line;
    let size = bytes;
    if (size > 0 && text.charCodeAt(text.length - 1) === CARRIAGE_RETURN) { // tolerate CRLF
      text = text.slice(0, -1);
      size--;
    }
    if (size === 0) return; // tolerate blank lines
    if (size > this.maxMessageBytes) {
      this.#report("too-large", tooLargeText(size, this.maxMessageBytes), text.slice(0, PREVIEW_CHARS + 1));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() === "") return; // whitespace-only line
      this.#report("not-json", "line is not JSON; skipped", text);
      return;
    }
    if (Array.isArray(value)) {
      // JSON-RPC 2.0 §6 batch (allowed by MCP 2025-03-26): each element on its own.
      if (value.length === 0) this.#report("not-jsonrpc", "empty batch; skipped", text);
      for (const item of value) this.#one(item, text);
      return;
    }
    this.#one(value, text);
  }

  #one(value: unknown, text: string): void {
    const why = whyNotJsonRpc(value);
    if (why === undefined) this.#onMessage(value as JsonRpcMessage);
    else this.#report("not-jsonrpc", `line is JSON but not JSON-RPC 2.0 (${why}); skipped`, text);
  }
}
