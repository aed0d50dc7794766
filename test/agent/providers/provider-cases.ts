// The behaviours every provider shares, run against its fake API (test/support/fake-model-apis.ts):
// a text answer, a tool call round trip, several calls in one answer, streaming, errors, retries, refusal.
// Each provider's test file calls providerBehaviours() and adds what is particular to its API.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createProvider } from "../../../src/agent/providers/mod.ts";
import { type ChatMessage, type ChatResponse, type Provider, ProviderError } from "../../../src/agent/providers/types.ts";
import type { LlmToolSchema } from "../../../src/registry/types.ts";
import { type FakeApiKind, type FakeModelApi, type FakeStep, refusedOrigin, startFakeModelApi } from "../../support/fake-model-apis.ts";
import { rejection } from "../../support/rejection.ts";

export const API_KEY = "test-key-123";

/** Two registry tools as registry.list() gives them (an MCP schema, with $schema and additionalProperties). */
export const SUM_TOOL: LlmToolSchema = {
  name: "mcp_everything_get-sum",
  description: "Returns the sum of two numbers",
  parameters: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
};
export const ECHO_TOOL: LlmToolSchema = {
  name: "mcp_everything_echo",
  description: "Echoes back the input",
  parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
};

/** A provider for `model` talking to the fake API, with the key the fake wants. */
export function providerFor(model: string, api: FakeModelApi): Provider {
  return createProvider(model, { baseUrl: api.url, apiKey: API_KEY, env: {} });
}

/** Starts the fake API with `script`, runs `body`, closes the fake whatever happens. */
export async function withApi(kind: FakeApiKind, script: FakeStep[], body: (api: FakeModelApi) => Promise<void>): Promise<void> {
  const api = await startFakeModelApi(kind, script, { apiKey: API_KEY });
  try {
    await body(api);
  } finally {
    await api.close();
  }
}

/** The history after one tool-calling answer and its results (the registry's result strings). */
export function historyAfter(prompt: string, answer: ChatResponse, results: string[]): ChatMessage[] {
  return [
    { role: "user", content: prompt },
    { role: "assistant", content: answer.text, toolCalls: answer.toolCalls },
    ...answer.toolCalls.map((call, i): ChatMessage => ({ role: "tool", toolCallId: call.id, name: call.name, content: results[i]! })),
  ];
}

/** The ProviderError a call fails with. */
async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await rejection(promise);
  assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
  return error;
}

