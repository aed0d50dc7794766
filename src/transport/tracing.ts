// A transport wrapper that shows every JSON-RPC message crossing the wire, in both
// directions, without changing any of them. Used by `mcpwire inspect --trace`.

import type { CloseDetails } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import type { Transport } from "./transport.ts";

export type TraceDirection = "send" | "receive";

export class TracingTransport implements Transport {
  readonly inner: Transport;
  readonly #trace: (direction: TraceDirection, message: JsonRpcMessage) => void;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (details: CloseDetails) => void;
  onerror?: (error: Error) => void;

  constructor(inner: Transport, trace: (direction: TraceDirection, message: JsonRpcMessage) => void) {
    this.inner = inner;
    this.#trace = trace;
    inner.onmessage = (message) => {
      this.#trace("receive", message);
      this.onmessage?.(message);
    };
    inner.onclose = (details) => this.onclose?.(details);
    inner.onerror = (error) => this.onerror?.(error);
  }

  get description(): string {
    return this.inner.description;
  }

  // The optional hooks pass straight through, so tracing never changes behaviour.
  setProtocolVersion(version: string | undefined): void {
    this.inner.setProtocolVersion?.(version);
  }

  setToolSchemas(lookup: (tool: string) => unknown): void {
    this.inner.setToolSchemas?.(lookup);
  }

  get onsessionexpired(): (() => Promise<void>) | undefined {
    return this.inner.onsessionexpired;
  }

  set onsessionexpired(hook: (() => Promise<void>) | undefined) {
    this.inner.onsessionexpired = hook;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage): Promise<void> {
    this.#trace("send", message);
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
