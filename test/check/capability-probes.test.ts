// The check's capabilities family (src/check/capability-probes.ts): each rule fails on the fixture
// that breaks it and passes on the conformant one — spec 2025-11-25 basic/lifecycle, server/tools,
// server/resources, server/prompts; spec 2026-07-28 server/tools. Against
// test/fixtures/check/dual-era-server.mjs.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CapabilityRules as R, judgeCapabilitiesKept, probeCapabilities } from "../../src/check/capability-probes.ts";
import { CapabilityUseRules, judgeCapabilityUse } from "../../src/check/capability-use.ts";
import { dualEra } from "../support/dual-era.ts";
import { judgedSession } from "../support/judged-session.ts";
import type { RecordingJudge } from "../support/recording-judge.ts";

const TIMEOUT = 2000;

function judged(breaks: string[], protocol: "modern" | "legacy"): Promise<RecordingJudge> {
  return judgedSession(dualEra(breaks), { protocol, timeoutMs: TIMEOUT }, async (session, judge) => {
    await probeCapabilities(session, await session.walk(), judge, { timeoutMs: TIMEOUT });
    judgeCapabilitiesKept(session.observed(), judge);
    judgeCapabilityUse(session.observed(), judge);
  });
}

describe("the capabilities family", () => {
  test("a conformant server keeps its capabilities, in both eras", async () => {
    const legacy = await judged([], "legacy");
    assert.deepEqual(legacy.failures, []);
    assert.equal(legacy.outcome(R.declaredListAnswersHandshake), "pass");
    assert.equal(legacy.outcome(R.declaredListAnswers), "skip");
    assert.equal(legacy.outcome(R.promptsUndeclared), "pass");
    assert.equal(legacy.outcome(R.toolsUndeclared), "skip");
    assert.equal(legacy.outcome(R.clientCapabilityRespected), "pass");
    assert.equal(legacy.outcome(CapabilityUseRules.listChangedUndeclared), "skip");
    const modern = await judged([], "modern");
    assert.deepEqual(modern.failures, []);
    assert.equal(modern.outcome(R.declaredListAnswers), "pass");
  });

  test("capabilities/declared-list-answers: resources declared, resources/list fails (MUST on 2026-07-28, SHOULD before)", async () => {
    const modern = await judged(["resources-list-fails"], "modern");
    assert.match(modern.failuresOf(R.declaredListAnswers)[0]?.detail ?? "", /declares resources, but resources\/list was answered with error -32603/);
    const legacy = await judged(["resources-list-fails"], "legacy");
    assert.equal(legacy.outcome(R.declaredListAnswersHandshake), "fail");
  });

  test("capabilities/prompts-undeclared: prompts/list served by a server that declares no prompts", async () => {
    const judge = await judged(["prompts-undeclared"], "legacy");
    assert.equal(judge.failuresOf(R.promptsUndeclared)[0]?.seen?.pointer, "/result/prompts");
  });

  test("capabilities/list-changed-undeclared (capability-use.ts): tools list_changed without listChanged, seen on a real session", async () => {
    const judge = await judged(["list-changed-undeclared"], "legacy");
    assert.equal(judge.outcome(CapabilityUseRules.listChangedUndeclared), "fail");
  });

  test("capabilities/client-capability-respected: sampling/createMessage to a client that declared no sampling", async () => {
    const judge = await judged(["asks-sampling"], "legacy");
    assert.match(judge.failuresOf(R.clientCapabilityRespected)[0]?.detail ?? "", /sampling\/createMessage/);
  });
});
