// The listen stream's life (open, re-open on a new filter, backoff after a break, stop) and
// the freshness of cached results — spec 2026-07-28 basic/patterns/subscriptions,
// server/utilities/caching.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ResultCache, ttlOf } from "../../src/client/result-cache.ts";
import { ListenStream, missingFromAcknowledgment, type NotificationFilter } from "../../src/client/subscriptions.ts";

/** Waits until `check` holds, polling; a hang guard, not a timing assertion. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never: ${what}`);
}

describe("ListenStream", () => {
  test("a broken stream is opened again after a pause, reported each time; stop() ends it for good", async () => {
    const opened: NotificationFilter[] = [];
    const problems: string[] = [];
    let hang: ((value: Record<string, unknown>) => void) | undefined;
    const stream = new ListenStream({
      name: 'server "s"',
      initialDelayMs: 1,
      maxDelayMs: 5,
      onProblem: (message) => problems.push(message),
      open: (filter, signal) => {
        opened.push(filter);
        if (opened.length <= 2) return Promise.reject(new Error(`stream broke #${opened.length}`));
        return new Promise((resolve, reject) => {
          hang = resolve;
          signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
        });
      },
    });
    stream.update({ toolsListChanged: true });
    await until(() => opened.length === 3, "the third open");
    assert.equal(problems.length, 2);
    assert.match(problems[0]!, /server "s": the subscriptions\/listen stream ended \(stream broke #1\); listening again in/);
    await stream.stop();
    assert.ok(hang !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(opened.length, 3, "nothing is opened after stop()");
  });

  test("a new filter cancels the open stream and opens one with the new filter at once; an empty one closes it", async () => {
    const opened: NotificationFilter[] = [];
    const aborted: NotificationFilter[] = [];
    const stream = new ListenStream({
      name: "s",
      onProblem: () => {},
      open: (filter, signal) => {
        opened.push(filter);
        return new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborted.push(filter);
            reject(new Error("cancelled"));
          }, { once: true });
        });
      },
    });
    stream.update({ toolsListChanged: true });
    await until(() => opened.length === 1, "the first open");
    stream.update({ toolsListChanged: true }); // the same filter: nothing happens
    stream.update({ toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    await until(() => opened.length === 2, "the re-open");
    assert.deepEqual(opened[1], { toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    assert.deepEqual(aborted, [{ toolsListChanged: true }]);
    stream.update({});
    await until(() => aborted.length === 2, "the close");
    await stream.stop();
    assert.equal(opened.length, 2);
  });

  test("what an acknowledgment left out is named", () => {
    const asked = { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a", "file:///b"] };
    assert.deepEqual(missingFromAcknowledgment(asked, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] }), [
      "promptsListChanged",
      "resourceSubscriptions file:///b",
    ]);
    assert.deepEqual(missingFromAcknowledgment(asked, asked), []);
  });
});

describe("ResultCache", () => {
  test("a result is fresh for ttlMs after it arrived, then gone; ttl 0, absent or negative keeps nothing", () => {
    let now = 1000;
    const cache = new ResultCache(() => now);
    cache.set("tools/list", ["a"], ttlOf({ ttlMs: 500 }));
    now = 1499;
    assert.deepEqual(cache.get("tools/list"), ["a"]);
    now = 1500;
    assert.equal(cache.get("tools/list"), undefined, "now < t_received + ttlMs is the rule");
    for (const result of [{ ttlMs: 0 }, {}, { ttlMs: -5 }, { ttlMs: "60" }]) {
      cache.set("x", 1, ttlOf(result));
      assert.equal(cache.get("x"), undefined, JSON.stringify(result));
    }
  });

  test("delete makes an entry stale at once (a list_changed notification)", () => {
    const cache = new ResultCache();
    cache.set("prompts/list", [], 60_000);
    cache.delete("prompts/list");
    assert.equal(cache.get("prompts/list"), undefined);
  });
});
