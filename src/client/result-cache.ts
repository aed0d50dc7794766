// Freshness of cacheable results: `ttlMs` says how long a list or a read stays fresh —
// spec 2026-07-28 server/utilities/caching. A client-side cache for one connection (one
// authorization context), so `cacheScope` "private" and "public" results are both kept.

/** spec 2026-07-28 caching ("Time-to-Live"): absent or negative means 0, immediately stale. */
export function ttlOf(result: Record<string, unknown>): number {
  const ttl = result.ttlMs;
  return typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0 ? ttl : 0;
}

/** Cache keys of the lists each list_changed notification makes stale. */
export const LIST_KEYS = { tools: "tools/list", prompts: "prompts/list", resources: "resources/list", templates: "resources/templates/list" } as const;

/** The cache key of one resources/read (notifications/resources/updated makes it stale). */
export function readKey(uri: string): string {
  return `resources/read ${uri}`;
}

interface Entry {
  value: unknown;
  /** t_received + ttlMs. */
  freshUntil: number;
}

export class ResultCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The value while fresh ("Freshness Calculation": now < t_received + ttlMs). */
  get<T>(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#now() < entry.freshUntil) return entry.value as T;
    this.#entries.delete(key);
    return undefined;
  }

  /** Keeps `value` for `ttlMs` from now; a ttl of 0 keeps nothing. */
  set(key: string, value: unknown, ttlMs: number): void {
    if (ttlMs <= 0) {
      this.#entries.delete(key);
      return;
    }
    this.#entries.set(key, { value, freshUntil: this.#now() + ttlMs });
  }

  /** spec 2026-07-28 caching ("Interaction with Notifications"): a notification invalidates at once. */
  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
