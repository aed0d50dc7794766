// Capabilities kept, judged from the notifications a server sent: on the initialize wire a
// list_changed, resources/updated or log message its declared capabilities do not allow; on the
// 2026-07-28 wire a change notification no subscriptions/listen asked for, a log message no
// request's logLevel asked for. Each finding names the notification's message.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CapabilityUseRules, judgeCapabilityUse } from "../../src/check/capability-use.ts";
import { observedSession, type SessionSpec, weatherTool } from "../support/observed-session.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

function judged(spec: SessionSpec) {
  const judge = new RecordingJudge();
  judgeCapabilityUse(observedSession(spec), judge);
  return judge;
}

// The spec's examples: 2026-07-28 schema/examples ToolListChangedNotification, ResourceUpdatedNotification, LoggingMessageNotification.
const TOOLS_CHANGED = { method: "notifications/tools/list_changed" };
const PROMPTS_CHANGED = { method: "notifications/prompts/list_changed" };
const RESOURCES_CHANGED = { method: "notifications/resources/list_changed" };
const UPDATED = { method: "notifications/resources/updated", params: { uri: "file:///project/config.json" } };
const LOG = { method: "notifications/message", params: { level: "error", logger: "database", data: { error: "Connection failed" } } };

describe("capabilities kept, on the initialize wire", () => {
  test("pass when each notification's capability is declared", () => {
    const judge = judged({
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, logging: {} },
      tools: [weatherTool()],
      notifications: [TOOLS_CHANGED, PROMPTS_CHANGED, RESOURCES_CHANGED, UPDATED, LOG],
    });
    assert.deepEqual(judge.failures, []);
    for (const id of ["capabilities/list-changed-undeclared", "capabilities/updated-without-subscribe", "capabilities/log-without-logging"]) {
      assert.equal(judge.outcome(id), "pass", id);
    }
    for (const id of ["capabilities/unrequested-notification", "capabilities/log-without-log-level"]) assert.equal(judge.outcome(id), "skip", id);
  });

  test("a list_changed whose capability lacks listChanged: true, or is not declared, is a finding at that notification", () => {
    const judge = judged({
      capabilities: { tools: {}, resources: { subscribe: true } },
      tools: [weatherTool()],
      notifications: [TOOLS_CHANGED, PROMPTS_CHANGED],
    });
    const failures = judge.failuresOf("capabilities/list-changed-undeclared");
    assert.deepEqual(failures.map((each) => each.seen), [
      { index: 6, pointer: "/method", excerpt: "notifications/tools/list_changed" },
      { index: 7, pointer: "/method", excerpt: "notifications/prompts/list_changed" },
    ]);
    assert.match(failures[0]!.detail, /tools capability does not declare listChanged: true/);
    assert.match(failures[1]!.detail, /prompts capability is not declared/);
  });

  test("resources/updated without resources.subscribe is a finding", () => {
    const judge = judged({ capabilities: { resources: { listChanged: true } }, notifications: [UPDATED] });
    assert.deepEqual(judge.failuresOf("capabilities/updated-without-subscribe").map((each) => each.seen?.index), [4]);
  });

  test("notifications/message without the logging capability is a finding", () => {
    const judge = judged({ capabilities: { tools: {} }, notifications: [LOG] });
    assert.deepEqual(judge.failuresOf("capabilities/log-without-logging").map((each) => each.seen?.index), [4]);
  });

  test("no notification at all: each rule is skipped, saying none was seen", () => {
    const judge = judged({ tools: [weatherTool()] });
    assert.equal(judge.skipReason("capabilities/list-changed-undeclared"), "the server sent no list_changed notification");
    assert.equal(judge.skipReason("capabilities/log-without-logging"), "the server sent no notifications/message");
  });
});

describe("capabilities kept, on the 2026-07-28 wire", () => {
  const listen = {
    method: "subscriptions/listen",
    params: {
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
      notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///project/config.json"] },
    },
  };
  const withLogLevel = {
    method: "tools/call",
    params: { name: "get_weather", arguments: { location: "Paris" }, _meta: { "io.modelcontextprotocol/logLevel": "info" } },
  };

  test("pass when a subscriptions/listen asked for each change notification and a request set a log level", () => {
    const judge = judged({ era: "modern", sent: [listen, withLogLevel], notifications: [TOOLS_CHANGED, UPDATED, LOG] });
    assert.deepEqual(judge.failures, []);
    for (const id of ["capabilities/unrequested-notification", "capabilities/log-without-log-level", "capabilities/log-without-logging"]) {
      assert.equal(judge.outcome(id), "pass", id);
    }
    assert.match(judge.skipReason("capabilities/list-changed-undeclared"), /initialize era/);
  });

  test("a change notification no subscriptions/listen asked for is a finding, a resource update for another URI too", () => {
    const other = { method: "notifications/resources/updated", params: { uri: "file:///project/other.json" } };
    const judge = judged({ era: "modern", sent: [listen], notifications: [PROMPTS_CHANGED, other] });
    const failures = judge.failuresOf("capabilities/unrequested-notification");
    assert.deepEqual(failures.map((each) => each.seen?.index), [4, 5]);
    assert.match(failures[0]!.detail, /no subscriptions\/listen asked for promptsListChanged/);
    assert.match(failures[1]!.detail, /"file:\/\/\/project\/other\.json", which no subscriptions\/listen asked for/);
  });

  test("a log message before any request carried io.modelcontextprotocol/logLevel is a finding", () => {
    const judge = judged({ era: "modern", sent: [{ method: "tools/list", params: {} }], notifications: [LOG] });
    assert.deepEqual(judge.failuresOf("capabilities/log-without-log-level").map((each) => each.seen?.index), [4]);
    assert.equal(judge.outcome("capabilities/log-without-logging"), "pass");
  });

  test("every rule of the family is reported, whatever the era", () => {
    for (const era of ["legacy", "modern"] as const) {
      const judge = judged({ era });
      for (const each of Object.values(CapabilityUseRules)) assert.notEqual(judge.outcome(each.id), "none", `${era} ${each.id}`);
    }
  });
});
