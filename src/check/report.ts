// A check's report: what `checkServer` returns and `mcpwire check --json` prints (docs/check.md
// documents it field by field; `format` changes only when a field changes meaning). One section
// per era checked, each rule's outcome in it, and a summary that decides the exit code.

import type { ProtocolEra } from "../client/protocol-version.ts";
import type { Area, Citation, Finding, Level } from "./rule.ts";
import type { RuleOutcome, RuleStatus } from "./verdicts.ts";

/** The version of the report's JSON form. */
export const REPORT_FORMAT = 1;

/** One rule's outcome as a report gives it. */
export interface RuleResult {
  id: string;
  level: Level;
  area: Area;
  title: string;
  spec: Citation;
  /** What a server author changes when it is broken. */
  fix: string;
  status: RuleStatus;
  /** Skipped: why. */
  reason?: string;
  /** Failed: where (at most 20), and how many more places past those. */
  findings: Finding[];
  more: number;
}

/** How fast the server answered one method in this session. */
export interface MethodTiming {
  method: string;
  count: number;
  medianMs: number;
  maxMs: number;
}

/** One era's check. */
export interface EraCheck {
  era: ProtocolEra;
  /** The version negotiated in this era. */
  protocolVersion: string;
  /** The server as it named itself (serverInfo), untrusted text: made printable only when printed. */
  server?: { name?: string; version?: string; title?: string };
  rules: RuleResult[];
  timings: MethodTiming[];
  /** Messages this era's main session exchanged (a finding's `seen.index` counts in them). */
  messages: number;
  /** A family of rules that could not finish (its rules left unjudged): which, and why. */
  problems?: string[];
}

/** How many rules were judged, and how many of each level were broken. */
export interface CheckSummary {
  /** Rules judged (passed or failed), summed over the eras. */
  checks: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Rules broken, by level. */
  must: number;
  should: number;
  may: number;
}

/** What `checkServer` returns. */
export interface CheckReport {
  format: typeof REPORT_FORMAT;
  /** The server checked, as its transport describes it (redacted). */
  target: string;
  /** The eras the server offered (`server/discover` answered: modern; `initialize` answered: legacy). */
  erasOffered: ProtocolEra[];
  eras: EraCheck[];
  summary: CheckSummary;
  /** The check could not reach the server at all: why (then `eras` is empty). */
  error?: string;
  startedAt: string;
  durationMs: number;
}

/** A rule's outcome as the report carries it. */
export function ruleResult(outcome: RuleOutcome): RuleResult {
  const { rule } = outcome;
  const result: RuleResult = {
    id: rule.id,
    level: rule.level,
    area: rule.area,
    title: rule.title,
    spec: rule.spec,
    fix: rule.fix,
    status: outcome.status,
    findings: outcome.findings,
    more: outcome.more,
  };
  if (outcome.reason !== undefined) result.reason = outcome.reason;
  return result;
}

/** The summary of `eras`. */
export function summarize(eras: readonly EraCheck[]): CheckSummary {
  const summary: CheckSummary = { checks: 0, passed: 0, failed: 0, skipped: 0, must: 0, should: 0, may: 0 };
  for (const era of eras) {
    for (const rule of era.rules) {
      if (rule.status === "skipped") {
        summary.skipped++;
        continue;
      }
      summary.checks++;
      if (rule.status === "passed") summary.passed++;
      else {
        summary.failed++;
        if (rule.level === "MUST") summary.must++;
        else if (rule.level === "SHOULD") summary.should++;
        else summary.may++;
      }
    }
  }
  return summary;
}

/** The verdict: true when no MUST is broken (with `strict`, no SHOULD either) and the server was reached. */
export function reportPasses(report: CheckReport, strict = false): boolean {
  if (report.error !== undefined) return false;
  return report.summary.must === 0 && (!strict || report.summary.should === 0);
}
