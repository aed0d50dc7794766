// The reconnect delay schedule: 1 s doubling to 60 s, ±20 % jitter, with an injected random.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { backoffBase, backoffDelay } from "../../src/host/servers/backoff.ts";

const middle = () => 0.5; // factor exactly 1

describe("backoff schedule", () => {
  test("without jitter the delays are 1 s doubling up to 60 s, then stay at 60 s", () => {
    const delays = Array.from({ length: 10 }, (_, i) => backoffDelay(i + 1, { random: middle }));
    assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000]);
  });

  test("a very late attempt is still capped (no Infinity, no NaN)", () => {
    assert.equal(backoffBase(5000), 60_000);
    assert.equal(backoffDelay(5000, { random: middle }), 60_000);
  });

  test("jitter spreads each delay by at most ±20 %", () => {
    assert.equal(backoffDelay(1, { random: () => 0 }), 800);
    assert.equal(backoffDelay(1, { random: () => 0.999999 }), 1200);
    assert.equal(backoffDelay(3, { random: () => 0 }), 3200);
    assert.equal(backoffDelay(7, { random: () => 0 }), 48_000);
    assert.equal(backoffDelay(7, { random: () => 0.999999 }), 72_000);
  });

  test("with the real random every delay lies within ±20 % of its base", () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      const base = backoffBase(attempt);
      for (let i = 0; i < 200; i++) {
        const delay = backoffDelay(attempt);
        assert.ok(delay >= base * 0.8 && delay <= base * 1.2, `attempt ${attempt}: ${delay} outside ${base} ±20 %`);
      }
    }
  });

  test("jitter actually varies the delays", () => {
    const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(4)));
    assert.ok(seen.size > 1);
  });

  test("initial, cap and jitter are configurable (tests use milliseconds)", () => {
    const options = { initialMs: 10, maxMs: 35, jitter: 0, random: () => 0.9 };
    assert.deepEqual([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, options)), [10, 20, 35, 35]);
  });

  test("attempt 0 or less is treated as the first attempt", () => {
    assert.equal(backoffBase(0), 1000);
    assert.equal(backoffBase(-3), 1000);
  });
});
