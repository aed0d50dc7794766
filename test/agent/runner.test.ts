// The Runner's tool-calling loop over real MCP servers (server-everything, server-memory over
// stdio) with a scripted model: tool calls and answers, parallel calls, unknown tools, invalid
// arguments, maxSteps, retries with Retry-After, approval refusals, history save and load.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { approvalPolicy } from "../../src/agent/approval.ts";
import { HistoryError } from "../../src/agent/history.ts";
import { createProvider } from "../../src/agent/providers/mod.ts";
import { ProviderError } from "../../src/agent/providers/types.ts";
import { Runner, RunnerError, type RunnerEvent } from "../../src/agent/runner.ts";
import { Client, StdioTransport } from "../../src/mod.ts";
import { registerMcpServer } from "../../src/registry/mcp-server.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import { everythingRegistry } from "../support/everything.ts";
import { type FakeApiKind, startFakeModelApi } from "../support/fake-model-apis.ts";
import { rejection } from "../support/rejection.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";

const MEMORY = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));

/** A sleep that does not sleep: records the delays asked for. */
function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return { delays, sleep: (ms) => (delays.push(ms), Promise.resolve()) };
}

function parsedResult(text: string): { result?: string; error?: string } {
  return JSON.parse(text) as { result?: string; error?: string };
}

