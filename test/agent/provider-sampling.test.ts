// Sampling served through a provider — spec 2025-11-25 client/sampling: server-everything's
// trigger-sampling-request answered by the OpenAI provider against a loopback fake API, model
// hints matched as substrings against the allowlist, refusals and provider failures.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { chooseModel, providerSamplingHandler, toChatMessages } from "../../src/agent/provider-sampling.ts";
import { createProvider } from "../../src/agent/providers/mod.ts";
import type { SamplingContext } from "../../src/client/handlers.ts";
import { SAMPLING_REJECTED } from "../../src/client/sampling.ts";
import { type CreateMessageRequest, RpcError } from "../../src/mod.ts";
import { everythingClient, untilListed } from "../support/everything.ts";
import { textOf } from "../support/everything-http.ts";
import { type FakeModelApi, startFakeModelApi } from "../support/fake-model-apis.ts";
import { rejection } from "../support/rejection.ts";

function context(allowedModels?: string[]): SamplingContext {
  return { server: 'server "t"', signal: new AbortController().signal, requestId: 1, ...(allowedModels ? { allowedModels } : {}) };
}

const REQUEST: CreateMessageRequest = {
  messages: [{ role: "user", content: { type: "text", text: "What is 6 x 7?" } }],
  maxTokens: 50,
  systemPrompt: "Answer with a number.",
};

describe("server-everything's trigger-sampling-request answered by a provider", () => {
  let api: FakeModelApi;
  const client = everythingClient({
    handlers: {
      sampling: providerSamplingHandler({
        model: "openai/gpt-test",
        createProvider: (model) => createProvider(model, { baseUrl: api.url, env: {} }),
      }),
    },
    sampling: { maxTokens: 64 },
  });

  before(async () => {
    api = await startFakeModelApi("openai", [
      (request) => ({ text: `42 (asked: ${JSON.stringify(request.body.messages).includes("What is 6 x 7?")})` }),
    ]);
  });

  after(() => api.close());

  test("the server's request goes to the model as a chat request and the answer comes back as a CreateMessageResult", async () => {
    await untilListed(client, "trigger-sampling-request");
    const text = textOf((await client.callTool("trigger-sampling-request", { prompt: "What is 6 x 7?", maxTokens: 200 })).content);
    assert.match(text, /"text": "42 \(asked: true\)"/);
    assert.match(text, /"model": "gpt-test"/);
    assert.match(text, /"stopReason": "endTurn"/);
    assert.equal(api.requests.length, 1);
    const body = api.requests[0]!.body;
    assert.equal(body.model, "gpt-test");
    const messages = body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(messages[0], { role: "system", content: "You are a helpful test server." });
    assert.equal(messages[1]?.role, "user");
    assert.match(messages[1]!.content, /What is 6 x 7\?/);
    // The policy's cap (64) is below the server's 200; the request carries the capped value.
    assert.ok(body.max_tokens === 64 || body.max_completion_tokens === 64, JSON.stringify(body));
  });
});

describe("provider sampling: models, refusals, failures", () => {
  test("model hints are substrings tried in order against the allowlist; no match keeps the configured model", () => {
    const allowed = ["openai/gpt-small", "anthropic/claude-sonnet-4-5", "openai/gpt-big"];
    assert.equal(chooseModel("openai/gpt-small", ["claude-3-sonnet", "sonnet"], allowed), "anthropic/claude-sonnet-4-5");
    assert.equal(chooseModel("openai/gpt-small", ["BIG"], allowed), "openai/gpt-big");
    assert.equal(chooseModel("openai/gpt-small", ["gemini"], allowed), "openai/gpt-small");
    assert.equal(chooseModel("ollama/qwen3", ["gemini"], allowed), "openai/gpt-small", "not allowed: the first allowed one");
    assert.equal(chooseModel("ollama/qwen3", ["claude"]), "ollama/qwen3", "without an allowlist only the configured model is a candidate");
  });

  test("a hint picks an allowlisted model: that model is asked and named in the result", async () => {
    const api = await startFakeModelApi("openai", [{ text: "hi" }]);
    try {
      const handler = providerSamplingHandler({
        model: "openai/gpt-small",
        createProvider: (model) => createProvider(model, { baseUrl: api.url, env: {} }),
      });
      const result = await handler(
        { ...REQUEST, modelPreferences: { hints: [{ name: "big" }] } },
        context(["openai/gpt-small", "gpt-big"]),
      );
      assert.equal(api.requests[0]!.body.model, "gpt-big", "a bare allowlisted name runs on the configured model's provider");
      assert.equal(result.model, "gpt-big", "the result names the model as the allowlist spells it");
      assert.deepEqual(result.content, { type: "text", text: "hi" });
    } finally {
      await api.close();
    }
  });

  test("the user declining is a -1 rejection and nothing is sent to the model", async () => {
    const api = await startFakeModelApi("openai", [{ text: "never" }]);
    try {
      const asked: string[] = [];
      const handler = providerSamplingHandler({
        model: "openai/gpt-test",
        createProvider: (model) => createProvider(model, { baseUrl: api.url, env: {} }),
        confirm: (_request, _context, model) => (asked.push(model), false),
      });
      const error = await rejection(handler(REQUEST, context()));
      assert.ok(error instanceof RpcError && error.rpcCode === SAMPLING_REJECTED);
      assert.deepEqual(asked, ["openai/gpt-test"]);
      assert.equal(api.requests.length, 0);
    } finally {
      await api.close();
    }
  });

  test("a failing model API is an internal error naming the server, the model and the API's message", async () => {
    const api = await startFakeModelApi("openai", [{ error: { status: 400, message: "context length exceeded" } }]);
    try {
      const handler = providerSamplingHandler({
        model: "openai/gpt-test",
        createProvider: (model) => createProvider(model, { baseUrl: api.url, env: {} }),
      });
      const error = await rejection(handler(REQUEST, context()));
      assert.ok(error instanceof RpcError && error.rpcCode === -32603);
      assert.match(error.message, /server "t": sampling\/createMessage: the client's model openai\/gpt-test failed: .*context length exceeded/);
    } finally {
      await api.close();
    }
  });

  test("tool_use and tool_result blocks become the history's tool calls and tool results", () => {
    const { messages, system } = toChatMessages({
      messages: [
        { role: "user", content: { type: "text", text: "weather?" } },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "get_weather", input: { city: "Oslo" } }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "t1", content: [{ type: "text", text: "rain" }] }] },
      ],
      maxTokens: 10,
    });
    assert.equal(system, undefined);
    assert.deepEqual(messages, [
      { role: "user", content: "weather?" },
      { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "get_weather", arguments: { city: "Oslo" } }] },
      { role: "tool", toolCallId: "t1", name: "get_weather", content: '{"result":"rain"}' },
    ]);
  });
});
