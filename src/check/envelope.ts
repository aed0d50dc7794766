// The JSON-RPC envelope rules of `mcpwire check` (docs/check.md, area `json-rpc`), judged passively
// over every message the server sent: `jsonrpc` exactly "2.0", a response answering a request the
// client sent and answering it once, result xor error, an error object of an integer code and a
// string message, a server request's id a string or integer, never null, never reused, and no id
// on a notification. spec 2025-11-25 basic/index, "Messages" (the same words in 2026-07-28), and
// JSON-RPC 2.0, which the spec adopts ("All messages … MUST follow the JSON-RPC 2.0 specification").

import { isObject } from "../common/json.ts";
import { clipJson, clipText } from "../common/preview.ts";
import type { Observed } from "./observed.ts";
import { type Judge, type Rule, rule, type Seen } from "./rule.ts";

/** The json-rpc area's passive rules (a probe's own rules — -32601, ping — are the lifecycle family's). */
export const EnvelopeRules = {
  version: rule(
    "json-rpc/version",
    "MUST",
    'Every message carries "jsonrpc": "2.0"',
    { source: "json-rpc-2.0", page: "4", section: "Request object" },
    'Put "jsonrpc": "2.0" (the string, exactly) in every request, notification and response.',
  ),
  responseId: rule(
    "json-rpc/response-id",
    "MUST",
    "A response carries the id of a request the client sent",
    { source: "2025-11-25", page: "basic/index", section: "Responses" },
    'Answer with the id the request carried, of the same type (1 and "1" differ); only an error to a request whose id could not be read may carry null.',
  ),
  answeredOnce: rule(
    "json-rpc/answered-once",
    "SHOULD",
    "A request is answered by one response, not two",
    { source: "json-rpc-2.0", page: "5", section: "Response object" },
    "Send exactly one response per request: the result or the error, once.",
  ),
  resultXorError: rule(
    "json-rpc/result-xor-error",
    "MUST",
    "A response holds a result or an error, never both, never neither",
    { source: "json-rpc-2.0", page: "5", section: "Response object" },
    "Give a response either result (on success) or error (on failure), not both and not neither.",
  ),
  errorObject: rule(
    "json-rpc/error-object",
    "MUST",
    "An error response's error has an integer code and a string message",
    { source: "2025-11-25", page: "basic/index", section: "Error Responses" },
    'Answer a failure with "error": { "code": <integer>, "message": <string> } (data optional).',
  ),
  requestId: rule(
    "json-rpc/request-id",
    "MUST",
    "A request of the server carries a string or integer id, not null",
    { source: "2025-11-25", page: "basic/index", section: "Requests" },
    "Give each request the server sends an id that is a string or an integer.",
  ),
  requestIdUnique: rule(
    "json-rpc/request-id-unique",
    "MUST",
    "A request of the server never reuses an id it already used in the session",
    { source: "2025-11-25", page: "basic/index", section: "Requests" },
    "Take each request id from a counter (or a fresh UUID) that never repeats within the session.",
  ),
  notificationId: rule(
    "json-rpc/notification-id",
    "MUST",
    "A notification carries no id",
    { source: "2025-11-25", page: "basic/index", section: "Notifications" },
    'Send a notification (a "notifications/…" method) without an "id" member; with one it is a request, and the client would answer it.',
  ),
} as const;

/** Findings kept per rule (a server that breaks one on every message is told so by the first few and a count). */
export const MAX_ENVELOPE_FINDINGS = 10;

/** An id as a key: 1 and "1" are different ids (JSON-RPC 2.0 §5: "the same as the value of the id member"). */
function idKey(id: unknown): string | undefined {
  if (typeof id === "string") return `s:${id}`;
  if (typeof id === "number" && Number.isFinite(id)) return `n:${id}`;
  return undefined;
}

/** An id (or any value) as a short printable quote. */
function quote(value: unknown): string {
  return value === undefined ? "no value" : clipJson(value, 60);
}

/**
 * Judges the envelope of every message the server sent (dir "receive") against the json-rpc
 * rules (EnvelopeRules), matching responses with the requests the client sent before them.
 * Never throws on odd input: a message that is not an object is no request, notification or
 * response, and only its `jsonrpc` is judged.
 */
