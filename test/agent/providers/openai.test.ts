// The OpenAI Chat Completions provider against a loopback fake of the API (test/support/fake-model-apis.ts):
// the shared behaviours, then the wire format: tools, tool_calls, role "tool", base_url and keys.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createProvider } from "../../../src/agent/providers/mod.ts";
import { ProviderError } from "../../../src/agent/providers/types.ts";
import { startFakeModelApi } from "../../support/fake-model-apis.ts";
import { API_KEY, historyAfter, providerBehaviours, providerFor, SUM_TOOL, withApi } from "./provider-cases.ts";

providerBehaviours("openai", "openai/gpt-test");

test("openai: the request is Chat Completions with function tools, the system prompt first", async () => {
  await withApi("openai", [{ toolCalls: [{ id: "call_abc", name: SUM_TOOL.name, arguments: { a: 2, b: 40 } }] }, { text: "42" }], async (api) => {
    const provider = providerFor("openai/gpt-test", api);
    const first = await provider.chat({
      system: "You add.",
      messages: [{ role: "user", content: "2+40?" }],
      tools: [SUM_TOOL],
      maxTokens: 100,
      temperature: 0,
    });
    const body = api.requests[0]!.body;
    assert.equal(api.requests[0]!.path, "/v1/chat/completions");
    assert.equal(api.requests[0]!.headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(body.model, "gpt-test");
    assert.deepEqual(body.messages, [{ role: "system", content: "You add." }, { role: "user", content: "2+40?" }]);
    assert.deepEqual(body.tools, [{
      type: "function",
      function: {
        name: SUM_TOOL.name,
        description: SUM_TOOL.description,
        parameters: {
          type: "object",
          properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
          required: ["a", "b"],
          additionalProperties: false,
        },
      },
    }]);
    assert.equal(body.max_tokens, 100, "a compatible server gets max_tokens");
    assert.equal(body.temperature, 0);
    assert.equal(first.stopReason, "tool_calls");
    assert.equal(first.toolCalls[0]!.id, "call_abc");

    await provider.chat({ messages: historyAfter("2+40?", first, ['{"result":42}']), tools: [SUM_TOOL] });
    const messages = api.requests[1]!.body.messages as unknown[];
    assert.deepEqual(messages.slice(1), [
      { role: "assistant", content: null, tool_calls: [{ id: "call_abc", type: "function", function: { name: SUM_TOOL.name, arguments: '{"a":2,"b":40}' } }] },
      { role: "tool", tool_call_id: "call_abc", content: '{"result":42}' },
    ]);
    assert.deepEqual(api.requests[1]!.toolResults, [{ id: "call_abc", content: '{"result":42}' }]);
  });
});

test("openai: arguments that are not JSON are kept as the raw string", async () => {
  await withApi("openai", [{ toolCalls: [{ name: SUM_TOOL.name, arguments: "{a: 2" }] }], async (api) => {
    const answer = await providerFor("openai/gpt-test", api).chat({ messages: [{ role: "user", content: "x" }], tools: [SUM_TOOL] });
    assert.equal(answer.toolCalls[0]!.arguments, "{a: 2");
  });
});

test("openai: the fake refuses a tool message that answers no call, as the API does", async () => {
  await withApi("openai", [], async (api) => {
    const provider = providerFor("openai/gpt-test", api);
    await assert.rejects(
      provider.chat({ messages: [{ role: "user", content: "x" }, { role: "tool", toolCallId: "call_missing", name: "t", content: "{}" }], tools: [] }),
      (error: unknown) =>
        error instanceof ProviderError && error.code === "api-error" && error.status === 400 && /preceeding message with 'tool_calls'/.test(error.message),
    );
    assert.equal(api.rejections.length, 1);
  });
});

test("openai: a custom base_url needs no key and sends no Authorization", async () => {
  const api = await startFakeModelApi("openai", [{ text: "local model here" }]);
  try {
    const provider = createProvider("openai/llama-3.2", { baseUrl: api.url, env: {} });
    assert.equal((await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] })).text, "local model here");
    assert.equal(api.requests[0]!.headers.authorization, undefined);
  } finally {
    await api.close();
  }
});

