// What writing a path means when mcpwire writes a file the user named (a trace, a pins lock, a
// result, a config edit): a regular file (or nothing yet) is replaced atomically by a temporary
// file renamed into place; a FIFO or a character device (`/dev/null`, `/dev/stdout`, a pipe some
// reader holds) is written as it is — opened, written, closed — and never replaced; anything
// else (a directory, a socket, a block device) is refused. A symbolic link is written through, as
// editors do: its target is what is replaced or written, the link stays. Node and Deno both run
// this (node:fs: Deno's own open cannot ask for O_NONBLOCK).
//
// Every wait is bounded: a FIFO is opened without blocking (O_NONBLOCK: ENXIO while nothing
// reads it) and tried again for SPECIAL_FILE_WAIT_MS; a write the reader does not take (EAGAIN)
// is tried again for as long, in chunks of at most PIPE_BUF bytes (a chunk reaches a pipe whole).

import { closeSync, constants, openSync, writeSync } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import { FileError, fileErrorCode } from "./errors.ts";
import type { LinkPolicy, PrivateLog } from "./types.ts";

/** How long a FIFO with no reader, or a reader that takes nothing, is waited for before the write fails. */
export const SPECIAL_FILE_WAIT_MS = 5_000;
/** PIPE_BUF on Linux (512 and more elsewhere): a write of at most this many bytes reaches a pipe whole. */
const CHUNK_BYTES = 4096;
const RETRY_MS = 20;

/** Where to write for a path: replace the regular file `path` (absent: made), or write into the FIFO or device at `path`. */
export interface WriteTarget {
  /** The path to write: the given one, or a link's final target. */
  path: string;
  /** True for a FIFO or a character device: written as it is, never replaced. */
  special: boolean;
}

/** A FileError for `path` from a node:fs error, its system code kept. */
function fsError(error: unknown, path: string): FileError {
  const { code, message } = error as { code?: string; message?: string };
  return new FileError(message ?? String(error), fileErrorCode(code), { path, cause: error });
}

/**
 * What is at `path`, a link followed (or, with `links: "replace"`, a link to be replaced by the
 * rename like a regular file): how to write it. Rejects with a FileError (ENOTREG) for what
 * mcpwire does not write.
 */
export async function writeTargetOf(path: string, links: LinkPolicy = "follow"): Promise<WriteTarget> {
  let link;
  try {
    link = await lstat(path);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return { path, special: false };
    throw fsError(error, path);
  }
  if (link.isSymbolicLink() && links === "replace") return { path, special: false };
  let info = link;
  if (link.isSymbolicLink()) {
    try {
      info = await stat(path);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw fsError(error, path);
      throw new FileError(
        `${path} is a symbolic link to a file that does not exist; make the file it points to, or give another path`,
        "ENOENT",
        { path, cause: error },
      );
    }
  }
  // A link to a file: the file it points to is replaced in its own directory (the link stays).
  if (info.isFile()) {
    return { path: link.isSymbolicLink() ? await realpath(path).catch((error) => Promise.reject(fsError(error, path))) : path, special: false };
  }
  // A link to a FIFO or a device is opened as given (`/dev/stdout` -> /proc/self/fd/1 -> a pipe has no path of its own).
  if (info.isFIFO() || info.isCharacterDevice()) return { path, special: true };
  const what = info.isDirectory() ? "a directory" : info.isSocket() ? "a socket" : info.isBlockDevice() ? "a block device" : "not a regular file";
  throw new FileError(
    `${path} is ${what}; mcpwire writes only a regular file (replaced whole), a FIFO or a character device (written as it is); give the path of a file`,
    info.isDirectory() ? "EISDIR" : "ENOTREG",
    { path },
  );
}

/** Opens a FIFO or a device for writing without blocking; a FIFO nobody reads yet is tried again for SPECIAL_FILE_WAIT_MS. */
async function openSpecial(path: string): Promise<number> {
  const deadline = Date.now() + SPECIAL_FILE_WAIT_MS;
  for (;;) {
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_APPEND | constants.O_NOCTTY);
    } catch (error) {
      // ENXIO: a FIFO with no reader (open(2)); wait, bounded, for one to come.
      if ((error as { code?: string }).code !== "ENXIO") throw fsError(error, path);
      if (Date.now() >= deadline) {
        throw new FileError(
          `nothing read the FIFO ${path} within ${SPECIAL_FILE_WAIT_MS / 1000} s; start its reader first (e.g. cat ${path}), or give a regular file`,
          "ENXIO",
          { path, cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/** One chunk written: the bytes taken, or 0 when the reader has no room now (EAGAIN). */
function writeChunk(fd: number, bytes: Uint8Array, from: number, path: string): number {
  try {
    return writeSync(fd, bytes, from, Math.min(CHUNK_BYTES, bytes.length - from));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EAGAIN") return 0;
    if (code === "EPIPE") throw new FileError(`the reader of ${path} closed it; what was left was not written`, "EPIPE", { path, cause: error });
    throw fsError(error, path);
  }
}

function stalled(path: string): FileError {
  return new FileError(
    `the reader of ${path} took nothing for ${SPECIAL_FILE_WAIT_MS / 1000} s; what was left was not written (is it still reading?)`,
    "EAGAIN",
    { path },
  );
}

let pause: Int32Array | undefined;

/**
 * Writes all of `bytes`, chunk by chunk, pausing (each `yield`: the caller waits RETRY_MS, in
 * whatever way it can) while the reader has no room; throws once it has taken nothing for
 * SPECIAL_FILE_WAIT_MS. One loop for the synchronous append and the asynchronous write.
 */
function* writing(fd: number, bytes: Uint8Array, path: string): Generator<void, void, undefined> {
  let last = Date.now();
  for (let done = 0; done < bytes.length;) {
    const wrote = writeChunk(fd, bytes, done, path);
    done += wrote;
    if (wrote > 0) last = Date.now();
    else if (Date.now() - last > SPECIAL_FILE_WAIT_MS) throw stalled(path);
    else yield;
  }
}

/** Writes all of `bytes` now (synchronously), waiting (bounded) while the reader has no room. */
function writeAllSync(fd: number, bytes: Uint8Array, path: string): void {
  // A synchronous sleep: append() hands its text over before it returns.
  for (const _ of writing(fd, bytes, path)) Atomics.wait(pause ??= new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
}

/** Writes `data` into the FIFO or device at `path` (its target when a link was followed): opened, written whole, closed. */
export async function writeSpecialFile(path: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const fd = await openSpecial(path);
  try {
    for (const _ of writing(fd, bytes, path)) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  } finally {
    closeSync(fd);
  }
}

/** Opens the FIFO or device at `path` for appending, as runtime.openPrivateLog does a file (nothing is truncated or replaced). */
export async function openSpecialLog(path: string): Promise<PrivateLog> {
  let fd: number | undefined = await openSpecial(path);
  const encoder = new TextEncoder();
  return {
    append(text: string) {
      if (fd !== undefined) writeAllSync(fd, encoder.encode(text), path);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
