// Which era the bridge speaks to a backend: the host's, where the backend speaks it too — spec
// 2026-07-28 basic/versioning ("Backward Compatibility"); docs/serve.md ("Both eras in front,
// any era behind"). A backend set's clients connect under `protocol: auto`, which probes
// server/discover first and so speaks 2026-07-28 to a backend of both eras; the era cache
// (client/era-cache.ts) is where a connect is told to try the handshake first instead. So a
// handshake-era host's sets are given a cache that answers "legacy" for a server it has not
// found otherwise: the handshake first, and if the backend refuses it (a 2026-07-28-only server),
// the Client forgets that and finds the era afresh (the probe), which this cache then keeps. A
// 2026-07-28 host's sets share a cache in memory: the probe first, a backend found to be of
// the handshake era remembered (no probe for it in the next set).

import { type EraCache, MemoryEraCache } from "../client/era-cache.ts";
import type { ProtocolEra } from "../client/protocol-version.ts";

/** An EraCache that says "legacy" for every server until one is found to be otherwise. */
export class HandshakeFirstEraCache implements EraCache {
  readonly #found = new Map<string, ProtocolEra>();

  get(key: string): ProtocolEra {
    return this.#found.get(key) ?? "legacy";
  }

  set(key: string, era: ProtocolEra): void {
    this.#found.set(key, era);
  }

  forget(key: string): void {
    this.#found.delete(key);
  }
}

/** The era caches of a bridge's backend sets, one per host era. */
export interface EraPreference {
  legacy: EraCache;
  modern: EraCache;
}

/** A bridge's caches: handshake first for handshake-era hosts, the probe first (remembered in memory) for 2026-07-28 hosts. */
export function eraPreference(): EraPreference {
  return { legacy: new HandshakeFirstEraCache(), modern: new MemoryEraCache() };
}
