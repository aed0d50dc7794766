// Test helper: a Judge (src/check/rule.ts) that keeps what a family reported, so a test can ask
// how a rule came out — failed (anywhere), passed, or skipped and why.

import type { Judge, Rule, Seen } from "../../src/check/rule.ts";

export interface Failure {
  rule: string;
  detail: string;
  seen?: Seen;
}

export class RecordingJudge implements Judge {
  readonly passed = new Set<string>();
  readonly failures: Failure[] = [];
  readonly skipped = new Map<string, string>();

  pass(rule: Rule): void {
    this.passed.add(rule.id);
  }

  fail(rule: Rule, detail: string, seen?: Seen): void {
    this.failures.push(seen === undefined ? { rule: rule.id, detail } : { rule: rule.id, detail, seen });
  }

  skip(rule: Rule, reason: string): void {
    this.skipped.set(rule.id, reason);
  }

  /** How `rule` came out: a failure anywhere wins over passes. */
  outcome(rule: Rule): "fail" | "pass" | "skip" | undefined {
    if (this.failures.some((failure) => failure.rule === rule.id)) return "fail";
    if (this.passed.has(rule.id)) return "pass";
    return this.skipped.has(rule.id) ? "skip" : undefined;
  }

  /** The failures of `rule`. */
  failuresOf(rule: Rule): Failure[] {
    return this.failures.filter((failure) => failure.rule === rule.id);
  }
}
