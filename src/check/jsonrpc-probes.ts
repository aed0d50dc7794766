// The check's active JSON-RPC family (docs/check.md): what the server answers to requests it
// cannot serve — an unknown method, an unknown tool, a malformed request — to ping, and whether
// it keeps serving after a cancellation — JSON-RPC 2.0 §4.1, §5, §5.1 (which MCP adopts: spec
// 2025-11-25 basic/index "Messages"); spec 2025-11-25 basic/utilities/ping, cancellation,
// server/tools ("Error Handling"). Each probe is sent on the check's session; none calls a tool.

import { isObject } from "../common/json.ts";
import { answeredText, describeAnswer, errorCode, seenAt } from "./answer.ts";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import { type Judge, rule } from "./rule.ts";
import type { CheckSession } from "./session.ts";

/** The rules of the active JSON-RPC family. */
export const JsonRpcRules = {
  unknownMethod: rule(
    "json-rpc/unknown-method",
    "MUST",
    "A request for a method the server does not have is answered with error -32601 (Method not found)",
    { source: "json-rpc-2.0", page: "5.1", section: "Error object" },
    "Answer a request whose method you do not implement with a JSON-RPC error, code -32601, never with a result or silence.",
  ),
  invalidRequest: rule(
    "json-rpc/invalid-request",
    // JSON-RPC 2.0 §5's MUST reply covers a Request object; that an invalid one is answered -32600
    // is said by §5.1's table and §7's examples: at most SHOULD.
    "SHOULD",
    "A request that is not a valid Request object (its method not a string) is answered with error -32600 (Invalid Request)",
    { source: "json-rpc-2.0", page: "7", section: "Examples" },
    'Answer a message that is not a valid Request object with { "error": { "code": -32600, … }, "id": its id, or null when it cannot be read }.',
  ),
  ping: rule(
    "json-rpc/ping",
    "MUST",
    "ping is answered promptly with an empty result",
    { source: "2025-11-25", page: "basic/utilities/ping", section: "Behavior Requirements" },
    "Answer ping with an empty result: {}.",
  ),
  unknownTool: rule(
    "json-rpc/unknown-tool",
    "SHOULD",
    "tools/call of a tool the server does not have is answered with a JSON-RPC error, -32602 (Invalid params)",
    { source: "2025-11-25", page: "server/tools", section: "Error Handling" },
    "Answer tools/call naming an unknown tool with a protocol error (code -32602, as the spec's example), not with a tool result.",
  ),
  cancellationHandled: rule(
    "json-rpc/cancellation-handled",
    "MUST",
    "A request cancelled while in flight (or just answered) leaves the server serving the next request",
    { source: "2025-11-25", page: "basic/utilities/cancellation", section: "Timing Considerations" },
    "Handle notifications/cancelled for a request in flight or already answered gracefully: stop or ignore it, and keep serving.",
  ),
  notificationUnanswered: rule(
    "json-rpc/notification-unanswered",
    "MUST",
    "A notification (a cancellation of a request never sent) gets no response",
    { source: "json-rpc-2.0", page: "4.1", section: "Notification" },
    'Never answer a notification, not even with an error: ignore a cancellation of an unknown request (spec basic/utilities/cancellation, "Error Handling").',
  ),
} as const;

/** Options of probeJsonRpc. */
export interface JsonRpcProbeOptions {
  /** Bound of each answer awaited. Default 10 s. */
  timeoutMs?: number;
  /** Tool names the server listed (the walk's): the unknown tool's name is chosen among none of them. */
  toolNames?: readonly string[];
}

/** How long the cancelled request's answer is waited for before the next request goes out. */
const CANCELLED_WAIT_MS = 1_000;
/** How long the answer to an invalid Request object is waited for at most. */
const INVALID_REQUEST_WAIT_MS = 3_000;

/** The active JSON-RPC family, on `session`. */
export async function probeJsonRpc(session: CheckSession, judge: Judge, options: JsonRpcProbeOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const R = JsonRpcRules;

  // An unknown method: named so that no server has it.
  const unknown = await session.request("mcpwire-check/no-such-method", undefined, { timeoutMs });
  if ("failed" in unknown) judge.skip(R.unknownMethod, `the request got no JSON-RPC answer: ${unknown.failed}`);
  else if (errorCode(unknown) === -32601) judge.pass(R.unknownMethod);
  else judge.fail(R.unknownMethod, `mcpwire-check/no-such-method ${answeredText(unknown, timeoutMs)}, not error -32601`, seenAt(unknown));

  await probeInvalidRequest(session, judge, timeoutMs);

  if (session.era === "modern") judge.skip(R.ping, "2026-07-28 has no ping (spec 2026-07-28 changelog)");
  else {
    const ping = await session.request("ping", undefined, { timeoutMs });
    const keys = "result" in ping ? Object.keys(ping.result).filter((key) => key !== "_meta") : [];
    if ("failed" in ping) judge.skip(R.ping, `ping got no JSON-RPC answer: ${ping.failed}`);
    else if ("result" in ping && keys.length === 0) judge.pass(R.ping);
    else judge.fail(R.ping, `ping ${answeredText(ping, timeoutMs)}, not an empty result`, seenAt(ping));
  }

  if (!isObject(session.observed().capabilities.tools)) judge.skip(R.unknownTool, "the server declares no tools");
  else {
    const name = unlistedName(options.toolNames ?? []);
    const call = await session.request("tools/call", { name, arguments: {} }, { timeoutMs });
    if ("failed" in call) judge.skip(R.unknownTool, `tools/call got no JSON-RPC answer: ${call.failed}`);
    else if (errorCode(call) === -32602) judge.pass(R.unknownTool);
    else {judge.fail(
        R.unknownTool,
        `tools/call of "${name}", a tool the server does not list, ${answeredText(call, timeoutMs)}, not error -32602`,
        seenAt(call),
      );}
  }

  await probeCancellation(session, judge, timeoutMs);
}

