// runtime.readTextFile reads only a regular file of bounded size (src/runtime/types.ts): a FIFO
// (opening one blocks until a writer comes: a repository holding a FIFO named mcpwire.yaml hung
// the CLI) and a device fail at once with `ENOTREG`, a directory with `EISDIR`, a file over
// MAX_TEXT_FILE_BYTES with `EFBIG`, under Node and Deno alike.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FileError, MAX_TEXT_FILE_BYTES } from "../../src/runtime/errors.ts";
import { runtime } from "../../src/runtime/mod.ts";
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

test("strict: bytes that are not UTF-8 are EILSEQ naming the first and its line, not U+FFFD; a BOM and UTF-8 are kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-text-file-"));
  try {
    const latin1 = join(dir, "latin1.yaml");
    writeFileSync(latin1, new Uint8Array([...new TextEncoder().encode("a: 1\n# caf"), 0xe9, 0x0a]));
    assert.equal(await runtime.readTextFile(latin1), "a: 1\n# caf\ufffd\n", "without strict: U+FFFD, as before");
    await assert.rejects(
      runtime.readTextFile(latin1, { strict: true }),
      (error: unknown) => error instanceof FileError && error.code === "EILSEQ" && error.message === `${latin1} is not UTF-8: byte 0xE9 at line 2`,
    );
    const utf8 = join(dir, "utf8.yaml");
    writeFileSync(utf8, "\ufeff# café ✓ 𝄞\n");
    assert.equal(await runtime.readTextFile(utf8, { strict: true }), "\ufeff# café ✓ 𝄞\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
