// Tests for the blocking worker behind the sync bridge (src/registry/blocking-worker.ts): a
// caller that blocks on Atomics.wait until a worker thread answers, against a small test worker
// (test/fixtures/bridge-test-worker.ts) that echoes, hangs, and dies in the ways a worker can.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { serveSyncWorker, SyncWorker, type SyncWorkerOptions } from "../../src/registry/blocking-worker.ts";
import { SyncBridgeError } from "../../src/registry/registry-errors.ts";

const GUARD = { timeout: 20_000 };
const testWorker = new URL("../fixtures/bridge-test-worker.ts", import.meta.url);

const started: SyncWorker[] = [];
function startWorker(options: SyncWorkerOptions = {}): SyncWorker {
  const worker = SyncWorker.start(testWorker, { label: "test worker", ...options });
  started.push(worker);
  return worker;
}
after(() => {
  for (const worker of started) worker.close();
});

/** A plain synchronous function, as a host's synchronous plugin code would be. */
function echoMany(worker: SyncWorker, count: number): unknown[] {
  const replies: unknown[] = [];
  for (let n = 0; n < count; n++) {
    const outcome = worker.call({ op: "echo", value: { n, text: `call ${n}` } }, { timeoutMs: 10_000 });
    replies.push(outcome.kind === "reply" ? outcome.value : outcome);
  }
  return replies;
}

// One worker serves every test that leaves it alive: under Deno each worker start type-checks
// the worker's module graph, which costs seconds.
describe("a live SyncWorker", () => {
  let worker: SyncWorker;
  before(() => {
    worker = startWorker();
  });

  test("a synchronous loop of calls gets each call's own reply, in order", GUARD, () => {
    const replies = echoMany(worker, 200);
    assert.deepEqual(replies, Array.from({ length: 200 }, (_, n) => ({ n, text: `call ${n}` })));
  });

  test("a reply of megabytes comes back whole, and small calls after it still work", GUARD, () => {
    for (const chars of [1, 100_000, 3_000_000]) {
      const outcome = worker.call({ op: "big", chars }, { timeoutMs: 10_000 });
      assert.equal(outcome.kind, "reply");
      const text = (outcome as { value: string }).value;
      assert.equal(text.length, chars);
      assert.equal(text, "é".repeat(chars));
    }
    assert.deepEqual(echoMany(worker, 3), [0, 1, 2].map((n) => ({ n, text: `call ${n}` })));
  });

  test("string replies come back exact at every size around the shared reply slot's 64 KiB, multi-byte characters at its edge included", GUARD, () => {
    const slot = 64 * 1024;
    const values = [
      "",
      "x",
      "é😀漢",
      "x".repeat(slot - 1),
      "x".repeat(slot),
      "x".repeat(slot + 1),
      "é".repeat(slot / 2 - 1),
      "é".repeat(slot / 2),
      "é".repeat(slot / 2 + 1),
      "x".repeat(slot - 2) + "😀",
      "x".repeat(slot - 3) + "😀",
      "x".repeat(slot - 4) + "😀",
    ];
    for (const value of values) {
      const outcome = worker.call({ op: "echo", value }, { timeoutMs: 10_000 });
      assert.equal(outcome.kind, "reply");
      assert.equal((outcome as { value: string }).value === value, true, `a string of ${value.length} UTF-16 units`);
      // Each is followed by a small one: a large reply (through the port) never leaves a stale slot.
      assert.deepEqual(worker.call({ op: "echo", value: "after" }, { timeoutMs: 10_000 }), { kind: "reply", value: "after" });
    }
  });

  test("a reply that never comes times out naming the limit, the worker's call is cancelled, and the next call works", GUARD, () => {
    const outcome = worker.call({ op: "hang" }, { timeoutMs: 300, cancelReason: "gave up after 300 ms (test limit)" });
    assert.deepEqual(outcome, { kind: "timeout", timeoutMs: 300 });
    assert.deepEqual(worker.call({ op: "echo", value: "next" }, { timeoutMs: 10_000 }), { kind: "reply", value: "next" });
    assert.deepEqual(worker.call({ op: "cancellations" }, { timeoutMs: 10_000 }), {
      kind: "reply",
      value: ["gave up after 300 ms (test limit)"],
    });
    assert.equal(worker.alive, true);
  });

  test("calls that end uncancelled may share their signal; a cancelled call's aborted signal is never handed to a later call", GUARD, () => {
    const signalOf = () => {
      const outcome = worker.call({ op: "signal" }, { timeoutMs: 10_000 });
      assert.equal(outcome.kind, "reply");
      return (outcome as { value: { id: number; aborted: boolean } }).value;
    };
    const first = signalOf();
    assert.deepEqual(signalOf(), first, "an uncancelled call's controller is reused");
    assert.equal(first.aborted, false);
    assert.equal(worker.call({ op: "slow", ms: 200, value: "late" }, { timeoutMs: 20 }).kind, "timeout");
    const after = signalOf();
    assert.equal(after.aborted, false);
    assert.notEqual(after.id, first.id, "the timed-out call held the shared controller and was aborted: a new one is made");
    assert.deepEqual(signalOf(), after);
  });

  test("the late reply of a call that timed out is never taken for a later call's reply", GUARD, () => {
    assert.equal(worker.call({ op: "slow", ms: 300, value: "late" }, { timeoutMs: 20 }).kind, "timeout");
    // Answered before the late reply arrives…
    assert.deepEqual(worker.call({ op: "echo", value: "next" }, { timeoutMs: 10_000 }), { kind: "reply", value: "next" });
    // …and this one is waiting while it arrives.
    assert.deepEqual(worker.call({ op: "slow", ms: 600, value: "third" }, { timeoutMs: 10_000 }), { kind: "reply", value: "third" });
    assert.deepEqual(worker.call({ op: "echo", value: "fourth" }, { timeoutMs: 10_000 }), { kind: "reply", value: "fourth" });
  });

  test("a service that throws gives a failed outcome with its message, and the worker stays usable", GUARD, () => {
    assert.deepEqual(worker.call({ op: "throw", message: "no such thing" }, { timeoutMs: 10_000 }), {
      kind: "failed",
      message: "no such thing",
    });
    const uncloneable = worker.call({ op: "uncloneable" }, { timeoutMs: 10_000 });
    assert.equal(uncloneable.kind, "failed");
    assert.match((uncloneable as { message: string }).message, /reply could not be passed back/);
    assert.deepEqual(worker.call({ op: "echo", value: 1 }, { timeoutMs: 10_000 }), { kind: "reply", value: 1 });
  });

  test("a call whose body cannot be cloned fails without reaching the worker", GUARD, () => {
    const outcome = worker.call({ op: "echo", value: () => 1 }, { timeoutMs: 10_000 });
    assert.equal(outcome.kind, "failed");
    assert.match((outcome as { message: string }).message, /could not be passed to the worker/);
    assert.deepEqual(worker.call({ op: "echo", value: 2 }, { timeoutMs: 10_000 }), { kind: "reply", value: 2 });
  });

  test("after close() every call returns closed at once; close() again is harmless", GUARD, () => {
    assert.deepEqual(worker.close(), { kind: "reply", value: undefined });
    assert.equal(worker.alive, false);
    assert.deepEqual(worker.call({ op: "echo", value: 1 }, { timeoutMs: 60_000 }), { kind: "closed" });
    assert.deepEqual(worker.close(), { kind: "closed" });
  });
});