export function providerBehaviours(kind: FakeApiKind, model: string): void {
  test(`${kind}: a text answer comes back as text with no tool calls`, async () => {
    await withApi(kind, [{ text: "Hello! How can I help?" }], async (api) => {
      const provider = providerFor(model, api);
      const answer = await provider.chat({ system: "Be brief.", messages: [{ role: "user", content: "hi" }], tools: [] });
      assert.equal(answer.text, "Hello! How can I help?");
      assert.deepEqual(answer.toolCalls, []);
      assert.equal(typeof answer.stopReason, "string");
      assert.equal(answer.usage?.inputTokens, 10);
      assert.equal(answer.usage?.outputTokens, 5);
      assert.deepEqual(api.rejections, []);
      assert.equal(api.requests[0]!.stream, false);
      assert.equal(JSON.stringify(api.requests[0]!.body).includes("Be brief."), true, "the system prompt is sent");
    });
  });

  test(`${kind}: a tool call round trip — the second request carries the result and the model uses it`, async () => {
    const script: FakeStep[] = [
      { toolCalls: [{ name: SUM_TOOL.name, arguments: { a: 2, b: 40 } }] },
      (request) => {
        const result = JSON.parse(request.toolResults[0]?.content ?? "{}") as { result?: unknown };
        return { text: `The sum is ${String(result.result)}.` };
      },
    ];
    await withApi(kind, script, async (api) => {
      const provider = providerFor(model, api);
      const prompt = "add 2 and 40 with the tool";
      const first = await provider.chat({ messages: [{ role: "user", content: prompt }], tools: [SUM_TOOL, ECHO_TOOL] });
      assert.equal(first.toolCalls.length, 1);
      assert.equal(first.toolCalls[0]!.name, SUM_TOOL.name);
      assert.deepEqual(first.toolCalls[0]!.arguments, { a: 2, b: 40 });
      assert.notEqual(first.toolCalls[0]!.id, "");

      const second = await provider.chat({ messages: historyAfter(prompt, first, ['{"result":42}']), tools: [SUM_TOOL, ECHO_TOOL] });
      assert.deepEqual(api.rejections, [], "the fake API accepted both requests");
      assert.equal(second.text, "The sum is 42.");
      assert.deepEqual(second.toolCalls, []);
      assert.equal(api.requests[1]!.toolResults.length, 1);
    });
  });

  test(`${kind}: several tool calls in one answer come back in order and their results go back together`, async () => {
    const script: FakeStep[] = [
      {
        toolCalls: [
          { name: SUM_TOOL.name, arguments: { a: 1, b: 2 } },
          { name: ECHO_TOOL.name, arguments: { message: "hi there" } },
        ],
      },
      (request) => ({ text: `got ${request.toolResults.length} results: ${request.toolResults.map((result) => result.content).join(" | ")}` }),
    ];
    await withApi(kind, script, async (api) => {
      const provider = providerFor(model, api);
      const first = await provider.chat({ messages: [{ role: "user", content: "do both" }], tools: [SUM_TOOL, ECHO_TOOL] });
      assert.deepEqual(first.toolCalls.map((call) => [call.name, call.arguments]), [
        [SUM_TOOL.name, { a: 1, b: 2 }],
        [ECHO_TOOL.name, { message: "hi there" }],
      ]);
      assert.equal(new Set(first.toolCalls.map((call) => call.id)).size, 2, "each call has its own id");
      const second = await provider.chat({
        messages: historyAfter("do both", first, ['{"result":3}', '{"result":"Echo: hi there"}']),
        tools: [SUM_TOOL, ECHO_TOOL],
      });
      assert.deepEqual(api.rejections, []);
      assert.equal(second.text, 'got 2 results: {"result":3} | {"result":"Echo: hi there"}');
    });
  });

  test(`${kind}: streaming hands the text to onText in chunks and assembles tool calls`, async () => {
    const script: FakeStep[] = [
      { text: "Streaming works, piece by piece." },
      {
        text: "Let me add.",
        toolCalls: [{ name: SUM_TOOL.name, arguments: { a: 20, b: 22 } }, { name: ECHO_TOOL.name, arguments: { message: 'a "quoted" ünïcode text' } }],
      },
    ];
    await withApi(kind, script, async (api) => {
      const provider = providerFor(model, api);
      const chunks: string[] = [];
      const answer = await provider.chat({ messages: [{ role: "user", content: "stream" }], tools: [], onText: (chunk) => chunks.push(chunk) });
      assert.equal(api.requests[0]!.stream, true);
      assert.ok(chunks.length > 1, `the text came in ${chunks.length} chunk(s)`);
      assert.equal(chunks.join(""), "Streaming works, piece by piece.");
      assert.equal(answer.text, "Streaming works, piece by piece.");

      const more: string[] = [];
      const calls = await provider.chat({ messages: [{ role: "user", content: "add" }], tools: [SUM_TOOL, ECHO_TOOL], onText: (chunk) => more.push(chunk) });
      assert.equal(more.join(""), "Let me add.");
      assert.equal(calls.text, "Let me add.");
      assert.deepEqual(calls.toolCalls.map((call) => [call.name, call.arguments]), [
        [SUM_TOOL.name, { a: 20, b: 22 }],
        [ECHO_TOOL.name, { message: 'a "quoted" ünïcode text' }],
      ]);
      assert.deepEqual(api.rejections, []);
    });
  });

  test(`${kind}: an error answer becomes a ProviderError with the API's own message`, async () => {
    await withApi(kind, [{ error: { status: 400, message: "The model `nope` does not exist" } }], async (api) => {
      const error = await providerError(providerFor(model, api).chat({ messages: [{ role: "user", content: "hi" }], tools: [] }));
      assert.equal(error.provider, kind);
      assert.equal(error.status, 400);
      assert.equal(error.retryable, false);
      assert.match(error.message, /The model `nope` does not exist/);
      assert.match(error.message, /answered 400/);
    });
  });

  test(`${kind}: 429 with Retry-After is retryable with retryAfterMs`, async () => {
    const script: FakeStep[] = [{ error: { status: 429, message: "Rate limit reached", headers: { "retry-after": "7" } } }];
    await withApi(kind, script, async (api) => {
      const error = await providerError(providerFor(model, api).chat({ messages: [{ role: "user", content: "hi" }], tools: [] }));
      assert.equal(error.status, 429);
      assert.equal(error.retryable, true);
      assert.equal(error.retryAfterMs, 7000);
      assert.match(error.message, /Rate limit reached/);
    });
  });

  test(`${kind}: 503 is retryable, without Retry-After none is invented`, async () => {
    await withApi(kind, [{ error: { status: 503, message: "Service Unavailable" } }], async (api) => {
      const error = await providerError(providerFor(model, api).chat({ messages: [{ role: "user", content: "hi" }], tools: [] }));
      assert.equal(error.retryable, true);
      assert.equal(error.retryAfterMs, undefined);
    });
  });

  test(`${kind}: an error reported mid-stream is a ProviderError; "overloaded" is retryable`, async () => {
    await withApi(kind, [{ streamError: { message: "Overloaded", text: "Partial answ" } }], async (api) => {
      const chunks: string[] = [];
      const error = await providerError(
        providerFor(model, api).chat({ messages: [{ role: "user", content: "hi" }], tools: [], onText: (chunk) => chunks.push(chunk) }),
      );
      assert.match(error.message, /Overloaded/);
      assert.equal(error.retryable, true);
      assert.equal(chunks.join(""), "Partial answ");
    });
  });

  test(`${kind}: a refused connection names the URL and what to do`, async () => {
    const origin = await refusedOrigin();
    const provider = createProvider(model, { baseUrl: kind === "openai" ? `${origin}/v1` : origin, apiKey: API_KEY, env: {} });
    const error = await providerError(provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] }));
    assert.equal(error.status, undefined);
    assert.equal(error.retryable, false);
    assert.ok(error.message.includes(origin), error.message);
    assert.match(error.message, /could not connect/);
    assert.match(error.message, /ECONNREFUSED|refused/i);
  });

  test(`${kind}: an aborted signal cancels the call with its reason`, async () => {
    await withApi(kind, [{ text: "never read" }], async (api) => {
      const controller = new AbortController();
      controller.abort(new Error("user pressed Ctrl-C"));
      await assert.rejects(
        providerFor(model, api).chat({ messages: [{ role: "user", content: "hi" }], tools: [], signal: controller.signal }),
        /user pressed Ctrl-C/,
      );
      assert.equal(api.requests.length, 0, "nothing was sent");
    });
  });

  test(`${kind}: a wrong API key is reported with where the key comes from`, async () => {
    await withApi(kind, [], async (api) => {
      const provider = createProvider(model, { baseUrl: api.url, apiKey: "wrong", env: {} });
      const error = await providerError(provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] }));
      assert.ok(error.status === 401 || error.status === 403);
      assert.match(error.message, /API key/);
    });
  });
}
