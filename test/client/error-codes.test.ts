// The client layer's errors are McpwireErrors with a named code (issue 25 "One error model"):
// each class, reached through a real path where that is cheap, else built as its callers build it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AppResourceError, readToolUi } from "../../src/client/extensions/mod.ts";
import { ServerSkills, SkillError } from "../../src/client/skills/skills.ts";
import { tasksOf } from "../../src/client/tasks/tasks-extension.ts";
import {
  CapabilityError,
  Client,
  ClientStateError,
  OutputValidationError,
  ProtocolError,
  ProtocolVersionError,
  TaskError,
  tasksExtension,
} from "../../src/mod.ts";
import { coded } from "../support/coded-error.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { inProcessServer } from "../support/in-process-server.ts";
import { rejection } from "../support/rejection.ts";

const CLIENT_INFO = { name: "mcpwire-error-code-tests", version: "1.0.0" };

/** A legacy-era client connected to an in-process server with these capabilities and handlers. */
async function connected(
  capabilities: Record<string, unknown>,
  handlers: Parameters<typeof inProcessServer>[1] = {},
  protocolVersion?: string,
): Promise<Client> {
  const server = inProcessServer(capabilities, handlers, protocolVersion);
  const client = new Client(CLIENT_INFO, { name: "codes", protocol: "legacy", requestTimeoutMs: 10_000, use: [tasksExtension] });
  await hangGuard(client.connect(server.clientEnd), 15_000, "connect");
  return client;
}

describe("client errors: McpwireError with a named code", () => {
  test("ClientStateError: not-connected, closed, already-connected, roots-not-declared, by where it is thrown", async () => {
    const client = new Client(CLIENT_INFO);
    const early = coded(await rejection(client.listTools()), ClientStateError, "not-connected");
    assert.equal(early.state, "new");
    coded(await rejection(client.setRoots([])), ClientStateError, "roots-not-declared");
    await client.close();
    const late = coded(await rejection(client.ping()), ClientStateError, "closed");
    assert.equal(late.state, "closed");
    const connected = new Client(CLIENT_INFO, { protocol: "legacy", requestTimeoutMs: 10_000 });
    await connected.connect(inProcessServer({}, {}).clientEnd);
    try {
      const again = coded(await rejection(connected.connect(inProcessServer({}, {}).clientEnd)), ClientStateError, "already-connected");
      assert.equal(again.state, "ready");
    } finally {
      await connected.close();
    }
  });

  test("ClientStateError: failed carries the failure as cause", async () => {
    const client = new Client(CLIENT_INFO, { protocol: "legacy", requestTimeoutMs: 10_000 });
    const server = inProcessServer({}, {}, "1999-01-01");
    const refused = coded(await rejection(client.connect(server.clientEnd)), ProtocolVersionError, "no-common-version");
    assert.equal(refused.received, "1999-01-01");
    assert.ok(refused.supported.includes("2025-11-25"));
    const error = coded(await rejection(client.ping()), ClientStateError, "failed");
    assert.equal(error.state, "failed");
    assert.equal(error.cause, refused);
  });

  test("CapabilityError: missing-server-capability, with the capability", async () => {
    const client = await connected({});
    try {
      const tools = coded(await rejection(client.callTool("echo")), CapabilityError, "missing-server-capability");
      assert.equal(tools.capability, "tools");
      const tasks = coded(await rejection(tasksOf(client).listTasks()), CapabilityError, "missing-server-capability");
      assert.equal(tasks.capability, "tasks.list");
    } finally {
      await client.close();
    }
  });

  test("OutputValidationError: output-missing for a tool that declares an outputSchema and returns none", async () => {
    const client = await connected({ tools: {} }, {
      "tools/list": () => ({ tools: [{ name: "sum", inputSchema: { type: "object" }, outputSchema: { type: "object" } }] }),
      "tools/call": () => ({ content: [{ type: "text", text: "3" }] }),
    });
    try {
      await client.listTools();
      const error = coded(await rejection(client.callTool("sum", {})), OutputValidationError, "output-missing");
      assert.equal(error.tool, "sum");
      assert.equal(error.path, "");
      assert.equal(error.errors.length, 1);
    } finally {
      await client.close();
    }
  });

  test("AppResourceError: no-ui-resource for a plain tool", async () => {
    const client = await connected({ tools: {} });
    try {
      const error = coded(
        await rejection(readToolUi(client, { name: "plain", inputSchema: { type: "object" } }, { server: "codes" })),
        AppResourceError,
        "no-ui-resource",
      );
      assert.equal(error.server, "codes");
      assert.equal(error.tool, "plain");
      assert.equal(error.uri, undefined);
    } finally {
      await client.close();
    }
  });

  test("SkillError: not-declared when the server does not declare the skills extension", async () => {
    const client = await connected({});
    try {
      const error = coded(await rejection(new ServerSkills(client, { server: "codes" }).list()), SkillError, "not-declared");
      assert.equal(error.server, "codes");
    } finally {
      await client.close();
    }
  });

  test("the classes built as their callers build them: (message, code, options), cause kept", () => {
    const cause = new Error("underneath");
    const task = coded(new TaskError("t", "lost", { taskId: "task-1", cause }), TaskError, "lost");
    assert.equal(task.taskId, "task-1");
    assert.equal(task.cause, cause);
    assert.equal(coded(new TaskError("t", "cancelled"), TaskError, "cancelled").taskId, "");
    const protocol = coded(new ProtocolError("p", "bad-result", { method: "tools/list", cause }), ProtocolError, "bad-result");
    assert.equal(protocol.method, "tools/list");
    assert.equal(protocol.cause, cause);
    const version = coded(
      new ProtocolVersionError("v", "era-not-carried", { offered: "2026-07-28", received: undefined, supported: ["2025-11-25"] }),
      ProtocolVersionError,
      "era-not-carried",
    );
    assert.deepEqual(version.supported, ["2025-11-25"]);
    const capability = coded(new CapabilityError("c", { capability: "prompts", cause }), CapabilityError, "missing-server-capability");
    assert.equal(capability.cause, cause);
    const output = coded(
      new OutputValidationError("o", "output-mismatch", { tool: "t", errors: [{ path: "/a", message: "m" }] }),
      OutputValidationError,
      "output-mismatch",
    );
    assert.equal(output.path, "/a");
    const skill = coded(
      new SkillError("s", "digest-mismatch", { server: "x", skill: "skill://a/SKILL.md", file: "SKILL.md", cause }),
      SkillError,
      "digest-mismatch",
    );
    assert.deepEqual([skill.server, skill.skill, skill.file, skill.cause], ["x", "skill://a/SKILL.md", "SKILL.md", cause]);
    const app = coded(new AppResourceError("a", "not-html", { server: "x", tool: "t", uri: "ui://x", cause }), AppResourceError, "not-html");
    assert.deepEqual([app.server, app.tool, app.uri, app.cause], ["x", "t", "ui://x", cause]);
    const state = coded(new ClientStateError("s", "session-ended", { state: "connecting" }), ClientStateError, "session-ended");
    assert.equal(state.state, "connecting");
  });
});
