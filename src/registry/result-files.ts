// Result files: a tool result too long for the model's string is written whole to a file (the
// model gets its head, its tail and the path), and binary content — images, audio, embedded
// blob resources (spec 2025-11-25 server/tools "Tool Result") — is saved as files the model can
// name by path and MIME type, instead of being described only.
//
// It lives in the registry because it is part of "result formatting for an LLM", which the
// registry owns (dispatch() and the blocking worker's dispatchSync() both use it); the host
// only chooses the directory and which servers use it (config `results:`). Files go through
// src/runtime/ (mode 0600 in a 0700 directory, written by an atomic rename).
//
// The directory must be a real directory owned by this user: a symbolic link (or one another
// user owns) is refused before anything is changed or written there — else whoever placed the
// link chooses which directory is chmod'ed to 0700 and filled. Only mcpwire's own (the default,
// in its cache) or one it makes now is chmod'ed; a configured one that exists keeps its mode
// (refused when others may write in it: the user's files are the user's). Its parents may be links (a
// ~/.cache moved to another disk is common). A file is written under a fresh random name
// opened exclusively ('wx') and renamed into place: a link at either name is never followed.

import type { CallToolResult, ContentBlock } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { mcpwireDirectory } from "../common/user-dirs.ts";
import { runtime as currentRuntime } from "../runtime/mod.ts";
import type { LinkInfo, Runtime } from "../runtime/types.ts";
import { ResultFileError } from "./registry-errors.ts";
import { capTextWithFile, DEFAULT_MAX_RESULT_CHARS, errorString, isCallToolResult, resultString } from "./result-format.ts";

/** Files kept at most in the directory; the oldest of ours go first. */
export const DEFAULT_MAX_RESULT_FILES = 200;
/** Age past which our files are deleted: 7 days. */
export const DEFAULT_MAX_RESULT_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Options of ResultFiles: the directory, and how many files and how old they may be. */
export interface ResultFilesOptions {
  /** Where the files go. Default: defaultResultsDirectory() of this process's environment. */
  directory?: string;
  /** Keep at most this many of our files (older ones are deleted after each write). Default 200. */
  maxFiles?: number;
  /** Delete our files older than this (ms). Default 7 days. */
  maxAgeMs?: number;
}

/**
 * The cache directory of result files: `$XDG_CACHE_HOME/mcpwire/results`, else
 * `~/.cache/mcpwire/results` (`%LOCALAPPDATA%\mcpwire\results` on Windows). Undefined when the
 * environment names no home.
 */
export function defaultResultsDirectory(env: Record<string, string>, os: string): string | undefined {
  const directory = mcpwireDirectory("cache", env, os);
  return directory === undefined ? undefined : `${directory}/results`;
}

/** Our file names: `20261203-114512-<label>-<8 hex>.<ext>`; pruning touches only these. */
const OUR_FILE = /^\d{8}-\d{6}-[A-Za-z0-9_.-]*-[0-9a-f]{8}\.[a-z0-9]+$/;

/** File extensions of common MIME types; anything else is `.bin`. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/webm": "webm",
  "application/pdf": "pdf",
  "application/json": "json",
  "application/zip": "zip",
  "application/gzip": "gz",
  "text/plain": "txt",
};

/** Where a result or a block was saved. */
export interface SavedFile {
  path: string;
  /** Bytes written. */
  bytes: number;
}

/** Every option ResultFiles reads (its constructor checks them). */
const RESULT_FILES_OPTIONS = optionNames<ResultFilesOptions>({ directory: true, maxFiles: true, maxAgeMs: true });

/**
 * One results directory. Each save makes the directory (0700) when needed, writes the file
 * (0600) and prunes our older files by age and count. A save that fails rejects with a
 * ResultFileError naming the directory and what to do.
 */
export class ResultFiles {
  readonly #directory: string | undefined;
  readonly #maxFiles: number;
  readonly #maxAgeMs: number;
  readonly #runtime: Runtime;

