// Test helper: one test that runs under Node's node:test and under Deno with the op and
// resource sanitizers on, so a pipe, child process or timer left behind fails it (Deno 2's
// node:test runs no sanitizers, and Deno.test runs them only when asked).

import { test } from "node:test";

/** The part of Deno's test API these tests use. */
export interface DenoTestApi {
  test(definition: { name: string; fn: () => Promise<void>; ignore?: boolean; sanitizeOps?: boolean; sanitizeResources?: boolean }): void;
}

/** Deno's test API when running under Deno, else undefined. */
export const deno: DenoTestApi | undefined = (globalThis as { Deno?: DenoTestApi }).Deno;

/** Registers one test; `skip` (a reason) skips it under both runtimes. */
export function behaviour(name: string, body: () => Promise<void>, options: { skip?: string | false } = {}): void {
  if (deno) deno.test({ name, fn: body, ignore: Boolean(options.skip), sanitizeOps: true, sanitizeResources: true });
  else test(name, { skip: options.skip }, body);
}
