// The protocol families (lifecycle, JSON-RPC, lists, capabilities) against real servers: the
// reference server-everything (the handshake era) and the SDK v2 reference server of
// conformance/fixtures/modern-server.ts (2026-07-28, modern-only and dual-era). Each test names
// the rules the server breaks as the check saw them; no other rule may fail.
//   server-everything, SDK v2: a Request object whose method is a number goes unanswered
//     (json-rpc/invalid-request, SHOULD); a cursor never given is answered with the first page
//     (lists/invalid-cursor, SHOULD).
//   server-everything: tools/call of an unknown tool is a tool error result, not -32602
//     (json-rpc/unknown-tool, SHOULD).
//   SDK v2, modern-only, over stdio: a request without _meta is answered -32022, not -32602 (spec
//     2026-07-28 basic/index, "Per-request protocol fields": lifecycle/missing-protocol-fields,
//     MUST); over Streamable HTTP it answers 400 with -32602, as the spec says.
// Over HTTP the JSON-RPC errors come in the bodies of 400 answers: they are judged as the errors they are.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { modernServerArgs, startModernHttp } from "../../conformance/fixtures/modern-server-launch.ts";
import { judgeCapabilitiesKept, probeCapabilities } from "../../src/check/capability-probes.ts";
import { probeJsonRpc } from "../../src/check/jsonrpc-probes.ts";
import { probeLifecycle } from "../../src/check/lifecycle.ts";
import { probeLists } from "../../src/check/list-probes.ts";
import { SessionLog } from "../../src/check/session.ts";
import type { CheckTarget } from "../../src/check/target.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { judgedSession } from "../support/judged-session.ts";

const TIMEOUT = 10_000;

/** Every protocol family against `target` in `protocol`'s era: the rules that failed, sorted. */
async function broken(target: CheckTarget, protocol: "modern" | "legacy", passed?: Set<string>): Promise<{ failed: string[]; era: string }> {
  const log = new SessionLog();
  let era = "";
  const judge = await judgedSession(target, { protocol, timeoutMs: TIMEOUT, log }, async (session, judge) => {
    era = session.era;
    await probeLifecycle({ session, target, judge, timeoutMs: TIMEOUT, log });
    const walked = await session.walk();
    const toolNames = (walked.lists.tools ?? []).map((item) => String((item.value as { name?: unknown }).name));
    await probeJsonRpc(session, judge, { timeoutMs: TIMEOUT, toolNames });
    await probeLists(session, walked, judge, { timeoutMs: TIMEOUT });
    await probeCapabilities(session, walked, judge, { timeoutMs: TIMEOUT });
    judgeCapabilitiesKept(session.observed(), judge);
  });
  for (const id of judge.passed) passed?.add(id);
  return { failed: [...new Set(judge.failures.map((failure) => failure.rule))].sort(), era };
}

const modernServer = (era: "modern" | "dual"): CheckTarget => ({
  kind: "stdio",
  stdio: { command: "node", args: modernServerArgs("--stdio", "--era", era) },
});

/** The SDK v2 reference server over Streamable HTTP on a free port, for `run`; stopped after it. */
async function overHttp(era: "modern" | "dual", run: (target: CheckTarget) => Promise<void>): Promise<void> {
  const server = await startModernHttp(era);
  try {
    await run({ kind: "http", http: { url: server.url } });
  } finally {
    await server.stop();
  }
}

describe("the protocol families against real servers", () => {
  test("server-everything (handshake era)", async () => {
    const target: CheckTarget = { kind: "stdio", stdio: { command: "node", args: [EVERYTHING, "stdio"] } };
    assert.deepEqual(await broken(target, "legacy"), {
      era: "legacy",
      failed: ["json-rpc/invalid-request", "json-rpc/unknown-tool", "lists/invalid-cursor"],
    });
  });

  test("the SDK v2 reference server, modern-only", async () => {
    assert.deepEqual(await broken(modernServer("modern"), "modern"), {
      era: "modern",
      failed: ["json-rpc/invalid-request", "lifecycle/missing-protocol-fields", "lists/invalid-cursor"],
    });
  });

  test("the SDK v2 reference server, dual-era, in both eras", async () => {
    for (const protocol of ["modern", "legacy"] as const) {
      assert.deepEqual(await broken(modernServer("dual"), protocol), { era: protocol, failed: ["json-rpc/invalid-request", "lists/invalid-cursor"] });
    }
  });

  test("the SDK v2 reference server over Streamable HTTP, modern-only and dual-era", async () => {
    await overHttp("modern", async (target) => {
      const passed = new Set<string>();
      assert.deepEqual(await broken(target, "modern", passed), { era: "modern", failed: ["lists/invalid-cursor"] });
      // Judged from the JSON-RPC errors in the bodies of 400 answers.
      for (const id of ["lifecycle/modern-only-initialize", "lifecycle/missing-protocol-fields", "json-rpc/invalid-request"]) assert.ok(passed.has(id), id);
    });
    await overHttp("dual", async (target) => {
      for (const protocol of ["modern", "legacy"] as const) {
        assert.deepEqual(await broken(target, protocol), { era: protocol, failed: ["lists/invalid-cursor"] });
      }
    });
  });
});
