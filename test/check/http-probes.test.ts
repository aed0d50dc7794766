// The Streamable HTTP probes of `mcpwire check` (src/check/streamable-http-probe.ts) against a
// hand-written dual-era server (test/fixtures/check/streamable-http-server.mjs) that keeps every
// rule, or breaks one on purpose (`?break=<rule>`): each rule fails on its break and passes on the
// conformant server — spec 2025-11-25 basic/transports, 2026-07-28 basic/transports/streamable-http.

import assert from "node:assert/strict";
import { createServer, type ServerResponse } from "node:http";
import type { Rule } from "../../src/check/rule.ts";
import { probeStreamableHttp, StreamableHttpRules, StreamableHttpRulesByEra } from "../../src/check/streamable-http-probe.ts";
import { behaviour } from "../support/behaviour.ts";
import { startPortFixture } from "../support/fixture-process.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const R = StreamableHttpRules;
const SECRET = "Bearer check-secret-token-0123456789";
const LIMIT = { timeoutMs: 5000 };

async function probe(era: "legacy" | "modern", brk?: string, query?: string): Promise<RecordingJudge> {
  const server = await startPortFixture("check/streamable-http-server.mjs");
  try {
    const judge = new RecordingJudge();
    const search = [brk === undefined ? undefined : `break=${brk}`, query].filter((part) => part !== undefined).join("&");
    const url = `${server.origin}/mcp${search === "" ? "" : `?${search}`}`;
    const protocolVersion = era === "legacy" ? "2025-11-25" : "2026-07-28";
    await probeStreamableHttp({ url, headers: { Authorization: SECRET } }, { protocolVersion, era }, judge, LIMIT);
    return judge;
  } finally {
    await server.stop();
  }
}

const LEGACY_RULES = StreamableHttpRulesByEra.legacy;
const MODERN_RULES = StreamableHttpRulesByEra.modern;

