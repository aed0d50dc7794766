// Why a runtime operation failed — a spawn, a file — with a code a caller can branch on.

import { McpwireError } from "../common/mcpwire-error.ts";
import type { SpawnErrorCode } from "./types.ts";

/** A system error name as a SpawnErrorCode: "EUNKNOWN" when there is none (or it is not an "E…" name). */
export function spawnErrorCode(code: string | undefined): SpawnErrorCode {
  return code !== undefined && /^E[A-Z0-9_]+$/.test(code) ? (code as SpawnErrorCode) : "EUNKNOWN";
}

/** Why a spawn failed, with a code a caller can branch on. */
export class SpawnError extends McpwireError<SpawnErrorCode> {
  override readonly name = "SpawnError";
}

/** Why a file could not be read, with a code a caller can branch on. */
export class FileError extends McpwireError<string> {
  override readonly name = "FileError";
  /** `code`: "ENOENT" (no such file), "EACCES" (permission denied), "EISDIR" (a directory), or another. */
  constructor(message: string, code: string, readonly path: string) {
    super(message, code);
  }
}
