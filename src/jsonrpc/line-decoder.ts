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
/** Enough bytes for PREVIEW_CHARS characters however wide (UTF-8 uses at most 4 a character). */
const PREVIEW_BYTES = PREVIEW_CHARS * 4;
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
 * Only the bytes of the newest chunk are scanned for a newline: the unfinished line is kept
 * as a list of chunk views and joined once when its newline arrives, so the total work is
 * linear in the bytes received however the stream is cut. A newline byte (0x0A) never
 * occurs inside a multi-byte UTF-8 sequence, so a line is always whole UTF-8 and a
 * character split across chunks decodes correctly.
 *
 * The size limit applies to the message, the line without its `\n` or `\r\n`, and gives the
 * same verdict however the stream is cut: while the newline has not arrived, one byte more
 * than the limit is buffered, since it may turn out to be the `\r` of a CRLF.
 */
export class LineDecoder {
  readonly maxMessageBytes: number;
  readonly #onMessage: (message: JsonRpcMessage) => void;
  readonly #onProblem: (problem: DecodeProblem) => void;
  readonly #text = new TextDecoder("utf-8");
  /** Views of the unfinished line, oldest first. */
  #parts: Uint8Array[] = [];
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
    let start = 0;
    const length = chunk.length;
    while (start < length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#keep(chunk.subarray(start));
        return;
      }
      const tail = newline - start;
      if (this.#discarding) {
        this.#finishDiscard(tail, tail > 0 ? chunk[newline - 1] : this.#lastByte);
      } else if (this.#partBytes === 0) {
        this.#line(chunk.subarray(start, newline));
      } else if (this.#partBytes + tail > this.maxMessageBytes + 1) {
        // Over the limit even if its last byte is the \r of a CRLF: no need to join it.
        const last = tail > 0 ? chunk[newline - 1] : this.#lastByte;
        const bytes = this.#partBytes + tail - (last === CARRIAGE_RETURN ? 1 : 0);
        this.#report("too-large", tooLargeText(bytes, this.maxMessageBytes), this.#head(chunk.subarray(start, newline)));
        this.#reset();
      } else {
        this.#parts.push(chunk.subarray(start, newline));
        const line = this.#join();
        this.#reset();
        this.#line(line);
      }
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without its newline is decoded too. */
  end(): void {
    if (this.#discarding) this.#finishDiscard(0, this.#lastByte);
    else if (this.#partBytes > 0) {
      const line = this.#join();
      this.#reset();
      this.#line(line);
    }
  }

  #keep(view: Uint8Array): void {
    this.#lastByte = view[view.length - 1];
    if (this.#discarding) {
      this.#discardedBytes += view.length;
      return;
    }
    if (this.#partBytes + view.length > this.maxMessageBytes + 1) {
      // Over the limit before the newline: stop buffering, skip to the next newline.
      this.#discarding = true;
      this.#discardedBytes = this.#partBytes + view.length;
      this.#discardPreview = this.#head(view);
      this.#reset();
      return;
    }
    // The transport may reuse its buffer after we return: keep a copy of the tail only.
    // (Not view.slice(): on a Node Buffer, slice returns a view of the same memory.)
    this.#parts.push(new Uint8Array(view));
    this.#partBytes += view.length;
  }

  #join(): Uint8Array {
    if (this.#parts.length === 1) return this.#parts[0];
    const total = this.#parts.reduce((sum, part) => sum + part.length, 0);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const part of this.#parts) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  }

  #reset(): void {
    this.#parts = [];
    this.#partBytes = 0;
  }

  /** The start of the unfinished line followed by `more`, decoded for a preview (bounded work). */
  #head(more: Uint8Array): string {
    const bytes = new Uint8Array(Math.min(PREVIEW_BYTES, this.#partBytes + more.length));
    let filled = 0;
    for (const part of [...this.#parts, more]) {
      if (filled === bytes.length) break;
      const take = part.subarray(0, bytes.length - filled);
      bytes.set(take, filled);
      filled += take.length;
    }
    return this.#text.decode(bytes);
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

  #line(bytes: Uint8Array): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CARRIAGE_RETURN) end--; // tolerate CRLF
    if (end === 0) return; // tolerate blank lines
    if (end > this.maxMessageBytes) {
      this.#report("too-large", tooLargeText(end, this.maxMessageBytes), this.#text.decode(bytes.subarray(0, PREVIEW_BYTES)));
      return;
    }
    const text = this.#text.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
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
