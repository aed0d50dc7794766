// The families of rules a check runs, in order (docs/check.md lists their rules). A family
// probes — it asks the server something while the session is open, or reaches the server again
// on its own (a fresh connection, the transport's wire by hand) — or judges what the session
// saw once it is closed, or both. Each reports into the era's Judge.

import { isObject } from "../common/json.ts";
import type { TraceSink } from "../transport/trace-event.ts";
import { probeCalls, type RequestedCall } from "./call-probe.ts";
import { CapabilityRules, judgeCapabilitiesKept, probeCapabilities } from "./capability-probes.ts";
import { CapabilityUseRules, judgeCapabilityUse } from "./capability-use.ts";
import type { CheckOptions } from "./check-options.ts";
import { DefinitionRules, judgeDefinitions } from "./definitions.ts";
import { DuplicateRules, judgeDuplicates } from "./duplicates.ts";
import { EnvelopeRules, judgeEnvelope } from "./envelope.ts";
import { HygieneRules, judgeHygiene } from "./hygiene.ts";
import { JsonRpcRules, probeJsonRpc } from "./jsonrpc-probes.ts";
import { LegacySseRules, probeLegacySse } from "./legacy-sse-probe.ts";
import { type ErasOffered, LifecycleRules, probeLifecycle } from "./lifecycle.ts";
import { ListRules, probeLists } from "./list-probes.ts";
import type { WalkResult } from "./list-walk.ts";
import { judgeSchema, SchemaRules } from "./message-schema.ts";
import type { Observed } from "./observed.ts";
import type { Judge, Rule } from "./rule.ts";
import type { CheckSession, SessionLog } from "./session.ts";
import { probeStdio, StdioRules } from "./stdio-probe.ts";
import { probeStreamableHttp, StreamableHttpRules } from "./streamable-http-probe.ts";
import type { CheckTarget } from "./target.ts";
import { CallRules } from "./tool-call.ts";

/** What a family's probes are given: the server to reach again, the open session and its walk, the check's options. */
export interface ProbeContext {
  /** The server as the check can reach it again; undefined for a bare transport (one connection only). */
  target: CheckTarget | undefined;
  session: CheckSession;
  walked: WalkResult;
  options: CheckOptions;
  /** The longest wait for any one answer, in ms. */
  timeoutMs: number;
  /** The check's one numbering of messages, shared by every connection it opens. */
  log: SessionLog;
  trace?: TraceSink;
  /** The eras the server offers, when the check asked (`--era all`). */
  offered?: ErasOffered;
}

/** One family of rules. */
export interface Family {
  /** Names it in a report's problems. */
  name: string;
  /** Its rules, for the catalogue (docs/check.md). */
  rules: readonly Rule[];
  /** Runs while the era's session is open, after its walk. */
  probe?(context: ProbeContext, judge: Judge): Promise<void>;
  /** Runs over what the session saw, once it is closed. */
  judge?(observed: Observed, judge: Judge): void | Promise<void>;
}

const rulesOf = (table: Readonly<Record<string, Rule>>): Rule[] => Object.values(table);

/** The calls asked for, their arguments made from the tool's listed inputSchema where a function makes them. */
function requestedCalls(context: ProbeContext): RequestedCall[] {
  const tools = context.walked.lists.tools ?? [];
  return (context.options.calls ?? []).map((call) => {
    if (typeof call.arguments !== "function") return { tool: call.name, ...(call.arguments === undefined ? {} : { arguments: call.arguments }) };
    const listed = tools.find((item) => isObject(item.value) && item.value.name === call.name)?.value;
    return { tool: call.name, arguments: call.arguments(isObject(listed) ? listed.inputSchema : undefined) };
  });
}

/** Every family, in the order they run: probes first (session open), then judges (session closed). */
export const FAMILIES: readonly Family[] = [
  {
    name: "lifecycle",
    rules: rulesOf(LifecycleRules),
    probe: async (context, judge) => {
      const { session, target, timeoutMs, log, trace } = context;
      await probeLifecycle({ session, judge, timeoutMs, log, ...(target === undefined ? {} : { target }), ...(trace === undefined ? {} : { trace }) });
    },
  },
  {
    name: "json-rpc",
    rules: rulesOf(JsonRpcRules),
    probe: (context, judge) => {
      const toolNames = (context.walked.lists.tools ?? []).flatMap((item) =>
        isObject(item.value) && typeof item.value.name === "string" ? [item.value.name] : []
      );
      return probeJsonRpc(context.session, judge, { timeoutMs: context.timeoutMs, toolNames });
    },
  },
  { name: "lists", rules: rulesOf(ListRules), probe: (context, judge) => probeLists(context.session, context.walked, judge, { timeoutMs: context.timeoutMs }) },
  {
    name: "capabilities",
    rules: [...rulesOf(CapabilityRules), ...rulesOf(CapabilityUseRules)],
    probe: (context, judge) => probeCapabilities(context.session, context.walked, judge, { timeoutMs: context.timeoutMs }),
    judge: (observed, judge) => {
      judgeCapabilitiesKept(observed, judge);
      judgeCapabilityUse(observed, judge);
    },
  },
  {
    name: "calls",
    rules: rulesOf(CallRules),
    probe: async (context, judge) => {
      const calls = requestedCalls(context);
      const readOnly = context.options.callReadOnly === true;
      if (calls.length === 0 && !readOnly) {
        for (const each of rulesOf(CallRules)) judge.skip(each, "no tool is called unless asked: --call TOOL or --call-read-only");
        return;
      }
      await probeCalls(context.session, context.walked, judge, { calls, readOnly, timeoutMs: Math.max(context.timeoutMs, 30_000) });
      for (const each of rulesOf(CallRules)) judge.skip(each, "no call asked for was answered");
    },
  },
  {
    name: "transport",
    rules: [...rulesOf(StdioRules), ...rulesOf(StreamableHttpRules), ...rulesOf(LegacySseRules)],
    probe: async (context, judge) => {
      const { target, session, timeoutMs } = context;
      const signal = context.options.signal;
      const options = { timeoutMs, ...(signal === undefined ? {} : { signal }) };
      if (target?.kind === "stdio") await probeStdio(target.stdio, { era: session.era, protocolVersion: session.protocolVersion }, judge, { timeoutMs });
      else if (target?.kind === "sse") await probeLegacySse(target.http, judge, options);
      else if (target?.kind === "http") {
        const offersLegacy = context.offered?.legacy;
        await probeStreamableHttp(
          target.http,
          { era: session.era, protocolVersion: session.protocolVersion, ...(offersLegacy === undefined ? {} : { offersLegacy }) },
          judge,
          options,
        );
      }
    },
  },
  // spec 2025-11-25 schema: the interpreting validator reads these 2020-12 schemas as ajv does, and
  // loads in a tenth of the time (no code generated); a check's messages are few.
  { name: "schema", rules: rulesOf(SchemaRules), judge: (observed, judge) => judgeSchema(observed, judge, { jsonSchema: "interpreting" }) },
  { name: "json-rpc envelope", rules: rulesOf(EnvelopeRules), judge: judgeEnvelope },
  {
    name: "definitions",
    rules: [...rulesOf(DefinitionRules), ...rulesOf(DuplicateRules)],
    judge: async (observed, judge) => {
      await judgeDefinitions(observed, judge);
      judgeDuplicates(observed, judge);
    },
  },
  { name: "hygiene", rules: rulesOf(HygieneRules), judge: judgeHygiene },
];

/** Every rule of every family, in the order the families run: the catalogue docs/check.md lists. */
export function checkRules(): Rule[] {
  return FAMILIES.flatMap((family) => family.rules);
}
