// Test helper: the method log test/fixtures/initialize-first-server.mjs writes with `--log <path>`
// (one JSON-RPC method a line, as it receives them), read back, and a scratch file for it.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The methods logged to `path` so far, in order; none while the fixture has not written the file. */
export function loggedMethods(path: string): string[] {
  try {
    return readFileSync(path, "utf8").split("\n").filter((line) => line !== "");
  } catch {
    return [];
  }
}

/** A scratch file (in a temporary folder named with `prefix`) to log to, its reader, and its removal. */
export function methodLog(prefix: string): { path: string; methods(): string[]; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, "methods.log");
  return {
    path,
    methods: () => loggedMethods(path),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
