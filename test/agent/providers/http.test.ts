// The HTTP call the providers share (src/agent/providers/http.ts): Retry-After, error bodies, and the bound
// on every wait (a server that never answers, one that stops mid-stream).

import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { test } from "node:test";
import { apiErrorOf, parseRetryAfter } from "../../../src/agent/providers/http.ts";
import { createProvider } from "../../../src/agent/providers/mod.ts";
import { ProviderError } from "../../../src/agent/providers/types.ts";
import { withServer } from "../../support/answering-server.ts";

test("Retry-After in seconds or as an HTTP date, in ms; garbage is ignored", () => {
  assert.equal(parseRetryAfter("30"), 30_000);
  assert.equal(parseRetryAfter(" 1.5 "), 1500);
  const now = Date.parse("2026-12-02T12:00:00Z");
  assert.equal(parseRetryAfter("Wed, 02 Dec 2026 12:00:10 GMT", now), 10_000);
  assert.equal(parseRetryAfter("Wed, 02 Dec 2026 11:00:00 GMT", now), 0, "a date in the past means now");
  assert.equal(parseRetryAfter("soon"), undefined);
  assert.equal(parseRetryAfter(null), undefined);
});

test("the message inside each API's error body", () => {
  assert.deepEqual(apiErrorOf('{"error":{"message":"bad key","type":"invalid_request_error"}}'), {
    message: "bad key",
    type: "invalid_request_error",
    retryDelayMs: undefined,
  });
  assert.equal(apiErrorOf('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}').type, "overloaded_error");
  assert.equal(apiErrorOf('{"error":"model \\"x\\" not found"}').message, 'model "x" not found');
  assert.equal(apiErrorOf('{"object":"error","message":"vllm says no"}').message, "vllm says no");
  assert.equal(apiErrorOf('{"detail":"Not Found"}').message, "Not Found");
  assert.deepEqual(apiErrorOf("<html>502</html>"), {});
  const gemini = apiErrorOf(JSON.stringify({
    error: { code: 429, message: "quota", status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "12s" }] },
  }));
  assert.deepEqual(gemini, { message: "quota", type: "RESOURCE_EXHAUSTED", retryDelayMs: 12_000 });
});

test("a server that never answers is given up on after the timeout, with a message saying so", async () => {
  await withServer(() => {}, async (origin) => {
    const provider = createProvider("openai/x", { baseUrl: `${origin}/v1`, env: {}, timeoutMs: 200 });
    await assert.rejects(
      provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] }),
      (error: unknown) =>
        error instanceof ProviderError && error.code === "timeout" && /no answer from .* within 200 ms/.test(error.message) &&
        /raise the provider timeout/.test(error.message),
    );
  });
});

test("a stream that stops sending is given up on after the timeout between chunks", async () => {
  const handler = (response: ServerResponse) => {
    response.writeHead(200, { "content-type": "application/x-ndjson" });
    response.write('{"model":"m","message":{"role":"assistant","content":"par"},"done":false}\n');
  };
  await withServer(handler, async (origin) => {
    const provider = createProvider("ollama/m", { baseUrl: origin, env: {}, timeoutMs: 300 });
    const chunks: string[] = [];
    await assert.rejects(
      provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [], onText: (chunk) => chunks.push(chunk) }),
      (error: unknown) => error instanceof ProviderError && error.code === "timeout" && /no further data from .* within 300 ms/.test(error.message),
    );
    assert.deepEqual(chunks, ["par"]);
  });
});

/** A handler that answers 200 with this content type and body, whole. */
function answering(contentType: string, body: string): (response: ServerResponse) => void {
  return (response) => {
    response.writeHead(200, { "content-type": contentType });
    response.end(body);
  };
}

test("a stream cut before its end is an error, not a short answer", async () => {
  const handler = answering("text/event-stream", 'data: {"choices":[{"index":0,"delta":{"content":"half"},"finish_reason":null}]}\n\n');
  await withServer(handler, async (origin) => {
    const provider = createProvider("openai/x", { baseUrl: `${origin}/v1`, env: {} });
    await assert.rejects(provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [], onText: () => {} }), /ended before its last chunk/);
  });
});

test("aborting during the wait ends the call at once with the signal's reason", async () => {
  await withServer(() => {}, async (origin) => {
    const provider = createProvider("anthropic/x", { baseUrl: origin, apiKey: "k", env: {} });
    const controller = new AbortController();
    const call = provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [], signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stopped by the user")), 50);
    await assert.rejects(call, /stopped by the user/);
  });
});

test("an answer that is not JSON is reported with its start and a hint about the base URL", async () => {
  await withServer(answering("text/html", "<html>a web page, not an API</html>"), async (origin) => {
    const provider = createProvider("openai/x", { baseUrl: `${origin}/v1`, env: {} });
    await assert.rejects(
      provider.chat({ messages: [{ role: "user", content: "hi" }], tools: [] }),
      /not JSON: "<html>a web page, not an API<\/html>"; check the base URL/,
    );
  });
});
