// The check's tool calls, made only when asked (docs/check.md, `--call TOOL ARGS`,
// `--call-read-only`): a call has side effects, so the check never calls a tool on its own. Each
// call goes through the session's Client (CheckSession.request "tools/call"); its answer, as the
// server sent it, goes to the calls family's judge (tool-call.ts judgeCallResult) — spec 2025-11-25
// server/tools ("Calling Tools", "Tool Result"; "Tool Annotations": readOnlyHint).

import { isObject } from "../common/json.ts";
import type { CheckAnswer } from "./answer.ts";
import type { WalkResult } from "./list-walk.ts";
import type { ListedItem } from "./observed.ts";
import type { Judge } from "./rule.ts";
import type { CheckSession } from "./session.ts";
import { argumentsFor } from "./tool-arguments.ts";
import { judgeCallResult } from "./tool-call.ts";

/** A call asked for by name (`--call TOOL ARGS`). */
export interface RequestedCall {
  tool: string;
  arguments?: Record<string, unknown>;
}

/** What the calls asked for did: each call, or why it was not made or not judged. */
export interface CallOutcome {
  tool: string;
  arguments?: Record<string, unknown>;
  /** The answer, when the call was made. */
  answer?: CheckAnswer;
  /** Why the call was not made, or its answer not judged (no answer came). */
  notJudged?: string;
}

/** Options of probeCalls: the calls asked for; nothing is called without them. */
export interface CallProbeOptions {
  /** `--call TOOL ARGS`, in order. */
  calls?: readonly RequestedCall[];
  /** `--call-read-only`: every listed tool annotated readOnlyHint: true, with arguments made from its inputSchema. */
  readOnly?: boolean;
  /** Bound of each call. Default 30 s. */
  timeoutMs?: number;
  /** Most read-only tools called. Default 50. */
  maxReadOnlyCalls?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_READ_ONLY = 50;

/**
 * Makes the calls asked for, in order — first those named, then (with `readOnly`) each tool
 * annotated readOnlyHint — and hands each answer to judgeCallResult. Returns what
 * each call did, for the report.
 */
export async function probeCalls(
  session: CheckSession,
  walked: WalkResult,
  judge: Judge,
  options: CallProbeOptions = {},
): Promise<CallOutcome[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const tools = walked.lists.tools ?? [];
  const outcomes: CallOutcome[] = [];
  for (const asked of options.calls ?? []) {
    const listed = tools.find((item) => isObject(item.value) && item.value.name === asked.tool);
    if (listed === undefined) {
      outcomes.push({ tool: asked.tool, notJudged: `"${asked.tool}" is not among the tools the server listed` });
      continue;
    }
    outcomes.push(await call(session, listed, asked.arguments ?? {}, judge, timeoutMs));
  }
  if (options.readOnly === true) {
    const readOnly = tools.filter((item) => isObject(item.value) && isObject(item.value.annotations) && item.value.annotations.readOnlyHint === true);
    for (const listed of readOnly.slice(0, options.maxReadOnlyCalls ?? DEFAULT_MAX_READ_ONLY)) {
      const tool = listed.value as Record<string, unknown>;
      const name = typeof tool.name === "string" ? tool.name : "";
      const made = argumentsFor(tool.inputSchema);
      if (made === undefined) {
        outcomes.push({ tool: name, notJudged: "no arguments could be made from its inputSchema" });
        continue;
      }
      outcomes.push(await call(session, listed, made, judge, timeoutMs));
    }
    for (const listed of readOnly.slice(options.maxReadOnlyCalls ?? DEFAULT_MAX_READ_ONLY)) {
      const name = isObject(listed.value) && typeof listed.value.name === "string" ? listed.value.name : "";
      outcomes.push({ tool: name, notJudged: `more than ${options.maxReadOnlyCalls ?? DEFAULT_MAX_READ_ONLY} read-only tools: not called` });
    }
  }
  return outcomes;
}

/** One call through the session's Client, its answer judged when one came. */
async function call(
  session: CheckSession,
  listed: ListedItem,
  args: Record<string, unknown>,
  judge: Judge,
  timeoutMs: number,
): Promise<CallOutcome> {
  const tool = listed.value as Record<string, unknown>;
  const name = String(tool.name);
  const answer = await session.request("tools/call", { name, arguments: args }, { timeoutMs });
  const outcome: CallOutcome = { tool: name, arguments: args, answer };
  const seen = "answer" in answer ? session.message(answer.answer) : undefined;
  if (seen === undefined) outcome.notJudged = "timeout" in answer ? `no answer within ${timeoutMs} ms` : "no answer";
  else await judgeCallResult(tool, seen, judge, { protocolVersion: session.protocolVersion, arguments: args });
  return outcome;
}
