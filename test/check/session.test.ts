// The check's session (src/check/session.ts): every message numbered and kept both ways, an
// answer named by its request's method, requests through the Client's chain (the 2026-07-28
// `_meta` added) or raw, the lists walked to their end, and what the Client refuses of a broken
// server still recorded and gone on with. Against test/fixtures/check/dual-era-server.mjs.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CheckSessionError, openConnection, openSession, SessionLog } from "../../src/check/session.ts";
import type { CheckTarget } from "../../src/check/target.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { dualEra } from "../support/dual-era.ts";

describe("the check session", () => {
  test("a legacy session numbers every message both ways, answers named by their request's method", async () => {
    const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: 5000 });
    try {
      assert.equal(session.era, "legacy");
      assert.equal(session.protocolVersion, "2025-11-25");
      const answer = await session.request("ping");
      assert.ok("result" in answer, JSON.stringify(answer));
      assert.deepEqual(answer.result, {});
      assert.equal(session.message(answer.request)?.dir, "send");
      assert.equal(session.message(answer.answer)?.method, "ping");
      const messages = session.messages;
      assert.deepEqual(messages.map((m) => m.index), messages.map((_, i) => i + 1));
      assert.equal((messages[0]!.message as { method?: string }).method, "initialize");
      assert.equal(messages[1]!.method, "initialize");
      assert.equal((messages[2]!.message as { method?: string }).method, "notifications/initialized");
      const observed = session.observed();
      assert.equal(observed.negotiation?.index, 2);
      assert.deepEqual(Object.keys(observed.capabilities).sort(), ["resources", "tools"]);
    } finally {
      await session.close();
    }
  });

  test("a modern session sends each request with the per-request protocol fields in _meta", async () => {
    const session = await openSession(dualEra(), { protocol: "auto", timeoutMs: 5000 });
    try {
      assert.equal(session.era, "modern");
      assert.equal(session.protocolVersion, "2026-07-28");
      const answer = await session.request("tools/list");
      assert.ok("result" in answer);
      const sent = session.message(answer.request)!.message as { params?: { _meta?: Record<string, unknown> } };
      assert.equal(sent.params?._meta?.["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
      assert.deepEqual(session.withProtocolFields({ a: 1 })?._meta, sent.params?._meta);
    } finally {
      await session.close();
    }
  });

  test("an error answer comes back as the server sent it; a request left unanswered times out", async () => {
    const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: 5000 });
    try {
      const unknown = await session.request("no/such-method");
      assert.ok("error" in unknown);
      assert.equal(unknown.error.code, -32601);
      const silent = await session.request("slow/never", undefined, { timeoutMs: 200 });
      assert.deepEqual(Object.keys(silent).sort(), ["request", "timeout"]);
    } finally {
      await session.close();
    }
  });

  test("a raw malformed request is sent as it is, its answer taken out by id", async () => {
    const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: 5000 });
    try {
      const id = session.rawId();
      const answer = await session.raw({ jsonrpc: "2.0", id, params: {} });
      assert.ok("error" in answer, JSON.stringify(answer));
      assert.equal(answer.error.code, -32600);
      assert.deepEqual(session.message(answer.request)?.message, { jsonrpc: "2.0", id, params: {} });
      const note = await session.raw({ jsonrpc: "2.0", method: "notifications/whatever" });
      assert.ok("sent" in note);
      // The session still works through the Client afterwards.
      assert.ok("result" in await session.request("ping"));
    } finally {
      await session.close();
    }
  });

  test("walk() follows every cursor into ListedItems with their message and pointer", async () => {
    const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: 5000 });
    try {
      const { lists, walks } = await session.walk();
      assert.deepEqual(lists.tools?.map((item) => (item.value as { name: string }).name), ["echo", "add", "now"]);
      assert.equal(lists.tools?.[2]?.pointer, "/result/tools/0");
      assert.equal(session.message(lists.tools![2]!.index)?.method, "tools/list");
      assert.equal(lists.prompts, undefined); // not declared
      assert.deepEqual(lists.resourceTemplates, []);
      assert.deepEqual(walks.map((w) => [w.method, w.pages.length, w.stopped]), [
        ["tools/list", 2, undefined],
        ["resources/list", 1, undefined],
        ["resources/templates/list", 1, undefined],
      ]);
      assert.equal(session.observed().lists, lists);
    } finally {
      await session.close();
    }
  });

  test("walk() stops at a repeated cursor and at the page limit", async () => {
    const repeated = await openSession(dualEra(["repeat-cursor"]), { protocol: "legacy", timeoutMs: 5000 });
    try {
      const { walks } = await repeated.walk();
      assert.equal(walks[0]?.stopped, "repeated-cursor");
    } finally {
      await repeated.close();
    }
    const endless = await openSession(dualEra(["endless-cursor"]), { protocol: "legacy", timeoutMs: 5000 });
    try {
      const { walks } = await endless.walk({ maxPages: 7 });
      assert.equal(walks[0]?.stopped, "page-limit");
      assert.equal(walks[0]?.pages.length, 7);
    } finally {
      await endless.close();
    }
  });

  test("an initialize result the Client refuses is recorded, and the session goes on raw", async () => {
    const session = await openSession(dualEra(["init-no-capabilities"]), { protocol: "legacy", timeoutMs: 5000 });
    try {
      assert.match(session.clientRefused ?? "", /capabilities/);
      assert.equal(session.era, "legacy");
      assert.equal((session.observed().negotiation?.result as { protocolVersion?: string }).protocolVersion, "2025-11-25");
      assert.deepEqual(session.observed().capabilities, {});
      const answer = await session.request("ping");
      assert.ok("result" in answer, JSON.stringify(answer));
    } finally {
      await session.close();
    }
  });

  test("a server/discover result the Client refuses: the session goes on raw, with the protocol fields", async () => {
    const session = await openSession(dualEra(["discover-no-capabilities"]), { protocol: "modern", timeoutMs: 5000 });
    try {
      assert.match(session.clientRefused ?? "", /capabilities/);
      assert.equal(session.era, "modern");
      const answer = await session.request("tools/list");
      assert.ok("result" in answer, JSON.stringify(answer));
      const sent = session.message(answer.request)!.message as { params?: { _meta?: Record<string, unknown> } };
      assert.equal(sent.params?._meta?.["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
    } finally {
      await session.close();
    }
  });

  test("a line that is not JSON-RPC is kept as a transport problem", async () => {
    const session = await openSession(dualEra(["garbage-line"]), { protocol: "legacy", timeoutMs: 5000 });
    try {
      await session.request("ping");
      assert.deepEqual(session.problems.map((p) => p.code), ["bad-line"]);
    } finally {
      await session.close();
    }
  });

  test("what is kept is bounded: a message past its budget is cut, and counted", async () => {
    const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: 5000, log: new SessionLog(undefined, { maxValuesPerMessage: 5 }) });
    try {
      const answer = await session.request("tools/list");
      assert.ok("result" in answer);
      assert.match(JSON.stringify(answer.result), /not copied/);
    } finally {
      await session.close();
    }
  });

  test("connections sharing a log are numbered in one sequence, each keeping its own messages", async () => {
    const log = new SessionLog();
    const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: 5000, log });
    const bare = await openConnection(dualEra(), { timeoutMs: 5000, log });
    try {
      const answer = await bare.raw({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      });
      assert.ok("result" in answer, JSON.stringify(answer));
      assert.equal(answer.result.protocolVersion, "2025-11-25");
      assert.equal(bare.message(answer.answer)?.method, "initialize");
      const ping = await session.request("ping");
      assert.ok("result" in ping);
      assert.deepEqual(log.messages.map((m) => m.index), log.messages.map((_, i) => i + 1));
      assert.deepEqual(bare.messages.map((m) => m.index), [answer.request, answer.answer]);
      assert.equal(session.messages.length + bare.messages.length, log.messages.length);
    } finally {
      await bare.close();
      await session.close();
    }
  });

  test("the trace's message events are numbered as the session's messages", async () => {
    const events: TraceEvent[] = [];
    const session = await openSession(dualEra(), { protocol: "legacy", timeoutMs: 5000, trace: (event) => events.push(event) });
    try {
      await session.raw({ jsonrpc: "2.0", id: session.rawId() });
      await session.request("ping");
    } finally {
      await session.close();
    }
    const traced = events.filter((event) => event.kind === "message");
    assert.equal(traced.length, session.messages.length);
    assert.deepEqual(traced.map((event) => event.dir), session.messages.map((m) => m.dir));
  });

  test("a server that never answers the negotiation: a CheckSessionError holding what was seen", async () => {
    const target: CheckTarget = { kind: "stdio", stdio: { command: "node", args: ["-e", "setTimeout(() => {}, 20000)"] } };
    await assert.rejects(openSession(target, { protocol: "legacy", timeoutMs: 300 }), (error: unknown) => {
      assert.ok(error instanceof CheckSessionError);
      assert.equal(error.code, "connect-failed");
      assert.equal((error.messages[0]?.message as { method?: string }).method, "initialize");
      return true;
    });
  });

  test("a server that cannot be started: a CheckSessionError, for a session and for a bare connection", async () => {
    const target: CheckTarget = { kind: "stdio", stdio: { command: "mcpwire-check-no-such-command" } };
    await assert.rejects(openSession(target, { protocol: "auto", timeoutMs: 2000 }), CheckSessionError);
    await assert.rejects(openConnection(target, { timeoutMs: 2000 }), CheckSessionError);
  });

  test("a raw request whose server exits ends at the close, saying so, not at its timeout", { timeout: 30_000 }, async () => {
    const target: CheckTarget = { kind: "stdio", stdio: { command: "node", args: ["-e", "process.stdin.once('data', () => process.exit(0))"] } };
    const connection = await openConnection(target, { timeoutMs: 600_000 });
    try {
      const answer = await connection.raw({ jsonrpc: "2.0", id: connection.rawId(), method: "ping" });
      assert.ok("failed" in answer, JSON.stringify(answer));
      assert.match(answer.failed, /connection closed before the answer came/);
    } finally {
      await connection.close();
    }
  });
});
