// The agent layer's errors follow the one error model: each is an McpwireError whose `code` is
// one of AgentErrorCode, reached through the path that raises it (a saved history, a hook
// config, a model string, a provider against a loopback API, a Runner run).

import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { describe, test } from "node:test";
import { HistoryError, parseHistory } from "../../src/agent/history.ts";
import { HookConfigError, Hooks } from "../../src/agent/hooks.ts";
import { createProvider, ModelStringError, parseModelString } from "../../src/agent/providers/mod.ts";
import { type ChatRequest, ProviderError } from "../../src/agent/providers/types.ts";
import { Runner, RunnerError } from "../../src/agent/runner.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import { withServer } from "../support/answering-server.ts";
import { coded, thrown } from "../support/coded-error.ts";
import { refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";
import { rejection } from "../support/rejection.ts";
import { answer, callTools, ScriptedProvider } from "../support/scripted-provider.ts";

const HI: ChatRequest = { messages: [{ role: "user", content: "hi" }], tools: [] };

function answering(contentType: string, body: string): (response: ServerResponse) => void {
  return (response) => {
    response.writeHead(200, { "content-type": contentType });
    response.end(body);
  };
}

describe("agent error codes", () => {
  test("HistoryError: invalid-history, with the JSON parser's error as cause", () => {
    const error = coded(thrown(() => parseHistory("{not json")), HistoryError, "invalid-history");
    assert.ok(error.cause instanceof SyntaxError);
    coded(thrown(() => parseHistory([{ role: "robot", content: "x" }])), HistoryError, "invalid-history");
  });

  test("HookConfigError: invalid-hook, with the RegExp error as cause for a bad matcher", () => {
    const error = coded(thrown(() => new Hooks({ PreToolUse: [{ matcher: "(", command: "true" }] })), HookConfigError, "invalid-hook");
    assert.ok(error.cause instanceof SyntaxError);
    coded(thrown(() => new Hooks({ Stop: [{ command: " " }] })), HookConfigError, "invalid-hook");
  });

  test("ModelStringError: no-provider, unknown-provider, no-model (through createProvider too)", () => {
    coded(thrown(() => parseModelString("gpt-4o")), ModelStringError, "no-provider");
    coded(thrown(() => createProvider("mistral/large", { env: {} })), ModelStringError, "unknown-provider");
    coded(thrown(() => parseModelString("openai/")), ModelStringError, "no-model");
  });

  test("ProviderError from createProvider: missing-api-key, invalid-options", () => {
    const missing = coded(thrown(() => createProvider("anthropic/claude", { env: {} })), ProviderError, "missing-api-key");
    assert.equal(missing.provider, "anthropic");
    coded(thrown(() => createProvider("openai/x", { baseUrl: "localhost:1234", env: {} })), ProviderError, "invalid-options");
    coded(thrown(() => createProvider("openai/x", { baseUrl: "http://127.0.0.1:1/v1", env: {}, timeoutMs: 0 })), ProviderError, "invalid-options");
    coded(thrown(() => createProvider("ollama/m", { env: { OLLAMA_HOST: "[::1" } })), ProviderError, "invalid-options");
  });

  test("ProviderError from a call: connect-failed, timeout, body-broken, each with its cause", async () => {
    const refused = createProvider("openai/x", { baseUrl: `${await refusedOrigin()}/v1`, env: {} });
    const unreachable = coded(await rejection(refused.chat(HI)), ProviderError, "connect-failed");
    assert.ok(unreachable.cause !== undefined);
    await withServer(() => {}, async (origin) => {
      const provider = createProvider("openai/x", { baseUrl: `${origin}/v1`, env: {}, timeoutMs: 200 });
      coded(await rejection(provider.chat(HI)), ProviderError, "timeout");
    });
    const breaking = (response: ServerResponse) => {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write('{"model":"m","message":{"role":"assistant","content":"par"},"done":false}\n', () => response.destroy());
    };
    await withServer(breaking, async (origin) => {
      const provider = createProvider("ollama/m", { baseUrl: origin, env: {} });
      const error = coded(await rejection(provider.chat({ ...HI, onText: () => {} })), ProviderError, "body-broken");
      assert.ok(error.cause !== undefined);
    });
  });

  test("ProviderError: api-error for an error status (with status) and for an error inside a stream", async () => {
    const api = await startFakeModelApi("openai", [
      { error: { status: 429, message: "slow down", headers: { "retry-after": "2" } } },
      { streamError: { message: "Overloaded", type: "overloaded_error" } },
    ]);
    try {
      const provider = createProvider("openai/gpt-test", { baseUrl: api.url, env: {} });
      const status = coded(await rejection(provider.chat(HI)), ProviderError, "api-error");
      assert.equal(status.status, 429);
      assert.equal(status.retryable, true);
      assert.equal(status.retryAfterMs, 2000);
      const streamed = coded(await rejection(provider.chat({ ...HI, onText: () => {} })), ProviderError, "api-error");
      assert.equal(streamed.status, undefined);
      assert.equal(streamed.retryable, true);
    } finally {
      await api.close();
    }
  });

  test("ProviderError: invalid-answer, incomplete-answer", async () => {
    await withServer(answering("text/html", "<html>a web page</html>"), async (origin) => {
      const provider = createProvider("openai/x", { baseUrl: `${origin}/v1`, env: {} });
      coded(await rejection(provider.chat(HI)), ProviderError, "invalid-answer");
    });
    const half = 'data: {"choices":[{"index":0,"delta":{"content":"half"},"finish_reason":null}]}\n\n';
    await withServer(answering("text/event-stream", half), async (origin) => {
      const provider = createProvider("openai/x", { baseUrl: `${origin}/v1`, env: {} });
      coded(await rejection(provider.chat({ ...HI, onText: () => {} })), ProviderError, "incomplete-answer");
    });
  });

  test("ProviderError: prompt-blocked and empty-answer (Gemini)", async () => {
    await withServer(answering("application/json", JSON.stringify({ promptFeedback: { blockReason: "SAFETY" } })), async (origin) => {
      const provider = createProvider("google/gemini-test", { baseUrl: origin, env: {} });
      coded(await rejection(provider.chat(HI)), ProviderError, "prompt-blocked");
    });
    const stopped = { candidates: [{ content: { role: "model", parts: [] }, finishReason: "MAX_TOKENS" }] };
    await withServer(answering("application/json", JSON.stringify(stopped)), async (origin) => {
      const provider = createProvider("google/gemini-test", { baseUrl: origin, env: {} });
      coded(await rejection(provider.chat(HI)), ProviderError, "empty-answer");
    });
  });

  describe("RunnerError", () => {
    const registry = new ToolRegistry();

    test("max-steps", async () => {
      const provider = new ScriptedProvider([callTools({ name: "nope", arguments: {} }), callTools({ name: "nope", arguments: {} })]);
      coded(await rejection(new Runner({ provider, registry, maxSteps: 1 }).run("x")), RunnerError, "max-steps");
    });

    test("provider, with the ProviderError as cause", async () => {
      const provider = new ScriptedProvider([() => {
        throw new ProviderError("401 Unauthorized", "api-error", { provider: "scripted", status: 401 });
      }]);
      const error = coded(await rejection(new Runner({ provider, registry }).run("x")), RunnerError, "provider");
      coded(error.cause, ProviderError, "api-error");
    });

    test("cancelled", async () => {
      const controller = new AbortController();
      controller.abort(new Error("stop"));
      const provider = new ScriptedProvider([answer("never")]);
      coded(await rejection(new Runner({ provider, registry, signal: controller.signal }).run("x")), RunnerError, "cancelled");
    });

    test("blocked", async () => {
      const hooks = new Hooks({ UserPromptSubmit: [{ command: "echo no >&2; exit 2" }] });
      const provider = new ScriptedProvider([answer("never")]);
      coded(await rejection(new Runner({ provider, registry, hooks }).run("x")), RunnerError, "blocked");
    });

    test("busy", async () => {
      let release!: () => void;
      const provider = new ScriptedProvider([() => new Promise((resolve) => (release = () => resolve({ text: "done", toolCalls: [] })))]);
      const runner = new Runner({ provider, registry });
      const first = runner.run("x");
      coded(await rejection(runner.run("y")), RunnerError, "busy");
      await new Promise((resolve) => setTimeout(resolve, 10));
      release();
      assert.equal(await first, "done");
    });
  });
});
