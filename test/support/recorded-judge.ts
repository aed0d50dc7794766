// Test helper: a check Judge (src/check/rule.ts) that keeps each rule's outcome, for the tests
// of the check's families to assert on: passed, failed (with every detail and place), or skipped
// (with why).

import assert from "node:assert/strict";
import type { Judge, Rule, Seen } from "../../src/check/rule.ts";

export type Outcome = { outcome: "pass" } | { outcome: "fail"; details: string[]; seen: (Seen | undefined)[] } | { outcome: "skip"; reason: string };

/** A Judge that keeps each rule's outcome (a fail wins over a pass, as a report counts it). */
export class RecordedJudge implements Judge {
  readonly outcomes = new Map<string, Outcome>();

  pass(rule: Rule): void {
    if (!this.outcomes.has(rule.id)) this.outcomes.set(rule.id, { outcome: "pass" });
  }

  fail(rule: Rule, detail: string, seen?: Seen): void {
    const had = this.outcomes.get(rule.id);
    if (had?.outcome === "fail") {
      had.details.push(detail);
      had.seen.push(seen);
    } else this.outcomes.set(rule.id, { outcome: "fail", details: [detail], seen: [seen] });
  }

  skip(rule: Rule, reason: string): void {
    this.outcomes.set(rule.id, { outcome: "skip", reason });
  }

  /** The rule's outcome; fails the test when the rule was not judged at all. */
  of(rule: Rule): Outcome {
    const outcome = this.outcomes.get(rule.id);
    assert.ok(outcome, `${rule.id} was not judged`);
    return outcome;
  }

  /** "pass", "fail" or "skip" of each rule judged, by id. */
  summary(): Record<string, string> {
    return Object.fromEntries([...this.outcomes].map(([id, outcome]) => [id, outcome.outcome]));
  }
}
