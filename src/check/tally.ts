// How a family reports a rule it evaluates many times (once per tool, per notification, per
// request a probe sends): each break as it is found, and once at the end a pass when it held
// everywhere it applied, or a skip saying why it applied nowhere.

import type { Judge, Rule, Seen } from "./rule.ts";

/** A rule's evaluations, reported into a Judge as they come and closed with `done` or `finish`. */
export class Tally {
  readonly #judge: Judge;
  readonly #held = new Set<Rule>();
  readonly #broken = new Set<Rule>();
  readonly #reasons = new Map<Rule, string>();

  constructor(judge: Judge) {
    this.#judge = judge;
  }

  /** `rule` was evaluated once (on one item, by one request) and held. */
  held(rule: Rule): void {
    this.#held.add(rule);
  }

  /** `rule` was broken here: reported now (the Judge keeps the first places and counts the rest: verdicts.ts). */
  fail(rule: Rule, detail: string, seen?: Seen): void {
    this.#broken.add(rule);
    this.#judge.fail(rule, detail, seen);
  }

  /** `rule` could not be evaluated here, for `reason` (the first one given is kept). */
  cannot(rule: Rule, reason: string): void {
    if (!this.#reasons.has(rule)) this.#reasons.set(rule, reason);
  }

  /** Closes `rule`: passed when it held somewhere and broke nowhere; skipped (the first `cannot` reason, else `reason`) when never evaluated. */
  done(rule: Rule, reason: string): void {
    if (this.#broken.has(rule)) return;
    if (this.#held.has(rule)) this.#judge.pass(rule);
    else this.#judge.skip(rule, this.#reasons.get(rule) ?? reason);
  }

  /** Closes each of `rules` (done), those never evaluated nor given a reason said to be unreached. */
  finish(rules: readonly Rule[]): void {
    for (const rule of rules) this.done(rule, "not evaluated: the probes before it did not get that far");
  }
}

/** `version` is `since` or later (protocol versions are dates, so they compare as strings). */
export function atLeast(version: string, since: string): boolean {
  return version >= since;
}
