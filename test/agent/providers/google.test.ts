// The Gemini provider against a loopback fake of generateContent (test/support/fake-model-apis.ts): the shared
// behaviours, then the wire format: contents with role model, functionDeclarations, functionResponse, signatures.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createProvider } from "../../../src/agent/providers/mod.ts";
import { ProviderError } from "../../../src/agent/providers/types.ts";
import type { LlmToolSchema } from "../../../src/registry/types.ts";
import { startFakeModelApi } from "../../support/fake-model-apis.ts";
import { API_KEY, ECHO_TOOL, historyAfter, providerBehaviours, providerFor, SUM_TOOL, withApi } from "./provider-cases.ts";

providerBehaviours("google", "google/gemini-test");

/** A tool schema as MCP servers send them, with everything Gemini's schema subset refuses. */
const AWKWARD_TOOL: LlmToolSchema = {
  name: "mcp_memory_create_entities",
  description: "Create entities",
  parameters: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    additionalProperties: false,
    $defs: {
      Entity: {
        type: "object",
        properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" }, uniqueItems: true } },
        required: ["name", "ghost"],
      },
    },
    properties: {
      entities: { type: "array", items: { $ref: "#/$defs/Entity" } },
      mode: { const: "strict" },
      limit: { type: ["integer", "null"], exclusiveMinimum: 0 },
      anything: {},
    },
    required: ["entities"],
  },
};
const NO_ARGS_TOOL: LlmToolSchema = { name: "mcp_everything_get-tiny-image", description: "A tiny image", parameters: { type: "object", properties: {} } };

test("google: the request is generateContent with systemInstruction, functionDeclarations and the key header", async () => {
  await withApi("google", [{ text: "hi" }], async (api) => {
    await providerFor("google/gemini-test", api).chat({
      system: "Be kind.",
      messages: [{ role: "user", content: "hello" }],
      tools: [SUM_TOOL, NO_ARGS_TOOL],
      maxTokens: 99,
      temperature: 1,
    });
    const request = api.requests[0]!;
    assert.equal(request.path, "/v1beta/models/gemini-test:generateContent");
    assert.equal(request.headers["x-goog-api-key"], API_KEY);
    assert.deepEqual(request.body.systemInstruction, { parts: [{ text: "Be kind." }] });
    assert.deepEqual(request.body.contents, [{ role: "user", parts: [{ text: "hello" }] }]);
    assert.deepEqual(request.body.generationConfig, { maxOutputTokens: 99, temperature: 1 });
    assert.deepEqual(request.body.tools, [{
      functionDeclarations: [
        {
          name: SUM_TOOL.name,
          description: SUM_TOOL.description,
          parameters: {
            type: "OBJECT",
            properties: { a: { type: "NUMBER", description: "First number" }, b: { type: "NUMBER", description: "Second number" } },
            required: ["a", "b"],
          },
        },
        { name: NO_ARGS_TOOL.name, description: NO_ARGS_TOOL.description },
      ],
    }]);
  });
});

test("google: streaming uses streamGenerateContent?alt=sse", async () => {
  await withApi("google", [{ text: "streamed text" }], async (api) => {
    const chunks: string[] = [];
    await providerFor("google/models/gemini-test", api).chat({ messages: [{ role: "user", content: "hi" }], tools: [], onText: (chunk) => chunks.push(chunk) });
    assert.equal(api.requests[0]!.path, "/v1beta/models/gemini-test:streamGenerateContent");
    assert.equal(api.requests[0]!.query, "?alt=sse");
    assert.equal(chunks.join(""), "streamed text");
  });
});

test("google: a schema full of what Gemini refuses is converted so the API accepts it", async () => {
  await withApi("google", [{ text: "ok" }], async (api) => {
    await providerFor("google/gemini-test", api).chat({ messages: [{ role: "user", content: "x" }], tools: [AWKWARD_TOOL] });
    assert.deepEqual(api.rejections, [], "the fake, which refuses unknown schema fields as Gemini does, accepted it");
  });
});

