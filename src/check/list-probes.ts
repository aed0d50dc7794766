// The check's lists family (docs/check.md): pagination as the server keeps it — cursors that lead
// to the end of a list, and an invalid cursor refused — spec 2025-11-25 (and 2026-07-28)
// server/utilities/pagination. The walk (CheckSession.walk) followed every cursor; what it saw
// is judged here, and one request with a cursor the server never gave is sent on the session.

import { preview } from "../common/preview.ts";
import { answeredText, errorCode, seenAt } from "./answer.ts";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import type { ListWalk, WalkResult } from "./list-walk.ts";
import { type Judge, rule } from "./rule.ts";
import type { CheckSession } from "./session.ts";

/** The rules of the lists family. */
export const ListRules = {
  invalidCursor: rule(
    "lists/invalid-cursor",
    "SHOULD",
    "A list request with a cursor the server never gave is answered with error -32602 (Invalid params)",
    { source: "2025-11-25", page: "server/utilities/pagination", section: "Error Handling" },
    "Refuse a cursor you did not issue (or can no longer read) with JSON-RPC error -32602, rather than answering a page.",
  ),
  cursorEnds: rule(
    "lists/cursor-ends",
    "SHOULD",
    "A list's cursors lead to its end: no nextCursor repeats one given before, none leads on through empty pages forever",
    { source: "2025-11-25", page: "server/utilities/pagination", section: "Implementation Guidelines" },
    'Give nextCursor only while more results exist (spec: "Response Format"), each a stable position past the last page; omit it on the last page.',
  ),
} as const;

/** A cursor no server issued. */
export const INVALID_CURSOR = "mcpwire-check-invalid-cursor";

/** Options of probeLists. */
export interface ListProbeOptions {
  /** Bound of each answer awaited. Default 10 s. */
  timeoutMs?: number;
}

/**
 * The lists family: how each list the walk followed ended, and an invalid cursor sent to the
 * first list the server declares.
 */
export async function probeLists(session: CheckSession, walked: WalkResult, judge: Judge, options: ListProbeOptions = {}): Promise<void> {
  const R = ListRules;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  if (walked.walks.length === 0) {
    judge.skip(R.cursorEnds, "the server declares no list (no tools, resources or prompts)");
    judge.skip(R.invalidCursor, "the server declares no list (no tools, resources or prompts)");
    return;
  }
  for (const walk of walked.walks) judgeWalk(walk, judge);
  if (walked.walks.every((walk) => walk.stopped === "failed")) judge.skip(R.cursorEnds, "every list failed on its first pages");
  // The first list whose first page was answered: its method takes cursors.
  const target = walked.walks.find((walk) => walk.pages[0] !== undefined && "result" in walk.pages[0]);
  if (target === undefined) return judge.skip(R.invalidCursor, "no list was answered with a page");
  const answer = await session.request(target.method, { cursor: INVALID_CURSOR }, { timeoutMs });
  if ("failed" in answer) judge.skip(R.invalidCursor, `${target.method} got no JSON-RPC answer: ${answer.failed}`);
  else if (errorCode(answer) === -32602) judge.pass(R.invalidCursor);
  else {
    judge.fail(
      R.invalidCursor,
      `${target.method} with cursor "${INVALID_CURSOR}", which it never gave, ${answeredText(answer, timeoutMs)}, not error -32602`,
      seenAt(answer),
    );
  }
}

/** How one list's walk ended. */
function judgeWalk(walk: ListWalk, judge: Judge): void {
  const R = ListRules;
  const last = walk.pages.at(-1);
  if (walk.stopped === "repeated-cursor" && last !== undefined) {
    const cursor = "result" in last ? String(last.result.nextCursor) : "";
    return judge.fail(
      R.cursorEnds,
      `${walk.method} page ${walk.pages.length} gave nextCursor ${preview(cursor, 80)}, which an earlier page gave: the list never ends`,
      seenAt(last, "/result/nextCursor"),
    );
  }
  if (walk.stopped === "page-limit" && last !== undefined) {
    // A long list is no fault; a cursor that leads only to empty pages is one.
    const emptyAfterFirst = walk.pages.slice(1).every((page) =>
      "result" in page && Object.values(page.result).every((value) => !Array.isArray(value) || value.length === 0)
    );
    if (emptyAfterFirst) {
      return judge.fail(
        R.cursorEnds,
        `${walk.method} went on through ${walk.pages.length} pages, every one after the first empty, each with a new nextCursor`,
        seenAt(last, "/result/nextCursor"),
      );
    }
    return judge.skip(R.cursorEnds, `${walk.method} is longer than ${walk.pages.length} pages: not followed to its end`);
  }
  if (walk.stopped === "failed") return; // the capabilities family judges a list that fails
  judge.pass(R.cursorEnds);
}
