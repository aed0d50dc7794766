// Following `nextCursor` through every page of a list result — spec 2025-11-25
// server/utilities/pagination (cursors are opaque; an absent nextCursor ends the list); the whole
// list kept while fresh — spec 2026-07-28 server/utilities/caching.

import { ProtocolError } from "./errors.ts";
import { type ResultCache, ttlOf } from "./result-cache.ts";
import type { JsonObject } from "./types.ts";

export const DEFAULT_MAX_PAGES = 1000;

/**
 * Calls fetchPage until a page has no nextCursor; returns every item of field `key`.
 * Stops with an error on a repeated cursor (a loop) or past maxPages.
 */
export async function collectPages<T>(
  what: string,
  method: string,
  key: string,
  fetchPage: (cursor: string | undefined) => Promise<JsonObject>,
  maxPages = DEFAULT_MAX_PAGES,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1;; page++) {
    const result = await fetchPage(cursor);
    const list = result[key];
    if (!Array.isArray(list)) {
      // spec 2025-11-25 schema: each List*Result requires its array.
      throw new ProtocolError(`${what}: page ${page} of the result has no "${key}" array, which the spec requires`, "bad-result", { method });
    }
    for (const item of list) items.push(item as T);
    const next = result.nextCursor;
    if (next === undefined || next === null) return items;
    if (typeof next !== "string") throw new ProtocolError(`${what}: nextCursor on page ${page} is not a string`, "bad-result", { method });
    if (seen.has(next)) {
      throw new ProtocolError(`${what}: the server repeated cursor ${JSON.stringify(next)} on page ${page}; stopped to avoid a loop`, "cursor-loop", {
        method,
      });
    }
    if (page >= maxPages) {
      throw new ProtocolError(`${what}: more than ${maxPages} pages; stopped (raise maxPages if the server really has that many)`, "too-many-pages", {
        method,
      });
    }
    seen.add(next);
    cursor = next;
  }
}

/**
 * Every page of a list (collectPages), or the cached list while its ttlMs says it is fresh.
 * The whole list is kept under `method` for the shortest ttlMs of its pages; a server that
 * sends no ttlMs (every legacy server) is never cached. `fresh` skips the cached list.
 */
export async function cachedPages<T>(
  cache: ResultCache,
  what: string,
  method: string,
  key: string,
  fetchPage: (cursor: string | undefined) => Promise<JsonObject>,
  options: { fresh: boolean; maxPages: number },
): Promise<T[]> {
  if (!options.fresh) {
    const cached = cache.get<T[]>(method);
    if (cached !== undefined) return [...cached];
  }
  let ttl = Infinity;
  const items = await collectPages<T>(what, method, key, async (cursor) => {
    const page = await fetchPage(cursor);
    ttl = Math.min(ttl, ttlOf(page));
    return page;
  }, options.maxPages);
  cache.set(method, [...items], Number.isFinite(ttl) ? ttl : 0);
  return items;
}
