// How the active probes of the check (lifecycle.ts, jsonrpc-probes.ts, list-probes.ts,
// capability-probes.ts) read and describe an answer to what they sent: in the words a finding's
// detail uses, and where it was seen (docs/check.md).

import { boundedJson } from "../common/bounded.ts";
import { isObject } from "../common/json.ts";
import type { Seen } from "./rule.ts";
import type { CheckAnswer } from "./session.ts";

/** Characters of an answer quoted in a finding (the report makes them printable). */
const EXCERPT_CHARS = 200;

/** What the answer was, in a few words: `error -32603 "boom"`, `a result`, `no answer within 5000 ms`. */
export function describeAnswer(answer: CheckAnswer, timeoutMs?: number): string {
  if ("error" in answer) {
    const error = `error ${String(answer.error.code)} ${JSON.stringify(String(answer.error.message).slice(0, 120))}`;
    return "httpStatus" in answer ? `HTTP ${answer.httpStatus} with ${error}` : error;
  }
  if ("result" in answer) return `a result ${boundedJson(answer.result, { maxChars: 120 })}`;
  if ("timeout" in answer) return timeoutMs === undefined ? "no answer in time" : `no answer within ${timeoutMs} ms`;
  if ("sent" in answer) return "nothing (a notification)";
  return `no answer (${answer.failed})`;
}

/** Where the answer was seen: its message (or the request's, when no answer came) and an excerpt. */
export function seenAt(answer: CheckAnswer, pointer?: string): Seen | undefined {
  if ("answer" in answer) {
    const seen: Seen = {
      index: answer.answer,
      excerpt: boundedJson("error" in answer ? { error: answer.error } : { result: answer.result }, { maxChars: EXCERPT_CHARS }),
    };
    if (pointer !== undefined) seen.pointer = pointer;
    return seen;
  }
  if ("httpStatus" in answer) {
    const seen: Seen = { index: answer.request, http: `→ ${answer.httpStatus}`, excerpt: boundedJson({ error: answer.error }, { maxChars: EXCERPT_CHARS }) };
    if (pointer !== undefined) seen.pointer = pointer;
    return seen;
  }
  return answer.request === undefined ? undefined : { index: answer.request };
}

/** The error code of an error answer, else undefined. */
export function errorCode(answer: CheckAnswer): number | undefined {
  return "error" in answer && typeof answer.error.code === "number" ? answer.error.code : undefined;
}

/** The answer's result, when it is one. */
export function resultOf(answer: CheckAnswer): Record<string, unknown> | undefined {
  return "result" in answer && isObject(answer.result) ? answer.result : undefined;
}
