// The check's lists family (src/check/list-probes.ts): each rule fails on the fixture that breaks
// it and passes on the conformant one — spec 2025-11-25 server/utilities/pagination. Against
// test/fixtures/check/dual-era-server.mjs.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ListRules as R, probeLists } from "../../src/check/list-probes.ts";
import { dualEra } from "../support/dual-era.ts";
import { judgedSession } from "../support/judged-session.ts";
import type { RecordingJudge } from "../support/recording-judge.ts";

const TIMEOUT = 2000;

function judged(breaks: string[], protocol: "modern" | "legacy", maxPages?: number): Promise<RecordingJudge> {
  return judgedSession(dualEra(breaks), { protocol, timeoutMs: TIMEOUT }, async (session, judge) => {
    await probeLists(session, await session.walk(maxPages === undefined ? {} : { maxPages }), judge, { timeoutMs: TIMEOUT });
  });
}

describe("the lists family", () => {
  for (const protocol of ["legacy", "modern"] as const) {
    test(`a conformant server breaks no list rule (${protocol})`, async () => {
      const judge = await judged([], protocol);
      assert.deepEqual(judge.failures, []);
      assert.equal(judge.outcome(R.invalidCursor), "pass");
      assert.equal(judge.outcome(R.cursorEnds), "pass");
    });
  }

  test("lists/invalid-cursor: a cursor never given answered with the first page", async () => {
    const judge = await judged(["invalid-cursor-accepted"], "legacy");
    assert.match(judge.failuresOf(R.invalidCursor)[0]?.detail ?? "", /tools\/list with cursor "mcpwire-check-invalid-cursor".*a result/);
  });

  test("lists/cursor-ends: a repeated cursor, and a cursor leading on through empty pages", async () => {
    const repeated = await judged(["repeat-cursor"], "modern");
    assert.equal(repeated.failuresOf(R.cursorEnds)[0]?.seen?.pointer, "/result/nextCursor");
    const endless = await judged(["endless-cursor"], "legacy", 6);
    assert.match(endless.failuresOf(R.cursorEnds)[0]?.detail ?? "", /6 pages, every one after the first empty/);
  });
});