describe("Runner over server-everything", () => {
  const { registry } = everythingRegistry();

  test("add 2 and 40: the model calls mcp_everything_get-sum, sees its result and answers with 42", async () => {
    const provider = new ScriptedProvider([
      callTools({ name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } }),
      answer((request) => `The tool says: ${parsedResult(toolResults(request).at(-1)!).result}`),
    ]);
    const events: RunnerEvent[] = [];
    const runner = new Runner({ provider, registry, systemPrompt: "Use the tools.", onEvent: (event) => events.push(event) });
    const text = await runner.run("add 2 and 40 with the tool");
    assert.match(text, /\b42\b/);
    assert.equal(provider.requests.length, 2);
    assert.equal(provider.requests[0]!.system, "Use the tools.");
    assert.ok(provider.requests[0]!.tools.some((tool) => tool.name === "mcp_everything_get-sum"));
    assert.deepEqual(runner.history.map((message) => message.role), ["user", "assistant", "tool", "assistant"]);
    const types = events.map((event) => event.type);
    assert.deepEqual(types, ["request", "response", "tool-call", "tool-result", "request", "response", "done"]);
    const result = events.find((event) => event.type === "tool-result");
    assert.ok(result?.type === "tool-result" && !result.isError && result.durationMs >= 0);
  });

  for (const kind of ["openai", "anthropic", "ollama", "google"] as FakeApiKind[]) {
    test(`${kind}: the same run through the real provider against its fake API, streaming the answer`, async () => {
      const api = await startFakeModelApi(kind, [
        { toolCalls: [{ name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } }] },
        (request) => ({ text: `Result: ${request.toolResults.at(-1)?.content ?? "none"}` }),
      ]);
      try {
        const chunks: string[] = [];
        const runner = new Runner({
          provider: createProvider(`${kind}/test-model`, { baseUrl: api.url, env: {} }),
          registry,
          onEvent: (event) => event.type === "text" && chunks.push(event.chunk),
        });
        const text = await runner.run("add 2 and 40 with the tool");
        assert.match(text, /The sum of 2 and 40 is 42/);
        assert.equal(api.requests.length, 2, api.rejections.join("; "));
        assert.match(api.requests[1]!.toolResults.at(-1)?.content ?? "", /42/);
        if (api.requests[1]!.stream) assert.equal(chunks.join(""), text);
      } finally {
        await api.close();
      }
    });
  }

  test("two tool calls in one answer both run, and their results go back in the model's order", async () => {
    const provider = new ScriptedProvider([
      callTools(
        { id: "a", name: "mcp_everything_echo", arguments: '{"message":"first"}' },
        { id: "b", name: "mcp_everything_get-sum", arguments: { a: 1, b: 1 } },
      ),
      answer("done"),
    ]);
    const runner = new Runner({ provider, registry });
    assert.equal(await runner.run("both"), "done");
    const tools = runner.history.filter((message) => message.role === "tool");
    assert.deepEqual(tools.map((message) => message.role === "tool" && message.toolCallId), ["a", "b"]);
    assert.match(tools[0]!.content, /Echo: first/);
    assert.match(tools[1]!.content, /is 2\b/);
  });

  test("an unknown tool name is an error result naming the offered tools; the run goes on", async () => {
    const provider = new ScriptedProvider([callTools({ name: "mcp_everything_no-such-tool", arguments: {} }), answer("sorry")]);
    const runner = new Runner({ provider, registry });
    assert.equal(await runner.run("x"), "sorry");
    const { error } = parsedResult(toolResults(provider.requests[1]!)[0]!);
    assert.match(error ?? "", /unknown tool "mcp_everything_no-such-tool".*mcp_everything_get-sum/);
  });

  test("arguments failing the inputSchema are an error result and the server is not called", async () => {
    const provider = new ScriptedProvider([callTools({ name: "mcp_everything_get-sum", arguments: { a: "two", b: 40 } }), answer("ok")]);
    const events: RunnerEvent[] = [];
    const runner = new Runner({ provider, registry, onEvent: (event) => events.push(event) });
    await runner.run("x");
    const { error } = parsedResult(toolResults(provider.requests[1]!)[0]!);
    assert.match(error ?? "", /tool "get-sum": the arguments do not match its inputSchema: \/a must be number/);
    assert.ok(!events.some((event) => event.type === "tool-call"), "the tool must not be called");
    assert.ok(events.some((event) => event.type === "tool-rejected"));
  });

  test("arguments that are not JSON are an error result, never a crash", async () => {
    const provider = new ScriptedProvider([callTools({ name: "mcp_everything_echo", arguments: '{"message": "unterminated' }), answer("ok")]);
    const runner = new Runner({ provider, registry });
    assert.equal(await runner.run("x"), "ok");
    const { error } = parsedResult(toolResults(provider.requests[1]!)[0]!);
    assert.match(error ?? "", /the arguments are not valid JSON/);
  });

  test("maxSteps bounds a model that never stops calling tools, with a message saying what to raise", async () => {
    const turns = Array.from({ length: 5 }, () => callTools({ name: "mcp_everything_get-sum", arguments: { a: 1, b: 2 } }));
    const provider = new ScriptedProvider(turns);
    const runner = new Runner({ provider, registry, maxSteps: 3 });
    const error = await rejection(runner.run("loop"));
    assert.ok(error instanceof RunnerError);
    assert.equal(error.code, "max-steps");
    assert.match(error.message, /after 3 steps.*max_steps/);
    assert.equal(provider.requests.length, 3);
  });

  test("approval read-only without anyone to ask: a read-only tool runs, another is refused and the model is told the user declined", async () => {
    const provider = new ScriptedProvider([
      callTools(
        { id: "sum", name: "mcp_everything_get-sum", arguments: { a: 20, b: 22 } },
        { id: "log", name: "mcp_everything_toggle-simulated-logging", arguments: {} },
      ),
      answer("ok"),
    ]);
    const events: RunnerEvent[] = [];
    const runner = new Runner({ provider, registry, approve: approvalPolicy("read-only"), onEvent: (event) => events.push(event) });
    await runner.run("x");
    const [sum, log] = toolResults(provider.requests[1]!);
    assert.match(parsedResult(sum!).result ?? "", /42/);
    assert.match(parsedResult(log!).error ?? "", /the user declined this call to "mcp_everything_toggle-simulated-logging"/);
    const refused = events.filter((event) => event.type === "approval-refused");
    assert.equal(refused.length, 1);
    assert.ok(refused[0]!.type === "approval-refused" && refused[0]!.call.id === "log");
  });

  test("an approval callback is asked with the tool's annotations and can refuse with a reason", async () => {
    const provider = new ScriptedProvider([callTools({ name: "mcp_everything_get-sum", arguments: { a: 1, b: 2 } }), answer("ok")]);
    const asked: Array<boolean | undefined> = [];
    const runner = new Runner({
      provider,
      registry,
      approve: approvalPolicy("none", ({ tool }) => {
        asked.push(tool.annotations?.readOnlyHint);
        return { approved: false, reason: "not today" };
      }),
    });
    await runner.run("x");
    assert.deepEqual(asked, [true]);
    assert.match(parsedResult(toolResults(provider.requests[1]!)[0]!).error ?? "", /declined.*not today/);
  });

  test("the history is kept for the next run, saved as JSON and loaded into another Runner", async () => {
    const provider = new ScriptedProvider([
      callTools({ name: "mcp_everything_get-sum", arguments: { a: 2, b: 3 } }),
      answer("5"),
      answer("still 5"),
    ]);
    const runner = new Runner({ provider, registry });
    await runner.run("2+3?");
    await runner.run("and again?");
    assert.equal(provider.requests[2]!.messages.length, 5, "the second run sends the first run's messages too");
    const saved = runner.saveHistory();
    const other = new Runner({ provider: new ScriptedProvider([]), registry });
    other.loadHistory(saved);
    assert.deepEqual(other.history, runner.history);
    runner.clearHistory();
    assert.deepEqual(runner.history, []);
  });

  test("loadHistory refuses what saveHistory did not write, naming the message, and keeps the history", () => {
    const runner = new Runner({ provider: new ScriptedProvider([]), registry });
    runner.loadHistory([{ role: "user", content: "hi" }]);
    assert.throws(() => runner.loadHistory("{not json"), HistoryError);
    assert.throws(() => runner.loadHistory(JSON.stringify({ format: "other", version: 1, messages: [] })), /mcpwire-history/);
    assert.throws(
      () => runner.loadHistory([{ role: "tool", toolCallId: "x", name: "t", content: "{}" }]),
      /history message 0: tool result "x" answers no tool call/,
    );
    assert.throws(
      () => runner.loadHistory([{ role: "assistant", content: "", toolCalls: [{ id: "c", name: "t", arguments: {} }] }]),
      /ends with tool calls that have no result \(c\)/,
    );
    assert.throws(() => runner.loadHistory([{ role: "system", content: "x" } as never]), /history message 0 has role "system"/);
    assert.deepEqual(runner.history, [{ role: "user", content: "hi" }]);
  });
});

