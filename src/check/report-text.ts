// A check's report as a person reads it (`mcpwire check` without --json): per era, the rules by
// area — each broken one with where it was seen, the spec section and what to change — then the
// summary line `N checks, M MUST broken, S SHOULD broken`. Every text a server chose (its name,
// a detail quoting its message) is made printable here: no escape sequence reaches a terminal.

import { clipLine } from "../common/preview.ts";
import { terminalLine } from "../common/terminal-text.ts";
import type { CheckReport, EraCheck, RuleResult } from "./report.ts";
import { AREAS, type Citation } from "./rule.ts";

/** How a report is printed: `verbose` lists the rules that held and the skipped ones with why. */
export interface ReportTextOptions {
  verbose?: boolean;
}

const LEVEL_MARK = { MUST: "✗ MUST  ", SHOULD: "! SHOULD", MAY: "· MAY   " } as const;

/** `spec 2025-11-25 basic/lifecycle, "Version Negotiation"` · `JSON-RPC 2.0 §5.1` · `RFC 6570 §2.2`. */
export function citationText(spec: Citation): string {
  const section = spec.section === undefined ? "" : `, "${spec.section}"`;
  if (spec.source === "json-rpc-2.0") return `JSON-RPC 2.0 §${spec.page}${section}`;
  if (spec.source === "rfc6570" || spec.source === "rfc3986") return `RFC ${spec.source.slice(3)} ${spec.page}${section}`.trimEnd();
  return `spec ${spec.source} ${spec.page}${section}`;
}

/** One line, printable and at most `max` characters: what the server wrote, as the report quotes it. */
function quoted(text: string, max = 200): string {
  return terminalLine(clipLine(text, max));
}

/** The summary line: `42 checks, 1 MUST broken, 2 SHOULD broken (1 MAY noted, 5 skipped) in 1.8 s`. */
export function summaryLine(report: CheckReport): string {
  const { summary } = report;
  const extra = [`${summary.may} MAY noted`, `${summary.skipped} skipped`].join(", ");
  return `${summary.checks} checks, ${summary.must} MUST broken, ${summary.should} SHOULD broken (${extra}) in ${(report.durationMs / 1000).toFixed(1)} s`;
}

function ruleLines(rule: RuleResult): string[] {
  const lines = [`  ${LEVEL_MARK[rule.level]} ${rule.id}: ${rule.title}`];
  for (const finding of rule.findings) {
    const where = [
      finding.seen?.index === undefined ? undefined : `#${finding.seen.index}`,
      finding.seen?.http === undefined ? undefined : quoted(finding.seen.http, 120),
      finding.seen?.pointer === undefined ? undefined : quoted(finding.seen.pointer, 120),
    ].filter((part) => part !== undefined).join(" ");
    lines.push(`      ${where === "" ? "" : `${where}: `}${quoted(finding.detail, 400)}`);
    if (finding.seen?.excerpt !== undefined) lines.push(`        seen: ${quoted(finding.seen.excerpt, 160)}`);
  }
  if (rule.more > 0) lines.push(`      … and ${rule.more} more`);
  lines.push(`      ${citationText(rule.spec)}`, `      fix: ${rule.fix}`);
  return lines;
}

function eraLines(era: EraCheck, options: ReportTextOptions): string[] {
  const who = era.server === undefined ? "" : ` — ${quoted([era.server.name, era.server.version].filter((part) => part !== undefined).join(" "), 80)}`;
  const lines = [`${era.era === "modern" ? "2026-07-28 era" : "handshake era"} (${quoted(era.protocolVersion, 40)})${who}`];
  for (const area of AREAS) {
    const rules = era.rules.filter((rule) => rule.area === area);
    if (rules.length === 0) continue;
    const count = (status: RuleResult["status"]): number => rules.filter((rule) => rule.status === status).length;
    const skipped = count("skipped");
    lines.push(` ${area.padEnd(13)} ${count("passed")} held, ${count("failed")} broken${skipped > 0 ? `, ${skipped} skipped` : ""}`);
    for (const rule of rules) {
      if (rule.status === "failed") lines.push(...ruleLines(rule));
      else if (options.verbose === true) {
        lines.push(rule.status === "passed" ? `  ✓ ${rule.id}` : `  - ${rule.id}: skipped, ${quoted(rule.reason ?? "", 200)}`);
      }
    }
  }
  for (const problem of era.problems ?? []) lines.push(` could not finish ${quoted(problem, 400)} (its rules are left unjudged)`);
  if (era.timings.length > 0) {
    lines.push(" response times (median / max, ms):");
    for (const timing of era.timings) {
      lines.push(`  ${quoted(timing.method, 60).padEnd(28)} ${String(timing.count).padStart(4)}×  ${timing.medianMs.toFixed(1)} / ${timing.maxMs.toFixed(1)}`);
    }
  }
  return lines;
}

/** The whole report as text, ending with the summary line. */
export function reportText(report: CheckReport, options: ReportTextOptions = {}): string {
  const lines = [`mcpwire check: ${quoted(report.target, 200)}`];
  if (report.error !== undefined) lines.push(`  could not check it: ${quoted(report.error, 600)}`);
  if (report.erasOffered.length > 0) {
    lines.push(`  eras offered: ${report.erasOffered.map((era) => era === "modern" ? "2026-07-28 (server/discover)" : "handshake (initialize)").join(", ")}`);
  }
  for (const era of report.eras) lines.push("", ...eraLines(era, options));
  lines.push("", summaryLine(report));
  return lines.join("\n") + "\n";
}
