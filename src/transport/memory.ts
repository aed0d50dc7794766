// Two linked in-process transport ends, for tests and benchmarks. Messages are handed over
// as objects on a microtask (no serialisation), like a wire that is infinitely fast:
// in order, and what was sent before a close still arrives, before onclose.

import type { CloseDetails } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { TransportBase } from "./lifecycle.ts";
import { TransportError } from "./transport.ts";

/** One end of an in-process pair of transports (`MemoryTransport.pair()`), for tests and benchmarks. */
export class MemoryTransport extends TransportBase {
  readonly description: string;
  readonly traceName = "memory";
  #other: MemoryTransport | undefined;
  /** No more sending, from either end. */
  #ended = false;
  /** No more receiving: set when this end closes, or just before its onclose fires. */
  #deaf = false;
  /** Messages sent to us before start(); delivered when we start. */
  #queue: JsonRpcMessage[] | undefined = [];

  private constructor(description: string) {
    super();
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

  /** Delivers what was sent before; unlike the wire transports, a second start() is harmless. */
  start(): Promise<void> {
    const queued = this.#queue;
    this.#queue = undefined;
    if (queued) { for (const message of queued) queueMicrotask(() => this.#deliver(message)); }
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    const other = this.#other!;
    if (this.#ended || other.#ended) {
      return Promise.reject(new TransportError(`${this.description}: cannot send, the pair is closed`, "closed"));
    }
    if (other.#queue) other.#queue.push(message);
    else queueMicrotask(() => other.#deliver(message));
    return Promise.resolve();
  }

  /** A throwing onmessage is reported through onerror (lifecycle.ts), never thrown into a microtask. */
  #deliver(message: JsonRpcMessage): void {
    if (!this.#deaf) this.receive(message);
  }

  protected shutdown(): Promise<void> {
    // The closing end stops listening now; the other end first receives what is already
    // on its way (queued before this microtask), then its onclose.
    this.#deaf = true;
    if (this.#ended) return Promise.resolve();
    this.#end({ reason: "closed by this end" });
    this.#other!.#end({ reason: "closed by the other end" });
    return Promise.resolve();
  }

  #end(details: CloseDetails): void {
    if (this.#ended) return;
    this.#ended = true;
    queueMicrotask(() => {
      this.#deaf = true;
      this.notifyClose(details);
    });
  }
}
