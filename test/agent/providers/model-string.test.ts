// Model strings (src/agent/providers/model-string.ts) and createProvider's choice of provider, key and base URL.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createProvider, ModelStringError, parseModelString } from "../../../src/agent/providers/mod.ts";
import { ProviderError } from "../../../src/agent/providers/types.ts";

test("provider/model and provider:model both name a provider", () => {
  assert.deepEqual(parseModelString("openai/gpt-4o"), { provider: "openai", model: "gpt-4o" });
  assert.deepEqual(parseModelString("anthropic:claude-sonnet-4-5"), { provider: "anthropic", model: "claude-sonnet-4-5" });
  assert.deepEqual(parseModelString(" google/gemini-2.5-flash "), { provider: "google", model: "gemini-2.5-flash" });
  assert.deepEqual(parseModelString("gemini/gemini-2.5-pro"), { provider: "google", model: "gemini-2.5-pro" });
  assert.deepEqual(parseModelString("OpenAI/gpt-4o"), { provider: "openai", model: "gpt-4o" });
});

test("only the first separator splits: Ollama tags and slashed model names stay whole", () => {
  assert.deepEqual(parseModelString("ollama:qwen3:8b"), { provider: "ollama", model: "qwen3:8b" });
  assert.deepEqual(parseModelString("ollama/qwen3:8b"), { provider: "ollama", model: "qwen3:8b" });
  assert.deepEqual(parseModelString("ollama/hf.co/bartowski/Llama-3.2-1B-GGUF:Q4_K_M"), {
    provider: "ollama",
    model: "hf.co/bartowski/Llama-3.2-1B-GGUF:Q4_K_M",
  });
  assert.deepEqual(parseModelString("openai/meta-llama/Llama-3.1-8B-Instruct"), { provider: "openai", model: "meta-llama/Llama-3.1-8B-Instruct" });
});

test("an unknown provider is an error listing the known ones", () => {
  assert.throws(
    () => parseModelString("mistral/large"),
    (error: unknown) =>
      error instanceof ModelStringError && error.code === "unknown-provider" && /unknown provider "mistral"/.test(error.message) &&
      /ollama, openai, anthropic, google/.test(error.message),
  );
});

test("an Ollama name without its provider suggests ollama/", () => {
  assert.throws(() => parseModelString("qwen3:8b"), /did you mean ollama\/qwen3:8b\?/);
});

test("no provider at all, or no model after it, says how to write it", () => {
  assert.throws(() => parseModelString("gpt-4o"), /names no provider: write it as provider\/model/);
  assert.throws(() => parseModelString("openai/"), /names no model after "openai\/" \(e\.g\. openai\/gpt-4o\)/);
});

test("createProvider picks the provider and its model", () => {
  const options = { env: { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k", GEMINI_API_KEY: "k" } };
  for (
    const [text, name, model] of [
      ["openai/gpt-4o", "openai", "gpt-4o"],
      ["anthropic/claude-x", "anthropic", "claude-x"],
      ["google/gemini-x", "google", "gemini-x"],
      ["ollama:qwen3:8b", "ollama", "qwen3:8b"],
    ] as const
  ) {
    const provider = createProvider(text, options);
    assert.equal(provider.name, name);
    assert.equal(provider.model, model);
  }
});

test("createProvider refuses a base URL that is not a URL and a timeout that is not positive", () => {
  assert.throws(
    () => createProvider("openai/x", { baseUrl: "localhost:1234", env: {} }),
    (error: unknown) => error instanceof ProviderError && /is not an http\(s\) URL/.test(error.message),
  );
  assert.throws(() => createProvider("ollama/x", { timeoutMs: 0, env: {} }), /timeout must be a positive number/);
});

test("per-provider settings from a config apply, the top-level ones win", () => {
  assert.doesNotThrow(() => createProvider("anthropic/x", { env: {}, providers: { anthropic: { apiKey: "from-config" } } }));
  assert.throws(() => createProvider("anthropic/x", { env: {}, providers: { openai: { apiKey: "other provider's" } } }), /ANTHROPIC_API_KEY/);
});