  constructor(options: ResultFilesOptions = {}) {
    checkOptions("ResultFiles", options, RESULT_FILES_OPTIONS);
    const maxFiles = options.maxFiles ?? DEFAULT_MAX_RESULT_FILES;
    const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_RESULT_AGE_MS;
    if (!Number.isInteger(maxFiles) || maxFiles < 1) {
      throw new RangeError(`ResultFiles: maxFiles must be a whole number of at least 1 (got ${String(options.maxFiles)})`);
    }
    if (!(maxAgeMs > 0)) throw new RangeError(`ResultFiles: maxAgeMs must be a number of ms greater than 0 (got ${String(options.maxAgeMs)})`);
    this.#runtime = currentRuntime;
    this.#directory = options.directory ?? defaultResultsDirectory(this.#runtime.env(), this.#runtime.os);
    this.#maxFiles = maxFiles;
    this.#maxAgeMs = maxAgeMs;
  }

  /** The directory the files go to (undefined: none could be found; every save fails). */
  get directory(): string | undefined {
    return this.#directory;
  }

  /** Writes a whole result text; `label` (a server and tool) goes into the file name. */
  saveText(text: string, label: string): Promise<SavedFile> {
    const bytes = new TextEncoder().encode(text);
    return this.#save(bytes, label, "txt");
  }

