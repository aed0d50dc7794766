// Newline-delimited JSON-RPC decoding: bytes in, whole messages out — MCP spec 2025-11-25
// basic/transports (stdio: one message per line); batches per JSON-RPC 2.0 §6 (MCP 2025-03-26).

import { checkOptions, optionNames } from "../common/options.ts";
import { preview } from "../common/preview.ts";
import { coreRuntime } from "../runtime/mod.ts";
import type { UndeliverableResponse } from "./errors.ts";
import { type JsonRpcMessage, type RequestId, undeliverableResponse, whyNotJsonRpc } from "./messages.ts";

/** A line that was skipped, and why. The stream always goes on after one. */
export interface DecodeProblem {
  kind: "not-json" | "not-jsonrpc" | "too-large";
  /** A human-readable account, with a short preview of the line. */
  message: string;
  /** The first characters of the offending line. */
  preview: string;
  /**
   * Set when the skipped line is (or, too large to read, shows itself as) a response to one of
   * our requests: what a Peer needs to fail that request now (Peer.undeliverable) instead of
   * letting it wait out its timeout. Its id is read from the line's first bytes (JSON-RPC
   * writers put "jsonrpc" and "id" first) or, failing that, its last ones (where writers
   * that put "result" first leave "id"); undefined when neither shows it. A line too large to
   * read that starts with neither "result"/"error" nor a readable id is not taken for one.
   */
  response?: UndeliverableResponse;
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
/** How much of a line's start is kept for its preview and for reading its id when it is skipped. */
const HEAD_CHARS = 256;
/** Bytes enough for HEAD_CHARS characters of UTF-16 (4 bytes give at most 2 units). */
const HEAD_BYTES = 4 * HEAD_CHARS;
/** How much of the end of a line over the limit is kept, to read an id written last. */
const TAIL_CHARS = 128;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** How many bytes the UTF-8 sequence led by `lead` has (1 for a byte that cannot lead one). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/**
 * Where bytes[from, end) stops holding only whole characters: the start of a multi-byte
 * sequence cut short by `end`, or `end`. Looks at the last 3 bytes at most.
 */
function wholeCharactersEnd(bytes: Uint8Array, from: number, end: number): number {
  for (let i = end - 1; i >= from && i >= end - 3; i--) {
    const byte = bytes[i]!; // from <= i < end
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: the lead is further back
    return byte >= 0xc0 && end - i < sequenceLength(byte) ? i : end;
  }
  return end;
}

/** What a line over the limit is said to be: `why` says why no request fails for it, when none does. */
function tooLargeText(bytes: number, max: number, why?: string): string {
  const remedy = "raise maxMessageBytes if the peer sends messages this large";
  return `line of ${bytes} bytes exceeds maxMessageBytes (${max}); skipped${why === undefined ? ` (${remedy})` : `: ${why}`}`;
}

/** A size for a person: "73400320 bytes (70.0 MiB)". */
function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${bytes} bytes (${(bytes / (1024 * 1024)).toFixed(1)} MiB)`;
}

/** A line that starts as a JSON-RPC message (`{`) or batch (`[{`); `[info] …` is a log line. */
const JSON_START = /^[ \t\r]*(?:\{|\[[ \t\r]*\{)/;
const NOT_A_MESSAGE = "it does not start as a JSON-RPC message, so it is output and no request fails for it " +
  "(on stdio a server's log belongs on stderr)";
const NO_RESPONSE_SIGNS = 'its start shows no response ("result", "error" or an "id"), so no request fails for it ' +
  "(raise maxMessageBytes if the peer sends messages this large)";

const NUMBER_OR_LITERAL = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const WHITESPACE = /[ \t\r\n]*/y;

/**
 * What the start of a line tells without parsing the rest: its top-level members are read in
 * order while their values are short (strings, numbers, literals); the first object or array
 * value, or the end of the text, stops the reading. A "method" member makes it a request or a
 * notification, a "result" or "error" member a response; "id" is kept when read whole.
 */
export function readHead(text: string): { kind: "request" | "response" | "unknown"; id?: RequestId } {
  let kind: "request" | "response" | "unknown" = "unknown";
  let id: RequestId | undefined;
  const done = () => (id === undefined ? { kind } : { kind, id });
  const skip = (at: number) => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.test(text);
    return WHITESPACE.lastIndex;
  };
  let at = skip(0);
  if (text[at] !== "{") return done();
  at++;
  for (;;) {
    at = skip(at);
    const key = readString(text, at);
    if (key === undefined) return done();
    at = skip(key.end);
    if (text[at] !== ":") return done();
    at = skip(at + 1);
    if (key.value === "method") return { kind: "request" }; // a request's id is not ours to fail
    if (key.value === "result" || key.value === "error") kind = "response";
    const first = text[at];
    if (first === '"') {
      const value = readString(text, at);
      if (value === undefined) return done();
      if (key.value === "id") id = value.value;
      at = value.end;
    } else {
      NUMBER_OR_LITERAL.lastIndex = at;
      const match = NUMBER_OR_LITERAL.exec(text);
      // an object or array value, or a number the text's end may have cut: stop here
      if (match === null || NUMBER_OR_LITERAL.lastIndex >= text.length) return done();
      if (key.value === "id" && match[0] !== "null" && match[0] !== "true" && match[0] !== "false") id = Number(match[0]);
      at = NUMBER_OR_LITERAL.lastIndex;
    }
    at = skip(at);
    if (text[at] !== ",") return done();
    at++;
  }
}

/** A JSON string starting at `at`, decoded, and where it ends; undefined if cut or not a string. */
function readString(text: string, at: number): { value: string; end: number } | undefined {
  if (text[at] !== '"') return undefined;
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') {
      try {
        return { value: JSON.parse(text.slice(at, i + 1)) as string, end: i + 1 };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** An `"id": <number|string>` that is the last member of the line's top-level object. */
const TAIL_ID = /[,{][ \t\r\n]*"id"[ \t\r\n]*:[ \t\r\n]*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")[ \t\r\n]*\}[ \t\r\n]*$/;

/** The id written last in a line (the member just before its final "}"), if it shows one. */
export function readTailId(text: string): RequestId | undefined {
  const match = TAIL_ID.exec(text);
  if (match?.[1] === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Every option a LineDecoder reads (its constructor checks them). */
const LINE_DECODER_OPTIONS = optionNames<LineDecoderOptions>({ maxMessageBytes: true, onMessage: true, onProblem: true });

/**
 * Splits a byte stream into lines and each line into a JSON-RPC message.
 *
 * Lines are found in the bytes (a newline byte, 0x0A, never occurs inside a multi-byte UTF-8
 * sequence) and only whole lines are decoded to text, so a character split across chunks is
 * never cut: its first bytes wait, as bytes, with the rest of the unfinished line. Within one
 * chunk, the run of whole lines after the first newline is decoded in one call and split on
 * "\n" as text, so each byte is scanned once. Decoding and byte search go through the runtime
 * (`coreRuntime.decodeUtf8`, `coreRuntime.indexOfByte`): on Node 20 Buffer's UTF-8 decode is about five
 * times faster than TextDecoder. The unfinished line is kept in one growing byte buffer and
 * decoded once when its newline arrives, so the total work is linear in the bytes received
 * however the stream is cut.
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
  /** The text of the unfinished line so far, up to its last whole character. */
  #partial = "";
  /** The first bytes of a character split across chunks, in #tail[0, #tailBytes). */
  readonly #tail = new Uint8Array(4);
  #tailBytes = 0;
  /** The unfinished line's size in bytes (#partial's bytes and #tail's). */
  #partBytes = 0;
  /** True until the first byte arrived: a UTF-8 BOM there is dropped (as TextDecoder does). */
  #atStart = true;
  /** True while skipping the rest of a line that went over the size limit. */
  #discarding = false;
  #discardedBytes = 0;
  /** The first HEAD_CHARS characters of the line being skipped. */
  #discardHead = "";
  /** Its last TAIL_CHARS characters so far. */
  #discardTail = "";
  /** The last byte kept or discarded, to tell whether a line's last byte was a \r. */
  #lastByte: number | undefined;

  constructor(options: LineDecoderOptions) {
    checkOptions("LineDecoder", options, LINE_DECODER_OPTIONS, ["onMessage"]);
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
    let start = 0;
    if (this.#atStart) start = this.#skipBom(chunk);
    if (start === length) return;
    const first = coreRuntime.indexOfByte(chunk, NEWLINE, start);
    if (first === -1) {
      this.#keep(chunk, start);
      return;
    }
    this.#finishLine(chunk, start, first);
    start = first + 1;
    if (start === length) return;
    const last = coreRuntime.lastIndexOfByte(chunk, NEWLINE);
    if (last >= start) {
      if (last - start <= this.maxMessageBytes) this.#wholeLines(chunk, start, last);
      else this.#wholeLinesMeasured(chunk, start, last);
      start = last + 1;
    }
    if (start < length) this.#keep(chunk, start);
  }

  /** The stream ended: a last line without its newline is decoded too. */
  end(): void {
    if (this.#discarding) this.#finishDiscard(0, this.#lastByte);
    else if (this.#partBytes > 0) {
      // A character cut short by the end of the stream decodes as U+FFFD.
      const line = this.#partial + coreRuntime.decodeUtf8(this.#tail, 0, this.#tailBytes);
      const bytes = this.#partBytes;
      this.#reset();
      this.#line(line, bytes);
    }
  }

  /** Where the stream's content starts: after a UTF-8 BOM (EF BB BF), which may come split. */
  #skipBom(chunk: Uint8Array): number {
    const BOM = [0xef, 0xbb, 0xbf];
    const seen = this.#partBytes; // BOM bytes held back from earlier one- or two-byte chunks
    let i = 0;
    while (seen + i < 3 && i < chunk.length && chunk[i] === BOM[seen + i]) i++;
    if (seen + i === 3) {
      this.#atStart = false;
      this.#reset();
      return i;
    }
    if (i === chunk.length) { // a BOM so far, but not yet all of it: hold it back
      this.#tail.set(chunk.subarray(0, i), seen);
      this.#tailBytes = this.#partBytes = seen + i;
      return i;
    }
    this.#atStart = false; // not a BOM: what was held back is the line's start
    return 0;
  }

  /** Ends the unfinished line with chunk[start, newline). */
  #finishLine(chunk: Uint8Array, start: number, newline: number): void {
    const tail = newline - start;
    if (this.#discarding) {
      if (tail > 0) this.#discardTail = this.#tailText(this.#discardTail, chunk, start, newline);
      this.#finishDiscard(tail, tail > 0 ? chunk[newline - 1] : this.#lastByte);
    } else if (this.#partBytes === 0) {
      this.#line(coreRuntime.decodeUtf8(chunk, start, newline), tail);
    } else if (this.#partBytes + tail > this.maxMessageBytes + 1) {
      // Over the limit even if its last byte is the \r of a CRLF: no need to join it.
      const last = tail > 0 ? chunk[newline - 1] : this.#lastByte;
      const bytes = this.#partBytes + tail - (last === CARRIAGE_RETURN ? 1 : 0);
      this.#tooLarge(bytes, this.#headText(chunk, start, newline), this.#tailText(this.#partial, chunk, start, newline));
      this.#reset();
    } else {
      this.#appendText(chunk, start, newline, true);
      const line = this.#partial;
      const bytes = this.#partBytes;
      this.#reset();
      this.#line(line, bytes);
    }
  }

  /**
   * The whole lines in chunk[start, last], `last` being a newline, when the run is no longer
   * than the limit (so no line in it is over the limit): one decode, split on "\n" as text.
   */
  #wholeLines(chunk: Uint8Array, start: number, last: number): void {
    const text = coreRuntime.decodeUtf8(chunk, start, last + 1);
    let from = 0;
    let newline: number;
    while ((newline = text.indexOf("\n", from)) !== -1) {
      // Each line's UTF-16 length stands in for its size: both are 0 for an empty line, and
      // neither can be over the limit here. (A line of n bytes decodes to n/3 to n units.)
      this.#line(text.slice(from, newline), newline - from);
      from = newline + 1;
    }
  }

  /** The same when the run is longer than the limit: each line found and sized in the bytes. */
  #wholeLinesMeasured(chunk: Uint8Array, start: number, last: number): void {
    while (start <= last) {
      const newline = coreRuntime.indexOfByte(chunk, NEWLINE, start);
      const bytes = newline - start;
      if (bytes > this.maxMessageBytes + 1) {
        const cr = chunk[newline - 1] === CARRIAGE_RETURN ? 1 : 0;
        this.#tooLarge(bytes - cr, this.#headText(chunk, start, newline), this.#tailText("", chunk, start, newline));
      } else {
        this.#line(coreRuntime.decodeUtf8(chunk, start, newline), bytes);
      }
      start = newline + 1;
    }
  }

  /** Keeps chunk[start, …) as the start (or more) of an unfinished line. */
  #keep(chunk: Uint8Array, start: number): void {
    const bytes = chunk.length - start;
    this.#lastByte = chunk[chunk.length - 1];
    if (this.#discarding) {
      this.#discardedBytes += bytes;
      this.#discardTail = this.#tailText(this.#discardTail, chunk, start, chunk.length);
      return;
    }
    if (this.#partBytes + bytes > this.maxMessageBytes + 1) {
      // Over the limit before the newline: stop buffering, skip to the next newline.
      this.#discarding = true;
      this.#discardedBytes = this.#partBytes + bytes;
      this.#discardHead = this.#headText(chunk, start, chunk.length);
      this.#discardTail = this.#tailText(this.#partial, chunk, start, chunk.length);
      this.#reset();
      return;
    }
    this.#appendText(chunk, start, chunk.length, false);
  }

  /**
   * Adds chunk[start, end) to the unfinished line as text. Without `final`, a character cut by
   * the chunk's end is held back as bytes (#tail) until its last bytes arrive.
   */
  #appendText(chunk: Uint8Array, start: number, end: number, final: boolean): void {
    this.#partBytes += end - start;
    let from = start;
    if (this.#tailBytes > 0) {
      // Complete the held character with the continuation bytes (10xxxxxx) that start this chunk.
      const want = sequenceLength(this.#tail[0]!); // #tailBytes > 0
      while (this.#tailBytes < want && from < end && (chunk[from]! & 0xc0) === 0x80) this.#tail[this.#tailBytes++] = chunk[from++]!;
      if (this.#tailBytes < want && from === end && !final) return; // still not whole
      this.#partial += coreRuntime.decodeUtf8(this.#tail, 0, this.#tailBytes); // whole, or invalid: U+FFFD
      this.#tailBytes = 0;
    }
    const cut = final ? end : wholeCharactersEnd(chunk, from, end);
    if (cut > from) this.#partial += coreRuntime.decodeUtf8(chunk, from, cut);
    if (cut < end) {
      this.#tail.set(chunk.subarray(cut, end));
      this.#tailBytes = end - cut;
    }
  }

  #reset(): void {
    this.#partial = "";
    this.#tailBytes = 0;
    this.#partBytes = 0;
  }

  /**
   * The start of the unfinished line followed by chunk[start, end), enough for a preview and
   * to read an id (bounded work: at most HEAD_BYTES of the chunk are decoded).
   */
  #headText(chunk: Uint8Array, start: number, end: number): string {
    if (this.#partial.length >= HEAD_CHARS) return this.#partial.slice(0, HEAD_CHARS);
    const head = new Uint8Array(this.#tailBytes + Math.min(end - start, HEAD_BYTES));
    head.set(this.#tail.subarray(0, this.#tailBytes));
    head.set(chunk.subarray(start, start + head.length - this.#tailBytes), this.#tailBytes);
    const more = coreRuntime.decodeUtf8(head, 0, wholeCharactersEnd(head, 0, head.length));
    return (this.#partial + more).slice(0, HEAD_CHARS);
  }

  /**
   * The last TAIL_CHARS characters of `before` followed by chunk[start, end) (bounded work:
   * at most 4 × TAIL_CHARS bytes of the chunk are decoded). A character cut by where the
   * decoding starts shows as U+FFFD, which reading an id written last never needs.
   */
  #tailText(before: string, chunk: Uint8Array, start: number, end: number): string {
    const from = Math.max(start, end - 4 * TAIL_CHARS);
    const text = coreRuntime.decodeUtf8(chunk, from, end);
    if (text.length >= TAIL_CHARS || from > start) return text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
    return (before.slice(-(TAIL_CHARS - text.length)) + text);
  }

  #finishDiscard(extra: number, lastByte: number | undefined): void {
    const bytes = this.#discardedBytes + extra - (lastByte === CARRIAGE_RETURN ? 1 : 0);
    this.#discarding = false;
    this.#discardedBytes = 0;
    this.#tooLarge(bytes, this.#discardHead, this.#discardTail);
  }

  /**
   * A line over the limit, skipped unread: reported with its size, and as a response that
   * could not be delivered only when it shows itself one — a "result" or "error" member among
   * its first, or an id read from its first or last bytes. A line that does not start as a
   * JSON-RPC message (a server printing a huge log line to stdout), or whose start shows
   * neither, is output skipped, failing no request: the real answer may follow on the next
   * line, and a response that hid both is only waited for until its request's timeout.
   */
  #tooLarge(bytes: number, head: string, tail: string): void {
    const shown = preview(head, PREVIEW_CHARS);
    const read = readHead(head);
    const json = JSON_START.test(head);
    const id = read.kind === "request" ? undefined : read.id ?? (json ? readTailId(tail) : undefined);
    if (read.kind === "request" || (read.kind === "unknown" && id === undefined)) {
      const why = read.kind === "request" ? undefined : json ? NO_RESPONSE_SIGNS : NOT_A_MESSAGE;
      this.#onProblem({ kind: "too-large", message: `${tooLargeText(bytes, this.maxMessageBytes, why)}: ${shown}`, preview: shown });
      return;
    }
    this.#onProblem({
      kind: "too-large",
      message: `${tooLargeText(bytes, this.maxMessageBytes)}: ${shown}`,
      preview: shown,
      response: {
        ...(id === undefined ? {} : { id }),
        reason: "too-large",
        detail: `the response is ${sizeText(bytes)}, over the maxMessageBytes limit of ${sizeText(this.maxMessageBytes)}, and was skipped unread`,
        remedy: "raise maxMessageBytes if the server's answers are this large",
        bytes,
        limit: this.maxMessageBytes,
      },
    });
  }

  #report(kind: DecodeProblem["kind"], what: string, text: string, response?: UndeliverableResponse): void {
    const shown = preview(text, PREVIEW_CHARS);
    this.#onProblem(
      response === undefined ? { kind, message: `${what}: ${shown}`, preview: shown } : { kind, message: `${what}: ${shown}`, preview: shown, response },
    );
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
      this.#tooLarge(size, text.slice(0, HEAD_CHARS), text.slice(-TAIL_CHARS));
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
    // #one, inline: every line's path.
    const why = whyNotJsonRpc(value);
    if (why === undefined) this.#onMessage(value as JsonRpcMessage);
    else this.#report("not-jsonrpc", `line is JSON but not JSON-RPC 2.0 (${why}); skipped`, text, undeliverableResponse(value));
  }

  #one(value: unknown, text: string): void {
    const why = whyNotJsonRpc(value);
    if (why === undefined) this.#onMessage(value as JsonRpcMessage);
    else this.#report("not-jsonrpc", `line is JSON but not JSON-RPC 2.0 (${why}); skipped`, text, undeliverableResponse(value));
  }
}
