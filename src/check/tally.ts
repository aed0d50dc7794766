// One verdict per rule from a family that evaluates a rule in several places (a probe that sends
// five requests to judge one rule): each break reported where it is seen, then pass or skip once.

import type { Judge, Rule, Seen } from "./rule.ts";

/**
 * One verdict per rule from many evaluations: each break is reported where it is seen (a rule
 * broken once is broken), and at the end a rule that held somewhere and broke nowhere passes,
 * one never evaluated is skipped with the first reason given.
 */
export class Tally {
  readonly #held = new Set<Rule>();
  readonly #broken = new Set<Rule>();
  readonly #reasons = new Map<Rule, string>();
  constructor(readonly judge: Judge) {}

  /** `each` held here. */
  held(each: Rule): void {
    this.#held.add(each);
  }
  /** `each` was broken here: reported now. */
  broken(each: Rule, detail: string, seen?: Seen): void {
    this.#broken.add(each);
    this.judge.fail(each, detail, seen);
  }
  /** `each` could not be evaluated here, for `reason` (the first one given is kept). */
  cannot(each: Rule, reason: string): void {
    if (!this.#reasons.has(each)) this.#reasons.set(each, reason);
  }
  /** The verdicts of `rules` not broken: pass, or skip with why. */
  finish(rules: readonly Rule[]): void {
    for (const each of rules) {
      if (this.#broken.has(each)) continue;
      if (this.#held.has(each)) this.judge.pass(each);
      else this.judge.skip(each, this.#reasons.get(each) ?? "not evaluated: the probes before it did not get that far");
    }
  }
}
