// Retry-After as a busy server gives it: delay-seconds or an HTTP-date — RFC 9110 10.2.3;
// src/transport/retry-after.ts.

import assert from "node:assert/strict";
import { test } from "node:test";
import { isBusyStatus, retryAfterMs, retryWhen } from "../../src/transport/retry-after.ts";

const NOW = Date.parse("2026-12-03T10:00:00Z");

test("Retry-After in seconds is that many seconds", () => {
  assert.equal(retryAfterMs(new Headers({ "Retry-After": "120" }), NOW), 120_000);
  assert.equal(retryAfterMs(new Headers({ "Retry-After": " 0 " }), NOW), 0);
});

test("Retry-After as an HTTP-date is the time until then, and 0 for a date past", () => {
  assert.equal(retryAfterMs(new Headers({ "Retry-After": "Thu, 03 Dec 2026 10:00:30 GMT" }), NOW), 30_000);
  assert.equal(retryAfterMs(new Headers({ "Retry-After": "Thu, 03 Dec 2026 09:59:00 GMT" }), NOW), 0);
});

test("a missing or unreadable Retry-After is undefined, not a wait", () => {
  assert.equal(retryAfterMs(new Headers(), NOW), undefined);
  assert.equal(retryAfterMs(new Headers({ "Retry-After": "soon" }), NOW), undefined);
  assert.equal(retryAfterMs(new Headers({ "Retry-After": "-5" }), NOW), undefined);
  assert.equal(retryAfterMs(new Headers({ "Retry-After": "1.5" }), NOW), undefined);
});

test("only 429 and 503 are a busy server; the message says when, as a duration and a UTC time", () => {
  assert.deepEqual([429, 503, 500, 502, 404].map(isBusyStatus), [true, true, false, false, false]);
  assert.equal(retryWhen(90_000, NOW), "after 90 s (at 2026-12-03T10:01:30Z)");
  assert.equal(retryWhen(500, NOW), "after 500 ms (at 2026-12-03T10:00:00Z)");
});
