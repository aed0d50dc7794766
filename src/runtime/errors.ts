// Why a runtime operation failed — a spawn, a file — with a code a caller can branch on. The
// codes are the system's error names ("ENOENT", "EACCES", …), as Node and Deno give them, so a
// caller who knows them need learn nothing new; "EUNKNOWN" when there was none.

import { McpwireError } from "../common/mcpwire-error.ts";
import type { SpawnErrorCode } from "./types.ts";

/**
 * Why a file (or a loopback port) operation failed, the system's error name: "ENOENT" (no such
 * file), "EACCES" (permission denied), "EISDIR" (a directory), "EEXIST", "EADDRINUSE", another
 * "E…" name, or "EUNKNOWN" when the system gave none.
 */
export type FileErrorCode = "ENOENT" | "EACCES" | "EISDIR" | "EEXIST" | "EADDRINUSE" | "EUNKNOWN" | `E${Uppercase<string>}`;

/** Every code of the runtime layer: a spawn's (SpawnErrorCode, which adds "ENOCWD") or a file's. */
export type RuntimeErrorCode = SpawnErrorCode | FileErrorCode;

/** A system error name as a SpawnErrorCode: "EUNKNOWN" when there is none (or it is not an "E…" name). */
export function spawnErrorCode(code: string | undefined): SpawnErrorCode {
  return code !== undefined && /^E[A-Z0-9_]+$/.test(code) ? (code as SpawnErrorCode) : "EUNKNOWN";
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
