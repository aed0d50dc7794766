// The bridge in front of real reference servers of both eras: server-everything (the handshake
// era) lists to a host through the bridge what it lists to that host directly, whatever the
// host's era; the 2026-07-28 reference server's multi round-trip requests reach a 2026-07-28
// host untouched (inputRequests, requestState, then the retry's inputResponses) and a
// handshake-era host as its own elicitation request — spec 2026-07-28 basic/patterns/mrtr.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { modernServerArgs } from "../../conformance/fixtures/modern-server-launch.ts";
import type { JsonObject } from "../../src/client/types.ts";
import { Client, StdioTransport } from "../../src/mod.ts";
import { createBridge } from "../../src/serve/mod.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";
import { hostContext, hostIdentity, testSession } from "./host-context.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };

function texts(result: unknown): string {
  return ((result as { content?: { text: string }[] }).content ?? []).map((block) => block.text).join("\n");
}

describe("server-everything behind the bridge", () => {
  const bridge = createBridge({ config: configOf(stdioServerConfig("everything", [EVERYTHING, "stdio"])), manager: FAST });
  after(() => bridge.close());
  const capabilities = { sampling: {}, elicitation: { form: {} }, roots: {} };

  /** Lists until `list` gives the tools a client with these capabilities sees (server-everything adds them a moment after connecting). */
  async function settled(list: () => Promise<string[]>, expected: string[]): Promise<string[]> {
    let last: string[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      last = (await list()).sort();
      if (JSON.stringify(last) === JSON.stringify(expected)) return last;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return last;
  }

  it("lists to a host of either era the tools it lists to that host directly", async () => {
    const direct = new Client({ name: "test-host", version: "1.0.0" }, {
      handlers: {
        sampling: () => Promise.reject(new Error("not asked")),
        elicitation: { form: () => Promise.reject(new Error("not asked")) },
        roots: () => [],
      },
    });
    await direct.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: () => {} }));
    let expected: string[] = [];
    try {
      for (let attempt = 0; attempt < 50 && !expected.includes("trigger-sampling-request"); attempt++) {
        expected = (await direct.listTools({ fresh: true })).map((tool) => tool.name).sort();
        if (!expected.includes("trigger-sampling-request")) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await direct.close();
    }
    assert.ok(expected.includes("trigger-sampling-request"), expected.join(","));
    for (const era of ["legacy", "modern"] as const) {
      const host = hostIdentity(era, capabilities);
      await bridge.handlers.capabilities(host);
      const session = testSession(host);
      bridge.handlers.sessionOpened?.(session);
      const listed = await settled(async () => {
        const { tools } = await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
        return (tools as { name: string }[]).map((tool) => tool.name);
      }, expected);
      assert.deepEqual(listed, expected, `${era} host`);
    }
  });
});

describe("server-everything's tasks behind the bridge", () => {
  const bridge = createBridge({ config: configOf(stdioServerConfig("everything", [EVERYTHING, "stdio"])), manager: FAST });
  after(() => bridge.close());

  it("a handshake-era host that asks for a task gets the backend's task, and tasks/get and tasks/result reach it", async () => {
    const host = hostIdentity("legacy", { tasks: {} });
    await bridge.handlers.capabilities(host);
    const session = testSession(host);
    bridge.handlers.sessionOpened?.(session);
    const created = await bridge.handlers.request(
      "tools/call",
      { name: "simulate-research-query", arguments: { topic: "bridges" }, task: { ttl: 60_000 } },
      hostContext(session, host, "tools/call"),
    );
    const taskId = (created.task as { taskId: string } | undefined)?.taskId;
    assert.equal(typeof taskId, "string", JSON.stringify(created));
    const got = await bridge.handlers.request("tasks/get", { taskId }, hostContext(session, host, "tasks/get"));
    assert.equal(got.taskId, taskId);
    const result = await bridge.handlers.request("tasks/result", { taskId }, hostContext(session, host, "tasks/result"));
    assert.match(texts(result), /bridges/);
  });

  it("a host that asks for no task gets the tool's result (the bridge follows the task the tool requires)", async () => {
    const host = hostIdentity("modern", {});
    const result = await bridge.handlers.request(
      "tools/call",
      { name: "simulate-research-query", arguments: { topic: "followed" } },
      hostContext(testSession(host), host, "tools/call"),
    );
    assert.match(texts(result), /followed/);
  });
});

describe("the 2026-07-28 reference server behind the bridge", () => {
  const bridge = createBridge({ config: configOf(stdioServerConfig("modern", modernServerArgs("--stdio", "--era", "modern"))), manager: FAST });
  after(() => bridge.close());

  it("a 2026-07-28 host gets the input_required result untouched, and its retry comes back as it sent it", async () => {
    const host = hostIdentity("modern", { elicitation: { form: {} } });
    const session = testSession(host);
    const first = await bridge.handlers.request("tools/call", { name: "ask_name", arguments: {} }, hostContext(session, host, "tools/call"));
    assert.equal(first.resultType, "input_required");
    const requests = first.inputRequests as Record<string, { method: string }>;
    assert.equal(requests.name?.method, "elicitation/create");
    assert.equal(typeof first.requestState, "string");
    const retry: JsonObject = {
      name: "ask_name",
      arguments: {},
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: first.requestState as string,
    };
    const final = await bridge.handlers.request("tools/call", retry, hostContext(session, host, "tools/call"));
    assert.equal(texts(final), "Hello, Ada");
  });

  it("a handshake-era host is asked the elicitation itself, and the call completes", async () => {
    const host = hostIdentity("legacy", { elicitation: { form: {} } });
    await bridge.handlers.capabilities(host);
    const session = testSession(host);
    bridge.handlers.sessionOpened?.(session);
    const context = hostContext(session, host, "tools/call", { answer: () => ({ action: "accept", content: { name: "Grace" } }) });
    const result = await bridge.handlers.request("tools/call", { name: "ask_name", arguments: {} }, context);
    assert.equal(texts(result), "Hello, Grace");
    assert.deepEqual(context.asked.map((each) => each.method), ["elicitation/create"]);
    // A backend of the 2026-07-28 era only: the bridge speaks its era, and translates.
    const eras = bridge.status().filter((set) => set.host === "legacy").map((set) => set.servers[0]?.era);
    assert.deepEqual(eras, ["modern"]);
  });
});

describe("a backend of both eras behind the bridge", () => {
  const bridge = createBridge({ config: configOf(stdioServerConfig("dual", modernServerArgs("--stdio", "--era", "dual"))), manager: FAST });
  after(() => bridge.close());

  it("is spoken to in each host's own era", async () => {
    for (const era of ["legacy", "modern"] as const) {
      const host = hostIdentity(era, {});
      await bridge.handlers.capabilities(host);
      const session = testSession(host);
      bridge.handlers.sessionOpened?.(session);
      const result = await bridge.handlers.request("tools/call", { name: "echo", arguments: { message: era } }, hostContext(session, host, "tools/call"));
      assert.match(texts(result), new RegExp(era));
    }
    const spoken = bridge.status().map((set) => [set.host, set.servers[0]?.era]).sort();
    assert.deepEqual(spoken, [["legacy", "legacy"], ["modern", "modern"]]);
  });
});
