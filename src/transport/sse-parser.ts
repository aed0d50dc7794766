// A Server-Sent Events parser over raw bytes — the WHATWG HTML "event stream interpretation"
// rules, as MCP uses them (spec 2025-11-25 basic/transports "Streamable HTTP"; 2024-11-05
// basic/transports "HTTP with SSE"). No EventSource: this reads any ReadableStream body.

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, "message" when absent. */
  type: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  /** The last event id in force when the event was dispatched ("" if none yet). */
  id: string;
}

export interface SseParserOptions {
  onEvent: (event: SseEvent) => void;
  /** A valid `retry:` field (milliseconds), as it arrives. */
  onRetry?: (ms: number) => void;
  /** An `id:` field (also for events that carry no data, like a priming event). */
  onId?: (id: string) => void;
  /** Longest event (its line being read plus its data so far), in characters. Default 64 Mi. */
  maxEventChars?: number;
  /**
   * An event over maxEventChars was skipped; the stream goes on at the next event. `head` is
   * the start of its data (up to HEAD_CHARS), where a JSON-RPC writer puts the message's id.
   */
  onProblem?: (message: string, head: string) => void;
}

export const DEFAULT_MAX_EVENT_CHARS = 64 * 1024 * 1024;
/** How much of a skipped event's data onProblem is given. */
export const HEAD_CHARS = 256;

const LF = 10;
const CR = 13;

/**
 * Feed it chunks as they arrive; it calls onEvent for each complete event. Lines may end in
 * CR, LF or CRLF, and a chunk may end anywhere (inside a line, between CR and LF, inside a
 * UTF-8 character). Only the new bytes of each chunk are scanned.
 */
export class SseParser {
  readonly #options: SseParserOptions;
  readonly #text = new TextDecoder("utf-8");
  /** The unfinished line, as decoded pieces. */
  #line: string[] = [];
  /** The previous chunk ended with CR: a LF starting this one belongs to it. */
  #afterCR = false;
  #first = true;
  #eventType = "";
  #data: string[] = [];
  #lastEventId = "";
  #retryMs: number | undefined;
  readonly #maxChars: number;
  /** Characters of the unfinished line, and of the current event's data so far. */
  #lineChars = 0;
  #dataChars = 0;
  /** Skipping the rest of an event that went over the limit, up to its blank line. */
  #skipping = false;
  /** While skipping: the current line had characters (so its end is not a blank line). */
  #lineDropped = false;

  constructor(options: SseParserOptions) {
    this.#options = options;
    this.#maxChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  }

  /** The id to send as Last-Event-ID when reconnecting ("" when the server gave none). */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** The server's reconnection time (`retry:`), when it gave one. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    if (this.#afterCR && chunk.length > 0) {
      this.#afterCR = false;
      if (chunk[0] === LF) start = 1;
    }
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      this.#hold(this.#text.decode(chunk.subarray(start, i), { stream: true }));
      this.#endLine();
      if (byte === CR) {
        if (i + 1 === chunk.length) this.#afterCR = true;
        else if (chunk[i + 1] === LF) i++;
      }
      start = i + 1;
    }
    if (start < chunk.length) this.#hold(this.#text.decode(chunk.subarray(start), { stream: true }));
  }

  /** Keeps a piece of the current line, unless the event has grown past the limit. */
  #hold(piece: string): void {
    if (this.#skipping) {
      if (piece.length > 0) this.#lineDropped = true;
      return;
    }
    this.#lineChars += piece.length;
    if (this.#lineChars + this.#dataChars > this.#maxChars) {
      const head = this.#head(piece);
      this.#skipping = true;
      this.#lineDropped = true;
      this.#line = [];
      this.#data = [];
      this.#dataChars = 0;
      this.#options.onProblem?.(`an SSE event of more than ${this.#maxChars} characters was skipped (maxEventChars)`, head);
      return;
    }
    this.#line.push(piece);
  }

  /** The first HEAD_CHARS of the current event's data, the line being read (and `piece`) included. */
  #head(piece: string): string {
    let out = this.#data.length > 0 ? this.#data.join("\n").slice(0, HEAD_CHARS) : "";
    if (out.length >= HEAD_CHARS) return out;
    let line = "";
    for (const part of [...this.#line, piece]) {
      line += part.slice(0, HEAD_CHARS + 6 - line.length);
      if (line.length >= HEAD_CHARS + 6) break;
    }
    const data = /^data: ?/.exec(line);
    if (data === null) return out;
    out += (out === "" ? "" : "\n") + line.slice(data[0].length);
    return out.slice(0, HEAD_CHARS);
  }

  /**
   * The stream ended. Per the WHATWG rules an event not yet ended by a blank line is
   * discarded; a last line without its terminator is still interpreted (it may set id).
   */
  end(): void {
    const tail = this.#text.decode();
    if (tail !== "") this.#line.push(tail);
    if (this.#line.length > 0) this.#endLine();
    this.#eventType = "";
    this.#data = [];
    this.#dataChars = 0;
  }

  #endLine(): void {
    let line = this.#line.length === 1 ? this.#line[0]! : this.#line.join("");
    this.#line = [];
    this.#lineChars = 0;
    if (this.#lineDropped) {
      this.#lineDropped = false;
      return; // the end of a skipped line, not a blank one
    }
    if (this.#first) {
      this.#first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1); // a leading BOM is ignored
    }
    if (line === "") {
      if (this.#skipping) {
        this.#skipping = false; // the oversized event ends here; the next one is read again
        this.#eventType = "";
        this.#data = [];
      } else {
        this.#dispatch();
      }
      this.#dataChars = 0;
      return;
    }
    if (this.#skipping) return;
    if (line[0] === ":") return; // a comment (servers use them as keep-alives)
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value[0] === " ") value = value.slice(1);
    switch (field) {
      case "event":
        this.#eventType = value;
        break;
      case "data":
        this.#data.push(value);
        this.#dataChars += value.length;
        break;
      case "id":
        if (!value.includes("\0")) {
          this.#lastEventId = value;
          this.#options.onId?.(value);
        }
        break;
      case "retry":
        if (/^\d+$/.test(value)) {
          this.#retryMs = Number(value);
          this.#options.onRetry?.(this.#retryMs);
        }
        break;
        // other fields are ignored
    }
  }

  #dispatch(): void {
    const type = this.#eventType || "message";
    this.#eventType = "";
    if (this.#data.length === 0) return; // no data: nothing to dispatch (the id still counts)
    const data = this.#data.join("\n");
    this.#data = [];
    this.#options.onEvent({ type, data, id: this.#lastEventId });
  }
}
