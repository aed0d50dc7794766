// A transport over a source of lines and a write function: newline-delimited JSON-RPC, one
// message a line, for a server whose stdio is its wire (`mcpwire serve` on its own stdin and
// stdout) — spec 2025-11-25 basic/transports ("stdio"); spec 2026-07-28 basic/transports/stdio.
// A line that is not JSON, not JSON-RPC, too large or too deep is reported through onerror as a
// MalformedMessageError, which the server half answers (-32700 / -32600), and reading goes on.

import { DEFAULT_MAX_DEPTH, jsonTextDepth } from "../common/bounded.ts";
import { messageOf } from "../common/error-text.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, readHead } from "../jsonrpc/line-decoder.ts";
import { type JsonRpcMessage, type RequestId, undeliverableResponse, whyNotJsonRpc } from "../jsonrpc/messages.ts";
import { LineWriterTransport } from "./lifecycle.ts";
import { MalformedMessageError } from "./malformed-message.ts";
import { TransportError, UndeliverableMessageError } from "./transport.ts";

/** Where the lines come from: the next line without its line ending, undefined at the end (the runtime's LineReader is one). */
export interface LineSource {
  readLine(): Promise<string | undefined>;
  /** A line already here, without waiting; undefined when none is. When given, a chunk's lines are all taken in one turn. */
  takeReadyLine?(): string | undefined;
}

/** Options of a LineStreamTransport: its lines, its writer, its name and its limits. */
export interface LineStreamTransportOptions {
  /** The incoming lines (`runtime.stdinLines()`). */
  lines: LineSource;
  /** Writes text out, in order; resolves once it is handed on (`(text) => runtime.write("stdout", text)`). */
  write: (text: string) => Promise<void>;
  /** Says what it is in messages. Default "stdio (this process)". */
  description?: string;
  /** Largest message taken, in bytes of UTF-8; a longer line is answered -32600 and skipped. Default 64 MiB. */
  maxMessageBytes?: number;
  /** Deepest nesting of a message taken; a deeper one is answered -32600 and skipped. Default 64. */
  maxDepth?: number;
}

const OPTIONS = optionNames<LineStreamTransportOptions>({ lines: true, write: true, description: true, maxMessageBytes: true, maxDepth: true });
const PREVIEW_CHARS = 80;
/** How much of a line too large to parse is read for its id. */
const HEAD_CHARS = 1024;

/** A transport over a source of lines and a write function (a stdio server's own stdin and stdout). */
export class LineStreamTransport extends LineWriterTransport {
  readonly description: string;
  readonly traceName = "stdio";
  readonly #lines: LineSource;
  readonly #write: (text: string) => Promise<void>;
  readonly #maxBytes: number;
  readonly #maxDepth: number;

  constructor(options: LineStreamTransportOptions) {
    super();
    checkOptions("LineStreamTransport", options, OPTIONS, ["lines", "write"]);
    this.#lines = options.lines;
    this.#write = options.write;
    this.description = options.description ?? "stdio (this process)";
    this.#maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.openWrites(); // what is sent before start() is written too
  }

  start(): Promise<void> {
    const refused = this.claimStart();
    if (refused !== undefined) return Promise.reject(refused);
    void this.#read();
    return Promise.resolve();
  }

  // send() is LineWriterTransport's: the answers of one turn go out in one write (each write
  // wakes the host's process); close() waits for the last.

  protected unwritableState(): string {
    return "closed";
  }

  protected writeBatch(text: string, done: (error?: unknown) => void): void {
    this.#write(text).then(() => done(), (error: unknown) => done(error ?? new Error("the write failed")));
  }

  protected override writeFailed(error: unknown): Promise<Error> {
    return Promise.resolve(new TransportError(`${this.description}: could not write a message: ${messageOf(error)}`, "send-failed", { cause: error }));
  }

  protected async shutdown(): Promise<void> {
    await this.writesSettled();
    this.notifyClose({ reason: "closed by this end" });
  }