describe("a SyncWorker that dies or does not start", () => {
  for (
    const [op, why] of [
      ["crash", /crashed: .*the test worker crashed on purpose/],
      ["reject", /crashed: .*an unhandled rejection on purpose/],
      ["exit", /exited/],
    ] as const
  ) {
    test(`a worker that dies while a call waits (${op}) ends the call with why, and later calls say so at once`, GUARD, () => {
      const worker = startWorker();
      const outcome = worker.call({ op }, { timeoutMs: 60_000 });
      assert.equal(outcome.kind, "ended");
      assert.match((outcome as { message: string }).message, why);
      assert.equal(worker.alive, false);
      const later = worker.call({ op: "echo", value: 1 }, { timeoutMs: 60_000 });
      assert.equal(later.kind, "ended");
    });
  }

  test("a worker whose event loop stops (no hook runs) is declared dead after silenceLimitMs, not at the call's timeout", GUARD, () => {
    const worker = startWorker({ silenceLimitMs: 500 });
    const outcome = worker.call({ op: "stall" }, { timeoutMs: 60_000 });
    assert.equal(outcome.kind, "ended");
    assert.match((outcome as { message: string }).message, /no heartbeat for 500 ms/);
    assert.equal(worker.call({ op: "echo", value: 1 }, { timeoutMs: 60_000 }).kind, "ended");
  });

  test("a start() that throws makes start throw a SyncBridgeError with its message", GUARD, () => {
    assert.throws(
      () => startWorker({ data: { failStart: "config file is missing" } }),
      (error: unknown) => error instanceof SyncBridgeError && /^test worker could not start: config file is missing$/.test(error.message),
    );
  });

  test("a start() slower than startTimeoutMs makes start throw naming the limit", GUARD, () => {
    assert.throws(
      () => startWorker({ data: { startDelayMs: 5_000 }, startTimeoutMs: 300 }),
      (error: unknown) => error instanceof SyncBridgeError && /did not start within 300 ms \(startTimeoutMs\)/.test(error.message),
    );
  });

  test("serveSyncWorker outside a worker started by SyncWorker.start throws", () => {
    assert.throws(() => serveSyncWorker({ call: () => 1 }), SyncBridgeError);
  });
});
