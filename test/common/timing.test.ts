// Tests for the bounded waits every layer shares — src/common/timing.ts: sleep (a pause a signal
// can end), within (did a promise settle in time) and withTimeout (the promise, or an error).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sleep, within, withTimeout } from "../../src/common/timing.ts";

const never = new Promise<never>(() => {});

describe("sleep", () => {
  test("resolves after the pause", async () => {
    assert.equal(await sleep(1), undefined);
  });

  test("rejects with the signal's reason: aborted before, or while it waits", async () => {
    const reason = new Error("stop");
    await assert.rejects(sleep(10_000, AbortSignal.abort(reason)), (error) => error === reason);
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(reason);
    await assert.rejects(waiting, (error) => error === reason);
  });

  test("a pause that ends leaves no listener on the signal (a later abort does nothing)", async () => {
    const controller = new AbortController();
    await sleep(1, controller.signal);
    controller.abort(new Error("late"));
  });
});

describe("within", () => {
  test("true when the promise settles in time, either way; false when it does not", async () => {
    assert.equal(await within(Promise.resolve(1), 10_000), true);
    assert.equal(await within(Promise.reject(new Error("no")), 10_000), true);
    assert.equal(await within(never, 1), false);
  });
});

describe("withTimeout", () => {
  test("passes the value and the rejection through when they come in time", async () => {
    assert.equal(await withTimeout(Promise.resolve("v"), 10_000, () => new Error("late")), "v");
    const failure = new Error("failed");
    await assert.rejects(withTimeout(Promise.reject(failure), 10_000, () => new Error("late")), (error) => error === failure);
  });

  test("rejects with onTimeout()'s error when the time passes first", async () => {
    const late = new Error("late");
    await assert.rejects(withTimeout(never, 1, () => late), (error) => error === late);
  });

  test("a limit setTimeout cannot hold (2^31 - 1 ms or more, Infinity) is no bound: the promise itself", () => {
    const promise = Promise.resolve(1);
    assert.equal(withTimeout(promise, Infinity, () => new Error("late")), promise);
    assert.equal(withTimeout(promise, 2 ** 31 - 1, () => new Error("late")), promise);
  });
});
