// The host's tool-list cache: the tools each server listed (spec 2025-11-25 server/tools,
// tools/list), remembered in a small file across runs, so `mcpwire call` can start only the
// server that owns a tool and shell completion can offer tool names without starting anything.
// Keyed by a digest of what starting the server depends on: a change of its config is a miss.
// Dropped for a server on notifications/tools/list_changed. The file:
// $XDG_CACHE_HOME/mcpwire/tools.json, else ~/.cache/mcpwire/tools.json.

import { sha256Digest } from "../../client/skills/skills.ts";
import { isObject } from "../../common/json.ts";
import { clipLine } from "../../common/preview.ts";
import { mcpwireDirectory, switchedOff } from "../../common/user-dirs.ts";
import { toolName } from "../../registry/naming.ts";
import { runtime as defaultRuntime } from "../../runtime/mod.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { McpwireConfig, ServerConfig } from "../config/types.ts";

/** Servers remembered at most; past it the entries recorded longest ago are dropped. */
export const MAX_TOOL_CACHE_SERVERS = 128;
/** Tools remembered per server at most (the first ones listed). */
export const MAX_CACHED_TOOLS = 1000;
/** A tool name longer than this is not remembered (spec 2025-11-25 server/tools: names SHOULD be 1–128 characters). */
export const MAX_CACHED_TOOL_NAME = 128;
/** A title is cut to this many characters. */
export const MAX_CACHED_TITLE = 120;
/** A file larger than this is not ours (or was damaged): ignored, and replaced at the next write; a write keeps below it. */
export const MAX_TOOL_CACHE_BYTES = 2 * 1024 * 1024;
/** The variable that turns the file off: MCPWIRE_TOOL_CACHE=off (or 0, false, no). */
export const TOOL_CACHE_ENV = "MCPWIRE_TOOL_CACHE";

const FILE_VERSION = 1;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** One remembered tool: its name as the server lists it, and a short title. */
export interface CachedTool {
  /** The tool's own name (not the registered `mcp_<server>_<tool>`). */
  name: string;
  /** Its `title` (or annotations.title), else the first line of its description; at most MAX_CACHED_TITLE characters. */
  title?: string;
}

/** One server's remembered listing: the tools that passed its include/exclude filter, and when it was recorded. */
export interface CachedToolList {
  tools: CachedTool[];
  /** When it was recorded, ms since the epoch. */
  at: number;
}

/** What readCachedTools gives per server: the cached tools with the names they register under. */
export interface CachedServerTools {
  /** The server's name in the config. */
  server: string;
  /** Each tool with `registered`: its name under the server's naming (what `mcpwire call` takes). */
  tools: (CachedTool & { registered: string })[];
  /** When the listing was recorded, ms since the epoch. */
  at: number;
}

/**
 * The tool-list cache file: `$XDG_CACHE_HOME/mcpwire/tools.json`, else `~/.cache/mcpwire/tools.json`
 * (`%LOCALAPPDATA%\mcpwire\tools.json` on Windows). Undefined when the environment names no home.
 */
export function defaultToolListCacheFile(env: Record<string, string>, os: string): string | undefined {
  const directory = mcpwireDirectory("cache", env, os);
  return directory === undefined ? undefined : `${directory}/tools.json`;
}

/**
 * The host's default tool-list cache: the file at defaultToolListCacheFile() of this process's
 * environment; undefined when MCPWIRE_TOOL_CACHE is off (or 0, false, no) or there is no home.
 */
export function defaultToolListCache(runtime: Runtime = defaultRuntime): ToolListCache | undefined {
  const env = runtime.env();
  if (switchedOff(env[TOOL_CACHE_ENV])) return undefined;
  const path = defaultToolListCacheFile(env, runtime.os);
  return path === undefined ? undefined : new ToolListCache(path, { runtime });
}

/**
 * The digest a server's cached listing is keyed by: its name and what starting it and listing
 * its tools depend on — transport, command, args, the names of its env variables, cwd, url, the
 * names of its headers, protocol, tasks and its tool filter. Values of env variables and
 * headers (often secrets) are left out; naming is too (it changes the registered names, which
 * are computed when read, not the listing).
 */
export async function serverConfigDigest(server: ServerConfig): Promise<string> {
  const key = JSON.stringify([
    FILE_VERSION,
    server.name,
    server.transport,
    server.command ?? null,
    server.args,
    Object.keys(server.env).sort(),
    server.cwd ?? null,
    server.url ?? null,
    Object.keys(server.headers).map((name) => name.toLowerCase()).sort(),
    server.protocol ?? null,
    server.tasks ?? null,
    server.tools.include ?? null,
    server.tools.exclude ?? null,
  ]);
  return await sha256Digest(new TextEncoder().encode(key));
}

/**
 * The cached tools of every configured server whose digest still matches (config order; a
 * server with no entry, or whose config changed since, is left out). Reads the default file
 * (defaultToolListCache) unless `cache` is given; never starts a server; an unreadable, damaged
 * or turned-off cache is an empty answer. For shell completion and other readers.
 */
export async function readCachedTools(config: Pick<McpwireConfig, "servers">, cache?: ToolListCache): Promise<CachedServerTools[]> {
  const file = cache ?? defaultToolListCache();
  if (file === undefined) return [];
  const out: CachedServerTools[] = [];
  for (const server of config.servers) {
    const listing = await file.get(server);
    if (listing === undefined) continue;
    out.push({
      server: server.name,
      tools: listing.tools.map((tool) => ({ ...tool, registered: toolName(server.name, tool.name, server.naming) })),
      at: listing.at,
    });
  }
  return out;
}

