// The legacy HTTP+SSE probes of `mcpwire check` (src/check/legacy-sse-probe.ts) against a
// hand-written server (test/fixtures/check/legacy-sse-server.mjs) that keeps every rule, or breaks
// one on purpose (`/sse?break=<rule>`) — spec 2024-11-05 basic/transports ("HTTP with SSE").

import assert from "node:assert/strict";
import { LegacySseRules, probeLegacySse } from "../../src/check/legacy-sse-probe.ts";
import type { Rule } from "../../src/check/rule.ts";
import { behaviour } from "../support/behaviour.ts";
import { startPortFixture } from "../support/fixture-process.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const R = LegacySseRules;
const ALL = Object.values(LegacySseRules);
const LIMIT = { timeoutMs: 3000 };

async function probe(brk?: string): Promise<RecordingJudge> {
  const server = await startPortFixture("check/legacy-sse-server.mjs");
  try {
    const judge = new RecordingJudge();
    await probeLegacySse(
      { url: `${server.origin}/sse${brk === undefined ? "" : `?break=${brk}`}`, headers: { "X-Api-Key": "sse-secret-key-0123456789" } },
      judge,
      LIMIT,
    );
    return judge;
  } finally {
    await server.stop();
  }
}

behaviour("the conformant legacy SSE server passes every rule", async () => {
  const judge = await probe();
  assert.deepEqual(judge.failures, []);
  for (const each of ALL) assert.equal(judge.outcome(each), "pass", each.id);
});

const BREAKS: [string, Rule][] = [
  ["not-sse", R.stream],
  ["no-endpoint", R.endpointEvent],
  ["endpoint-late", R.endpointFirst],
  ["endpoint-not-uri", R.endpointEvent],
  ["post-500", R.postAccepted],
  ["answer-in-body", R.messageEvent],
  ["answer-event-type", R.messageEvent],
  ["not-json", R.messageEvent],
  ["origin", R.originValidated],
];

for (const [brk, broken] of BREAKS) {
  behaviour(`${broken.id} fails on a legacy SSE server that breaks it (${brk}), and only it`, async () => {
    const judge = await probe(brk);
    assert.equal(judge.outcome(broken), "fail", `${broken.id} on ?break=${brk}: ${JSON.stringify(judge.summary())}`);
    assert.deepEqual(judge.failures.filter((failure) => failure.rule !== broken.id), [], `?break=${brk} breaks only ${broken.id}`);
    assert.ok(!JSON.stringify(judge.failures).includes("sse-secret-key"));
    for (const failure of judge.failures) assert.match(failure.seen?.http ?? "", /^(POST|GET) http:\/\/127\.0\.0\.1:\d+\//);
  });
}

behaviour("an endpoint on another origin is not POSTed to: the rules after it are skipped, saying why", async () => {
  const judge = await probe("foreign-endpoint");
  assert.deepEqual(judge.failures, []);
  assert.equal(judge.outcome(R.endpointEvent), "pass");
  assert.match(judge.skipReason(R.postAccepted), /another origin \(http:\/\/localhost:\d+\): the check sends nothing there/);
});

behaviour("a stream that never sends the endpoint: the wait is bounded", async () => {
  const judge = await probe("no-endpoint");
  const failure = judge.failures.find((each) => each.rule === R.endpointEvent.id);
  assert.match(failure!.detail, /sent no event/);
  assert.match(judge.skipReason(R.postAccepted), /no endpoint event/);
});
