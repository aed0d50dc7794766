// Why a runtime operation failed — a spawn, a file — with a code a caller can branch on. The
// codes are the system's error names ("ENOENT", "EACCES", …), as Node and Deno give them, so a
// caller who knows them need learn nothing new; "EUNKNOWN" when there was none.

import { McpwireError } from "../common/mcpwire-error.ts";
import type { RuntimeCapability, SpawnErrorCode } from "./types.ts";

/**
 * Why a file (or a loopback port) operation failed, the system's error name: "ENOENT" (no such
 * file), "EACCES" (permission denied), "EISDIR" (a directory), "EEXIST", "EADDRINUSE", another
 * "E…" name, or "EUNKNOWN" when the system gave none.
 */
export type FileErrorCode = "ENOENT" | "EACCES" | "EISDIR" | "EEXIST" | "EADDRINUSE" | "EUNKNOWN" | `E${Uppercase<string>}`;

/**
 * Every code of the runtime layer: a spawn's (SpawnErrorCode, which adds "ENOCWD"), a file's, or
 * "unsupported-runtime" (UnsupportedRuntimeError: what this runtime cannot do at all).
 */
export type RuntimeErrorCode = SpawnErrorCode | FileErrorCode | "unsupported-runtime";

/** A system error name as a SpawnErrorCode: "EUNKNOWN" when there is none (or it is not an "E…" name). */
export function spawnErrorCode(code: string | undefined): SpawnErrorCode {
  return code !== undefined && /^E[A-Z0-9_]+$/.test(code) ? (code as SpawnErrorCode) : "EUNKNOWN";
}

/** The largest file runtime.readTextFile reads (a trace file is the largest that is read whole). */
export const MAX_TEXT_FILE_BYTES = 256 * 1024 * 1024;

/** Why runtime.readTextFile refuses a path before reading it (not a regular file, too large), else undefined. */
export function unreadableFile(path: string, stats: { isFile: boolean; isDirectory: boolean; size: number }): FileError | undefined {
  // A directory fails as reading it would (EISDIR, callers word it); anything else that is not a file is ENOTREG.
  if (stats.isDirectory) return new FileError(`${path} is a directory, not a file`, "EISDIR", { path });
  if (!stats.isFile) return new FileError(`${path} is not a regular file (a FIFO, a device or a socket); give the path of a file`, "ENOTREG", { path });
  if (stats.size > MAX_TEXT_FILE_BYTES) {
    return new FileError(`${path} is ${stats.size} bytes, over the ${MAX_TEXT_FILE_BYTES} bytes mcpwire reads from a file`, "EFBIG", { path });
  }
  return undefined;
}

/**
 * `bytes` as UTF-8 text (a byte order mark kept, as Node's readFile keeps it), or an `EILSEQ`
 * FileError naming the first byte that is not UTF-8 and its line, where a lossy decoding would
 * have put U+FFFD (runtime.readTextFile with `strict`).
 */
export function strictUtf8(path: string, bytes: Uint8Array): string {
  const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    return fatal.decode(bytes);
  } catch {
    // Past every whole character (at most 4 bytes each) to the first byte that starts none.
    let at = 0;
    for (;;) {
      const size = [1, 2, 3, 4].find((length) => {
        if (at + length > bytes.length) return false;
        try {
          fatal.decode(bytes.subarray(at, at + length));
          return true;
        } catch {
          return false;
        }
      });
      if (size === undefined) break;
      at += size;
    }
    const line = bytes.subarray(0, at).filter((byte) => byte === 0x0a).length + 1;
    const byte = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, "0");
    throw new FileError(`${path} is not UTF-8: byte 0x${byte} at line ${line}`, "EILSEQ", { path });
  }
}

/** A system error name as a FileErrorCode: "EUNKNOWN" when there is none (or it is not an "E…" name). */
export function fileErrorCode(code: string | undefined): FileErrorCode {
  return code !== undefined && /^E[A-Z0-9_]+$/.test(code) ? (code as FileErrorCode) : "EUNKNOWN";
}

/** Why a spawn failed, with a code a caller can branch on. */
export class SpawnError extends McpwireError<SpawnErrorCode> {
  override readonly name = "SpawnError";
}

/** Why a file could not be read or written, with a code a caller can branch on; `path` names it. */
export class FileError extends McpwireError<FileErrorCode> {
  override readonly name = "FileError";
  /** The file (or, for a loopback port, "127.0.0.1:<port>"). */
  readonly path: string;

  constructor(message: string, code: FileErrorCode, options: { path: string; cause?: unknown }) {
    super(message, code, options);
    this.path = options.path;
  }
}

/**
 * What this runtime cannot do at all: a browser or a Cloudflare Worker starts no process
 * (stdio), reads no file and runs no blocking worker thread (the sync bridge). Raised when the
 * operation is asked for, never when a module loads; the message says what was asked, where,
 * and what to use instead.
 */
export class UnsupportedRuntimeError extends McpwireError<"unsupported-runtime"> {
  override readonly name = "UnsupportedRuntimeError";
  /** What the operation needed: "processes", "files", "workers", "listeners" or "terminal". */
  readonly capability: RuntimeCapability;
  /** Where it was asked: "a browser page", "Cloudflare Workers", "a web worker", … */
  readonly runtime: string;

  constructor(message: string, options: { capability: RuntimeCapability; runtime: string; cause?: unknown }) {
    super(message, "unsupported-runtime", options);
    this.capability = options.capability;
    this.runtime = options.runtime;
  }
}
