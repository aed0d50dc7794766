// The lifecycle every transport shares — start once, close once, onclose exactly once, and a
// throwing handler contained — so each transport writes only what differs: how it opens,
// sends and shuts down. Spec 2025-11-25 basic/transports ("Custom Transports") and
// basic/lifecycle ("Shutdown": a close the user asked for ends the connection once).
// LineWriterTransport adds what the two newline-delimited transports share: the lines sent in
// one microtask turn written together (spec 2025-11-25 basic/transports, "stdio").

import { messageOf } from "../common/error-text.ts";
import type { CloseDetails } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { TraceTransportName } from "./trace-event.ts";
import { type SendOptions, type Transport, TransportError, type TransportErrorCode } from "./transport.ts";

/**
 * The base of every transport. A subclass implements `start()` (calling `claimStart()`
 * first), `send()` and `shutdown()`; it hands what it receives to `receive()`, what went wrong
 * to `report()`, and the end of the connection to `notifyClose()`.
 *
 * - start once: a second start(), or a start() after close(), is refused;
 * - close once: close() runs shutdown() the first time and returns the same promise after;
 * - onclose exactly once, whoever ends the connection (we, or the other side);
 * - a throwing onmessage or onclose handler is reported through onerror (a throwing onerror has
 *   nowhere left to report to), never into the reading loop that called it.
 */
export abstract class TransportBase implements Transport {
  abstract readonly description: string;
  /**
   * The transport's kind in trace events ("stdio", "streamable-http", …): each transport names
   * itself, so that naming one needs no `instanceof` of every transport class (which would load
   * them all, stdio's child process code into a browser bundle too).
   */
  abstract readonly traceName: TraceTransportName;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (details: CloseDetails) => void;
  onerror?: (error: Error) => void;

  #started = false;
  #closing: Promise<void> | undefined;
  #closeNotified = false;

  abstract start(): Promise<void>;
  abstract send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;

  /** Ends the connection the first time it is called; bounded (shutdown() is); onclose fires once. */
  close(): Promise<void> {
    this.#closing ??= this.shutdown();
    return this.#closing;
  }

  /** What close() does, once: stop reading and writing, release what is held, then notifyClose(). */
  protected abstract shutdown(): Promise<void>;

  /** start() has been called. */
  protected get started(): boolean {
    return this.#started;
  }

  /** close() has been called (it may still be under way). */
  protected get closing(): boolean {
    return this.#closing !== undefined;
  }

  /** close() has been called or onclose has fired: nothing more may be sent (one check on every send's path). */
  protected get ending(): boolean {
    return this.#closing !== undefined || this.#closeNotified;
  }

  /** onclose has fired: the connection is over. */
  protected get closed(): boolean {
    return this.#closeNotified;
  }

  /**
   * The start guard, first thing in start(): undefined when this is the first start and
   * close() has not been called, otherwise the error start() rejects with.
   */
  protected claimStart(): TransportError | undefined {
    if (this.#started) return new TransportError(`${this.description}: already started`, "started");
    this.#started = true;
    if (this.#closing !== undefined || this.#closeNotified) {
      return new TransportError(`${this.description}: close() was called before start()`, "closed");
    }
    return undefined;
  }

  /** The error a send() rejects with when the connection cannot take it: "cannot send tools/call, the connection is closing". */
  protected refusal(what: string, state: string): TransportError {
    return new TransportError(`${this.description}: cannot send ${what}, the connection is ${state}`, "closed");
  }

  /** Text of a report as it is shown; transports that know credentials replace them here. */
  protected redactReport(text: string): string {
    return text;
  }

  /** Hands one whole message to onmessage; a throwing handler is reported, and reading goes on. */
  protected receive(message: JsonRpcMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.report(`onmessage handler threw: ${messageOf(error)}`, "handler-threw", error);
    }
  }

  /** Reports a problem that did not end the connection: "<description>: <what>", with `code`. */
  protected report(what: string, code: TransportErrorCode, cause?: unknown): void {
    this.reportError(new TransportError(this.redactReport(`${this.description}: ${what}`), code, { cause }));
  }