  /** Reads lines until the source ends or the transport closes; each whole message to onmessage. */
  async #read(): Promise<void> {
    for (;;) {
      let line: string | undefined;
      try {
        line = await this.#lines.readLine();
      } catch (error) {
        this.notifyClose({ reason: `input failed: ${messageOf(error)}` });
        return;
      }
      if (this.ending) return;
      if (line === undefined) {
        this.notifyClose({ reason: "input ended" });
        return;
      }
      if (line.trim() !== "") this.#take(line);
      // Every whole line already here before the next await: the requests of one chunk reach
      // the server in one turn, so what it sends on (a backend's stdin batch) goes together.
      for (let more = this.#lines.takeReadyLine?.(); more !== undefined && !this.ending; more = this.#lines.takeReadyLine?.()) {
        if (more.trim() !== "") this.#take(more);
      }
    }
  }

  /** One line: a message for onmessage, or a report saying why it is skipped. */
  #take(line: string): void {
    // A string's length is at most its UTF-8 size and a third of it at least: measured exactly only when in doubt.
    if (line.length > this.#maxBytes || (line.length * 3 > this.#maxBytes && new TextEncoder().encode(line).length > this.#maxBytes)) {
      const head = readHead(line.slice(0, HEAD_CHARS));
      if (head.kind === "response") {
        // An answer to one of our requests (sampling, …): that request fails now, saying why.
        const detail = `the answer is over maxMessageBytes (${this.#maxBytes}) and was skipped`;
        const response = head.id === undefined ? { reason: "too-large" as const, detail } : { id: head.id, reason: "too-large" as const, detail };
        this.reportError(new UndeliverableMessageError(`${this.description}: ${detail}`, { response }));
        return;
      }
      this.#skip(line, `a message over maxMessageBytes (${this.#maxBytes})`, -32600, topLevelId(line.slice(0, HEAD_CHARS)));
      return;
    }
    if (jsonTextDepth(line, this.#maxDepth + 1) > this.#maxDepth) {
      this.#skip(line, `a message nested deeper than ${this.#maxDepth}`, -32600, topLevelId(line));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#skip(line, `a line that is not JSON (${messageOf(error)})`, -32700, undefined);
      return;
    }
    const why = whyNotJsonRpc(value);
    if (why === undefined) {
      this.receive(value as JsonRpcMessage);
      return;
    }
    const response = undeliverableResponse(value);
    if (response !== undefined) {
      this.reportError(new UndeliverableMessageError(`${this.description}: ${response.detail}`, { response }));
      return;
    }
    const id = (value as { id?: unknown } | null)?.id;
    this.#skip(line, `a line that is not a JSON-RPC message (${why})`, -32600, typeof id === "string" || typeof id === "number" ? id : undefined);
  }

  #skip(line: string, what: string, rpcCode: -32700 | -32600, id: RequestId | undefined): void {
    const preview = line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}…` : line;
    this.reportError(
      new MalformedMessageError(`${this.description}: ${what}, skipped: ${JSON.stringify(preview)}`, "bad-line", { rpcCode, id: id ?? null }),
    );
  }
}

const ID_VALUE = /\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/y;

/**
 * The `"id"` member of a message's top-level object, read from its text without parsing it
 * (a line too large or too deep to parse), so that the answer keeps the request's id; undefined
 * when it is not there in full. Brackets and strings are followed so that an `"id"` nested in
 * the params is never taken for it.
 */
export function topLevelId(text: string): RequestId | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (end >= text.length) return undefined;
      if (depth === 1 && text.slice(i, end + 1) === '"id"') {
        ID_VALUE.lastIndex = end + 1;
        const match = ID_VALUE.exec(text);
        if (match !== null) {
          try {
            const value: unknown = JSON.parse(match[1]!);
            if (typeof value === "string" || typeof value === "number") return value;
          } catch {
            return undefined;
          }
        }
      }
      i = end;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return undefined;
}
