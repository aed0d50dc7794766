// Test helper: a started MemoryTransport pair whose two ends hand what arrives (each message,
// then the close) to a receiver each: a Peer, or a recorder.

import type { CloseDetails } from "../../src/jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";

/** What an end hands its messages and its close to; a Peer is one. */
export interface PairEnd {
  receive(message: JsonRpcMessage): void;
  close(details: CloseDetails): void;
}

/** A MemoryTransport pair, both ends started, `a` handing what arrives to `atA` and `b` to `atB`. */
export async function startedPair(atA: PairEnd, atB: PairEnd): Promise<[a: MemoryTransport, b: MemoryTransport]> {
  const [a, b] = MemoryTransport.pair();
  a.onmessage = (message) => atA.receive(message);
  b.onmessage = (message) => atB.receive(message);
  a.onclose = (details) => atA.close(details);
  b.onclose = (details) => atB.close(details);
  await a.start();
  await b.start();
  return [a, b];
}
