// The transport probes of `mcpwire check` against the reference servers in the dev dependencies,
// over HTTP on loopback: server-everything (SDK 1.x) in its `streamableHttp` and `sse` modes, and
// the 2026-07-28 reference server on the official server package 2.x
// (conformance/fixtures/modern-server.ts), modern-only and dual-era. What each breaks is named
// here: a finding the spec text supports, not a fault of the probe.

import assert from "node:assert/strict";
import { startModernHttp } from "../../conformance/fixtures/modern-server-launch.ts";
import { LegacySseRules, probeLegacySse } from "../../src/check/legacy-sse-probe.ts";
import { probeStreamableHttp, StreamableHttpRules } from "../../src/check/streamable-http-probe.ts";
import { startEverything } from "../fixtures/sse-servers.ts";
import { behaviour } from "../support/behaviour.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const LIMIT = { timeoutMs: 10_000 };
const R = StreamableHttpRules;

function failed(judge: RecordingJudge): string[] {
  return [...new Set(judge.failures.map((failure) => failure.rule))].sort();
}

behaviour("server-everything over Streamable HTTP (handshake era): no Origin check, and 400 where a session is unknown or ended", async () => {
  const server = await startEverything("streamableHttp");
  try {
    const judge = new RecordingJudge();
    await probeStreamableHttp({ url: `${server.origin}/mcp` }, { protocolVersion: "2025-11-25", era: "legacy" }, judge, LIMIT);
    // Its own session map answers an id it does not hold with 400 "No valid session ID provided";
    // spec 2025-11-25 basic/transports "Session Management" 3 asks 404 (MUST once the session has ended).
    assert.deepEqual(failed(judge), [R.endedSession404.id, R.originValidated.id, R.unknownSession404.id]);
    const ended = judge.failures.find((failure) => failure.rule === R.endedSession404.id)!;
    assert.match(ended.detail, /answered 400, not 404/);
    for (
      const each of [
        R.requestAnswer,
        R.acceptedWithoutBody,
        R.sessionIdVisibleAscii,
        R.missingSession400,
        R.deleteSession,
        R.getStreamOr405,
        R.unsupportedVersion400,
      ]
    ) {
      assert.equal(judge.outcome(each), "pass", each.id);
    }
  } finally {
    await server.stop();
  }
});

behaviour("server-everything over legacy HTTP+SSE: keeps every rule but Origin validation", async () => {
  const server = await startEverything("sse");
  try {
    const judge = new RecordingJudge();
    await probeLegacySse({ url: `${server.origin}/sse` }, judge, LIMIT);
    assert.deepEqual(failed(judge), [LegacySseRules.originValidated.id]);
    for (const each of Object.values(LegacySseRules)) if (each !== LegacySseRules.originValidated) assert.equal(judge.outcome(each), "pass", each.id);
  } finally {
    await server.stop();
  }
});

for (const era of ["modern", "dual"] as const) {
  behaviour(`the 2026-07-28 reference server (server package 2.x, ${era}) keeps every Streamable HTTP rule`, async () => {
    const server = await startModernHttp(era);
    try {
      const modern = new RecordingJudge();
      await probeStreamableHttp({ url: server.url }, { protocolVersion: "2026-07-28", era: "modern" }, modern, LIMIT);
      assert.deepEqual(modern.failures, []);
      for (
        const each of [
          R.requestAnswer,
          R.originValidated,
          R.modernUnsupportedVersion,
          R.modernUnknownMethod,
          R.missingMeta,
          R.headerMismatch,
          R.modernGetDelete405,
        ]
      ) {
        assert.equal(modern.outcome(each), "pass", each.id);
      }
      if (era === "dual") {
        const legacy = new RecordingJudge();
        await probeStreamableHttp({ url: server.url }, { protocolVersion: "2025-11-25", era: "legacy" }, legacy, LIMIT);
        assert.deepEqual(legacy.failures, []);
        // Its handshake era is stateless: no session id, so the session rules are skipped, saying so.
        assert.match(legacy.skipReason(R.sessionIdVisibleAscii), /issued no Mcp-Session-Id/);
        assert.equal(legacy.outcome(R.unsupportedVersion400), "pass");
      }
    } finally {
      await server.stop();
    }
  });
}