export function judgeEnvelope(observed: Observed, judge: Judge): void {
  const evaluated = new Set<Rule>();
  // Findings in message order, at most MAX_ENVELOPE_FINDINGS of a rule; `count` is all it had.
  const findings: { rule: Rule; detail: string; seen: Seen }[] = [];
  const counts = new Map<Rule, { count: number; kept: number }>();
  const fail = (which: Rule, detail: string, seen: Seen) => {
    let counted = counts.get(which);
    if (counted === undefined) counts.set(which, counted = { count: 0, kept: 0 });
    counted.count++;
    if (counted.kept >= MAX_ENVELOPE_FINDINGS) return;
    counted.kept++;
    findings.push({ rule: which, detail, seen });
  };
  const sent = new Set<string>();
  const answered = new Set<string>();
  const serverIds = new Set<string>();

  for (const seen of observed.messages) {
    const message = seen.message as unknown;
    const index = seen.index;
    if (seen.dir === "send") {
      // spec 2025-11-25 basic/index "Requests": what the client asked, to match the answers with —
      // the check's malformed requests too (a method that is not a string is answered -32600 with its id).
      if (isObject(message) && "id" in message && !("result" in message) && !("error" in message)) {
        const key = idKey(message.id);
        if (key !== undefined) sent.add(key);
      }
      continue;
    }
    evaluated.add(EnvelopeRules.version);
    const object = isObject(message) ? message : undefined;
    // JSON-RPC 2.0 §4, §5: "jsonrpc … MUST be exactly "2.0"".
    if (object?.jsonrpc !== "2.0") {
      fail(EnvelopeRules.version, `message ${index}: "jsonrpc" is ${quote(object?.jsonrpc)}, not "2.0"`, { index, pointer: "/jsonrpc" });
    }
    if (object === undefined) continue;

    if ("method" in object) {
      const method = typeof object.method === "string" ? clipText(object.method, 80) : quote(object.method);
      const notification = typeof object.method === "string" && object.method.startsWith("notifications/");
      if (notification) {
        // spec 2025-11-25 basic/index "Notifications": "Notifications MUST NOT include an ID."
        evaluated.add(EnvelopeRules.notificationId);
        if ("id" in object) fail(EnvelopeRules.notificationId, `notification ${method} carries an id (${quote(object.id)})`, { index, pointer: "/id" });
        continue;
      }
      if (!("id" in object)) continue; // a notification of another name: no id, nothing to judge
      // spec 2025-11-25 basic/index "Requests": "Requests MUST include a string or integer ID",
      // "the ID MUST NOT be null", "MUST NOT have been previously used by the requestor".
      evaluated.add(EnvelopeRules.requestId);
      const id = object.id;
      if (!(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) {
        fail(EnvelopeRules.requestId, `request ${method} has id ${quote(id)}: not a string or an integer`, { index, pointer: "/id" });
        continue;
      }
      evaluated.add(EnvelopeRules.requestIdUnique);
      const key = idKey(id)!;
      if (serverIds.has(key)) {
        fail(EnvelopeRules.requestIdUnique, `request ${method} reuses id ${quote(id)}, already used by an earlier request of the server`, {
          index,
          pointer: "/id",
        });
      }
      serverIds.add(key);
      continue;
    }

    // A response. JSON-RPC 2.0 §5: "Either the result member or error member MUST be included, but both members MUST NOT be included."
    evaluated.add(EnvelopeRules.resultXorError);
    const hasResult = "result" in object;
    const hasError = "error" in object;
    if (hasResult === hasError) {
      fail(EnvelopeRules.resultXorError, `response ${index} has ${hasResult ? "both result and error" : "neither result nor error (nor a method)"}`, {
        index,
        pointer: "",
      });
    }
    if (hasError) {
      // spec 2025-11-25 basic/index "Error Responses": "MUST include an error field with a code and message", "Error codes MUST be integers".
      evaluated.add(EnvelopeRules.errorObject);
      const error = object.error;
      if (!isObject(error)) {
        fail(EnvelopeRules.errorObject, `error response ${index}: "error" is ${quote(error)}, not an object`, { index, pointer: "/error" });
      } else {
        if (!(typeof error.code === "number" && Number.isInteger(error.code))) {
          fail(EnvelopeRules.errorObject, `error response ${index}: error.code is ${quote(error.code)}, not an integer`, { index, pointer: "/error/code" });
        }
        if (typeof error.message !== "string") {
          fail(EnvelopeRules.errorObject, `error response ${index}: error.message is ${quote(error.message)}, not a string`, {
            index,
            pointer: "/error/message",
          });
        }
      }
    }
    // spec 2025-11-25 basic/index "Responses": the same ID as the request answered; an error
    // response may carry none (null) when the request's id could not be read.
    evaluated.add(EnvelopeRules.responseId);
    const id = object.id;
    if ((id === null || id === undefined) && hasError && !hasResult) continue;
    const key = idKey(id);
    if (key === undefined || !sent.has(key)) {
      const what = key === undefined ? `id ${quote(id)}, which is no request's` : `id ${quote(id)}, which no request of the client carried`;
      fail(EnvelopeRules.responseId, `response ${index} answers ${what}`, { index, pointer: "/id" });
      continue;
    }
    evaluated.add(EnvelopeRules.answeredOnce);
    if (answered.has(key)) fail(EnvelopeRules.answeredOnce, `response ${index} answers request ${quote(id)} a second time`, { index, pointer: "/id" });
    answered.add(key);
  }

  const nothing: Record<string, string> = {
    [EnvelopeRules.version.id]: "the server sent no message",
    [EnvelopeRules.responseId.id]: "the server sent no response",
    [EnvelopeRules.answeredOnce.id]: "no response answered a request the client sent",
    [EnvelopeRules.resultXorError.id]: "the server sent no response",
    [EnvelopeRules.errorObject.id]: "the server sent no error response",
    [EnvelopeRules.requestId.id]: "the server sent no request",
    [EnvelopeRules.requestIdUnique.id]: "the server sent no request with a valid id",
    [EnvelopeRules.notificationId.id]: "the server sent no notification",
  };
  const emitted = new Map<Rule, number>();
  for (const { rule: which, detail, seen } of findings) {
    const { count, kept } = counts.get(which)!;
    const at = (emitted.get(which) ?? 0) + 1;
    emitted.set(which, at);
    judge.fail(which, at === kept && count > kept ? `${detail} (and ${count - kept} more messages the same way)` : detail, seen);
  }
  for (const each of Object.values(EnvelopeRules)) {
    if (counts.has(each)) continue;
    if (evaluated.has(each)) {
      judge.pass(each);
    } else {
      judge.skip(each, nothing[each.id]!);
    }
  }
}
