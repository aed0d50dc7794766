// An answer to what the check sent, as the check saw it (docs/check.md): a result, an error (from
// a message, or from the body of an HTTP refusal), no answer in time, or a failure — with the
// indexes of the request and the answer; and how the probes read and describe one in a finding.

import { boundedJson } from "../common/bounded.ts";
import { isObject } from "../common/json.ts";
import { preview } from "../common/preview.ts";
import type { Seen, SeenMessage } from "./rule.ts";

/** A JSON-RPC error as the server sent it (the envelope guarantees an integer code and a string message). */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * How a request of the check ended, with the indexes (SeenMessage.index) of the request and its
 * answer: a result, an error, no answer in time, a notification sent (no answer awaited), or a
 * failure that is neither (the connection closed, the send was refused: `failed` says which).
 */
export type CheckAnswer =
  | { result: Record<string, unknown>; request: number; answer: number }
  | { error: WireError; request: number; answer: number }
  /** An HTTP error status whose body is a JSON-RPC error response: the error as the body says it (no message index: it never reached the trace as a message). */
  | { error: WireError; request: number; httpStatus: number }
  | { timeout: true; request?: number }
  | { sent: true; request: number }
  | { failed: string; request?: number };

/** Characters of an answer quoted in a finding (the report makes them printable). */
const EXCERPT_CHARS = 200;

/** What the answer was, in a few words: `error -32603 "boom"`, `a result`, `no answer within 5000 ms`. */
export function describeAnswer(answer: CheckAnswer, timeoutMs?: number): string {
  if ("error" in answer) {
    const error = `error ${String(answer.error.code)} ${preview(String(answer.error.message), 120)}`;
    return "httpStatus" in answer ? `HTTP ${answer.httpStatus} with ${error}` : error;
  }
  if ("result" in answer) return `a result ${boundedJson(answer.result, { maxChars: 120 })}`;
  if ("timeout" in answer) return timeoutMs === undefined ? "no answer in time" : `no answer within ${timeoutMs} ms`;
  if ("sent" in answer) return "nothing (a notification)";
  return `no answer (${answer.failed})`;
}

/** How a request fared, to follow its name: `was answered with error -32603 "boom"`, `got no answer within 5000 ms`. */
export function answeredText(answer: CheckAnswer, timeoutMs?: number): string {
  if ("error" in answer || "result" in answer) return `was answered with ${describeAnswer(answer, timeoutMs)}`;
  if ("sent" in answer) return "was sent as a notification";
  return `got ${describeAnswer(answer, timeoutMs)}`;
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

/**
 * An HTTP refusal whose body is a JSON-RPC error response (spec 2026-07-28 basic/index: a
 * malformed request is refused with 400 and its JSON-RPC error), read from the start of the body
 * the transport's HttpStatusError quotes; undefined for anything else.
 */
export function httpErrorAnswer(failure: unknown, request: number): CheckAnswer | undefined {
  const { status, bodyStart } = (isObject(failure) ? failure : {}) as { status?: unknown; bodyStart?: unknown };
  if (typeof status !== "number" || typeof bodyStart !== "string" || !bodyStart.startsWith("{")) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(bodyStart);
  } catch {
    return undefined; // cut, or not JSON
  }
  const error = isObject(body) ? body.error : undefined;
  if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") return undefined;
  return { error: error as unknown as WireError, request, httpStatus: status };
}

/** A recorded answer as a CheckAnswer. */
export function answerOf(seen: SeenMessage, request: number): CheckAnswer {
  const message = seen.message as unknown as Record<string, unknown>;
  if ("error" in message && isObject(message.error)) return { error: message.error as unknown as WireError, request, answer: seen.index };
  if (isObject(message.result)) return { result: message.result, request, answer: seen.index };
  return { failed: "the answer holds neither a result object nor an error", request };
}
