// The era of a server, remembered across connections — spec 2026-07-28 basic/versioning
// ("Backward Compatibility"): "Clients SHOULD cache the result for the lifetime of the server
// process (stdio) or origin (HTTP), and MAY persist it across restarts of the same server
// configuration, re-probing if the cached assumption later fails."

import { coreRuntime } from "../runtime/mod.ts";
import type { ProtocolEra } from "./protocol-version.ts";

/**
 * Where a Client looks up and records the era of a server (the `eraCache` option), by the key
 * its connect() is given (`serverKey`, made by eraCacheKey(): a stdio command line and cwd, an
 * HTTP origin and path). A remembered `legacy` era skips the server/discover probe (and with it a 5 s wait for
 * a server that never answers it, or a restart of one that exits on it); a remembered era that
 * fails is forgotten and the era found afresh. Each method may be synchronous or return a
 * promise; what one throws is ignored (a cache is never a reason for a connect to fail).
 */
export interface EraCache {
  get(key: string): ProtocolEra | undefined | Promise<ProtocolEra | undefined>;
  set(key: string, era: ProtocolEra): void | Promise<void>;
  forget(key: string): void | Promise<void>;
}

/**
 * The key of a server in an EraCache: the same command line run in the same directory (default:
 * this process's) is the same stdio server; an HTTP server is its URL's origin and path (the
 * query stays out: it may hold a key). The key may hold a secret (a token among the args): a
 * cache that stores it keeps a digest, not the text (FileEraCache does).
 */
export function eraCacheKey(server: { command: string; args?: readonly string[]; cwd?: string } | { url: string | URL }): string {
  if ("url" in server) {
    const url = new URL(server.url);
    return JSON.stringify(["http", `${url.origin}${url.pathname}`]);
  }
  return JSON.stringify(["stdio", server.cwd ?? coreRuntime.cwd(), server.command, ...(server.args ?? [])]);
}

/** An EraCache in memory: the era of each server for the life of this process. */
export class MemoryEraCache implements EraCache {
  readonly #eras = new Map<string, ProtocolEra>();

  get(key: string): ProtocolEra | undefined {
    return this.#eras.get(key);
  }

  set(key: string, era: ProtocolEra): void {
    this.#eras.set(key, era);
  }

  forget(key: string): void {
    this.#eras.delete(key);
  }
}

/** How long a connect waits for the cache (a file read or write) before going on without it. */
export const ERA_CACHE_TIMEOUT_MS = 2000;

/** One cache and the key of one server in it, as a connect uses them. */
export interface EraCacheEntry {
  cache: EraCache;
  key: string;
}

/** The remembered era, or undefined when there is none or the cache failed. */
export async function rememberedEra({ cache, key }: EraCacheEntry): Promise<ProtocolEra | undefined> {
  const era = await bounded(() => cache.get(key));
  return era === "modern" || era === "legacy" ? era : undefined;
}

/** Records (or, with undefined, forgets) the era; a failing or slow cache is ignored. */
export async function rememberEra({ cache, key }: EraCacheEntry, era: ProtocolEra | undefined): Promise<void> {
  // A cache that cannot record costs a probe next time, nothing more.
  await bounded(() => (era === undefined ? cache.forget(key) : cache.set(key, era)));
}

/** What `operation` gives within ERA_CACHE_TIMEOUT_MS; undefined when it throws or takes longer. */
async function bounded<T>(operation: () => T | Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ERA_CACHE_TIMEOUT_MS)));
  try {
    return await Promise.race([Promise.resolve().then(operation), late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
