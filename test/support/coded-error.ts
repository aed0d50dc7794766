// Test helpers for the error model (docs/errors.md): an error is an McpwireError of a class,
// named as its class, with a code; and what a function threw.

import assert from "node:assert/strict";
import { McpwireError } from "../../src/common/mcpwire-error.ts";

/** Asserts `error` is an McpwireError of class `type`, named as its class, with `code`; returns it as that type. */
export function coded<T extends McpwireError>(error: unknown, type: abstract new (...args: never[]) => T, code: string): T {
  assert.ok(error instanceof McpwireError, `not an McpwireError: ${String(error)}`);
  assert.ok(error instanceof type, `not a ${type.name}: ${String(error)}`);
  assert.equal(error.name, type.name);
  assert.equal(error.code, code, String(error));
  return error;
}

/** What `run` threw; fails the test if it returned. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return assert.fail("returned, expected a throw");
}
