// Two linked in-process transport ends, for tests and benchmarks. Messages are handed over
// as objects on a microtask (no serialisation), like a wire that is infinitely fast:
// in order, and what was sent before a close still arrives, before onclose.

import type { CloseDetails } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { type Transport, TransportError } from "./transport.ts";

export class MemoryTransport implements Transport {
  readonly description: string;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (details: CloseDetails) => void;
  onerror?: (error: Error) => void;
  #other: MemoryTransport | undefined;
  /** No more sending, from either end. */
  #closed = false;
  /** No more receiving: set when this end closes, or just before its onclose fires. */
  #deaf = false;
  /** Messages sent to us before start(); delivered when we start. */
  #queue: JsonRpcMessage[] | undefined = [];

  private constructor(description: string) {
    this.description = description;
  }

  /** Two ends: whatever one sends, the other receives. */
  static pair(): [MemoryTransport, MemoryTransport] {
    const a = new MemoryTransport("memory (client end)");
    const b = new MemoryTransport("memory (server end)");
    a.#other = b;
    b.#other = a;
    return [a, b];
  }

  start(): Promise<void> {
    const queued = this.#queue;
    this.#queue = undefined;
    if (queued) for (const message of queued) queueMicrotask(() => this.#deliver(message));
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    const other = this.#other!;
    if (this.#closed || other.#closed) {
      return Promise.reject(new TransportError(`${this.description}: cannot send, the pair is closed`, "closed"));
    }
    if (other.#queue) other.#queue.push(message);
    else queueMicrotask(() => other.#deliver(message));
    return Promise.resolve();
  }

  #deliver(message: JsonRpcMessage): void {
    if (this.#deaf) return;
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.#report("onmessage", error);
    }
  }

  /** A throwing callback is reported through onerror (as stdio does), never thrown into a microtask. */
  #report(handler: string, error: unknown): void {
    const detail = error instanceof Error ? error.message : String(error);
    try {
      this.onerror?.(new TransportError(`${this.description}: ${handler} handler threw: ${detail}`, "handler-threw", { cause: error }));
    } catch {
      // a throwing error handler has nowhere left to report to
    }
  }

  close(): Promise<void> {
    // The closing end stops listening now; the other end first receives what is already
    // on its way (queued before this microtask), then its onclose.
    this.#deaf = true;
    if (this.#closed) return Promise.resolve();
    this.#end({ reason: "closed by this end" });
    this.#other!.#end({ reason: "closed by the other end" });
    return Promise.resolve();
  }

  #end(details: CloseDetails): void {
    if (this.#closed) return;
    this.#closed = true;
    queueMicrotask(() => {
      this.#deaf = true;
      try {
        this.onclose?.(details);
      } catch (error) {
        this.#report("onclose", error);
      }
    });
  }
}