test("openai: OPENAI_API_KEY and OPENAI_BASE_URL come from the env record given", async () => {
  const api = await startFakeModelApi("openai", [{ text: "ok" }], { apiKey: "sk-from-env" });
  try {
    const provider = createProvider("openai:gpt-4o", { env: { OPENAI_API_KEY: "sk-from-env", OPENAI_BASE_URL: api.url } });
    assert.equal(provider.model, "gpt-4o");
    assert.equal((await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] })).text, "ok");
  } finally {
    await api.close();
  }
});

test("openai: api.openai.com without a key is refused up front, naming OPENAI_API_KEY and base_url", () => {
  assert.throws(
    () => createProvider("openai/gpt-4o", { env: {} }),
    (error: unknown) =>
      error instanceof ProviderError && error.code === "missing-api-key" && /OPENAI_API_KEY/.test(error.message) && /base_url/.test(error.message),
  );
});

test("openai: the official API gets max_completion_tokens and asks for usage in the stream", async () => {
  const seen: { url: string; body: Record<string, unknown> }[] = [];
  const provider = createProvider("openai/gpt-4o", {
    apiKey: "sk-x",
    env: {},
    // a fetch standing in for api.openai.com: records the request, answers a one-chunk stream
    fetch: (input, init) => {
      seen.push({ url: String(input), body: JSON.parse(String(init?.body)) as Record<string, unknown> });
      const stream = 'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\n' +
        'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
        'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1}}\n\ndata: [DONE]\n\n';
      return Promise.resolve(new Response(stream, { headers: { "content-type": "text/event-stream" } }));
    },
  });
  const answer = await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [], maxTokens: 50, onText: () => {} });
  assert.equal(seen[0]!.url, "https://api.openai.com/v1/chat/completions");
  assert.equal(seen[0]!.body.max_completion_tokens, 50);
  assert.equal(seen[0]!.body.max_tokens, undefined);
  assert.deepEqual(seen[0]!.body.stream_options, { include_usage: true });
  assert.deepEqual(answer.usage, { inputTokens: 3, outputTokens: 1 });
  assert.equal(answer.text, "hi");
});

/** A provider whose fetch answers every request with `body` of `contentType` (a server we cannot run here). */
function answering(body: string, contentType: string) {
  return createProvider("openai/local", {
    baseUrl: "http://127.0.0.1:9/v1",
    env: {},
    fetch: () => Promise.resolve(new Response(body, { headers: { "content-type": contentType } })),
  });
}

test("openai: a server that ignores stream: true and answers JSON is read as a whole answer", async () => {
  const provider = answering(
    JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "all at once" }, finish_reason: "stop" }] }),
    "application/json; charset=utf-8",
  );
  const chunks: string[] = [];
  const answer = await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [], onText: (chunk) => chunks.push(chunk) });
  assert.equal(answer.text, "all at once");
  assert.deepEqual(chunks, ["all at once"]);
});

test("openai: streamed tool-call deltas without an index are joined to the call they continue", async () => {
  const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const provider = answering(
    chunk({ tool_calls: [{ id: "c1", type: "function", function: { name: "mcp_a_x", arguments: '{"q":' } }] }) +
      chunk({ tool_calls: [{ function: { arguments: '"one"}' } }] }) +
      chunk({ tool_calls: [{ id: "c2", type: "function", function: { name: "mcp_a_y", arguments: "{}" } }] }) +
      chunk({}, "tool_calls") + "data: [DONE]\n\n",
    "text/event-stream",
  );
  const answer = await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [], onText: () => {} });
  assert.deepEqual(answer.toolCalls, [
    { id: "c1", name: "mcp_a_x", arguments: { q: "one" } },
    { id: "c2", name: "mcp_a_y", arguments: {} },
  ]);
});
