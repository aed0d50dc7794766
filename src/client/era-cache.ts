// The era of a server, remembered across connections — spec 2026-07-28 basic/versioning
// ("Backward Compatibility"): "Clients SHOULD cache the result for the lifetime of the server
// process (stdio) or origin (HTTP), and MAY persist it across restarts of the same server
// configuration, re-probing if the cached assumption later fails."

import type { ProtocolEra } from "./protocol-version.ts";

/**
 * Where a Client looks up and records the era of a server (the `eraCache` option), by the key
 * its transport gives (`Transport.serverKey`: a stdio command line and cwd, an HTTP origin and
 * path). A remembered `legacy` era skips the server/discover probe (and with it a 5 s wait for
 * a server that never answers it, or a restart of one that exits on it); a remembered era that
 * fails is forgotten and the era found afresh. Each method may be synchronous or return a
 * promise; what one throws is ignored (a cache is never a reason for a connect to fail).
 */
export interface EraCache {
  get(key: string): ProtocolEra | undefined | Promise<ProtocolEra | undefined>;
  set(key: string, era: ProtocolEra): void | Promise<void>;
  forget(key: string): void | Promise<void>;
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

/** One cache and the key of one server in it, as a connect uses them. */
export interface EraCacheEntry {
  cache: EraCache;
  key: string;
}

/** The remembered era, or undefined when there is none or the cache failed. */
export async function rememberedEra({ cache, key }: EraCacheEntry): Promise<ProtocolEra | undefined> {
  try {
    const era = await cache.get(key);
    return era === "modern" || era === "legacy" ? era : undefined;
  } catch {
    return undefined;
  }
}

/** Records (or, with undefined, forgets) the era; a failing cache is ignored. */
export async function rememberEra({ cache, key }: EraCacheEntry, era: ProtocolEra | undefined): Promise<void> {
  try {
    if (era === undefined) await cache.forget(key);
    else await cache.set(key, era);
  } catch {
    // a cache that cannot record costs a probe next time, nothing more
  }
}
