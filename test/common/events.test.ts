// ContainedEventTarget: a listener that throws is reported through the emitter, never as an
// uncaught exception (Node) or a reported error on globalThis (Deno); the dispatch goes on.

import assert from "node:assert/strict";
import { test } from "node:test";
import { ContainedEventTarget, type ListenerFailure } from "../../src/common/events.ts";

type Events = { tick: { n: number }; problem: { message: string } };

class Ticker extends ContainedEventTarget<Events> {
  readonly failures: ListenerFailure[] = [];
  tick(n: number): void {
    this.emit("tick", { n });
  }
  protected override listenerFailed(failure: ListenerFailure): void {
    this.failures.push(failure);
    this.emit("problem", { message: `a "${failure.type}" listener threw: ${String(failure.error)}` });
  }
}

test("a throwing on() listener is reported as a problem and the next listener still runs", async () => {
  const ticker = new Ticker();
  const seen: number[] = [];
  const problems: string[] = [];
  ticker.on("tick", () => {
    throw new Error("listener bug");
  });
  ticker.on("tick", ({ n }) => seen.push(n));
  ticker.on("problem", ({ message }) => problems.push(message));
  ticker.tick(1);
  ticker.tick(2);
  // Give a runtime that would report the error asynchronously (Node's nextTick, Deno's
  // reportError) the chance to: the test runner fails the file if it does.
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(seen, [1, 2]);
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, /"tick" listener threw: Error: listener bug/);
});

test("plain addEventListener listeners and handleEvent objects are contained too, and can be removed", async () => {
  const ticker = new Ticker();
  let calls = 0;
  const throwing = () => {
    calls++;
    throw new TypeError("boom");
  };
  const object = {
    handleEvent() {
      calls++;
      throw new RangeError("object boom");
    },
  };
  ticker.addEventListener("tick", throwing);
  ticker.addEventListener("tick", object);
  ticker.tick(1);
  assert.equal(calls, 2);
  assert.deepEqual(ticker.failures.map((f) => (f.error as Error).name), ["TypeError", "RangeError"]);
  ticker.removeEventListener("tick", throwing);
  ticker.removeEventListener("tick", object);
  ticker.tick(2);
  assert.equal(calls, 2, "removed listeners are not called");
  await new Promise((resolve) => setTimeout(resolve, 20));
});

test("a problem listener that throws while a failure is reported does not loop", () => {
  const ticker = new Ticker();
  let problemCalls = 0;
  ticker.on("tick", () => {
    throw new Error("first");
  });
  ticker.on("problem", () => {
    problemCalls++;
    throw new Error("the reporter is broken too");
  });
  ticker.tick(1);
  assert.equal(problemCalls, 1);
  assert.equal(ticker.failures.length, 1);
});

test("the same listener for two types is called for each and removed per type", () => {
  const ticker = new Ticker();
  const types: string[] = [];
  const listener = (event: Event) => types.push(event.type);
  ticker.addEventListener("tick", listener);
  ticker.addEventListener("problem", listener);
  ticker.tick(1);
  ticker.removeEventListener("tick", listener);
  ticker.tick(2);
  (ticker as unknown as { emit(type: string, detail: unknown): void }).emit("problem", { message: "x" });
  assert.deepEqual(types, ["tick", "problem"]);
});

test("once listeners fire once", () => {
  const ticker = new Ticker();
  let calls = 0;
  ticker.addEventListener("tick", () => calls++, { once: true });
  ticker.tick(1);
  ticker.tick(2);
  assert.equal(calls, 1);
});
