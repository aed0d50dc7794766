// The host's era cache: the era of each server remembered in a small file across runs, so the
// server/discover probe (and the restart of a server that exits on it, or the wait for one that
// never answers it) is paid once — spec 2026-07-28 basic/versioning ("Backward Compatibility":
// clients SHOULD cache the era, and MAY persist it across restarts of the same server
// configuration). The file: $XDG_CACHE_HOME/mcpwire/eras.json, else ~/.cache/mcpwire/eras.json.

import type { EraCache } from "../../client/era-cache.ts";
import type { ProtocolEra } from "../../client/protocol-version.ts";
import { sha256Digest } from "../../client/skills/skills.ts";
import { isObject } from "../../common/json.ts";
import { mcpwireDirectory, switchedOff } from "../../common/user-dirs.ts";
import { runtime as defaultRuntime } from "../../runtime/mod.ts";
import type { Runtime } from "../../runtime/types.ts";

/** Servers remembered at most; past it the entries recorded longest ago are dropped. */
export const MAX_ERA_CACHE_ENTRIES = 256;
/** A file larger than this is not ours (or was damaged): ignored, and replaced at the next write. */
export const MAX_ERA_CACHE_BYTES = 128 * 1024;
/** The variable that turns the file off: MCPWIRE_ERA_CACHE=off (or 0, false, no). */
export const ERA_CACHE_ENV = "MCPWIRE_ERA_CACHE";

const FILE_VERSION = 1;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** One remembered server: its era and when it was recorded (ms since the epoch). */
interface Entry {
  era: ProtocolEra;
  at: number;
}

/**
 * The era cache file: `$XDG_CACHE_HOME/mcpwire/eras.json`, else `~/.cache/mcpwire/eras.json`
 * (`%LOCALAPPDATA%\mcpwire\eras.json` on Windows). Undefined when the environment names no home.
 */
export function defaultEraCacheFile(env: Record<string, string>, os: string): string | undefined {
  const directory = mcpwireDirectory("cache", env, os);
  return directory === undefined ? undefined : `${directory}/eras.json`;
}

/**
 * The host's default era cache: the file at defaultEraCacheFile() of this process's
 * environment; undefined when MCPWIRE_ERA_CACHE is off (or 0, false, no) or there is no home.
 */
export function defaultEraCache(runtime: Runtime = defaultRuntime): FileEraCache | undefined {
  const env = runtime.env();
  if (switchedOff(env[ERA_CACHE_ENV])) return undefined;
  const path = defaultEraCacheFile(env, runtime.os);
  return path === undefined ? undefined : new FileEraCache(path, { runtime });
}

/**
 * An EraCache in one JSON file: `{ "version": 1, "eras": { "<sha256 of the key>": { "era",
 * "at" } } }`. Keys are stored as digests (a stdio command line may hold a token). Mode 0600,
 * written atomically (a temporary file renamed into place), read only when it is a regular
 * file (never through a symlink; a symlink in its place is replaced at the next write), at
 * most MAX_ERA_CACHE_ENTRIES entries. A damaged or oversized file is ignored and rewritten.
 * Each write reads the file again first, so runs that write at once lose at most each other's
 * latest entry; an error reading or writing it is ignored (the probe runs again next time).
 */
export class FileEraCache implements EraCache {
  readonly path: string;
  readonly #runtime: Runtime;
  readonly #directory: string;
  readonly #name: string;
  #loaded: Promise<Map<string, Entry>> | undefined;
  /** Writes, one after another. */
  #writing: Promise<void> = Promise.resolve();

  constructor(path: string, options: { runtime?: Runtime } = {}) {
    this.path = path;
    this.#runtime = options.runtime ?? defaultRuntime;
    const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
    this.#directory = slash <= 0 ? (slash === 0 ? "/" : ".") : path.slice(0, slash);
    this.#name = path.slice(slash + 1);
  }

  async get(key: string): Promise<ProtocolEra | undefined> {
    const entries = await (this.#loaded ??= this.#read());
    return entries.get(await digestOf(key))?.era;
  }

  set(key: string, era: ProtocolEra): Promise<void> {
    return this.#update(key, era);
  }

  forget(key: string): Promise<void> {
    return this.#update(key, undefined);
  }

  #update(key: string, era: ProtocolEra | undefined): Promise<void> {
    const write = this.#writing.then(async () => {
      const id = await digestOf(key);
      const entries = await this.#read(); // another run may have written since we read
      if (era === undefined && !entries.has(id)) {
        this.#loaded = Promise.resolve(entries);
        return;
      }
      if (era === undefined) entries.delete(id);
      else entries.set(id, { era, at: Date.now() });
      bound(entries);
      this.#loaded = Promise.resolve(entries);
      await this.#runtime.writePrivateFile(this.path, serialize(entries), undefined, "replace");
    });
    this.#writing = write.catch(() => {});
    return write;
  }

  /** The entries in the file; none when it is missing, not a regular file, too large or damaged. */
  async #read(): Promise<Map<string, Entry>> {
    try {
      // listFiles names regular files only (lstat): a symlink named eras.json is not read.
      const file = (await this.#runtime.listFiles(this.#directory)).find((entry) => entry.name === this.#name);
      if (file === undefined || file.size > MAX_ERA_CACHE_BYTES) return new Map();
      return parse(await this.#runtime.readTextFile(this.path));
    } catch {
      return new Map();
    }
  }
}

async function digestOf(key: string): Promise<string> {
  return await sha256Digest(new TextEncoder().encode(key));
}

/** The entries of the file's text; those that are not well formed are left out. */
function parse(text: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return entries;
  }
  if (!isObject(data) || data.version !== FILE_VERSION || !isObject(data.eras)) return entries;
  for (const [id, value] of Object.entries(data.eras)) {
    if (!DIGEST.test(id) || !isObject(value)) continue;
    const { era, at } = value;
    if ((era === "modern" || era === "legacy") && typeof at === "number" && Number.isFinite(at)) entries.set(id, { era, at });
  }
  bound(entries);
  return entries;
}

/** Drops the entries recorded longest ago until at most MAX_ERA_CACHE_ENTRIES are left. */
function bound(entries: Map<string, Entry>): void {
  if (entries.size <= MAX_ERA_CACHE_ENTRIES) return;
  const oldest = [...entries].sort(([, a], [, b]) => a.at - b.at);
  for (const [id] of oldest.slice(0, entries.size - MAX_ERA_CACHE_ENTRIES)) entries.delete(id);
}

function serialize(entries: Map<string, Entry>): string {
  const eras: Record<string, Entry> = Object.create(null);
  for (const [id, entry] of entries) eras[id] = entry;
  return JSON.stringify({ version: FILE_VERSION, eras }) + "\n";
}
