// The Judge a check's families report into: for each rule, whether it held, was broken (and
// where, each place a finding) or could not be judged (and why). A rule evaluated many times
// (once per message, once per tool) is one check: broken once, it is broken.

import type { Finding, Judge, Rule, Seen } from "./rule.ts";

/** What became of one rule in one era's check. */
export type RuleStatus = "passed" | "failed" | "skipped";

/** One rule's outcome. */
export interface RuleOutcome {
  rule: Rule;
  status: RuleStatus;
  /** Skipped: why it could not be judged. */
  reason?: string;
  /** Failed: the places it was broken that the report keeps (at most MAX_FINDINGS_PER_RULE). */
  findings: Finding[];
  /** Failed: the places past those kept (the report says "and N more"). */
  more: number;
}

/** A rule broken in a thousand messages says so in twenty findings and a count. */
export const MAX_FINDINGS_PER_RULE = 20;

/** Collects the families' reports for one era's check, in the order the rules were first judged. */
export class Verdicts implements Judge {
  readonly #outcomes = new Map<string, RuleOutcome>();

  #outcome(rule: Rule): RuleOutcome {
    let outcome = this.#outcomes.get(rule.id);
    if (outcome === undefined) {
      outcome = { rule, status: "skipped", findings: [], more: 0 };
      this.#outcomes.set(rule.id, outcome);
    }
    return outcome;
  }

  pass(rule: Rule): void {
    const outcome = this.#outcome(rule);
    if (outcome.status === "skipped") {
      outcome.status = "passed";
      delete outcome.reason;
    }
  }

  fail(rule: Rule, detail: string, seen?: Seen): void {
    const outcome = this.#outcome(rule);
    outcome.status = "failed";
    delete outcome.reason;
    if (outcome.findings.length >= MAX_FINDINGS_PER_RULE) {
      outcome.more++;
      return;
    }
    const finding: Finding = { rule: rule.id, level: rule.level, area: rule.area, title: rule.title, spec: rule.spec, detail, fix: rule.fix };
    if (seen !== undefined) finding.seen = seen;
    outcome.findings.push(finding);
  }

  skip(rule: Rule, reason: string): void {
    const outcome = this.#outcome(rule);
    // A rule judged elsewhere (passed or failed) stays judged; the first reason to skip is kept.
    if (outcome.status === "skipped" && outcome.reason === undefined) outcome.reason = reason;
  }

  /** Every rule judged or skipped, in the order first reported. */
  outcomes(): RuleOutcome[] {
    return [...this.#outcomes.values()];
  }
}
