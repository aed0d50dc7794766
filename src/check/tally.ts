// How a passive family reports a rule it evaluates many times (once per tool, per resource, per
// notification): each failure as it is found, and once at the end a pass when it held
// everywhere it applied, or a skip saying why it applied nowhere.

import type { Judge, Rule, Seen } from "./rule.ts";

/** The most findings one rule reports in one session: a server with 5000 bad tools gets 50 and a count. */
export const MAX_FINDINGS_PER_RULE = 50;

/** A rule's evaluations over a session, reported into a Judge as they come and closed with `done`. */
export class Tally {
  readonly #judge: Judge;
  readonly #evaluated = new Set<Rule>();
  readonly #failures = new Map<Rule, number>();

  constructor(judge: Judge) {
    this.#judge = judge;
  }

  /** `rule` was evaluated once (on one item) and held. */
  held(rule: Rule): void {
    this.#evaluated.add(rule);
  }

  /** `rule` was evaluated and broken here; past MAX_FINDINGS_PER_RULE only counted. */
  fail(rule: Rule, detail: string, seen?: Seen): void {
    this.#evaluated.add(rule);
    const count = (this.#failures.get(rule) ?? 0) + 1;
    this.#failures.set(rule, count);
    if (count <= MAX_FINDINGS_PER_RULE) this.#judge.fail(rule, detail, seen);
  }

  /** Reports `rule` as passed when it was evaluated and never broken, skipped with `reason` when never evaluated. */
  done(rule: Rule, reason: string): void {
    const failures = this.#failures.get(rule) ?? 0;
    if (failures > MAX_FINDINGS_PER_RULE) {
      this.#judge.fail(rule, `${failures - MAX_FINDINGS_PER_RULE} more places break this rule (the first ${MAX_FINDINGS_PER_RULE} are listed)`);
    }
    if (failures > 0) return;
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

/** At most `max` characters of `text`, for a Seen excerpt (the report makes it printable). */
export function excerptOf(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
