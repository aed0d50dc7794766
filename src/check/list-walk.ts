// The check's walk of a server's lists (docs/check.md): tools/list, resources/list,
// resources/templates/list and prompts/list for each capability declared, every cursor followed —
// spec 2025-11-25 server/utilities/pagination — bounded in pages, stopped by a repeated cursor,
// each item kept as it came on the wire with the message and pointer it was seen at (observed.ts).

import type { Params } from "../jsonrpc/peer.ts";
import type { CheckAnswer } from "./answer.ts";
import type { ListedItem, ObservedLists } from "./observed.ts";

/** Pages of one list followed before the walk stops (an endless cursor). */
export const MAX_LIST_PAGES = 100;

/** One list as the walk followed it: each page's answer, and why it stopped if not at the end. */
export interface ListWalk {
  method: "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list";
  /** The answers, page by page (each CheckAnswer's `answer` index, when it had one). */
  pages: CheckAnswer[];
  /** The cursors sent, in order (the first page has none). */
  cursors: string[];
  /** Why the walk stopped before a page without `nextCursor`: a cursor seen before, the page limit, a page that failed. */
  stopped?: "repeated-cursor" | "page-limit" | "failed";
}

/** What walk() found: the lists (as Observed has them) and how each was walked. */
export interface WalkResult {
  lists: ObservedLists;
  walks: ListWalk[];
}

/** The key of each list method's items in its result, and the capability that declares it. */
const LISTS = [
  { method: "tools/list", capability: "tools", key: "tools", into: "tools" },
  { method: "resources/list", capability: "resources", key: "resources", into: "resources" },
  { method: "resources/templates/list", capability: "resources", key: "resourceTemplates", into: "resourceTemplates" },
  { method: "prompts/list", capability: "prompts", key: "prompts", into: "prompts" },
] as const;

/**
 * Walks each list `capabilities` declares through `request` (a session's), page by page to its
 * end, at most `maxPages` pages a list.
 */
export async function walkLists(
  capabilities: Record<string, unknown>,
  request: (method: string, params: Params | undefined) => Promise<CheckAnswer>,
  maxPages: number = MAX_LIST_PAGES,
): Promise<WalkResult> {
  const lists: ObservedLists = {};
  const walks: ListWalk[] = [];
  for (const list of LISTS) {
    if (capabilities[list.capability] === undefined) continue;
    const walk: ListWalk = { method: list.method, pages: [], cursors: [] };
    walks.push(walk);
    const items: ListedItem[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      if (walk.pages.length >= maxPages) {
        walk.stopped = "page-limit";
        break;
      }
      const answer = await request(list.method, cursor === undefined ? undefined : { cursor });
      walk.pages.push(answer);
      if (!("result" in answer)) {
        walk.stopped = "failed";
        break;
      }
      const listed = answer.result[list.key];
      if (Array.isArray(listed)) listed.forEach((value, i) => items.push({ value, index: answer.answer, pointer: `/result/${list.key}/${i}` }));
      const next = answer.result.nextCursor;
      if (typeof next !== "string") break;
      if (seenCursors.has(next)) {
        walk.stopped = "repeated-cursor";
        break;
      }
      seenCursors.add(next);
      walk.cursors.push(next);
      cursor = next;
    }
    // A list that failed on a page is not listed (observed.ts); one cut short by a bad cursor keeps what came.
    if (walk.stopped !== "failed") lists[list.into] = items;
  }
  return { lists, walks };
}
