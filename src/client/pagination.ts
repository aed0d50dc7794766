// Following `nextCursor` through every page of a list result — spec 2025-11-25
// server/utilities/pagination (cursors are opaque; an absent nextCursor ends the list).

import { ProtocolError } from "./errors.ts";
import type { JsonObject } from "./types.ts";

export const DEFAULT_MAX_PAGES = 1000;

/**
 * Calls fetchPage until a page has no nextCursor; returns every item of field `key`.
 * Stops with an error on a repeated cursor (a loop) or past maxPages.
 */
export async function collectPages<T>(
  what: string,
  key: string,
  fetchPage: (cursor: string | undefined) => Promise<JsonObject>,
  maxPages = DEFAULT_MAX_PAGES,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor);
    const list = result[key];
    if (!Array.isArray(list)) {
      throw new ProtocolError(`${what}: page ${page} of the result has no "${key}" array`);
    }
    for (const item of list) items.push(item as T);
    const next = result.nextCursor;
    if (next === undefined || next === null) return items;
    if (typeof next !== "string") throw new ProtocolError(`${what}: nextCursor on page ${page} is not a string`);
    if (seen.has(next)) {
      throw new ProtocolError(`${what}: the server repeated cursor ${JSON.stringify(next)} on page ${page}; stopped to avoid a loop`);
    }
    if (page >= maxPages) {
      throw new ProtocolError(`${what}: more than ${maxPages} pages; stopped (raise maxPages if the server really has that many)`);
    }
    seen.add(next);
    cursor = next;
  }
}
