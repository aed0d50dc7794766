// mcpwire/check: a verdict on any MCP server, seen from the client (docs/check.md). `checkServer`
// connects, walks what the server declares, probes, and judges every message against the JSON
// Schema of the version it negotiated and the rules of the specification; each finding names
// its rule, its level (MUST, SHOULD, MAY), the spec section and where it was seen. A server's
// own test suite can run it: `const report = await checkServer(transport)`.

export { type CheckOptions, DEFAULT_CHECK_TIMEOUT_MS, type ToolCall } from "./check-options.ts";
export { checkServer } from "./check-server.ts";
export { checkRules } from "./families.ts";
export type { Observed } from "./observed.ts";
export { type CheckReport, type CheckSummary, type EraCheck, type MethodTiming, REPORT_FORMAT, reportPasses, type RuleResult } from "./report.ts";
export { citationText, reportText, type ReportTextOptions, summaryLine } from "./report-text.ts";
export type { Area, Citation, Finding, Level, Rule, Seen, SeenMessage, SpecSource } from "./rule.ts";
export type { CheckTarget, HttpTarget } from "./target.ts";
export type { RuleStatus } from "./verdicts.ts";