/**
 * The tool-list cache in one JSON file: `{ "version": 1, "servers": { "<serverConfigDigest>":
 * { "tools": [{ "name", "title"? }], "at" } } }`. Mode 0600, written atomically (a temporary
 * file renamed into place), read only when it is a regular file (never through a symlink), at
 * most MAX_TOOL_CACHE_SERVERS servers and MAX_TOOL_CACHE_BYTES. A damaged or oversized file is
 * ignored and rewritten. Each write reads the file again first, so runs that write at once lose
 * at most each other's latest entry; an error reading or writing it is ignored (a miss costs
 * only a server started to list its tools).
 */
export class ToolListCache {
  readonly path: string;
  readonly #runtime: Runtime;
  readonly #directory: string;
  readonly #name: string;
  #loaded: Promise<Map<string, CachedToolList>> | undefined;
  /** Writes, one after another. */
  #writing: Promise<void> = Promise.resolve();

  constructor(path: string, options: { runtime?: Runtime } = {}) {
    this.path = path;
    this.#runtime = options.runtime ?? defaultRuntime;
    const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
    this.#directory = slash <= 0 ? (slash === 0 ? "/" : ".") : path.slice(0, slash);
    this.#name = path.slice(slash + 1);
  }

  /** The listing recorded for `server` under its current config; undefined when none, or its config changed since. */
  async get(server: ServerConfig): Promise<CachedToolList | undefined> {
    const entries = await (this.#loaded ??= this.#read());
    const entry = entries.get(await serverConfigDigest(server));
    return entry === undefined ? undefined : { tools: entry.tools.map((tool) => ({ ...tool })), at: entry.at };
  }

  /** Records what `server` listed (its tools after its include/exclude filter), bounded; replaces what was there. */
  record(server: ServerConfig, tools: readonly CachedTool[]): Promise<void> {
    return this.#update(server, { tools: boundTools(tools), at: Date.now() });
  }

  /** Forgets `server`'s listing (its tools changed: notifications/tools/list_changed). */
  forget(server: ServerConfig): Promise<void> {
    return this.#update(server, undefined);
  }

  #update(server: ServerConfig, listing: CachedToolList | undefined): Promise<void> {
    const write = this.#writing.then(async () => {
      const id = await serverConfigDigest(server);
      const entries = await this.#read(); // another run may have written since we read
      if (listing === undefined && !entries.has(id)) {
        this.#loaded = Promise.resolve(entries);
        return;
      }
      entries.delete(id); // re-inserted last: the newest
      if (listing !== undefined) entries.set(id, listing);
      this.#loaded = Promise.resolve(entries);
      await this.#runtime.writePrivateFile(this.path, serialize(entries), undefined, "replace");
    });
    this.#writing = write.catch(() => {});
    return write;
  }

  /** The entries in the file; none when it is missing, not a regular file, too large or damaged. */
  async #read(): Promise<Map<string, CachedToolList>> {
    try {
      // listFiles names regular files only (lstat): a symlink named tools.json is not read.
      const file = (await this.#runtime.listFiles(this.#directory)).find((entry) => entry.name === this.#name);
      if (file === undefined || file.size > MAX_TOOL_CACHE_BYTES) return new Map();
      return parse(await this.#runtime.readTextFile(this.path));
    } catch {
      return new Map();
    }
  }
}

/** At most MAX_CACHED_TOOLS tools, each name at most MAX_CACHED_TOOL_NAME long (longer ones left out), titles cut. */
function boundTools(tools: readonly unknown[]): CachedTool[] {
  const out: CachedTool[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (out.length >= MAX_CACHED_TOOLS) break;
    if (!isObject(tool)) continue;
    const { name, title } = tool;
    if (typeof name !== "string" || name === "" || name.length > MAX_CACHED_TOOL_NAME || seen.has(name)) continue;
    seen.add(name);
    const short = typeof title === "string" ? clipLine(title, MAX_CACHED_TITLE) : "";
    out.push(short === "" ? { name } : { name, title: short });
  }
  return out;
}

/** The entries of the file's text; those that are not well formed are left out. */
function parse(text: string): Map<string, CachedToolList> {
  const entries = new Map<string, CachedToolList>();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return entries;
  }
  if (!isObject(data) || data.version !== FILE_VERSION || !isObject(data.servers)) return entries;
  const rows: [string, CachedToolList][] = [];
  for (const [id, value] of Object.entries(data.servers)) {
    if (!DIGEST.test(id) || !isObject(value)) continue;
    const { tools, at } = value;
    if (!Array.isArray(tools) || typeof at !== "number" || !Number.isFinite(at)) continue;
    rows.push([id, { tools: boundTools(tools), at }]);
  }
  // Oldest first, so that the map's order is the order of recording (the newest last).
  rows.sort(([, a], [, b]) => a.at - b.at);
  for (const [id, listing] of rows.slice(-MAX_TOOL_CACHE_SERVERS)) entries.set(id, listing);
  return entries;
}

/** The file's text: the newest MAX_TOOL_CACHE_SERVERS entries, as many of the newest as fit in MAX_TOOL_CACHE_BYTES. */
function serialize(entries: Map<string, CachedToolList>): string {
  const rows = [...entries].sort(([, a], [, b]) => a.at - b.at).slice(-MAX_TOOL_CACHE_SERVERS);
  for (;;) {
    const servers: Record<string, CachedToolList> = Object.create(null);
    for (const [id, listing] of rows) servers[id] = listing;
    const text = JSON.stringify({ version: FILE_VERSION, servers }) + "\n";
    // Bytes, not characters: a title may hold characters of several bytes.
    if (rows.length === 0 || new TextEncoder().encode(text).length <= MAX_TOOL_CACHE_BYTES) return text;
    rows.shift(); // the oldest goes first
    entries.clear();
    for (const [id, listing] of rows) entries.set(id, listing);
  }
}
