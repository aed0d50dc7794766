// Test helper: a Judge (src/check/rule.ts) that records every verdict a family of `mcpwire check`
// gives, in order, for the families' tests to read back: what failed (each detail and place),
// what passed, what was skipped and why, and how each rule came out as a report counts it.

import assert from "node:assert/strict";
import type { Judge, Rule, Seen } from "../../src/check/rule.ts";

/** One pass, fail or skip, as the family gave it. */
export type Verdict =
  | { rule: string; verdict: "pass" }
  | { rule: string; verdict: "fail"; detail: string; seen?: Seen }
  | { rule: string; verdict: "skip"; reason: string };

/** A rule seen broken, in one place. */
export interface Failure {
  rule: string;
  detail: string;
  seen?: Seen;
}

/** How a rule came out: "none" when it was not reported at all. */
export type Outcome = "pass" | "fail" | "skip" | "none";

/** Every pass, fail and skip, in order. */
export class RecordingJudge implements Judge {
  readonly verdicts: Verdict[] = [];
  /** Each rule reported, by id, as the family gave it (its level, its citation). */
  readonly rules = new Map<string, Rule>();

  pass(rule: Rule): void {
    this.rules.set(rule.id, rule);
    this.verdicts.push({ rule: rule.id, verdict: "pass" });
  }

  fail(rule: Rule, detail: string, seen?: Seen): void {
    this.rules.set(rule.id, rule);
    this.verdicts.push(seen === undefined ? { rule: rule.id, verdict: "fail", detail } : { rule: rule.id, verdict: "fail", detail, seen });
  }

  skip(rule: Rule, reason: string): void {
    this.rules.set(rule.id, rule);
    this.verdicts.push({ rule: rule.id, verdict: "skip", reason });
  }

  /** Every failure, in order. */
  get failures(): Failure[] {
    return this.verdicts.flatMap((each) =>
      each.verdict === "fail"
        ? [each.seen === undefined ? { rule: each.rule, detail: each.detail } : { rule: each.rule, detail: each.detail, seen: each.seen }]
        : []
    );
  }

  /** The failures of `rule`, in order. */
  failuresOf(rule: Rule | string): Failure[] {
    const id = idOf(rule);
    return this.failures.filter((each) => each.rule === id);
  }

  /** The id of each pass, in order (a rule passed twice is there twice). */
  get passed(): string[] {
    return this.verdicts.flatMap((each) => each.verdict === "pass" ? [each.rule] : []);
  }

  /** Each skip, in order. */
  get skipped(): { rule: string; reason: string }[] {
    return this.verdicts.flatMap((each) => each.verdict === "skip" ? [{ rule: each.rule, reason: each.reason }] : []);
  }

  /** How `rule` came out, as a report counts it (src/check/verdicts.ts): a failure anywhere wins, then a pass, then a skip. */
  outcome(rule: Rule | string): Outcome {
    const id = idOf(rule);
    const mine = this.verdicts.filter((each) => each.rule === id);
    for (const verdict of ["fail", "pass", "skip"] as const) if (mine.some((each) => each.verdict === verdict)) return verdict;
    return "none";
  }

  /** Why `rule` was skipped (the first reason given); fails the test when its outcome is not "skip". */
  skipReason(rule: Rule | string): string {
    const id = idOf(rule);
    assert.equal(this.outcome(id), "skip", `${id}: ${JSON.stringify(this.verdicts.filter((each) => each.rule === id))}`);
    return this.skipped.find((each) => each.rule === id)!.reason;
  }

  /** The outcome of each rule reported, by id, in the order first reported. */
  summary(): Record<string, Outcome> {
    return Object.fromEntries([...new Set(this.verdicts.map((each) => each.rule))].map((id) => [id, this.outcome(id)]));
  }
}

function idOf(rule: Rule | string): string {
  return typeof rule === "string" ? rule : rule.id;
}
