// runtime.readTextFile reads only a regular file of bounded size (src/runtime/types.ts): a FIFO
// (opening one blocks until a writer comes: a repository holding a FIFO named mcpwire.yaml hung
// the CLI) and a device fail at once with `ENOTREG`, a directory with `EISDIR`, a file over
// MAX_TEXT_FILE_BYTES with `EFBIG`, under Node and Deno alike.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runtime } from "../../src/runtime/mod.ts";
import { FileError, MAX_TEXT_FILE_BYTES } from "../../src/runtime/errors.ts";
import { hangGuard } from "../support/hang-guard.ts";

/** Whether mkfifo(1) runs here. */
function canMakeFifo(): boolean {
  try {
    execFileSync("mkfifo", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

test("a regular file is read whole", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-text-file-"));
  try {
    writeFileSync(join(dir, "a.yaml"), "servers: {}\n");
    assert.equal(await runtime.readTextFile(join(dir, "a.yaml")), "servers: {}\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  "a FIFO and a device fail at once with ENOTREG, a directory with EISDIR, naming the path",
  { skip: !canMakeFifo() && "mkfifo is not installed" },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpwire-text-file-"));
    try {
      const fifo = join(dir, "mcpwire.yaml");
      execFileSync("mkfifo", [fifo]);
      for (const path of [fifo, "/dev/zero"]) {
        await assert.rejects(
          hangGuard(runtime.readTextFile(path), 5_000, `readTextFile ${path}`),
          (error: unknown) => error instanceof FileError && error.code === "ENOTREG" && error.path === path && /is not a regular file/.test(error.message),
        );
      }
      await assert.rejects(runtime.readTextFile(dir), (error: unknown) => error instanceof FileError && error.code === "EISDIR" && error.path === dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("a file over MAX_TEXT_FILE_BYTES fails with EFBIG before it is read", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-text-file-"));
  try {
    const big = join(dir, "big.jsonl");
    writeFileSync(big, "");
    truncateSync(big, MAX_TEXT_FILE_BYTES + 1); // sparse: no disk, no memory
    await assert.rejects(runtime.readTextFile(big), (error: unknown) => error instanceof FileError && error.code === "EFBIG" && error.path === big);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
