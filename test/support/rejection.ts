// Test helper: the error a promise rejects with; the test fails if it resolves instead.

import assert from "node:assert/strict";

export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, `rejected with a non-Error: ${String(error)}`);
    return error;
  }
  assert.fail("expected a rejection, but the promise resolved");
}
