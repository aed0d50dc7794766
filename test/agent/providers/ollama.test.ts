// The Ollama provider against a loopback fake of /api/chat (test/support/fake-model-apis.ts): the shared
// behaviours, then the wire format (tool_calls with object arguments, role "tool" with tool_name, NDJSON) and OLLAMA_HOST.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createProvider } from "../../../src/agent/providers/mod.ts";
import { ollamaBaseUrl } from "../../../src/agent/providers/ollama.ts";
import { ProviderError } from "../../../src/agent/providers/types.ts";
import { refusedOrigin, startFakeModelApi } from "../../support/fake-model-apis.ts";
import { ECHO_TOOL, historyAfter, providerBehaviours, SUM_TOOL } from "./provider-cases.ts";

providerBehaviours("ollama", "ollama:qwen3:8b");

test("ollama: tool calls go back with object arguments and results as role tool with tool_name", async () => {
  const api = await startFakeModelApi("ollama", [
    { toolCalls: [{ name: SUM_TOOL.name, arguments: { a: 2, b: 40 } }, { name: ECHO_TOOL.name, arguments: { message: "m" } }] },
    { text: "42" },
  ]);
  try {
    const provider = createProvider("ollama:qwen3:8b", { baseUrl: api.origin, env: {} });
    assert.equal(provider.model, "qwen3:8b");
    const first = await provider.chat({
      system: "sys",
      messages: [{ role: "user", content: "add" }],
      tools: [SUM_TOOL, ECHO_TOOL],
      temperature: 0.2,
      maxTokens: 64,
    });
    const body = api.requests[0]!.body;
    assert.equal(api.requests[0]!.path, "/api/chat");
    assert.equal(body.model, "qwen3:8b");
    assert.equal(body.stream, false, "stream: false is said when not streaming (Ollama's default is true)");
    assert.deepEqual(body.options, { temperature: 0.2, num_predict: 64 });
    assert.deepEqual((body.messages as unknown[])[0], { role: "system", content: "sys" });
    const ids = first.toolCalls.map((call) => call.id);
    assert.ok(ids.every((id) => /^call_mcpwire_[0-9a-f]{16}$/.test(id)) && ids[0] !== ids[1], `ids made up where Ollama gives none: ${ids.join(", ")}`);

    await provider.chat({ messages: historyAfter("add", first, ['{"result":42}', '{"result":"Echo: m"}']), tools: [SUM_TOOL, ECHO_TOOL] });
    assert.deepEqual(api.rejections, []);
    assert.deepEqual((api.requests[1]!.body.messages as unknown[]).slice(1), [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { function: { name: SUM_TOOL.name, arguments: { a: 2, b: 40 } } },
          { function: { name: ECHO_TOOL.name, arguments: { message: "m" } } },
        ],
      },
      { role: "tool", content: '{"result":42}', tool_name: SUM_TOOL.name },
      { role: "tool", content: '{"result":"Echo: m"}', tool_name: ECHO_TOOL.name },
    ]);
  } finally {
    await api.close();
  }
});

test("ollama: a raw-string argument from another provider's history is sent as an object", async () => {
  const api = await startFakeModelApi("ollama", [{ text: "fine" }]);
  try {
    const provider = createProvider("ollama/llama3.2", { baseUrl: api.origin, env: {} });
    await provider.chat({
      messages: [
        { role: "user", content: "x" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: SUM_TOOL.name, arguments: "not json" }] },
        { role: "tool", toolCallId: "c1", name: SUM_TOOL.name, content: '{"error":"bad arguments"}', isError: true },
      ],
      tools: [SUM_TOOL],
    });
    assert.deepEqual(api.rejections, []);
  } finally {
    await api.close();
  }
});

test("ollama: a model that is not pulled gives Ollama's own message", async () => {
  const api = await startFakeModelApi("ollama", [{ error: { status: 404, message: 'model "qwen9" not found, try pulling it first' } }]);
  try {
    const provider = createProvider("ollama/qwen9", { baseUrl: api.origin, env: {} });
    await assert.rejects(
      provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] }),
      (error: unknown) =>
        error instanceof ProviderError && error.code === "api-error" && error.status === 404 &&
        /model "qwen9" not found, try pulling it first/.test(error.message) && /`ollama pull qwen9`/.test(error.message),
    );
  } finally {
    await api.close();
  }
});

test("ollama: OLLAMA_HOST as host:port, without a scheme, is where requests go", async () => {
  const api = await startFakeModelApi("ollama", [{ text: "from OLLAMA_HOST" }]);
  try {
    const provider = createProvider("ollama/qwen3", { env: { OLLAMA_HOST: api.origin.replace("http://", "") } });
    assert.equal((await provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] })).text, "from OLLAMA_HOST");
  } finally {
    await api.close();
  }
});

test("ollama: nothing listening says to start Ollama or set OLLAMA_HOST", async () => {
  const origin = await refusedOrigin();
  const provider = createProvider("ollama/qwen3", { env: { OLLAMA_HOST: origin } });
  await assert.rejects(
    provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] }),
    (error: unknown) =>
      error instanceof ProviderError && error.code === "connect-failed" && error.message.includes(`${origin}/api/chat`) && /ollama serve/.test(error.message) &&
      /OLLAMA_HOST/.test(error.message),
  );
});

test("ollama: OLLAMA_HOST is read the way Ollama reads it", () => {
  assert.equal(ollamaBaseUrl(undefined), "http://127.0.0.1:11434");
  assert.equal(ollamaBaseUrl(""), "http://127.0.0.1:11434");
  assert.equal(ollamaBaseUrl("localhost"), "http://localhost:11434");
  assert.equal(ollamaBaseUrl("10.0.0.5:8080"), "http://10.0.0.5:8080");
  assert.equal(ollamaBaseUrl(":9999"), "http://127.0.0.1:9999");
  assert.equal(ollamaBaseUrl("0.0.0.0"), "http://127.0.0.1:11434");
  assert.equal(ollamaBaseUrl("http://gpu-box"), "http://gpu-box:11434");
  assert.equal(ollamaBaseUrl("http://gpu-box:80"), "http://gpu-box");
  assert.equal(ollamaBaseUrl("https://ollama.example.com"), "https://ollama.example.com");
  assert.equal(ollamaBaseUrl("https://ollama.example.com/prefix/"), "https://ollama.example.com/prefix");
  assert.throws(() => ollamaBaseUrl("http://[bad"), /OLLAMA_HOST/);
});

test("ollama: a model without tool calling says to pick another", async () => {
  const api = await startFakeModelApi("ollama", [{ error: { status: 400, message: "registry.ollama.ai/library/gemma:2b does not support tools" } }]);
  try {
    const provider = createProvider("ollama/gemma:2b", { baseUrl: api.origin, env: {} });
    await assert.rejects(
      provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [SUM_TOOL] }),
      (error: unknown) => error instanceof ProviderError && /does not support tools; pick a model with tool calling/.test(error.message),
    );
  } finally {
    await api.close();
  }
});
