// The agent loop's spans (OpenTelemetry semantic conventions for generative AI and for MCP): one
// Runner turn with the scripted model is invoke_agent → chat {model} → execute_tool {name} →
// tools/call {tool}, the server saw that MCP request's traceparent, token usage is on the model
// span, and no secret of the config (headers, env, arguments, results) is in any attribute.
// Against test/fixtures/trace-echo-server.mjs over stdio and Streamable HTTP, through McpManager.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NO_HOOKS } from "../../src/agent/hooks.ts";
import { Runner } from "../../src/agent/runner.ts";
import { hostRunner } from "../../src/cli/session/agent-session.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath, startPortFixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { answer, ScriptedProvider } from "../support/scripted-provider.ts";
import { spanIdOf, spanRecorder } from "../support/spans.ts";

const GUARD_MS = 20_000;
const ENV_SECRET = "env-secret-7f3a9c2e51d4b8a6";
const HEADER_SECRET = "header-secret-c41e8f0a7b92d365";

describe("Runner telemetry", () => {
  test("one turn's span tree is model request → tool call → MCP request, and no secret is in any attribute", async () => {
    const http = await startPortFixture("trace-echo-server.mjs", { args: ["--http"] });
    const recorder = spanRecorder();
    const config = parseConfig(
      [
        "mcp_servers:",
        "  local:",
        "    command: node",
        `    args: [${JSON.stringify(fixturePath("trace-echo-server.mjs"))}]`,
        "    protocol: modern",
        "    env:",
        '      ECHO_API_TOKEN: "${ECHO_TOKEN}"',
        "  remote:",
        `    url: ${http.origin}/mcp`,
        "    protocol: modern",
        "    headers:",
        '      Authorization: "Bearer ${REMOTE_KEY}"',
        "",
      ].join("\n"),
      { file: "/tmp/mcpwire-telemetry-test.yaml", env: { ECHO_TOKEN: ENV_SECRET, REMOTE_KEY: HEADER_SECRET } },
    );
    assert.deepEqual(config.errors ?? [], []);
    const telemetry = { tracer: recorder.tracer, capture: { arguments: true, results: true } };
    const manager = new McpManager(config, { telemetry, eraCache: false });
    try {
      await hangGuard(manager.start(), GUARD_MS, "the servers starting");
      const provider = new ScriptedProvider([
        () => ({
          text: "",
          toolCalls: [
            { id: "call_a", name: "mcp_local_echo", arguments: { note: "hello", token: ENV_SECRET } },
            { id: "call_b", name: "mcp_remote_echo", arguments: { auth: `Bearer ${HEADER_SECRET}` } },
          ],
          stopReason: "tool_calls",
          usage: { inputTokens: 120, outputTokens: 7 },
          model: "script-1-2026",
        }),
        answer("done"),
      ]);
      // The Runner of `mcpwire run` (cli/session/agent-session.ts hostRunner): it takes the manager's telemetry, redactor included.
      const runner = hostRunner(manager, {
        modelString: "scripted/script-1",
        provider,
        makeProvider: () => provider,
        policy: "all",
        approve: () => Promise.resolve(true),
        hooks: NO_HOOKS,
      }, () => {});
      assert.equal(await hangGuard(runner.run("call the echo tools"), GUARD_MS, "the run"), "done");
    } finally {
      await manager.close();
      await http.stop();
    }

    const spans = recorder.spans();
    const named = (name: string) => spans.filter((span) => span.name === name);
    const [agent] = named("invoke_agent mcpwire");
    assert.ok(agent !== undefined, spans.map((span) => span.name).join(", "));
    const chats = named("chat script-1");
    assert.equal(chats.length, 2);
    const first = chats.find((span) => span.attributes["mcpwire.tool_calls"] === 2)!;
    assert.equal(recorder.parentOf(first), agent.spanContext().spanId);
    assert.equal(first.kind, 2);
    assert.equal(first.attributes["gen_ai.operation.name"], "chat");
    assert.equal(first.attributes["gen_ai.request.model"], "script-1");
    assert.equal(first.attributes["gen_ai.response.model"], "script-1-2026");
    assert.equal(first.attributes["gen_ai.usage.input_tokens"], 120);
    assert.equal(first.attributes["gen_ai.usage.output_tokens"], 7);
    for (const [tool, server] of [["mcp_local_echo", "local"], ["mcp_remote_echo", "remote"]] as const) {
      const [call] = named(`execute_tool ${tool}`);
      assert.ok(call !== undefined, `an execute_tool span for ${tool}`);
      assert.equal(recorder.parentOf(call), first.spanContext().spanId, `${tool}: a child of the model request that asked for it`);
      assert.equal(call.attributes["gen_ai.tool.name"], tool);
      assert.deepEqual(call.events.map((event) => [event.name, event.attributes?.["mcpwire.approval.approved"]]), [["mcpwire.approval", true]]);
      const mcp = spans.find((span) => span.name === "tools/call echo" && recorder.parentOf(span) === call.spanContext().spanId);
      assert.ok(mcp !== undefined, `${tool}: its tools/call span is the tool call's child`);
      assert.equal(mcp.attributes["network.transport"], server === "local" ? "pipe" : "tcp");
      // Captured (opt-in) and redacted: the arguments and result are there, the secrets are not.
      assert.match(String(call.attributes["gen_ai.tool.call.arguments"]), /\[redacted\]/);
      assert.match(String(mcp.attributes["gen_ai.tool.call.arguments"]), /\[redacted\]/);
      assert.match(String(mcp.attributes["gen_ai.tool.call.result"]), /echo/);
    }
    for (const text of recorder.allText()) {
      assert.ok(!text.includes(ENV_SECRET), `an attribute holds the env secret: ${text}`);
      assert.ok(!text.includes(HEADER_SECRET), `an attribute holds the header secret: ${text}`);
    }
  });

  test("the MCP request's traceparent reaches the server from inside the tool call's span", async () => {
    const recorder = spanRecorder();
    const config = parseConfig(
      ["mcp_servers:", "  local:", "    command: node", `    args: [${JSON.stringify(fixturePath("trace-echo-server.mjs"))}]`, "    protocol: modern", ""].join(
        "\n",
      ),
      { file: "/tmp/mcpwire-telemetry-test.yaml", env: {} },
    );
    const manager = new McpManager(config, { telemetry: { tracer: recorder.tracer }, eraCache: false });
    let seen: { method: string; name?: string; meta: { traceparent?: string } }[] = [];
    try {
      await hangGuard(manager.start(), GUARD_MS, "the server starting");
      const provider = new ScriptedProvider([
        () => ({ text: "", toolCalls: [{ id: "call_1", name: "mcp_local_echo", arguments: { note: "secret-free" } }], stopReason: "tool_calls" }),
        answer("done"),
      ]);
      const runner = new Runner({ provider, registry: manager.registry, telemetry: { tracer: recorder.tracer } });
      await hangGuard(runner.run("echo"), GUARD_MS, "the run");
      seen = JSON.parse(JSON.parse(await manager.registry.dispatch("mcp_local_seen", {})).result);
    } finally {
      await manager.close();
    }
    const call = seen.find((request) => request.method === "tools/call" && request.name === "echo")!;
    const mcp = recorder.byId(spanIdOf(call.meta.traceparent!))!;
    assert.equal(mcp.name, "tools/call echo");
    const tool = recorder.byId(recorder.parentOf(mcp)!)!;
    assert.equal(tool.name, "execute_tool mcp_local_echo");
    const model = recorder.byId(recorder.parentOf(tool)!)!;
    assert.equal(model.name, "chat script-1");
    // Off by default: no contents on the spans.
    assert.equal(mcp.attributes["gen_ai.tool.call.arguments"], undefined);
    assert.equal(tool.attributes["gen_ai.tool.call.result"], undefined);
  });
});
