// Test helper: the error a promise rejects with; the test fails if it resolves instead (or,
// for rpcRejection, if it rejects with anything but a JSON-RPC error).

import assert from "node:assert/strict";
import { RpcError } from "../../src/mod.ts";

export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, `rejected with a non-Error: ${String(error)}`);
    return error;
  }
  assert.fail("expected a rejection, but the promise resolved");
}

/** The RpcError a promise rejects with; fails the test if it resolves or rejects otherwise. */
export async function rpcRejection(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof RpcError, `expected an RpcError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected a rejection, but the promise resolved");
}
