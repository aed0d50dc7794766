// Test helper: a Judge (src/check/rule.ts) that keeps every verdict a family of `mcpwire check`
// gives, by rule id, for tests to read back.

import assert from "node:assert/strict";
import type { Judge, Rule, Seen } from "../../src/check/rule.ts";

export type Verdict = { verdict: "pass" } | { verdict: "fail"; detail: string; seen?: Seen } | { verdict: "skip"; reason: string };

/** Every pass, fail and skip, by rule id, in order. */
export class RecordingJudge implements Judge {
  readonly verdicts = new Map<string, Verdict[]>();
  #add(rule: Rule, verdict: Verdict): void {
    this.verdicts.set(rule.id, [...(this.verdicts.get(rule.id) ?? []), verdict]);
  }
  pass(rule: Rule): void {
    this.#add(rule, { verdict: "pass" });
  }
  fail(rule: Rule, detail: string, seen?: Seen): void {
    this.#add(rule, { verdict: "fail", detail, seen });
  }
  skip(rule: Rule, reason: string): void {
    this.#add(rule, { verdict: "skip", reason });
  }
  /** Every failure, in order. */
  failures(): { rule: string; detail: string; seen?: Seen }[] {
    return [...this.verdicts].flatMap(([rule, list]) =>
      list.flatMap((each) => (each.verdict === "fail" ? [{ rule, detail: each.detail, seen: each.seen }] : []))
    );
  }
  /** What became of `rule`: "fail" if it failed anywhere, else its one verdict (asserted to be one). */
  outcome(rule: Rule): string {
    const list = this.verdicts.get(rule.id) ?? [];
    if (list.some((each) => each.verdict === "fail")) return "fail";
    assert.equal(list.length, 1, `${rule.id}: one verdict when not failed, got ${JSON.stringify(list)}`);
    return list[0]!.verdict;
  }
  /** The reason `rule` was skipped (asserted to be skipped once). */
  skipReason(rule: Rule): string {
    const list = this.verdicts.get(rule.id) ?? [];
    assert.equal(list.length, 1, `${rule.id}: ${JSON.stringify(list)}`);
    assert.equal(list[0]!.verdict, "skip", `${rule.id}: ${JSON.stringify(list)}`);
    return (list[0] as { reason: string }).reason;
  }
}