describe("Runner and provider errors", () => {
  const registry = new ToolRegistry();

  test("retryable errors are retried: Retry-After honoured, else 1 s doubling; the run then completes", async () => {
    const { delays, sleep } = recordingSleep();
    const provider = new ScriptedProvider([
      () => {
        throw new ProviderError("429 Too Many Requests", "api-error", { provider: "scripted", status: 429, retryable: true, retryAfterMs: 7000 });
      },
      () => {
        throw new ProviderError("503 overloaded", "api-error", { provider: "scripted", status: 503, retryable: true });
      },
      () => {
        throw new ProviderError("529 overloaded", "api-error", { provider: "scripted", status: 529, retryable: true });
      },
      answer("finally"),
    ]);
    const events: RunnerEvent[] = [];
    const runner = new Runner({ provider, registry, retry: { sleep }, onEvent: (event) => events.push(event) });
    assert.equal(await runner.run("hi"), "finally");
    assert.deepEqual(delays, [7000, 2000, 4000]);
    assert.deepEqual(events.filter((event) => event.type === "retry").map((event) => event.type === "retry" && event.attempt), [1, 2, 3]);
    assert.deepEqual(runner.history.map((message) => message.role), ["user", "assistant"], "a retried request adds nothing to the history");
  });

  test("a real 429 with Retry-After from the OpenAI API is waited out as the server asks, then the run completes", async () => {
    const api = await startFakeModelApi("openai", [
      { error: { status: 429, message: "Rate limit reached", headers: { "retry-after": "2" } } },
      { error: { status: 503, message: "The server is overloaded" } },
      { text: "ok after waiting" },
    ]);
    try {
      const { delays, sleep } = recordingSleep();
      const events: RunnerEvent[] = [];
      const runner = new Runner({
        provider: createProvider("openai/test-model", { baseUrl: api.url, env: {} }),
        registry,
        retry: { sleep },
        onEvent: (event) => events.push(event),
      });
      assert.equal(await runner.run("hi"), "ok after waiting");
      assert.deepEqual(delays, [2000, 2000]);
      const retry = events.find((event) => event.type === "retry");
      assert.ok(retry?.type === "retry" && retry.error.status === 429 && /Rate limit reached/.test(retry.error.message));
    } finally {
      await api.close();
    }
  });

  test("at most 5 retries, the delay capped at 30 s; then the run ends with the provider's message", async () => {
    const { delays, sleep } = recordingSleep();
    const failing = () => {
      throw new ProviderError("503 Service Unavailable", "api-error", { provider: "scripted", status: 503, retryable: true });
    };
    const provider = new ScriptedProvider(Array.from({ length: 8 }, () => failing));
    const runner = new Runner({ provider, registry, retry: { sleep, initialDelayMs: 8000 } });
    const error = await rejection(runner.run("hi"));
    assert.ok(error instanceof RunnerError);
    assert.equal(error.code, "provider");
    assert.match(error.message, /after 5 retries: 503 Service Unavailable/);
    assert.ok(error.cause instanceof ProviderError);
    assert.deepEqual(delays, [8000, 16000, 30000, 30000, 30000]);
    assert.equal(provider.requests.length, 6);
  });

  test("a provider error that is not retryable ends the run at once with its message", async () => {
    const { delays, sleep } = recordingSleep();
    const provider = new ScriptedProvider([() => {
      throw new ProviderError("401 Unauthorized: invalid API key; set OPENAI_API_KEY", "api-error", { provider: "scripted", status: 401 });
    }]);
    const runner = new Runner({ provider, registry, retry: { sleep } });
    const error = await rejection(runner.run("hi"));
    assert.ok(error instanceof RunnerError && error.code === "provider");
    assert.match(error.message, /^model scripted\/script-1: 401 Unauthorized: invalid API key/);
    assert.deepEqual(delays, []);
    assert.deepEqual(runner.history, [], "a prompt that got no answer is taken back");
  });

  test("a Retry-After longer than the Runner waits ends the run instead of hanging", async () => {
    const provider = new ScriptedProvider([() => {
      throw new ProviderError("429 Too Many Requests", "api-error", { provider: "scripted", status: 429, retryable: true, retryAfterMs: 3_600_000 });
    }]);
    const runner = new Runner({ provider, registry, retry: recordingSleep() });
    const error = await rejection(runner.run("hi"));
    assert.match(error.message, /retry after 3600 s, longer than the 120 s we wait/);
  });

  test("an abort during the model request ends the run as cancelled", async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([(request) =>
      new Promise((_, reject) => {
        request.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        controller.abort(new Error("the user pressed Ctrl-C"));
      })]);
    const runner = new Runner({ provider, registry, signal: controller.signal });
    const error = await rejection(runner.run("hi"));
    assert.ok(error instanceof RunnerError && error.code === "cancelled");
    assert.match(error.message, /Ctrl-C/);
  });

  test("parallel calls run concurrently: each of two tools waits for the other to start", async () => {
    const local = new ToolRegistry();
    const started = new Set<string>();
    const waiters: Array<() => void> = [];
    const barrier = (name: string) => () =>
      new Promise<string>((resolve, reject) => {
        started.add(name);
        for (const wake of waiters.splice(0)) wake();
        const guard = setTimeout(() => reject(new Error(`${name}: the other tool never started (calls ran one after another)`)), 5000);
        const check = () => {
          if (started.size < 2) return void waiters.push(check);
          clearTimeout(guard);
          resolve(`${name} saw both`);
        };
        check();
      });
    local.register({ name: "left", handler: barrier("left") });
    local.register({ name: "right", handler: barrier("right") });
    const provider = new ScriptedProvider([callTools({ name: "left", arguments: {} }, { name: "right", arguments: {} }), answer("ok")]);
    const runner = new Runner({ provider, registry: local });
    await runner.run("x");
    assert.deepEqual(toolResults(provider.requests[1]!).map((text) => parsedResult(text).result), ["left saw both", "right saw both"]);
  });
});

describe("Runner over server-memory", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-runner-"));
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "memory", requestTimeoutMs: 20_000 });
  const registry = new ToolRegistry();

  before(async () => {
    await client.connect(
      new StdioTransport({
        command: "node",
        args: [MEMORY],
        env: { PATH: "/usr/bin:/bin", MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
      }),
    );
    await registerMcpServer(registry, "memory", client);
  });

  after(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the model writes an entity with one tool and reads it back with another over two steps", async () => {
    const provider = new ScriptedProvider([
      callTools({
        name: "mcp_memory_create_entities",
        arguments: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] },
      }),
      callTools({ name: "mcp_memory_read_graph", arguments: {} }),
      answer((request) => toolResults(request).at(-1)!),
    ]);
    const runner = new Runner({ provider, registry });
    const text = await runner.run("remember Ada");
    assert.match(text, /wrote the first program/);
    assert.equal(provider.requests.length, 3);
  });
});