test("google: function calls come back as functionResponse parts of one user turn, matched by name", async () => {
  const script = [
    { toolCalls: [{ name: SUM_TOOL.name, arguments: { a: 1, b: 2 } }, { name: ECHO_TOOL.name, arguments: { message: "e" } }] },
    { text: "done" },
  ];
  await withApi("google", script, async (api) => {
    const provider = providerFor("google/gemini-test", api);
    const first = await provider.chat({ messages: [{ role: "user", content: "go" }], tools: [SUM_TOOL, ECHO_TOOL] });
    await provider.chat({ messages: historyAfter("go", first, ['{"result":3}', "plain text, not JSON"]), tools: [SUM_TOOL, ECHO_TOOL] });
    assert.deepEqual(api.rejections, []);
    assert.deepEqual((api.requests[1]!.body.contents as unknown[]).slice(1), [
      {
        role: "model",
        parts: [{ functionCall: { name: SUM_TOOL.name, args: { a: 1, b: 2 } } }, { functionCall: { name: ECHO_TOOL.name, args: { message: "e" } } }],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: SUM_TOOL.name, response: { result: 3 } } },
          { functionResponse: { name: ECHO_TOOL.name, response: { result: "plain text, not JSON" } } },
        ],
      },
    ]);
  });
});

test("google: a result missing for one of the calls is refused by the fake, as by Gemini", async () => {
  await withApi("google", [{ toolCalls: [{ name: SUM_TOOL.name, arguments: {} }, { name: ECHO_TOOL.name, arguments: {} }] }], async (api) => {
    const provider = providerFor("google/gemini-test", api);
    const first = await provider.chat({ messages: [{ role: "user", content: "go" }], tools: [SUM_TOOL, ECHO_TOOL] });
    const history = historyAfter("go", first, ["{}", "{}"]).slice(0, 3);
    await assert.rejects(provider.chat({ messages: history, tools: [SUM_TOOL, ECHO_TOOL] }), /number of function response parts/);
  });
});

test("google: a function call's thoughtSignature is kept and sent back with it", async () => {
  const script = [{ toolCalls: [{ name: SUM_TOOL.name, arguments: { a: 1, b: 1 }, signature: "c2lnbmF0dXJl" }] }, { text: "2" }];
  await withApi("google", script, async (api) => {
    const provider = providerFor("google/gemini-test", api);
    const first = await provider.chat({ messages: [{ role: "user", content: "go" }], tools: [SUM_TOOL], onText: () => {} });
    assert.equal(first.toolCalls[0]!.signature, "c2lnbmF0dXJl");
    const second = await provider.chat({ messages: historyAfter("go", first, ['{"result":2}']), tools: [SUM_TOOL] });
    assert.deepEqual(api.rejections, []);
    assert.equal(second.text, "2");
  });
});

test("google: a stop without any answer (SAFETY) is an error, not an empty reply", async () => {
  await withApi("google", [{ text: "", stopReason: "SAFETY" }], async (api) => {
    await assert.rejects(providerFor("google/gemini-test", api).chat({ messages: [{ role: "user", content: "x" }], tools: [] }), /stopped \(SAFETY\)/);
  });
});

test("google: GEMINI_API_KEY comes from the env record; none at all is refused up front", async () => {
  const api = await startFakeModelApi("google", [{ text: "ok" }], { apiKey: "g-key" });
  try {
    const provider = createProvider("gemini/gemini-2.5-flash", { baseUrl: api.url, env: { GEMINI_API_KEY: "g-key" } });
    assert.equal(provider.name, "google");
    assert.equal((await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] })).text, "ok");
  } finally {
    await api.close();
  }
  assert.throws(() => createProvider("google/gemini-2.5-flash", { env: {} }), /GEMINI_API_KEY/);
});

test("google: a 429 without Retry-After takes the delay from the RetryInfo detail", async () => {
  const body = JSON.stringify({
    error: {
      code: 429,
      message: "You exceeded your current quota",
      status: "RESOURCE_EXHAUSTED",
      details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "17s" }],
    },
  });
  await withApi("google", [{ error: { status: 429, message: "", body } }], async (api) => {
    await assert.rejects(
      providerFor("google/gemini-test", api).chat({ messages: [{ role: "user", content: "hi" }], tools: [] }),
      (error: unknown) =>
        error instanceof ProviderError && error.retryable && error.retryAfterMs === 17_000 && /exceeded your current quota/.test(error.message),
    );
  });
});
