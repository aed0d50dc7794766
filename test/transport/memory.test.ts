// Tests for MemoryTransport (src/transport/memory.ts): the linked in-process pair used by
// the other tests and the benchmarks.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CloseDetails } from "../../src/jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import { TransportError } from "../../src/transport/transport.ts";
import { startedPair } from "../support/memory-pair.ts";

const GUARD = { timeout: 5000 };

/** Lets every message in flight arrive (the pair delivers on microtasks). */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function note(n: number): JsonRpcMessage {
  return { jsonrpc: "2.0", method: "notifications/message", params: { n } };
}

function numbers(messages: JsonRpcMessage[]): unknown[] {
  return messages.map((m) => ("method" in m ? m.params?.n : undefined));
}

/** A started pair that records what each end receives and each onclose. */
async function recordedPair() {
  const atA: JsonRpcMessage[] = [];
  const atB: JsonRpcMessage[] = [];
  const closesA: CloseDetails[] = [];
  const closesB: CloseDetails[] = [];
  const [a, b] = await startedPair(
    { receive: (m) => atA.push(m), close: (d) => closesA.push(d) },
    { receive: (m) => atB.push(m), close: (d) => closesB.push(d) },
  );
  return { a, b, atA, atB, closesA, closesB };
}

describe("MemoryTransport", () => {
  test("messages travel both ways and arrive in the order they were sent", GUARD, async () => {
    const { a, b, atA, atB } = await recordedPair();
    for (let n = 1; n <= 5; n++) {
      await a.send(note(n));
      await b.send(note(10 + n));
    }
    await settle();
    assert.deepEqual(numbers(atB), [1, 2, 3, 4, 5]);
    assert.deepEqual(numbers(atA), [11, 12, 13, 14, 15]);
    await a.close();
  });

  test("the receiver gets the message itself, not a copy: request, response and error shapes pass unchanged", GUARD, async () => {
    const { a, b, atB } = await recordedPair();
    const sent: JsonRpcMessage[] = [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: 1, result: { tools: [] } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
    ];
    for (const message of sent) await a.send(message);
    await settle();
    assert.deepEqual(atB, sent);
    await b.close();
  });

  test("messages sent before start() are held and delivered, in order, at start", GUARD, async () => {
    const [a, b] = MemoryTransport.pair();
    const atB: JsonRpcMessage[] = [];
    b.onmessage = (m) => atB.push(m);
    await a.start();
    await a.send(note(1));
    await a.send(note(2));
    await settle();
    assert.deepEqual(atB, [], "nothing arrives before the receiver starts");
    await b.start();
    await a.send(note(3)); // sent after start: must come after the held ones
    await settle();
    assert.deepEqual(numbers(atB), [1, 2, 3]);
    await a.close();
  });

  test("close fires onclose on both ends exactly once, however many times either end closes", GUARD, async () => {
    const { a, b, closesA, closesB } = await recordedPair();
    await a.close();
    await a.close();
    await b.close();
    await settle();
    assert.deepEqual(closesA, [{ reason: "closed by this end" }]);
    assert.deepEqual(closesB, [{ reason: "closed by the other end" }]);
  });

  test("send after close rejects with TransportError code closed, from either end", GUARD, async () => {
    const { a, b } = await recordedPair();
    await b.close();
    for (const end of [a, b]) {
      await assert.rejects(end.send(note(1)), (error: unknown) => {
        assert.ok(error instanceof TransportError);
        assert.equal(error.code, "closed");
        assert.match(error.message, /^memory \((client|server) end\): cannot send/);
        return true;
      });
    }
  });

  test("a message sent just before the other end's close still arrives, before onclose", GUARD, async () => {
    const [a, b] = MemoryTransport.pair();
    const events: string[] = [];
    a.onmessage = (m) => events.push(`message ${String("method" in m ? m.params?.n : "?")}`);
    a.onclose = (d) => events.push(`close: ${d.reason}`);
    await a.start();
    await b.start();
    // A server's last answer, then it hangs up at once (same tick, before delivery).
    const sent = b.send(note(1));
    const closed = b.close();
    await Promise.all([sent, closed]);
    await settle();
    assert.deepEqual(events, ["message 1", "close: closed by the other end"]);
  });

  test("the end that closes receives nothing more", GUARD, async () => {
    const { a, b, atA } = await recordedPair();
    const sent = b.send(note(1)); // in flight when a closes, same tick
    const closed = a.close();
    await Promise.all([sent, closed]);
    await settle();
    assert.deepEqual(atA, []);
  });

  test("an onmessage handler that throws is reported through onerror and delivery goes on", GUARD, async () => {
    const [a, b] = MemoryTransport.pair();
    const received: unknown[] = [];
    const errors: Error[] = [];
    b.onmessage = (m) => {
      received.push("method" in m ? m.params?.n : undefined);
      if (received.length === 1) throw new Error("handler bug");
    };
    b.onerror = (error) => errors.push(error);
    await a.start();
    await b.start();
    await a.send(note(1));
    await a.send(note(2));
    await settle();
    assert.deepEqual(received, [1, 2]);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof TransportError);
    assert.equal(errors[0].code, "handler-threw");
    assert.match(errors[0].message, /^memory \(server end\): onmessage handler threw: handler bug/);
    await a.close();
  });

  test("each end's description says which end it is", () => {
    const [a, b] = MemoryTransport.pair();
    assert.equal(a.description, "memory (client end)");
    assert.equal(b.description, "memory (server end)");
  });
});
