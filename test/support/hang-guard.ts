// Test helper: a promise raced against a timer, so a hung test fails naming what hung
// instead of hanging the run.

import "./test-env.ts"; // the era cache off (test-env.ts)
import assert from "node:assert/strict";

/** Rejects if the promise has not settled within ms: a hung test fails instead of hanging. */
export async function hangGuard<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang guard: ${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error a promise rejects with (within a hang guard); fails the test if it resolves. */
export async function guardedRejection(promise: Promise<unknown>, what: string, ms = 15_000): Promise<Error> {
  try {
    await hangGuard(promise, ms, what);
  } catch (error) {
    assert.ok(error instanceof Error, `rejected with a non-Error: ${String(error)}`);
    assert.doesNotMatch(error.message, /^hang guard/);
    return error;
  }
  assert.fail(`${what} resolved`);
}
