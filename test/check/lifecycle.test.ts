// The check's lifecycle family (src/check/lifecycle.ts): each rule fails on the fixture that
// breaks it and passes on the conformant one — spec 2025-11-25 basic/lifecycle, spec 2026-07-28
// basic/versioning, basic/index, server/discover. Against test/fixtures/check/dual-era-server.mjs.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { erasOffered, LifecycleRules as R, probeLifecycle } from "../../src/check/lifecycle.ts";
import type { CheckTarget } from "../../src/check/target.ts";
import { dualEra } from "../support/dual-era.ts";
import { judgedSession } from "../support/judged-session.ts";
import type { RecordingJudge } from "../support/recording-judge.ts";

const TIMEOUT = 3000;

/** The lifecycle family run against `target` in `protocol`'s era. */
function judged(target: CheckTarget, protocol: "modern" | "legacy" | "auto"): Promise<RecordingJudge> {
  return judgedSession(target, { protocol, timeoutMs: TIMEOUT }, (session, judge) => probeLifecycle({ session, target, judge, timeoutMs: TIMEOUT }));
}

describe("the lifecycle family", () => {
  test("a conformant dual-era server breaks no lifecycle rule, in either era", async () => {
    const legacy = await judged(dualEra(), "legacy");
    assert.deepEqual(legacy.failures, []);
    assert.equal(legacy.outcome(R.initializeResult), "pass");
    assert.equal(legacy.outcome(R.unsupportedVersion), "pass");
    assert.equal(legacy.outcome(R.missingProtocolFields), "skip");
    const modern = await judged(dualEra(), "modern");
    assert.deepEqual(modern.failures, []);
    for (const rule of [R.discoverResult, R.discoverServerInfo, R.unsupportedModernVersion, R.unsupportedVersion]) {
      assert.equal(modern.outcome(rule), "pass", rule.id);
    }
    assert.match(modern.skipReason(R.modernOnlyInitialize), /answers initialize/);
    // To a dual-era server a request without _meta may be a legacy one: not judged.
    assert.match(modern.skipReason(R.missingProtocolFields), /dual-era/);
    const modernOnly = await judged(dualEra([], "modern"), "modern");
    assert.deepEqual(modernOnly.failures, []);
    assert.equal(modernOnly.outcome(R.missingProtocolFields), "pass");
  });

  test("lifecycle/unsupported-version: an initialize at 1999-01-01 answered with 1999-01-01", async () => {
    const judge = await judged(dualEra(["echo-unsupported-version"]), "legacy");
    assert.equal(judge.outcome(R.unsupportedVersion), "fail");
    assert.equal(judge.failuresOf(R.unsupportedVersion)[0]?.seen?.pointer, "/result/protocolVersion");
  });

  test("lifecycle/initialize-result: no serverInfo, or no capabilities (the Client refuses it; the check still judges it)", async () => {
    const noInfo = await judged(dualEra(["init-no-server-info"]), "legacy");
    assert.deepEqual(noInfo.failuresOf(R.initializeResult).map((f) => f.seen?.pointer), ["/result/serverInfo"]);
    const noCapabilities = await judged(dualEra(["init-no-capabilities"]), "legacy");
    assert.deepEqual(noCapabilities.failuresOf(R.initializeResult).map((f) => f.seen?.pointer), ["/result/capabilities"]);
  });

  test("lifecycle/discover-result and discover-server-info: parts of the DiscoverResult missing", async () => {
    const noCapabilities = await judged(dualEra(["discover-no-capabilities"]), "modern");
    assert.equal(noCapabilities.outcome(R.discoverResult), "fail");
    const noInfo = await judged(dualEra(["discover-no-server-info"]), "modern");
    assert.equal(noInfo.outcome(R.discoverServerInfo), "fail");
    assert.equal(noInfo.outcome(R.discoverResult), "pass");
  });

  test("lifecycle/missing-protocol-fields: a modern-only server serving a request without _meta", async () => {
    const judge = await judged(dualEra(["accept-no-meta"], "modern"), "modern");
    assert.equal(judge.outcome(R.missingProtocolFields), "fail");
    assert.match(judge.failuresOf(R.missingProtocolFields)[0]!.detail, /a result/);
  });

  test("lifecycle/unsupported-modern-version: -32602 for an unknown version, or -32022 without data.supported", async () => {
    const wrongCode = await judged(dualEra(["wrong-version-code"]), "modern");
    assert.match(wrongCode.failuresOf(R.unsupportedModernVersion)[0]?.detail ?? "", /-32602/);
    const unlisted = await judged(dualEra(["version-error-no-supported"]), "modern");
    assert.equal(unlisted.failuresOf(R.unsupportedModernVersion)[0]?.seen?.pointer, "/error/data");
  });

  test("lifecycle/modern-only-initialize: a modern-only server refusing initialize without naming a version", async () => {
    const named = await judged(dualEra([], "modern"), "modern");
    assert.equal(named.outcome(R.modernOnlyInitialize), "pass");
    assert.match(named.skipReason(R.unsupportedVersion), /handshake/);
    const unnamed = await judged(dualEra(["initialize-refusal-unnamed"], "modern"), "modern");
    assert.equal(unnamed.outcome(R.modernOnlyInitialize), "fail");
  });

  test("erasOffered: both, modern only, legacy only", async () => {
    assert.deepEqual(await erasOffered(dualEra(), { timeoutMs: TIMEOUT }), {
      modern: true,
      legacy: true,
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
    });
    const modern = await erasOffered(dualEra([], "modern"), { timeoutMs: TIMEOUT });
    assert.deepEqual([modern.modern, modern.legacy], [true, false]);
    const legacy = await erasOffered(dualEra([], "legacy"), { timeoutMs: TIMEOUT });
    assert.deepEqual([legacy.modern, legacy.legacy], [false, true]);
  });

  test("without a target (one transport), the probes on fresh connections are skipped, saying why", async () => {
    const judge = await judgedSession(dualEra(), { protocol: "legacy", timeoutMs: TIMEOUT }, async (session, judge) => {
      assert.equal(await probeLifecycle({ session, judge }), undefined);
    });
    assert.match(judge.skipReason(R.unsupportedVersion), /one transport/);
  });
});