  /** Hands an error to onerror; a throwing onerror has nowhere left to report to. */
  protected reportError(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // a throwing error handler has nowhere left to report to
    }
  }

  /** Calls onclose, the first time only; a throwing handler is reported. */
  protected notifyClose(details: CloseDetails): void {
    if (this.#closeNotified) return;
    this.#closeNotified = true;
    try {
      this.onclose?.(details);
    } catch (error) {
      this.report(`onclose handler threw: ${messageOf(error)}`, "handler-threw", error);
    }
  }
}

/** What a message is, for "cannot send …": its method, or "a response". */
export function methodOf(message: JsonRpcMessage): string {
  return "method" in message ? message.method : "a response";
}

/**
 * Most lines, and most UTF-16 units (about the 64 KiB of a Linux pipe), written together: past
 * them a batch goes at once instead of at the end of the turn, so the reader starts on it while
 * the next is encoded (one batch of a whole burst made the two processes take turns, each idle
 * while the other worked).
 */
export const BATCH_MAX_LINES = 16;
export const BATCH_MAX_CHARS = 64 * 1024;

/** Lines waiting for one write, and the promise their senders share. */
interface LineBatch {
  lines: string[];
  chars: number;
  written: Promise<void>;
  /** The write's callback: settles `written`. */
  done(error?: unknown): void;
}

const ignore = (): void => {};

/**
 * A transport that writes one JSON-RPC message a line to a byte stream (a child's stdin:
 * StdioTransport; this process's stdout: LineStreamTransport). The lines sent in one microtask
 * turn go in one write, up to BATCH_MAX_LINES / BATCH_MAX_CHARS: one system call, and one
 * wake-up of the reading process, for a burst instead of one each. Order is kept; every sender
 * of a batch sees that one write's outcome. A subclass calls openWrites() once it can write,
 * and implements writeBatch() (and writeFailed() to explain a failed write).
 */
export abstract class LineWriterTransport extends TransportBase {
  #writable = false;
  /** Lines waiting for this turn's write. */
  #batch: LineBatch | undefined;
  /** The last batch's write: what writesSettled() waits for. */
  #lastWritten: Promise<void> = Promise.resolve();

  /** Writes one batch's text; calls `done` once, with the error when the write failed. */
  protected abstract writeBatch(text: string, done: (error?: unknown) => void): void;

  /** The state a refused send() names ("not started", "closing", …). */
  protected abstract unwritableState(): string;

  /** The error the senders of a batch whose write failed get (the write's error as given by default). */
  protected writeFailed(error: unknown): Promise<Error> {
    return Promise.resolve(error instanceof Error ? error : new Error(String(error)));
  }

  /** From now on send() takes messages (until close). */
  protected openWrites(): void {
    this.#writable = true;
  }

  /** Settles once every line sent so far is written or has failed; never rejects. */
  protected writesSettled(): Promise<void> {
    return this.#lastWritten.then(ignore, ignore);
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (!this.#writable || this.ending) return Promise.reject(this.refusal(methodOf(message), this.unwritableState()));
    let batch = this.#batch;
    if (batch === undefined) batch = this.#batch = this.#newBatch();
    const line = JSON.stringify(message) + "\n"; // line-encoder.ts encodeLine, inline: every send's path
    batch.lines.push(line);
    batch.chars += line.length;
    if (batch.lines.length >= BATCH_MAX_LINES || batch.chars >= BATCH_MAX_CHARS) {
      // Full: it goes now, so the reader starts on it while the next is encoded.
      this.#batch = undefined;
      this.writeBatch(batch.lines.join(""), batch.done);
    }
    return batch.written;
  }

  /** A batch that goes at the end of this turn unless it fills up first. */
  #newBatch(): LineBatch {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const written = new Promise<void>((resolveWritten, rejectWritten) => {
      resolve = resolveWritten;
      reject = rejectWritten;
    });
    const batch: LineBatch = {
      lines: [],
      chars: 0,
      written,
      done: (error) => {
        if (error === undefined || error === null) return resolve();
        void this.writeFailed(error).then(reject);
      },
    };
    this.#lastWritten = written;
    queueMicrotask(() => {
      if (this.#batch !== batch) return;
      this.#batch = undefined;
      this.writeBatch(batch.lines.length === 1 ? batch.lines[0]! : batch.lines.join(""), batch.done);
    });
    return batch;
  }
}
