// Test helper: a family of `mcpwire check` run on a session of its own — the session opened on a
// target, the family given it and a RecordingJudge, the session closed after, whatever happened.

import { type CheckSession, openSession, type SessionOptions } from "../../src/check/session.ts";
import type { CheckTarget } from "../../src/check/target.ts";
import { RecordingJudge } from "./recording-judge.ts";

/** What `family` reported on a session with `target`, opened with `options`. */
export async function judgedSession(
  target: CheckTarget,
  options: SessionOptions,
  family: (session: CheckSession, judge: RecordingJudge) => Promise<unknown>,
): Promise<RecordingJudge> {
  const judge = new RecordingJudge();
  const session = await openSession(target, options);
  try {
    await family(session, judge);
  } finally {
    await session.close();
  }
  return judge;
}
