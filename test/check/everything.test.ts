// The passive families over a real server: @modelcontextprotocol/server-everything over stdio,
// walked by mcpwire's own Client (every list followed to its end, its trace kept as the check
// keeps it), and what the definitions, duplicates, hygiene and capability-use rules make of it.
// server-everything breaks none of them: no finding, and each rule that applies passes.

import "../support/test-env.ts"; // the era cache off (test-env.ts)
import assert from "node:assert/strict";
import { judgeCapabilityUse } from "../../src/check/capability-use.ts";
import { judgeDefinitions } from "../../src/check/definitions.ts";
import { judgeDuplicates } from "../../src/check/duplicates.ts";
import { judgeHygiene, methodTimings } from "../../src/check/hygiene.ts";
import { Client, StdioTransport } from "../../src/mod.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { behaviour } from "../support/behaviour.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { observedFromTrace } from "../support/observed-session.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const LISTS: [string, string][] = [["tools/list", "tools"], ["prompts/list", "prompts"], ["resources/list", "resources"], [
  "resources/templates/list",
  "resourceTemplates",
]];

behaviour(
  "the passive families over server-everything: its tools, prompts, resources and templates break no rule; the rules with nothing to judge say so",
  async () => {
    const events: TraceEvent[] = [];
    const client = new Client({ name: "mcpwire-check-tests", version: "1.0.0" }, {
      name: "everything",
      requestTimeoutMs: 20_000,
      trace: (event) => events.push(event),
    });
    try {
      await client.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: () => {} }));
      for (const [method] of LISTS) {
        let cursor: unknown;
        for (let page = 0; page < 20; page++) {
          const result = await client.request(method, typeof cursor === "string" ? { cursor } : {});
          cursor = result.nextCursor;
          if (typeof cursor !== "string") break;
        }
      }
    } finally {
      await client.close();
    }
    const observed = observedFromTrace(events, client.era!, client.protocolVersion!);
    assert.equal(observed.protocolVersion, "2025-11-25");
    for (const [, key] of LISTS) assert.ok((observed.lists[key as keyof typeof observed.lists]?.length ?? 0) > 0, key);

    const judge = new RecordingJudge();
    await judgeDefinitions(observed, judge);
    judgeDuplicates(observed, judge);
    judgeHygiene(observed, judge);
    judgeCapabilityUse(observed, judge);

    assert.deepEqual(judge.failures, []);
    for (
      const id of [
        "definitions/name",
        "definitions/tool-name-length",
        "definitions/tool-name-characters",
        "definitions/input-schema",
        "definitions/output-schema",
        "definitions/schema-valid",
        "definitions/tool-annotations",
        "definitions/title",
        "definitions/resource-uri",
        "definitions/uri-template",
        "definitions/mime-type",
        "definitions/prompt-arguments",
        "lists/duplicate-tool-name",
        "lists/duplicate-prompt-name",
        "lists/duplicate-resource-uri",
        "hygiene/instructions-size",
        "hygiene/tool-description-size",
        "hygiene/hidden-characters",
      ]
    ) assert.equal(judge.outcome(id), "pass", id);
    // It lists no icons and no annotated resources; the 2026-07-28 rules do not apply to a 2025-11-25 session.
    for (
      const id of [
        "definitions/icons",
        "definitions/resource-annotations",
        "definitions/x-mcp-header",
        "capabilities/unrequested-notification",
        "capabilities/log-without-log-level",
      ]
    ) assert.equal(judge.outcome(id), "skip", id);

    const timed = methodTimings(observed).map((row) => row.method);
    for (const [method] of LISTS) assert.ok(timed.includes(method), method);
    assert.ok(timed.includes("initialize"));
  },
);
