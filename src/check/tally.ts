// How a passive family reports a rule it evaluates many times (once per tool, per resource, per
// notification): each failure as it is found, and once at the end a pass when it held
// everywhere it applied, or a skip saying why it applied nowhere.

import type { Judge, Rule, Seen } from "./rule.ts";

/** A rule's evaluations over a session, reported into a Judge as they come and closed with `done`. */
export class Tally {
  readonly #judge: Judge;
  readonly #evaluated = new Set<Rule>();
  readonly #broken = new Set<Rule>();

  constructor(judge: Judge) {
    this.#judge = judge;
  }

  /** `rule` was evaluated once (on one item) and held. */
  held(rule: Rule): void {
    this.#evaluated.add(rule);
  }

  /** `rule` was evaluated and broken here (the Judge keeps the first places and counts the rest: verdicts.ts). */
  fail(rule: Rule, detail: string, seen?: Seen): void {
    this.#evaluated.add(rule);
    this.#broken.add(rule);
    this.#judge.fail(rule, detail, seen);
  }

  /** Reports `rule` as passed when it was evaluated and never broken, skipped with `reason` when never evaluated. */
  done(rule: Rule, reason: string): void {
    if (this.#broken.has(rule)) return;
    if (this.#evaluated.has(rule)) this.#judge.pass(rule);
    else this.#judge.skip(rule, reason);
  }
}

/** `version` is `since` or later (protocol versions are dates, so they compare as strings). */
export function atLeast(version: string, since: string): boolean {
  return version >= since;
}

/** A JSON Pointer token (RFC 6901 section 3): "~" as "~0", "/" as "~1". */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}
