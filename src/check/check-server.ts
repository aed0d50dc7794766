// checkServer: a verdict on one MCP server (docs/check.md). For each era it checks (those the
// server offers, or the one asked for) it opens a session as a client, walks what the server
// declares, runs each family's probes, closes, then runs each family's judges over what was
// seen; the report is every rule's outcome by era. A family that fails (a bug of ours, input no
// rule foresaw) costs only its own rules: the report says so and the others still run.

import type { ProtocolEra } from "../client/protocol-version.ts";
import { messageOf } from "../common/error-text.ts";
import type { TraceSink } from "../transport/trace-event.ts";
import type { ClientTransport } from "../transport/transport.ts";
import { type CheckOptions, DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import { FAMILIES, type ProbeContext } from "./families.ts";
import { methodTimings } from "./hygiene.ts";
import { type ErasOffered, erasOffered } from "./lifecycle.ts";
import type { WalkResult } from "./list-walk.ts";
import { type CheckReport, type EraCheck, REPORT_FORMAT, ruleResult, summarize } from "./report.ts";
import { CheckSessionError, openSession, SessionLog } from "./session.ts";
import type { CheckTarget } from "./target.ts";
import { Verdicts } from "./verdicts.ts";

function isTransport(target: CheckTarget | ClientTransport): target is ClientTransport {
  return typeof (target as ClientTransport).send === "function";
}

/**
 * A bare transport serves one connection: the check opens one session on it, in the era a client
 * negotiates, and skips what needs the server again (lifecycle and transport probes say so).
 */
function targetOf(target: CheckTarget | ClientTransport): CheckTarget {
  if (!isTransport(target)) return target;
  let used = false;
  return {
    kind: "transport",
    description: target.description,
    make: () => {
      if (used) {
        const message =
          `${target.description}: checkServer was given one transport, and it serves one connection; give a target ({ kind: "stdio", … }) to let the check connect again`;
        throw new CheckSessionError(message, { messages: [], problems: [] });
      }
      used = true;
      return target;
    },
  };
}

function describe(target: CheckTarget): string {
  switch (target.kind) {
    case "stdio":
      return `stdio ${JSON.stringify([target.stdio.command, ...(target.stdio.args ?? [])].join(" "))}`;
    case "http":
      return `Streamable HTTP ${target.http.url}`;
    case "sse":
      return `HTTP+SSE ${target.http.url}`;
    case "transport":
      return target.description;
  }
}

/**
 * Checks the server `target` names (or the one a transport is connected to) and reports what it
 * broke: `const report = await checkServer({ kind: "stdio", stdio: { command: "node", args: ["server.js"] } })`.
 * Never throws for anything the server does; `report.error` says when it could not be reached.
 */
export async function checkServer(target: CheckTarget | ClientTransport, options: CheckOptions = {}): Promise<CheckReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const reached = targetOf(target);
  const report: CheckReport = {
    format: REPORT_FORMAT,
    target: describe(reached),
    erasOffered: [],
    eras: [],
    summary: summarize([]),
    startedAt,
    durationMs: 0,
  };
  const wanted = options.era ?? "all";
  // One numbering for every connection of the check, as one --trace-file has (session.ts).
  const log = new SessionLog(started);
  let eras: Array<ProtocolEra | "auto">;
  let offered: ErasOffered | undefined;
  if (wanted === "all" && reached.kind !== "transport") {
    offered = await erasOffered(reached, { log, timeoutMs: options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, ...traceOf(options) });
    if (offered.modern) report.erasOffered.push("modern");
    if (offered.legacy) report.erasOffered.push("legacy");
    eras = report.erasOffered.length > 0 ? [...report.erasOffered] : ["auto"];
  } else eras = [wanted === "all" ? "auto" : wanted];
  for (const era of eras) {
    if (options.signal?.aborted === true) break;
    try {
      report.eras.push(await checkEra(reached, era, { options, log, ...(offered === undefined ? {} : { offered }) }));
    } catch (error) {
      // The session could not be opened: nothing of this era can be judged.
      report.error = `${era === "auto" ? "" : `${era === "modern" ? "2026-07-28" : "handshake"} era: `}${messageOf(error)}`;
    }
  }
  report.summary = summarize(report.eras);
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

/** What checkEra is given besides the target and the era. */
interface EraSettings {
  options: CheckOptions;
  log: SessionLog;
  offered?: ErasOffered;
}

function traceOf(options: CheckOptions): { trace?: TraceSink; server?: string } {
  return {
    ...(options.trace === undefined ? {} : { trace: options.trace }),
    ...(options.name === undefined ? {} : { server: options.name }),
  };
}

/**
 * The era's session: over Streamable HTTP first, and for a configured `transport: auto` the
 * legacy HTTP+SSE transport when that fails (spec 2025-11-25 basic/transports, "Backwards
 * Compatibility"); the target the probes then reach is the one that answered.
 */
async function openEraSession(target: CheckTarget, era: ProtocolEra | "auto", settings: EraSettings) {
  const timeoutMs = settings.options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const options = { protocol: era, timeoutMs, log: settings.log, ...traceOf(settings.options) };
  try {
    return { session: await openSession(target, options), target };
  } catch (error) {
    if (target.kind !== "http" || target.fallback !== true) throw error;
    const legacy: CheckTarget = { kind: "sse", http: target.http };
    return { session: await openSession(legacy, options), target: legacy };
  }
}

/** One era's check: a session walked and probed, then judged. */
async function checkEra(target: CheckTarget, era: ProtocolEra | "auto", settings: EraSettings): Promise<EraCheck> {
  const { options, log } = settings;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const opened = await openEraSession(target, era, settings);
  const session = opened.session;
  const judge = new Verdicts();
  const problems: string[] = [];
  try {
    let walked: WalkResult = { lists: {}, walks: [] };
    try {
      walked = await session.walk({ timeoutMs });
    } catch (error) {
      problems.push(`the walk of the lists: ${messageOf(error)}`);
    }
    const context: ProbeContext = {
      target: opened.target.kind === "transport" ? undefined : opened.target,
      session,
      walked,
      options,
      timeoutMs,
      log,
      ...(options.trace === undefined ? {} : { trace: options.trace }),
      ...(settings.offered === undefined ? {} : { offered: settings.offered }),
    };
    for (const family of FAMILIES) {
      if (family.probe === undefined || options.signal?.aborted === true) continue;
      try {
        await family.probe(context, judge);
      } catch (error) {
        problems.push(`${family.name}: ${messageOf(error)}`);
      }
    }
  } finally {
    await session.close();
  }
  const observed = session.observed();
  for (const family of FAMILIES) {
    if (family.judge === undefined) continue;
    try {
      await family.judge(observed, judge);
    } catch (error) {
      problems.push(`${family.name}: ${messageOf(error)}`);
    }
  }
  const result = observed.negotiation?.result as { serverInfo?: { name?: unknown; version?: unknown; title?: unknown } } | undefined;
  const info = result?.serverInfo;
  const check: EraCheck = {
    era: observed.era,
    protocolVersion: observed.protocolVersion,
    rules: judge.outcomes().map(ruleResult),
    timings: methodTimings(observed),
    messages: observed.messages.length,
  };
  if (info !== undefined && info !== null && typeof info === "object") {
    check.server = {};
    if (typeof info.name === "string") check.server.name = info.name;
    if (typeof info.version === "string") check.server.version = info.version;
    if (typeof info.title === "string") check.server.title = info.title;
  }
  if (problems.length > 0) check.problems = problems;
  return check;
}
