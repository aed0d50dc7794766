// Two linked in-process transport ends, for tests and benchmarks. Messages are handed over
// as objects on a microtask (no serialisation), like a wire that is infinitely fast.

import type { CloseDetails } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { type Transport, TransportError } from "./transport.ts";

export class MemoryTransport implements Transport {
  readonly description: string;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (details: CloseDetails) => void;
  onerror?: (error: Error) => void;
  #other: MemoryTransport | undefined;
  #closed = false;
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
    if (!this.#closed) this.onmessage?.(message);
  }

  close(): Promise<void> {
    this.#end({ reason: "closed by this end" });
    this.#other!.#end({ reason: "closed by the other end" });
    return Promise.resolve();
  }

  #end(details: CloseDetails): void {
    if (this.#closed) return;
    this.#closed = true;
    queueMicrotask(() => this.onclose?.(details));
  }
}
