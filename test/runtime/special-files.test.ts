// runtime.writePrivateFile and openPrivateLog replace only a regular file (runtime/special-file.ts):
// a FIFO or a character device is written as it is, never renamed over (as root, `--trace-file
// /dev/null` once replaced /dev/null with a regular file); a symbolic link is written through to
// its target and stays a link; a directory or a socket is refused, naming why; a FIFO nobody
// reads fails after a bounded wait instead of hanging. Real FIFOs (mkfifo) and, as root, a real
// character device (mknod c 1 3: the null device) in a temporary directory.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { FileError } from "../../src/runtime/errors.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { hangGuard } from "../support/hang-guard.ts";

const POSIX = process.platform !== "win32";
const canMkfifo = POSIX && spawnSync("mkfifo", ["--help"]).error === undefined;
/** mknod of a character device needs root (CAP_MKNOD); elsewhere those tests skip, saying so. */
const canMknod = POSIX && process.getuid?.() === 0;

function scratch(): string {
  return mkdtempSync(join(tmpdir(), "mcpwire-special-"));
}

function mkfifo(path: string): void {
  const made = spawnSync("mkfifo", [path]);
  assert.equal(made.status, 0, String(made.stderr));
}

/** A null device made in `dir` (major 1, minor 3, as /dev/null). */
function mknodNull(dir: string): string {
  const path = join(dir, "null-device");
  const made = spawnSync("mknod", [path, "c", "1", "3"]);
  assert.equal(made.status, 0, String(made.stderr));
  return path;
}

/** A reader of the FIFO (`cat`): everything it read, once the writer closed it. */
function readFifo(path: string): Promise<string> {
  const cat = spawn("cat", [path], { stdio: ["ignore", "pipe", "inherit"] });
  let text = "";
  cat.stdout.setEncoding("utf8");
  cat.stdout.on("data", (chunk: string) => (text += chunk));
  return new Promise((resolve) => cat.on("close", () => resolve(text)));
}

test("a FIFO is written as it is: its reader gets the text, and it stays a FIFO", { skip: !canMkfifo && "needs mkfifo" }, async () => {
  const dir = scratch();
  try {
    const fifo = join(dir, "pipe");
    mkfifo(fifo);
    const read = readFifo(fifo);
    const big = "x".repeat(200_000) + "\n"; // more than a pipe holds: written as the reader takes it
    await hangGuard(runtime.writePrivateFile(fifo, big), 20_000, "writePrivateFile to a FIFO");
    assert.equal(await hangGuard(read, 20_000, "the reader"), big);
    assert.ok(lstatSync(fifo).isFIFO(), "still a FIFO");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a trace log on a FIFO: each append reaches the reader, nothing replaces the FIFO", { skip: !canMkfifo && "needs mkfifo" }, async () => {
  const dir = scratch();
  try {
    const fifo = join(dir, "trace");
    mkfifo(fifo);
    const read = readFifo(fifo);
    const log = await hangGuard(runtime.openPrivateLog(fifo), 20_000, "openPrivateLog on a FIFO");
    log.append("one\n");
    log.append("two\n");
    log.close();
    assert.equal(await hangGuard(read, 20_000, "the reader"), "one\ntwo\n");
    assert.ok(lstatSync(fifo).isFIFO(), "still a FIFO");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a FIFO nobody reads fails after a bounded wait (ENXIO), naming it and what to do", { skip: !canMkfifo && "needs mkfifo", timeout: 30_000 }, async () => {
  const dir = scratch();
  try {
    const fifo = join(dir, "nobody");
    mkfifo(fifo);
    await assert.rejects(
      hangGuard(runtime.openPrivateLog(fifo), 30_000, "openPrivateLog on a FIFO with no reader"),
      (error: unknown) => error instanceof FileError && error.code === "ENXIO" && error.message.includes(fifo) && /start its reader/.test(error.message),
    );
    assert.ok(lstatSync(fifo).isFIFO(), "still a FIFO");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a character device is written as it is, never replaced by a regular file", { skip: !canMknod && "mknod of a character device needs root" }, async () => {
  const dir = scratch();
  try {
    const device = mknodNull(dir);
    await runtime.writePrivateFile(device, "into the null device\n");
    const log = await runtime.openPrivateLog(device);
    log.append("a trace line\n");
    log.close();
    const info = lstatSync(device);
    assert.ok(info.isCharacterDevice(), "still a character device");
    assert.equal(info.mode & 0o777, statSync(device).mode & 0o777);
    assert.equal(info.rdev, statSync("/dev/null").rdev, "the same device");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a symbolic link is written through: its target gets the text, the link stays a link", { skip: !POSIX && "needs POSIX links" }, async () => {
  const dir = scratch();
  try {
    mkdirSync(join(dir, "real"));
    const target = join(dir, "real", "config.json");
    writeFileSync(target, "before");
    const link = join(dir, "link.json");
    symlinkSync(target, link);
    await runtime.writePrivateFile(link, "after");
    assert.ok(lstatSync(link).isSymbolicLink(), "the link stays");
    assert.equal(readFileSync(target, "utf8"), "after");
    const log = await runtime.openPrivateLog(link);
    log.append("line\n");
    log.close();
    assert.ok(lstatSync(link).isSymbolicLink(), "the link stays");
    assert.equal(readFileSync(target, "utf8"), "line\n");
    // A link to nothing is refused: what it would make is not what the user named.
    const dangling = join(dir, "dangling");
    symlinkSync(join(dir, "nowhere", "x"), dangling);
    await assert.rejects(
      runtime.writePrivateFile(dangling, "x"),
      (error: unknown) => error instanceof FileError && error.code === "ENOENT" && /symbolic link to a file that does not exist/.test(error.message),
    );
    assert.ok(lstatSync(dangling).isSymbolicLink());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a directory and a socket are refused, naming what they are; neither is replaced", { skip: !POSIX && "needs POSIX sockets" }, async () => {
  const dir = scratch();
  const server = createServer();
  try {
    const folder = join(dir, "folder");
    mkdirSync(folder);
    await assert.rejects(runtime.writePrivateFile(folder, "x"), (error: unknown) => error instanceof FileError && /is a directory/.test(error.message));
    assert.ok(lstatSync(folder).isDirectory());
    const socket = join(dir, "sock");
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    await assert.rejects(
      runtime.openPrivateLog(socket),
      (error: unknown) => error instanceof FileError && error.code === "ENOTREG" && /is a socket/.test(error.message),
    );
    assert.ok(lstatSync(socket).isSocket(), "still a socket");
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