/** A loopback HTTP server that takes every request and never answers, for the length of `body`. */
async function withSilentServer(body: (url: string) => Promise<void>): Promise<void> {
  const held: ServerResponse[] = [];
  const silent = createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  try {
    await body(`http://127.0.0.1:${(silent.address() as { port: number }).port}/mcp`);
  } finally {
    for (const res of held) res.destroy();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
}

behaviour("the conformant server passes every handshake-era rule of Streamable HTTP", async () => {
  const judge = await probe("legacy");
  assert.deepEqual(judge.failures, []);
  for (const each of LEGACY_RULES) assert.equal(judge.outcome(each), "pass", each.id);
  for (const each of [R.headerMismatch, R.modernGetDelete405]) assert.equal(judge.outcome(each), "none", `${each.id} is the other era's`);
});

behaviour("the conformant server of 2026-07-28 only passes every 2026-07-28 rule of Streamable HTTP", async () => {
  const judge = await probe("modern", undefined, "only=modern");
  assert.deepEqual(judge.failures, []);
  for (const each of MODERN_RULES) assert.equal(judge.outcome(each), "pass", each.id);
  assert.equal(judge.outcome(R.sessionIdVisibleAscii), "none");
});

behaviour("a dual-era server: what 2026-07-28 says of older traffic is left to its handshake era, saying so", async () => {
  const judge = await probe("modern");
  assert.deepEqual(judge.failures, []);
  for (const each of [R.modernNoSessionId, R.modernGetDelete405]) {
    assert.match(judge.skipReason(each), /also speaks 2025-11-25, 2025-06-18, 2025-03-26: sessions, GET and DELETE belong to its handshake era/);
  }
  for (const each of MODERN_RULES) if (each !== R.modernNoSessionId && each !== R.modernGetDelete405) assert.equal(judge.outcome(each), "pass", each.id);
});

behaviour("the runner's word that the server also answers initialize outweighs what server/discover lists", async () => {
  const server = await startPortFixture("check/streamable-http-server.mjs");
  try {
    const judge = new RecordingJudge();
    await probeStreamableHttp({ url: `${server.origin}/mcp?only=modern` }, { protocolVersion: "2026-07-28", era: "modern", offersLegacy: true }, judge, LIMIT);
    assert.match(judge.skipReason(R.modernGetDelete405), /also speaks a handshake-era version \(it answered initialize\)/);
  } finally {
    await server.stop();
  }
});

/** Each break and the rule it must break, in the era that shows it. */
const BREAKS: [string, "legacy" | "modern", Rule, string?][] = [
  ["content-type", "legacy", R.requestAnswer],
  ["content-type", "modern", R.requestAnswer],
  ["session-space", "legacy", R.sessionIdVisibleAscii],
  ["session-latin1", "legacy", R.sessionIdVisibleAscii],
  ["notification-200", "legacy", R.acceptedWithoutBody],
  ["notification-200", "modern", R.acceptedWithoutBody],
  ["accepted-body", "legacy", R.acceptedWithoutBody],
  ["origin", "legacy", R.originValidated],
  ["origin", "modern", R.originValidated],
  ["version-ignored", "legacy", R.unsupportedVersion400],
  ["version-ignored", "modern", R.modernUnsupportedVersion],
  ["missing-session-404", "legacy", R.missingSession400],
  ["unknown-session-200", "legacy", R.unknownSession404],
  ["ended-session-200", "legacy", R.endedSession404],
  ["delete-500", "legacy", R.deleteSession],
  ["get-200-json", "legacy", R.getStreamOr405],
  ["get-200-json", "modern", R.modernGetDelete405, "only=modern"],
  ["modern-session", "modern", R.modernNoSessionId, "only=modern"],
  ["session-404", "modern", R.modernNoSessionId, "only=modern"],
  ["unknown-method-400", "modern", R.modernUnknownMethod],
  ["no-meta-ok", "modern", R.missingMeta],
  ["method-mismatch", "modern", R.headerMismatch],
  ["name-mismatch", "modern", R.headerMismatch],
  ["error-id", "legacy", R.errorIdKept],
  ["error-id", "modern", R.errorIdKept],
];

for (const [brk, era, broken, query] of BREAKS) {
  behaviour(`${broken.id} fails on a server that breaks it (${brk}, ${era} era), and only it`, async () => {
    const judge = await probe(era, brk, query);
    assert.equal(judge.outcome(broken), "fail", `${broken.id} on ?break=${brk}: ${JSON.stringify(judge.summary())}`);
    const others = judge.failures.filter((failure) => failure.rule !== broken.id);
    // notification-200 and content-type break the shape of answers everywhere; the rest break one rule.
    if (brk !== "content-type") assert.deepEqual(others, [], `?break=${brk} breaks only ${broken.id}`);
    for (const failure of judge.failures) {
      assert.ok(!JSON.stringify(failure).includes("check-secret-token"), "a header value of the target never reaches a finding");
      assert.match(failure.seen?.http ?? "", /^(POST|GET|DELETE) /);
    }
  });
}

behaviour("a server that echoes the Authorization header: the finding's excerpt has it redacted", async () => {
  const judge = await probe("modern", "unknown-method-400&echo=1");
  const [failure] = judge.failures;
  assert.equal(failure!.rule, R.modernUnknownMethod.id);
  assert.match(failure!.seen!.excerpt!, /you sent Authorization: \[redacted\]/);
  assert.ok(!JSON.stringify(judge.failures).includes("check-secret-token"));
});

behaviour("initialize answering a protocolVersion that is no version: the probe carries on with the one it asked for", async () => {
  const judge = await probe("legacy", "hostile-version");
  assert.deepEqual(judge.failures, []);
  for (const each of LEGACY_RULES) assert.equal(judge.outcome(each), "pass", each.id);
});

behaviour("a session id with a space is described, not shown", async () => {
  const judge = await probe("legacy", "session-space");
  const [failure] = judge.failures;
  assert.match(failure!.detail, /a space \(U\+0020\) at character 6/);
  assert.ok(!failure!.detail.includes("check session"));
});

behaviour("Origin is judged only on a loopback address: elsewhere the rule is skipped, saying why", async () => {
  const server = await startPortFixture("check/streamable-http-server.mjs");
  try {
    // The request goes to the fixture, but the URL the probe judges names a non-loopback host.
    const rewrite: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.host = `127.0.0.1:${server.port}`;
      return fetch(url, init);
    };
    const judge = new RecordingJudge();
    await probeStreamableHttp(
      { url: "http://mcp.example.com/mcp?break=origin", fetch: rewrite },
      { protocolVersion: "2026-07-28", era: "modern" },
      judge,
      LIMIT,
    );
    assert.match(judge.skipReason(R.originValidated), /not on a loopback address/);
  } finally {
    await server.stop();
  }
});

for (const era of ["legacy", "modern"] as const) {
  behaviour(`a server that wants credentials the target lacks (${era} era): every rule skipped, none failed`, async () => {
    const judge = await probe(era, undefined, "auth=required");
    assert.deepEqual(judge.failures, []);
    for (const each of StreamableHttpRulesByEra[era]) assert.match(judge.skipReason(each), /(answered |refused \()401/, each.id);
  });
}

behaviour("a server that refuses its own Origin too: the Origin rule is skipped, saying why", async () => {
  const judge = await probe("modern", undefined, "origin=none");
  assert.match(judge.skipReason(R.originValidated), /own Origin was answered 403: a refusal of a foreign one could not be told from that/);
  assert.deepEqual(judge.failures, []);
});

behaviour("a server that never answers: every wait is bounded and each rule is skipped, saying why", async () => {
  await withSilentServer(async (url) => {
    const judge = new RecordingJudge();
    await probeStreamableHttp({ url }, { protocolVersion: "2025-11-25", era: "legacy" }, judge, { timeoutMs: 300 });
    assert.deepEqual(judge.failures, []);
    for (const each of LEGACY_RULES) assert.match(judge.skipReason(each), /no answer within 300 ms/, each.id);
  });
});

behaviour("the caller's signal ends the probe: it rejects with the signal's reason, nothing left behind", async () => {
  await withSilentServer(async (url) => {
    const controller = new AbortController();
    const reason = new Error("the user pressed ^C");
    setTimeout(() => controller.abort(reason), 100);
    const probing = probeStreamableHttp({ url }, { protocolVersion: "2026-07-28", era: "modern" }, new RecordingJudge(), {
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    await assert.rejects(probing, (error) => error === reason);
  });
});