  /** Writes base64 `data` decoded, named after its MIME type. */
  saveBase64(data: string, mimeType: string | undefined, label: string): Promise<SavedFile> {
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64(data);
    } catch (error) {
      return Promise.reject(
        new ResultFileError(`the ${mimeType ?? "binary"} data is not valid base64 (${messageOf(error)}); it was not saved`, "invalid-data", { cause: error }),
      );
    }
    return this.#save(bytes, label, extensionOf(mimeType));
  }

  async #save(bytes: Uint8Array, label: string, extension: string): Promise<SavedFile> {
    const directory = this.#directory;
    if (directory === undefined) {
      throw new ResultFileError(
        "no results directory: neither XDG_CACHE_HOME nor HOME is set; set one, or configure results.directory",
        "no-directory",
      );
    }
    const path = `${directory}/${fileName(label, extension)}`;
    try {
      // Checked before makePrivateDirectory (which chmods what a link points to) and after (a
      // link swapped in while it was made, or a mode it could not tighten). Only mcpwire's own
      // directory (the default, in its cache) or one it makes now is made private: a configured
      // directory that exists is the user's and keeps its mode (the check refuses it if others may write in it).
      await this.#checkDirectory(directory, false);
      const ours = directory === defaultResultsDirectory(this.#runtime.env(), this.#runtime.os);
      if (ours || (await this.#runtime.linkInfo(directory)) === undefined) await this.#runtime.makePrivateDirectory(directory);
      await this.#checkDirectory(directory, true);
      await this.#runtime.writePrivateFile(path, bytes);
    } catch (error) {
      if (error instanceof ResultFileError) throw error;
      throw new ResultFileError(
        `cannot write to the results directory ${directory} (${messageOf(error)}); ` +
          "make it writable, or set results.directory to another place, or results: false",
        "unwritable",
        { cause: error },
      );
    }
    await this.prune();
    return { path, bytes: bytes.length };
  }

  /**
   * Rejects with an "unsafe-directory" ResultFileError when `directory` is a symbolic link, not
   * a directory, owned by another user or (once made) writable by others. Nothing there is fine
   * unless `made` (it was to be made just now).
   */
  async #checkDirectory(directory: string, made: boolean): Promise<void> {
    const info = await this.#runtime.linkInfo(directory);
    const reason = info === undefined ? (made ? "it vanished as it was made" : undefined) : unsafeReason(info, this.#runtime.userId(), made);
    if (reason === undefined) return;
    throw new ResultFileError(
      `refusing the results directory ${directory}: ${reason}, and result files go only in a real directory of this user's own; ` +
        "replace it with such a directory, or set results.directory to another place, or results: false",
      "unsafe-directory",
    );
  }

  /**
   * Deletes our files (only names this class gives) older than maxAgeMs, then the oldest beyond
   * maxFiles. Never rejects: a file that cannot be deleted stays.
   */
  async prune(now: number = Date.now()): Promise<void> {
    if (this.#directory === undefined) return;
    let files;
    try {
      await this.#checkDirectory(this.#directory, true); // never lists or deletes through a link
      files = (await this.#runtime.listFiles(this.#directory)).filter((file) => OUR_FILE.test(file.name));
    } catch {
      return;
    }
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? 1 : -1)); // newest first
    const doomed = files.filter((file, index) => index >= this.#maxFiles || now - file.mtimeMs > this.#maxAgeMs);
    for (const file of doomed) {
      await this.#runtime.removeFile(`${this.#directory}/${file.name}`).catch(() => {});
    }
  }
}

/** Why a directory is not one to write result files in; undefined when it is. */
function unsafeReason(info: LinkInfo, userId: number | undefined, made: boolean): string | undefined {
  if (info.kind === "symlink") return "it is a symbolic link";
  if (info.kind !== "directory") return "it is not a directory";
  if (info.uid !== null && userId !== undefined && info.uid !== userId) return `it is owned by user id ${info.uid}, not by this user (${userId})`;
  // Once made private (0700) no one else may write in it.
  if (made && info.mode !== null && (info.mode & 0o022) !== 0) {
    return `others may write in it (mode ${info.mode.toString(8).padStart(4, "0")}; chmod go-w makes it yours alone)`;
  }
  return undefined;
}

/** `20261203-114512-<label>-<8 hex>.<ext>`, the label cut to characters safe in a file name. */
function fileName(label: string, extension: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const safe = label.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[._]+/, "").slice(0, 60);
  const id = crypto.randomUUID().replace(/-/g, "").slice(0, 8);
  return `${stamp}-${safe}-${id}.${extension}`;
}

function extensionOf(mimeType: string | undefined): string {
  const type = mimeType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return EXTENSIONS[type] ?? "bin";
}

/** Base64 (whitespace ignored) to bytes; throws on a character outside the alphabet. */
export function decodeBase64(data: string): Uint8Array {
  const binary = atob(data.replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The base64 data and MIME type of a block that holds binary content (image, audio, blob resource). */
export function binaryOf(block: ContentBlock): { data: string; mimeType: string | undefined } | undefined {
  if ((block.type === "image" || block.type === "audio") && typeof block.data === "string") {
    return { data: block.data, mimeType: block.mimeType };
  }
  if (block.type === "resource" && "blob" in block.resource && typeof block.resource.blob === "string") {
    return { data: block.resource.blob, mimeType: block.resource.mimeType };
  }
  return undefined;
}

/** Whether a result holds a block binaryOf() would save. */
export function hasBinaryContent(result: CallToolResult): boolean {
  for (const block of result.content) if (binaryOf(block) !== undefined) return true;
  return false;
}

/** What resultWithFiles needs of the registry. */
export interface FileFormatting {
  files: ResultFiles;
  /** Goes into the file names: the server and tool, or the built-in tool's name. */
  label: string;
  /** `server "x", tool "y"`: names the tool in warnings. */
  source: string;
  /** The cap of the text in the string. Default 100,000. */
  maxChars?: number;
  /** The whole text for the model (not capped), binary blocks shown by their saved path, and whether it is an error. */
  text: (saved: ReadonlyMap<ContentBlock, string> | undefined) => { text: string; isError: boolean };
  /** A save failed: said once per result, as the registry's warning event. */
  warn: (message: string) => void;
}

/**
 * The LLM-facing string of `output` with files: binary blocks saved (shown by path and MIME
 * type), a text over the cap saved whole (the string keeps the head, the tail and the path).
 * A save that fails is a warning and the string is what it would be without files.
 */
export async function resultWithFiles(output: unknown, how: FileFormatting): Promise<string> {
  const maxChars = how.maxChars ?? DEFAULT_MAX_RESULT_CHARS;
  const problems: string[] = [];
  let saved: Map<ContentBlock, string> | undefined;
  if (isCallToolResult(output) && hasBinaryContent(output)) {
    saved = new Map();
    for (const block of output.content) {
      const binary = binaryOf(block);
      if (binary === undefined) continue;
      try {
        saved.set(block, (await how.files.saveBase64(binary.data, binary.mimeType, how.label)).path);
      } catch (error) {
        problems.push(`its ${block.type} content (${binary.mimeType ?? "no MIME type"}) was not saved: ${messageOf(error)}`);
      }
    }
  }
  const { text, isError } = how.text(saved);
  const wrap = isError ? errorString : resultString;
  let shown: string | undefined;
  if (text.length > maxChars) {
    try {
      const file = await how.files.saveText(text, how.label);
      shown = capTextWithFile(text, file.path, maxChars);
    } catch (error) {
      problems.push(
        `its result of ${text.length.toLocaleString("en-US")} characters was not saved whole (${messageOf(error)}); ` +
          "the model got its head and tail only",
      );
    }
  }
  if (problems.length > 0) how.warn(`${how.source}: ${problems.join("; ")}`);
  return wrap(shown ?? text, { maxChars });
}
