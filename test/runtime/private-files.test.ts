// runtime.writePrivateFile and makePrivateDirectory make the missing directories a level at a
// time (mode 0700), and fail with the OS's reason where a directory cannot be made — also under
// /proc, where Node 20's recursive mkdir never settled (a --trace-file there hung the CLI).

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FileError } from "../../src/runtime/errors.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { hasProc } from "../support/processes.ts";

test("a private file in directories that do not exist yet: they are made 0700, the file 0600", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-private-"));
  try {
    const file = join(dir, "a", "b", "t.txt");
    await runtime.writePrivateFile(file, "hello");
    assert.equal(readFileSync(file, "utf8"), "hello");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, "a")).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, "a", "b")).mode & 0o777, 0o700);
    await runtime.makePrivateDirectory(join(dir, "a", "b")); // an existing one is fine
    await runtime.makePrivateDirectory(join(dir, "c", "d"));
    assert.equal(statSync(join(dir, "c", "d")).mode & 0o777, 0o700);
    await assert.rejects(runtime.makePrivateDirectory(file), (error: unknown) => error instanceof FileError, "a file where a directory should be");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a file under /proc fails at once with the OS's reason instead of hanging", { skip: !hasProc && "needs /proc" }, async () => {
  await assert.rejects(
    hangGuard(runtime.writePrivateFile("/proc/mcpwire-no-such-dir/t.jsonl", "x"), 5_000, "writePrivateFile under /proc"),
    (error: unknown) => error instanceof FileError && error.code === "ENOENT" && error.path === "/proc/mcpwire-no-such-dir/t.jsonl",
  );
});
