// The passive JSON-RPC envelope rules of `mcpwire check` (src/check/envelope.ts): each fails on a
// session that breaks it, at the message and pointer, and passes on a clean one — spec
// 2025-11-25 basic/index "Messages", JSON-RPC 2.0 §4, §5, §5.1.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EnvelopeRules, judgeEnvelope, MAX_ENVELOPE_FINDINGS } from "../../src/check/envelope.ts";
import type { Observed } from "../../src/check/observed.ts";
import type { SeenMessage } from "../../src/check/rule.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

/** Judges a session given as [dir, message] pairs, indexed from 1 in order. */
function judged(session: ["send" | "receive", unknown][]): RecordingJudge {
  const judge = new RecordingJudge();
  const messages: SeenMessage[] = session.map(([dir, message], at) => ({ index: at + 1, dir, message: message as SeenMessage["message"], at: 0 }));
  const observed: Observed = { era: "legacy", protocolVersion: "2025-11-25", capabilities: {}, lists: {}, messages };
  judgeEnvelope(observed, judge);
  return judge;
}

/** A clean session: requests of both sides, answers, an error, notifications. */
const CLEAN: ["send" | "receive", unknown][] = [
  ["send", { jsonrpc: "2.0", id: 0, method: "initialize", params: {} }],
  ["receive", { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25" } }],
  ["send", { jsonrpc: "2.0", method: "notifications/initialized" }],
  ["send", { jsonrpc: "2.0", id: "a", method: "tools/list" }],
  ["receive", { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }],
  ["receive", { jsonrpc: "2.0", id: 1, method: "roots/list" }],
  ["send", { jsonrpc: "2.0", id: 1, result: { roots: [] } }],
  ["receive", { jsonrpc: "2.0", id: "s-2", method: "ping" }],
  ["receive", { jsonrpc: "2.0", id: "a", result: { tools: [] } }],
  ["send", { jsonrpc: "2.0", id: 2, method: "nope/nothing" }],
  ["receive", { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found" } }],
  // An error to a request whose id could not be read carries null (JSON-RPC 2.0 §5).
  ["receive", { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
];

const ALL = Object.values(EnvelopeRules).map((each) => each.id).sort();

/** The failures of one rule, as "index pointer". */
function places(verdicts: RecordingJudge, id: string): string[] {
  return verdicts.failures.filter((failure) => failure.rule === id).map((failure) => `${failure.seen?.index} ${failure.seen?.pointer}`);
}

describe("the JSON-RPC envelope rules", () => {
  test("a clean session passes every rule", () => {
    const verdicts = judged(CLEAN);
    assert.deepEqual(verdicts.failures, []);
    assert.deepEqual(verdicts.skipped, []);
    assert.deepEqual([...verdicts.passed].sort(), ALL);
  });

  test('json-rpc/version: "jsonrpc" other than "2.0", or missing, fails at /jsonrpc', () => {
    const verdicts = judged([
      ["send", { jsonrpc: "2.0", id: 1, method: "ping" }],
      ["receive", { jsonrpc: "1.0", id: 1, result: {} }],
      ["receive", { method: "notifications/message", params: {} }],
      ["receive", { jsonrpc: 2, method: "notifications/progress", params: {} }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/version"), ["2 /jsonrpc", "3 /jsonrpc", "4 /jsonrpc"]);
    assert.match(verdicts.failures[0]!.detail, /"jsonrpc" is "1\.0", not "2\.0"/);
    assert.equal(verdicts.rules.get(verdicts.failures[0]!.rule)?.level, "MUST");
  });

  test("json-rpc/response-id: an id no request carried, a number for a string, a null result id fail", () => {
    const verdicts = judged([
      ["send", { jsonrpc: "2.0", id: 1, method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: 7, result: {} }],
      ["receive", { jsonrpc: "2.0", id: "1", result: {} }],
      ["receive", { jsonrpc: "2.0", id: null, result: {} }],
      ["receive", { jsonrpc: "2.0", result: {} }],
      ["receive", { jsonrpc: "2.0", id: 1, result: {} }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/response-id"), ["2 /id", "3 /id", "4 /id", "5 /id"]);
    assert.match(verdicts.failures[0]!.detail, /answers id 7, which no request of the client carried/);
    assert.ok(verdicts.passed.includes("json-rpc/answered-once"));
  });

  test("json-rpc/response-id: an answer before its request was sent does not match it", () => {
    const verdicts = judged([
      ["receive", { jsonrpc: "2.0", id: 1, result: {} }],
      ["send", { jsonrpc: "2.0", id: 1, method: "ping" }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/response-id"), ["1 /id"]);
  });

  test("json-rpc/answered-once: a second answer to one request fails (SHOULD)", () => {
    const verdicts = judged([
      ["send", { jsonrpc: "2.0", id: 1, method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: 1, result: {} }],
      ["receive", { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "late" } }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/answered-once"), ["3 /id"]);
    assert.equal(verdicts.rules.get(verdicts.failures[0]!.rule)?.level, "SHOULD");
    assert.match(verdicts.failures[0]!.detail, /answers request 1 a second time/);
  });

  test("json-rpc/result-xor-error: both, or neither, fail", () => {
    const verdicts = judged([
      ["send", { jsonrpc: "2.0", id: 1, method: "ping" }],
      ["send", { jsonrpc: "2.0", id: 2, method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } }],
      ["receive", { jsonrpc: "2.0", id: 2 }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/result-xor-error"), ["3 ", "4 "]);
    assert.match(verdicts.failures[0]!.detail, /both result and error/);
    assert.match(verdicts.failures[1]!.detail, /neither result nor error/);
  });

  test("json-rpc/error-object: a code that is not an integer, a message that is not a string, an error that is not an object", () => {
    const verdicts = judged([
      ["send", { jsonrpc: "2.0", id: 1, method: "a" }],
      ["send", { jsonrpc: "2.0", id: 2, method: "b" }],
      ["send", { jsonrpc: "2.0", id: 3, method: "c" }],
      ["receive", { jsonrpc: "2.0", id: 1, error: { code: -32601.5, message: "x" } }],
      ["receive", { jsonrpc: "2.0", id: 2, error: { code: "-32601" } }],
      ["receive", { jsonrpc: "2.0", id: 3, error: "boom" }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/error-object"), ["4 /error/code", "5 /error/code", "5 /error/message", "6 /error"]);
  });

  test("json-rpc/request-id: a server request with a null, fractional or object id fails", () => {
    const verdicts = judged([
      ["receive", { jsonrpc: "2.0", id: null, method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: 1.5, method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: { a: 1 }, method: "roots/list" }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/request-id"), ["1 /id", "2 /id", "3 /id"]);
    assert.match(verdicts.failures[0]!.detail, /request ping has id null: not a string or an integer/);
    assert.ok(verdicts.skipped.some((each) => each.rule === "json-rpc/request-id-unique"));
  });

  test("json-rpc/request-id-unique: a server request reusing its own id fails; the client's ids do not count", () => {
    const verdicts = judged([
      ["send", { jsonrpc: "2.0", id: 1, method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: 1, method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: "1", method: "ping" }],
      ["receive", { jsonrpc: "2.0", id: 1, method: "roots/list" }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/request-id-unique"), ["4 /id"]);
  });

  test("json-rpc/notification-id: a notifications/… method with an id fails", () => {
    const verdicts = judged([
      ["receive", { jsonrpc: "2.0", id: 5, method: "notifications/tools/list_changed" }],
      ["receive", { jsonrpc: "2.0", method: "notifications/tools/list_changed" }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/notification-id"), ["1 /id"]);
    // Not judged again as a request.
    assert.deepEqual(places(verdicts, "json-rpc/request-id-unique"), []);
  });

  test("a server breaking a rule on every message is told by the first findings and a count", () => {
    const session: ["send" | "receive", unknown][] = Array.from({ length: 25 }, () => ["receive", { jsonrpc: "1", method: "notifications/message" }]);
    const verdicts = judged(session);
    const version = verdicts.failures.filter((failure) => failure.rule === "json-rpc/version");
    assert.equal(version.length, MAX_ENVELOPE_FINDINGS);
    assert.match(version.at(-1)!.detail, /\(and 15 more messages the same way\)$/);
  });

  test("odd input never throws: a message that is not an object, a method that is not a string", () => {
    const verdicts = judged([
      ["receive", null],
      ["receive", [1, 2]],
      ["receive", "text"],
      ["receive", { jsonrpc: "2.0", method: 5, id: 1 }],
    ]);
    assert.deepEqual(places(verdicts, "json-rpc/version"), ["1 /jsonrpc", "2 /jsonrpc", "3 /jsonrpc"]);
  });

  test("a session with nothing to judge skips each rule, saying why", () => {
    const verdicts = judged([]);
    assert.deepEqual(verdicts.skipped.map((each) => each.rule).sort(), ALL);
    assert.ok(verdicts.skipped.every((each) => each.reason.length > 0));
  });
});
