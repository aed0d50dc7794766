// The Anthropic Messages provider against a loopback fake of the API (test/support/fake-model-apis.ts):
// the shared behaviours, then the wire format: system, max_tokens, input_schema, tool_use / tool_result blocks.

import assert from "node:assert/strict";
import { test } from "node:test";
import { ANTHROPIC_DEFAULT_MAX_TOKENS, ANTHROPIC_VERSION } from "../../../src/agent/providers/anthropic.ts";
import { createProvider } from "../../../src/agent/providers/mod.ts";
import { ProviderError } from "../../../src/agent/providers/types.ts";
import { startFakeModelApi } from "../../support/fake-model-apis.ts";
import { API_KEY, ECHO_TOOL, historyAfter, providerBehaviours, providerFor, SUM_TOOL, withApi } from "./provider-cases.ts";

providerBehaviours("anthropic", "anthropic/claude-test");

test("anthropic: the request has the system field, max_tokens, input_schema and the version header", async () => {
  await withApi("anthropic", [{ text: "hi" }], async (api) => {
    await providerFor("anthropic/claude-test", api).chat({ system: "Be terse.", messages: [{ role: "user", content: "hello" }], tools: [SUM_TOOL] });
    const request = api.requests[0]!;
    assert.equal(request.path, "/v1/messages");
    assert.equal(request.headers["x-api-key"], API_KEY);
    assert.equal(request.headers["anthropic-version"], ANTHROPIC_VERSION);
    assert.equal(request.body.system, "Be terse.");
    assert.equal(request.body.max_tokens, ANTHROPIC_DEFAULT_MAX_TOKENS);
    assert.deepEqual(request.body.messages, [{ role: "user", content: [{ type: "text", text: "hello" }] }]);
    const [tool] = request.body.tools as Record<string, unknown>[];
    assert.ok(tool);
    assert.equal(tool.name, SUM_TOOL.name);
    assert.equal((tool.input_schema as Record<string, unknown>).type, "object");
    assert.equal((tool.input_schema as Record<string, unknown>).$schema, undefined);
  });
});

test("anthropic: the results of one turn's calls go back as tool_result blocks of ONE user message", async () => {
  const script = [
    { text: "I'll use both.", toolCalls: [{ name: SUM_TOOL.name, arguments: { a: 1, b: 2 } }, { name: ECHO_TOOL.name, arguments: { message: "x" } }] },
    { text: "done" },
  ];
  await withApi("anthropic", script, async (api) => {
    const provider = providerFor("anthropic/claude-test", api);
    const first = await provider.chat({ messages: [{ role: "user", content: "go" }], tools: [SUM_TOOL, ECHO_TOOL] });
    assert.equal(first.stopReason, "tool_use");
    assert.equal(first.text, "I'll use both.");
    const history = historyAfter("go", first, ['{"result":3}', '{"error":"echo failed"}']);
    const last = history[history.length - 1]!;
    if (last.role === "tool") last.isError = true;
    await provider.chat({ messages: history, tools: [SUM_TOOL, ECHO_TOOL], maxTokens: 256 });
    assert.deepEqual(api.rejections, []);
    const messages = api.requests[1]!.body.messages as Record<string, unknown>[];
    assert.equal(messages.length, 3, "user, assistant, one user message with both results");
    assert.deepEqual(messages[1], {
      role: "assistant",
      content: [
        { type: "text", text: "I'll use both." },
        { type: "tool_use", id: first.toolCalls[0]!.id, name: SUM_TOOL.name, input: { a: 1, b: 2 } },
        { type: "tool_use", id: first.toolCalls[1]!.id, name: ECHO_TOOL.name, input: { message: "x" } },
      ],
    });
    assert.deepEqual(messages[2], {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: first.toolCalls[0]!.id, content: '{"result":3}' },
        { type: "tool_result", tool_use_id: first.toolCalls[1]!.id, content: '{"error":"echo failed"}', is_error: true },
      ],
    });
    assert.equal(api.requests[1]!.body.max_tokens, 256);
  });
});

test("anthropic: a follow-up prompt after tool results joins the same user turn, after the results", async () => {
  await withApi("anthropic", [{ toolCalls: [{ name: SUM_TOOL.name, arguments: { a: 1, b: 1 } }] }, { text: "ok" }], async (api) => {
    const provider = providerFor("anthropic/claude-test", api);
    const first = await provider.chat({ messages: [{ role: "user", content: "go" }], tools: [SUM_TOOL] });
    await provider.chat({ messages: [...historyAfter("go", first, ['{"result":2}']), { role: "user", content: "and now?" }], tools: [SUM_TOOL] });
    assert.deepEqual(api.rejections, []);
    const messages = api.requests[1]!.body.messages as { content: { type: string }[] }[];
    assert.deepEqual(messages[2]!.content.map((block) => block.type), ["tool_result", "text"]);
  });
});

test("anthropic: 529 overloaded_error is retryable", async () => {
  await withApi("anthropic", [{ error: { status: 529, message: "Overloaded" } }], async (api) => {
    await assert.rejects(
      providerFor("anthropic/claude-test", api).chat({ messages: [{ role: "user", content: "hi" }], tools: [] }),
      (error: unknown) => error instanceof ProviderError && error.status === 529 && error.retryable && /Overloaded/.test(error.message),
    );
  });
});

test("anthropic: an overloaded_error of another status is retryable too", async () => {
  await withApi("anthropic", [{ error: { status: 500, message: "busy right now", type: "overloaded_error" } }], async (api) => {
    await assert.rejects(
      providerFor("anthropic/claude-test", api).chat({ messages: [{ role: "user", content: "hi" }], tools: [] }),
      (error: unknown) => error instanceof ProviderError && error.retryable,
    );
  });
});

test("anthropic: ANTHROPIC_API_KEY from the env record; none at all is refused up front", async () => {
  const api = await startFakeModelApi("anthropic", [{ text: "ok" }], { apiKey: "sk-ant-env" });
  try {
    const provider = createProvider("anthropic/claude-test", { env: { ANTHROPIC_API_KEY: "sk-ant-env", ANTHROPIC_BASE_URL: api.url } });
    assert.equal((await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] })).text, "ok");
  } finally {
    await api.close();
  }
  assert.throws(() => createProvider("anthropic/claude-test", { env: {} }), /ANTHROPIC_API_KEY/);
});
