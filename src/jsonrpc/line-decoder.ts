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
  /** Largest line accepted, in bytes; longer ones are skipped whole. Default 64 MiB. */
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

function preview(text: string): string {
  const flat = text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS) + "…" : text;
  return JSON.stringify(flat);
}

/**
 * Splits a byte stream into lines and each line into a JSON-RPC message.
 *
 * Only the bytes of the newest chunk are scanned for a newline: the unfinished line is kept
 * as a list of chunk views and joined once when its newline arrives, so the total work is
 * linear in the bytes received however the stream is cut. A newline byte (0x0A) never
 * occurs inside a multi-byte UTF-8 sequence, so a line is always whole UTF-8 and a
 * character split across chunks decodes correctly.
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
      if (this.#discarding) {
        this.#finishDiscard(newline - start);
      } else if (this.#partBytes === 0) {
        this.#line(chunk.subarray(start, newline));
      } else if (this.#partBytes + (newline - start) > this.maxMessageBytes) {
        this.#tooLarge(this.#partBytes + (newline - start));
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
    if (this.#discarding) this.#finishDiscard(0);
    else if (this.#partBytes > 0) {
      const line = this.#join();
      this.#reset();
      this.#line(line);
    }
  }

  #keep(view: Uint8Array): void {
    if (this.#discarding) {
      this.#discardedBytes += view.length;
      return;
    }
    if (this.#partBytes + view.length > this.maxMessageBytes) {
      // Over the limit before the newline: stop buffering, skip to the next newline.
      this.#discarding = true;
      this.#discardedBytes = this.#partBytes + view.length;
      this.#discardPreview = this.#text.decode((this.#parts[0] ?? view).subarray(0, PREVIEW_CHARS));
      this.#reset();
      return;
    }
    // The transport may reuse its buffer after we return: keep a copy of the tail only.
    this.#parts.push(view.slice());
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

  #finishDiscard(extra: number): void {
    const bytes = this.#discardedBytes + extra;
    this.#discarding = false;
    this.#discardedBytes = 0;
    this.#report("too-large", `line of ${bytes} bytes exceeds maxMessageBytes (${this.maxMessageBytes}); skipped`, this.#discardPreview);
  }

  #tooLarge(bytes: number): void {
    const first = this.#text.decode(this.#parts[0].subarray(0, PREVIEW_CHARS));
    this.#report("too-large", `line of ${bytes} bytes exceeds maxMessageBytes (${this.maxMessageBytes}); skipped`, first);
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
      this.#report("too-large", `line of ${end} bytes exceeds maxMessageBytes (${this.maxMessageBytes}); skipped`, this.#text.decode(bytes.subarray(0, PREVIEW_CHARS)));
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
