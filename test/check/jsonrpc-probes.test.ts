// The check's active JSON-RPC family (src/check/jsonrpc-probes.ts): each rule fails on the
// fixture that breaks it and passes on the conformant one, in both eras — JSON-RPC 2.0 §4.1,
// §5.1; spec 2025-11-25 basic/utilities/ping, cancellation, server/tools. Against
// test/fixtures/check/dual-era-server.mjs.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { JsonRpcRules as R, probeJsonRpc } from "../../src/check/jsonrpc-probes.ts";
import { dualEra } from "../support/dual-era.ts";
import { judgedSession } from "../support/judged-session.ts";
import type { RecordingJudge } from "../support/recording-judge.ts";

const TIMEOUT = 2000;

function judged(breaks: string[], protocol: "modern" | "legacy"): Promise<RecordingJudge> {
  return judgedSession(dualEra(breaks), { protocol, timeoutMs: TIMEOUT }, (session, judge) => probeJsonRpc(session, judge, { timeoutMs: TIMEOUT }));
}

describe("the JSON-RPC family", () => {
  for (const protocol of ["legacy", "modern"] as const) {
    test(`a conformant server breaks no JSON-RPC rule (${protocol})`, async () => {
      const judge = await judged([], protocol);
      assert.deepEqual(judge.failures, []);
      for (const rule of [R.unknownMethod, R.invalidRequest, R.unknownTool, R.cancellationHandled, R.notificationUnanswered]) {
        assert.equal(judge.outcome(rule), "pass", rule.id);
      }
      assert.equal(judge.outcome(R.ping), protocol === "legacy" ? "pass" : "skip");
    });
  }

  test("json-rpc/unknown-method: answered with a result, or with another code", async () => {
    assert.equal((await judged(["unknown-method-result"], "legacy")).outcome(R.unknownMethod), "fail");
    const wrong = await judged(["unknown-method-wrong-code"], "modern");
    assert.match(wrong.failuresOf(R.unknownMethod)[0]?.detail ?? "", /-32603/);
  });

  test("json-rpc/invalid-request: left unanswered, or answered with another code", async () => {
    const silent = await judged(["invalid-request-silent"], "legacy");
    assert.match(silent.failuresOf(R.invalidRequest)[0]?.detail ?? "", /no answer/);
    assert.equal((await judged(["invalid-request-wrong-code"], "legacy")).outcome(R.invalidRequest), "fail");
  });

  test("json-rpc/ping: a non-empty result", async () => {
    const judge = await judged(["ping-not-empty"], "legacy");
    assert.equal(judge.outcome(R.ping), "fail");
  });

  test("json-rpc/unknown-tool: an unknown tool answered as a tool error result", async () => {
    const judge = await judged(["unknown-tool-result"], "modern");
    assert.match(judge.failuresOf(R.unknownTool)[0]?.detail ?? "", /mcpwire_check_no_such_tool/);
  });

  test("json-rpc/cancellation-handled: a server that exits on notifications/cancelled", async () => {
    const judge = await judged(["exit-on-cancel"], "legacy");
    assert.equal(judge.outcome(R.cancellationHandled), "fail");
  });

  test("json-rpc/notification-unanswered: a notification answered with an error", async () => {
    const judge = await judged(["answer-notifications"], "legacy");
    assert.equal(judge.outcome(R.notificationUnanswered), "fail");
  });
});
