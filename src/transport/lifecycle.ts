// The lifecycle every transport shares — start once, close once, onclose exactly once, and a
// throwing handler contained — so each transport writes only what differs: how it opens,
// sends and shuts down. Spec 2025-11-25 basic/transports ("Custom Transports") and
// basic/lifecycle ("Shutdown": a close the user asked for ends the connection once).

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
