// The check's tool calls (src/check/call-probe.ts): none unless asked; `--call TOOL ARGS` and
// `--call-read-only` go through the session's Client, each answer handed to the calls family's
// judge (tool-call.ts) as the message the server sent, with arguments made by tool-arguments.ts.
// Against test/fixtures/check/dual-era-server.mjs.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type CallProbeOptions, probeCalls } from "../../src/check/call-probe.ts";
import { openSession } from "../../src/check/session.ts";
import { dualEra } from "../support/dual-era.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const TIMEOUT = 2000;

async function run(options: CallProbeOptions) {
  const judge = new RecordingJudge();
  const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: TIMEOUT });
  try {
    const walked = await session.walk();
    const outcomes = await probeCalls(session, walked, judge, { ...options, timeoutMs: TIMEOUT });
    const calls = session.messages.filter((seen) => seen.dir === "send" && (seen.message as { method?: string }).method === "tools/call");
    return { outcomes, calls, judge };
  } finally {
    await session.close();
  }
}

describe("the check's tool calls", () => {
  test("no tool is called unless asked", async () => {
    const { outcomes, calls } = await run({});
    assert.deepEqual(outcomes, []);
    assert.deepEqual(calls, []);
  });

  test("--call TOOL ARGS calls it through the Client and judges the answer the server sent", async () => {
    const { outcomes, calls, judge } = await run({ calls: [{ tool: "echo", arguments: { text: "hi" } }, { tool: "nope" }] });
    assert.equal(calls.length, 1);
    assert.deepEqual((calls[0]!.message as { params?: unknown }).params, { name: "echo", arguments: { text: "hi" } });
    assert.deepEqual((outcomes[0]!.answer as { result?: unknown }).result, { content: [{ type: "text", text: '{"text":"hi"}' }] });
    assert.ok(judge.passed.includes("calls/content-items"), "the answer was judged by the calls family");
    assert.deepEqual(judge.failures, []);
    assert.match(outcomes[1]!.notJudged ?? "", /not among the tools/);
  });

  test("--call-read-only calls each readOnlyHint tool with arguments made from its schema", async () => {
    const { outcomes, calls, judge } = await run({ readOnly: true });
    assert.deepEqual(outcomes.map((o) => [o.tool, o.notJudged]), [["add", undefined], ["now", undefined]]);
    assert.deepEqual(calls.map((seen) => (seen.message as { params?: unknown }).params), [{ name: "add", arguments: { a: 0, b: 0 } }, {
      name: "now",
      arguments: {},
    }]);
    assert.deepEqual(judge.failures, []);
  });
});
