// host/store/file-lock.ts: an inter-process lock of a file (`<file>.lock`, made with O_EXCL), and the
// tool pins' read-change-write under it (host/store/pin-lock-file.ts). Without the lock, two processes
// pinning servers in one mcpwire.lock.json lost each other's pins (last write wins), and a server
// whose pins were lost is "first seen" again: a changed tool would be pinned, not held.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { withFileLock } from "../../src/host/store/file-lock.ts";
import { FileError } from "../../src/runtime/errors.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { hangGuard } from "../support/hang-guard.ts";

const WRITER = fileURLToPath(new URL("../fixtures/pin-writer.ts", import.meta.url));
const DENO = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url));
const isDeno = "Deno" in globalThis;

function scratch(): string {
  return mkdtempSync(join(tmpdir(), "mcpwire-file-lock-"));
}

test("concurrent read-change-writes under the lock lose nothing", async () => {
  const dir = scratch();
  try {
    const file = join(dir, "counter.txt");
    writeFileSync(file, "0");
    const bump = () =>
      withFileLock(file, async () => {
        const value = Number(await runtime.readTextFile(file));
        await new Promise((resolve) => setTimeout(resolve, 1)); // another writer would slip in here
        await runtime.writePrivateFile(file, String(value + 1));
      });
    await hangGuard(Promise.all(Array.from({ length: 12 }, bump)), 30_000, "12 bumps");
    assert.equal(readFileSync(file, "utf8"), "12");
    assert.equal(existsSync(`${file}.lock`), false, "the lock is removed after the work");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the directory of the locked file keeps its mode: it is the user's (a project), only the lock is private", {
  skip: process.platform === "win32" && "no POSIX modes",
}, async () => {
  const dir = scratch();
  try {
    const project = join(dir, "project");
    mkdirSync(project);
    chmodSync(project, 0o755);
    const file = join(project, "mcpwire.lock.json");
    const lockMode = await withFileLock(file, async () => {
      await runtime.writePrivateFile(file, "{}");
      return statSync(`${file}.lock`).mode & 0o777;
    });
    assert.equal(lockMode, 0o600, "the lock file is private");
    assert.equal(statSync(project).mode & 0o777, 0o755, "the project directory was not chmod'ed");
    // A directory that does not exist yet is made by mcpwire, owner-only.
    const made = join(dir, "state", "mcpwire", "pins.json");
    await withFileLock(made, () => Promise.resolve());
    assert.equal(statSync(join(dir, "state", "mcpwire")).mode & 0o777, 0o700);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the lock is released when the work throws", async () => {
  const dir = scratch();
  try {
    const file = join(dir, "x.json");
    await assert.rejects(withFileLock(file, () => Promise.reject(new Error("boom"))), /boom/);
    assert.equal(existsSync(`${file}.lock`), false);
    assert.equal(await withFileLock(file, () => Promise.resolve(7)), 7);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a lock held by another fails with EBUSY after the wait, naming the lock and what to do; a stale one is taken over", async () => {
  const dir = scratch();
  try {
    const file = join(dir, "mcpwire.lock.json");
    writeFileSync(`${file}.lock`, "held\n");
    await assert.rejects(
      withFileLock(file, () => Promise.resolve(1), { waitMs: 100 }),
      (error: unknown) =>
        error instanceof FileError && error.code === "EBUSY" && error.path === `${file}.lock` &&
        /held the lock .*mcpwire\.lock\.json\.lock for over 100 ms; try again, or remove the file if no mcpwire is running/.test(error.message),
    );
    // Left by a process that died holding it: older than the stale age.
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    assert.equal(await hangGuard(withFileLock(file, () => Promise.resolve("taken over"), { waitMs: 100 }), 5_000, "stale lock"), "taken over");
    assert.equal(existsSync(`${file}.lock`), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs the pin writer to its end; rejects with its stderr when it fails. */
function pinWriter(file: string, prefix: string, count: number): Promise<void> {
  const [command, args] = isDeno ? [DENO, ["run", "-A", WRITER]] : [process.execPath, ["--import", "tsx", WRITER]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, file, prefix, String(count)], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`pin writer ${prefix} exited ${code}: ${stderr}`))));
  });
}

test("two processes pinning servers in one lock file at once: every server's pins are kept", async () => {
  const dir = scratch();
  try {
    const file = join(dir, "mcpwire.lock.json");
    await hangGuard(Promise.all([pinWriter(file, "a", 30), pinWriter(file, "b", 30)]), 60_000, "two pin writers");
    const data = JSON.parse(readFileSync(file, "utf8")) as { servers: { name: string }[] };
    const names = data.servers.map((server) => server.name).sort();
    assert.equal(names.length, 60, `kept ${names.length} of 60: ${names.join(" ")}`);
    assert.equal(existsSync(`${file}.lock`), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