/** A tool name no server lists: `mcpwire_check_no_such_tool`, with a number until none of `names` has it. */
function unlistedName(names: readonly string[]): string {
  let name = "mcpwire_check_no_such_tool";
  for (let n = 2; names.includes(name); n++) name = `mcpwire_check_no_such_tool_${n}`;
  return name;
}

/**
 * A request whose method is a number — JSON-RPC 2.0 §7's own example of an invalid Request object.
 * (A message without a method at all is not sent: with an id and neither result nor error it is
 * as much a malformed response as a malformed request, and JSON-RPC answers no response.)
 */
async function probeInvalidRequest(session: CheckSession, judge: Judge, timeoutMs: number): Promise<void> {
  const R = JsonRpcRules;
  // Bounded shorter than a request: most servers drop such a message, and the wait is the check's time.
  const wait = Math.min(timeoutMs, INVALID_REQUEST_WAIT_MS);
  const answer = await session.raw({ jsonrpc: "2.0", id: session.rawId(), method: 1, params: session.withProtocolFields({}) }, {
    timeoutMs: wait,
    acceptNullId: true,
  });
  if ("failed" in answer) return judge.skip(R.invalidRequest, `the request got no JSON-RPC answer: ${answer.failed}`);
  if (errorCode(answer) === -32600) return judge.pass(R.invalidRequest);
  judge.fail(
    R.invalidRequest,
    `a request whose method is the number 1 ${answeredText(answer, wait)}, not error -32600`,
    seenAt(answer),
  );
}

/**
 * spec 2025-11-25 basic/utilities/cancellation: a cancellation of a request never sent (to be
 * ignored, "Error Handling"), then a request cancelled at once; the server must go on serving
 * ("Timing Considerations"). The request cancelled is a read: the first list the server declares,
 * else ping (server/discover on the 2026-07-28 wire). Whether the cancelled request is answered
 * is not judged: processing may have completed before the cancellation arrived, which the spec allows.
 */
async function probeCancellation(session: CheckSession, judge: Judge, timeoutMs: number): Promise<void> {
  const R = JsonRpcRules;
  const from = session.messages.length;
  const never = session.rawId();
  await session.raw({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: never, reason: "mcpwire check: a request never sent" } });
  const method = readMethod(session);
  const id = session.rawId();
  const cancelled = session.raw({ jsonrpc: "2.0", id, method, params: session.withProtocolFields({}) }, { timeoutMs: CANCELLED_WAIT_MS });
  await session.raw({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "mcpwire check: cancelling at once" } });
  await cancelled;
  const next = await session.request(session.era === "modern" ? "server/discover" : "ping", undefined, { timeoutMs });
  if ("result" in next || "error" in next) judge.pass(R.cancellationHandled);
  else {
    judge.fail(
      R.cancellationHandled,
      `after ${method} was cancelled, the next request got ${describeAnswer(next, timeoutMs)}${session.ended ? " (the connection ended)" : ""}`,
      seenAt(next),
    );
  }
  // Answers no request could have asked for: an id of null (or none) after only notifications and well-formed requests.
  const stray = session.messages.slice(from).find((seen) => {
    const message = seen.message as unknown as Record<string, unknown>;
    return seen.dir === "receive" && !("method" in message) && (message.id === null || message.id === undefined);
  });
  if (stray === undefined) judge.pass(R.notificationUnanswered);
  else {judge.fail(R.notificationUnanswered, "a response with a null id came back after notifications/cancelled, which no response may answer", {
      index: stray.index,
    });}
}

/** The request the cancellation probe cancels: a list the server declares, else the era's liveness request. */
function readMethod(session: CheckSession): string {
  const capabilities = session.observed().capabilities;
  if (isObject(capabilities.tools)) return "tools/list";
  if (isObject(capabilities.resources)) return "resources/list";
  if (isObject(capabilities.prompts)) return "prompts/list";
  return session.era === "modern" ? "server/discover" : "ping";
}
