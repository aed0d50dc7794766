// The check's tool calls (src/check/call-probe.ts): none unless asked; `--call TOOL ARGS` and
// `--call-read-only` go through the session's Client, each answer handed to the calls family's
// judge as the message the server sent. Against test/fixtures/check/dual-era-server.mjs, with a
// judging stub until calls.ts (judgeCallResult, argumentsFor) is merged; the last test runs the
// real one then.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { type CallJudging, probeCalls } from "../../src/check/call-probe.ts";
import type { SeenMessage } from "../../src/check/rule.ts";
import { openSession } from "../../src/check/session.ts";
import { RecordingJudge } from "../support/check-judge.ts";
import { dualEra } from "../support/dual-era.ts";

const TIMEOUT = 2000;

/** A stub of calls.ts: records what it was handed; arguments {} for a schema without `required`. */
function stub(): CallJudging & { judged: { tool: unknown; answer: SeenMessage }[] } {
  const judged: { tool: unknown; answer: SeenMessage }[] = [];
  return {
    judged,
    judgeCallResult: (tool, answer) => void judged.push({ tool, answer }),
    argumentsFor: (schema) => ((schema as { required?: unknown }).required === undefined ? {} : undefined),
  };
}

async function run(options: Parameters<typeof probeCalls>[4], judging: CallJudging = stub()) {
  const judge = new RecordingJudge();
  const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: TIMEOUT });
  try {
    const walked = await session.walk();
    const outcomes = await probeCalls(session, walked, judge, judging, { ...options, timeoutMs: TIMEOUT });
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

  test("--call TOOL ARGS calls it through the Client and hands the answer message to judgeCallResult", async () => {
    const judging = stub();
    const { outcomes, calls } = await run({ calls: [{ tool: "echo", arguments: { text: "hi" } }, { tool: "nope" }] }, judging);
    assert.equal(calls.length, 1);
    assert.deepEqual((calls[0]!.message as { params?: unknown }).params, { name: "echo", arguments: { text: "hi" } });
    assert.equal(judging.judged.length, 1);
    assert.equal((judging.judged[0]!.tool as { name: string }).name, "echo");
    assert.equal(judging.judged[0]!.answer.method, "tools/call");
    assert.deepEqual((judging.judged[0]!.answer.message as { result?: unknown }).result, { content: [{ type: "text", text: '{"text":"hi"}' }] });
    assert.match(outcomes[1]!.notJudged ?? "", /not among the tools/);
  });

  test("--call-read-only calls each readOnlyHint tool with arguments made from its schema, or says why not", async () => {
    const { outcomes, calls } = await run({ readOnly: true });
    assert.deepEqual(outcomes.map((o) => [o.tool, o.notJudged === undefined]), [["add", false], ["now", true]]);
    assert.match(outcomes[0]!.notJudged ?? "", /no arguments could be made/);
    assert.equal(calls.length, 1);
  });

  // Enabled once calls.ts (the stdio helper's judgeCallResult and argumentsFor) is merged.
  const calls = new URL("../../src/check/calls.ts", import.meta.url);
  test(
    "with calls.ts's own judge: a read-only call judged",
    { skip: existsSync(fileURLToPath(calls)) ? false : "src/check/calls.ts is not merged yet" },
    async () => {
      const real = (await import(calls.href)) as CallJudging;
      const { outcomes, judge } = await run({ readOnly: true }, { judgeCallResult: real.judgeCallResult, argumentsFor: real.argumentsFor });
      assert.ok(outcomes.some((outcome) => outcome.answer !== undefined));
      assert.deepEqual(judge.failures, []);
    },
  );
});
