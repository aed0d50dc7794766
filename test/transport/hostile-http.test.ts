// The HTTP transports against test/fixtures/hostile-http-server.mjs, a hand-written server that
// turns on its client: it echoes our credentials in error bodies and JSON-RPC errors, answers
// 429/503 with Retry-After, restarts its sessions twice in quick succession, and sends answers
// over the size limit — spec 2025-11-25 basic/transports ("Streamable HTTP", "Session
// Management"), RFC 9110 10.2.3 (Retry-After). Each test asserts what a user sees.

import assert from "node:assert/strict";
import { after } from "node:test";
import { Client } from "../../src/client/client.ts";
import { UndeliverableResponseError } from "../../src/jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { HttpStatusError } from "../../src/transport/http-errors.ts";
import { SseLegacyTransport } from "../../src/transport/sse-legacy.ts";
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from "../../src/transport/streamable-http/mod.ts";
import { TracingTransport } from "../../src/transport/tracing.ts";
import { behaviour, deno } from "../support/behaviour.ts";
import { startPortFixture } from "../support/fixture-process.ts";
import { guardedRejection as rejection, hangGuard } from "../support/hang-guard.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

// --- the fixture process -------------------------------------------------------------

const fixture = await startPortFixture("hostile-http-server.mjs");
if (!deno) after(() => fixture.stop()); // under Deno: the last test, at the end of this file

interface Posted {
  method: string;
  id?: unknown;
  at: number;
  session: string | null;
}

let instances = 0;

/** A fresh instance of a scenario: its endpoint, what it saw, and its restart switch. */
function scenario(name: string) {
  const id = `h${++instances}`;
  return {
    url: `${fixture.origin}/${name}/${id}/mcp`,
    posts: async (): Promise<Posted[]> => ((await (await fetch(`${fixture.origin}/__log/${id}`)).json()) as { posts: Posted[] }).posts,
    gets: async (): Promise<number[]> => ((await (await fetch(`${fixture.origin}/__log/${id}`)).json()) as { gets: number[] }).gets,
    restart: async (again?: "after-init" | "in-handshake") => {
      const response = await fetch(`${fixture.origin}/__restart/${id}${again ? `?again=${again}` : ""}`, { method: "POST" });
      await response.body?.cancel();
    },
  };
}

/** Credentials in play: a bearer token, an API key and a custom header only our Redactor knows. */
const SECRETS = {
  Authorization: "Bearer tok-SECRET-a1b2c3d4e5f6g7h8",
  "X-Api-Key": "key-SECRET-987654321",
  "X-Custom-Secret": "custom-SECRET-55555555",
};
const SECRET_VALUES = ["tok-SECRET-a1b2c3d4e5f6g7h8", "key-SECRET-987654321", "custom-SECRET-55555555"];

function assertNoSecrets(text: string, where: string): void {
  for (const secret of SECRET_VALUES) assert.ok(!text.includes(secret), `${where} shows the secret ${secret}:\n${text}`);
}

/** Everything an error shows: its message, its body start, its causes' messages. */
function shown(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    parts.push(current.message);
    if (current instanceof HttpStatusError) parts.push(current.bodyStart);
    const data = (current as { data?: unknown }).data;
    if (data !== undefined) parts.push(JSON.stringify(data));
    current = current.cause;
  }
  return parts.join("\n");
}

async function connected(url: string, options: Partial<StreamableHttpTransportOptions> = {}, requestTimeoutMs = 60_000) {
  const transport = new StreamableHttpTransport({ url, headers: SECRETS, ...options });
  const client = new Client(CLIENT_INFO, { requestTimeoutMs, protocol: "legacy" });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  await hangGuard(client.connect(transport), 15_000, "connect");
  return { transport, client, problems };
}

function textOf(result: { content: { type: string }[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
}

// --- item: tokens never quoted -----------------------------------------------------------

for (const { status, body } of [{ status: 401, body: "body" }, { status: 500, body: "JSON body" }]) {
  behaviour(`credentials a server echoes in a ${status} ${body} are shown as [redacted] in the error`, async () => {
    const { url } = scenario(`echo-${status}`);
    const client = new Client(CLIENT_INFO, { protocol: "legacy" });
    const error = await rejection(client.connect(new StreamableHttpTransport({ url, headers: SECRETS })), "connect");
    const text = shown(error);
    assert.match(text, new RegExp(`HTTP ${status}`));
    assert.match(text, /\[redacted\]/);
    assertNoSecrets(text, `the ${status} error`);
    await client.close();
  });
}

behaviour("credentials a server echoes in a JSON-RPC error (200 and 500) are redacted, and in the trace", async () => {
  const { url } = scenario("echo-rpc");
  const traced: string[] = [];
  const inner = new StreamableHttpTransport({ url, headers: SECRETS });
  // As `inspect --trace` prints: the text, and (older callers) the message as JSON.
  const transport = new TracingTransport(inner, (_direction, message: JsonRpcMessage, text: string) => traced.push(text, JSON.stringify(message)));
  const client = new Client(CLIENT_INFO, { protocol: "legacy" });
  await hangGuard(client.connect(transport), 15_000, "connect");
  try {
    const callError = await rejection(client.callTool("echo", { text: "hi" }), "tools/call");
    assert.match(shown(callError), /bad call: you sent (Bearer )?\[redacted\] with key \[redacted\] and \[redacted\]/);
    assertNoSecrets(shown(callError), "the JSON-RPC error of tools/call");
    const listError = await rejection(client.listTools(), "tools/list");
    assert.match(shown(listError), /HTTP 500/);
    assert.match(shown(listError), /\[redacted\]/);
    assertNoSecrets(shown(listError), "the 500 JSON-RPC error body of tools/list");
    // A result is the caller's data and reaches it as sent; the trace shows it redacted.
    assert.match(textOf(await client.callTool("whoami", {})), /key-SECRET-987654321/);
    const trace = traced.join("\n");
    assert.match(trace, /you sent (Bearer )?\[redacted\] with key \[redacted\] and \[redacted\]"/);
    assert.match(trace, /bad call: you sent (Bearer )?\[redacted\] with key \[redacted\]/);
    assertNoSecrets(trace, "the trace");
  } finally {
    await client.close();
  }
});

behaviour("the legacy SSE transport redacts credentials a server echoes in a refused GET's body", async () => {
  const { url } = scenario("echo-401");
  const transport = new SseLegacyTransport({ url, headers: SECRETS });
  const error = await rejection(transport.start(), "start");
  assert.match(shown(error), /HTTP 401/);
  assert.match(shown(error), /you sent (Bearer )?\[redacted\] with key \[redacted\] and \[redacted\]/);
  assertNoSecrets(shown(error), "the legacy start error");
  await transport.close();
});

// --- item: 429 and 503 with Retry-After -----------------------------------------------------

behaviour("a 429 with Retry-After: 1 is waited out and the call succeeds", async () => {
  const { url, posts } = scenario("busy-seconds");
  const { client } = await connected(url);
  try {
    assert.equal(textOf(await hangGuard(client.callTool("echo", { text: "later" }), 20_000, "tools/call")), "echo: later");
    const calls = (await posts()).filter((post) => post.method === "tools/call");
    assert.equal(calls.length, 2, "sent once more after the wait");
    assert.ok(calls[1]!.at - calls[0]!.at >= 900, `sent again after ${calls[1]!.at - calls[0]!.at} ms, before Retry-After's 1 s`);
  } finally {
    await client.close();
  }
});

behaviour("a 503 with Retry-After as an HTTP-date is waited out and the call succeeds", async () => {
  const { url, posts } = scenario("busy-date");
  const { client } = await connected(url);
  try {
    assert.equal(textOf(await hangGuard(client.callTool("echo", { text: "dated" }), 20_000, "tools/call")), "echo: dated");
    const calls = (await posts()).filter((post) => post.method === "tools/call");
    assert.equal(calls.length, 2);
    // The date has one-second resolution: 2 s ahead, floored, is at least 1 s.
    assert.ok(calls[1]!.at - calls[0]!.at >= 900, `sent again after ${calls[1]!.at - calls[0]!.at} ms`);
  } finally {
    await client.close();
  }
});

behaviour("a Retry-After longer than maxRetryAfterMs fails the call at once, saying when to retry", async () => {
  const { url, posts } = scenario("busy-long");
  const { client } = await connected(url, { maxRetryAfterMs: 5000 });
  try {
    const started = Date.now();
    // The call's own 60 s deadline is broken too; the message names the tighter bound, maxRetryAfterMs.
    const error = await rejection(client.callTool("echo", { text: "x" }), "tools/call");
    assert.ok(Date.now() - started < 10_000, "failed at once, not at the call's timeout");
    assert.match(error.message, /429 Too Many Requests/);
    assert.match(error.message, /tried again after 3600 s \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/);
    assert.match(error.message, /maxRetryAfterMs \(5 s\)/);
    assert.equal((await posts()).filter((post) => post.method === "tools/call").length, 1, "not sent again");
  } finally {
    await client.close();
  }
});

behaviour("a Retry-After past the call's deadline fails the send at once with code busy and the time to retry", async () => {
  const { url } = scenario("busy-date");
  const { client, transport } = await connected(url);
  try {
    const request: JsonRpcMessage = { jsonrpc: "2.0", id: "direct-1", method: "tools/call", params: { name: "echo", arguments: {} } };
    const error = await rejection(transport.send(request, { deadline: Date.now() + 300 }), "send");
    assert.ok(error instanceof HttpStatusError);
    assert.equal(error.code, "busy");
    assert.equal(error.status, 503);
    assert.ok(error.retryAt instanceof Date && error.retryAt.getTime() > Date.now());
    assert.match(error.message, /503 Service Unavailable/);
    assert.match(error.message, /after this call's deadline/);
  } finally {
    await client.close();
  }
});

behaviour("through the Client, a Retry-After past the call's timeout fails the call at once saying when to retry", async () => {
  const { url, posts } = scenario("busy-date");
  const { client } = await connected(url);
  try {
    // The Peer hands the request's deadline to the transport, which does not wait past it: the
    // busy error comes, not the Peer's timeout.
    const error = await rejection(client.callTool("echo", { text: "x" }, { timeoutMs: 800 }), "tools/call");
    assert.ok(error instanceof HttpStatusError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "busy");
    assert.match(error.message, /503 Service Unavailable/);
    assert.match(error.message, /after this call's deadline/);
    assert.equal((await posts()).filter((post) => post.method === "tools/call").length, 1, "not sent again");
  } finally {
    await client.close();
  }
});

behaviour("the GET stream waits out a 503's Retry-After before it tries again", async () => {
  const { url, gets } = scenario("busy-get");
  const { client } = await connected(url, { reconnect: { initialDelayMs: 50 } });
  try {
    const listChanged = new Promise<void>((resolve) => client.on("toolslistchanged", () => resolve()));
    await hangGuard(listChanged, 15_000, "the list_changed notification on the reopened GET stream");
    const seen = await gets();
    assert.ok(seen.length >= 2);
    assert.ok(seen[1]! - seen[0]! >= 900, `the GET was tried again after ${seen[1]! - seen[0]!} ms, before Retry-After's 1 s`);
  } finally {
    await client.close();
  }
});

behaviour("the legacy SSE transport: an answer over maxMessageBytes fails its call at once, naming the limit", async () => {
  const id = `h${++instances}`;
  const transport = new SseLegacyTransport({ url: `${fixture.origin}/legacy/${id}/sse`, maxMessageBytes: 100_000 });
  const client = new Client(CLIENT_INFO, { protocol: "legacy", requestTimeoutMs: 60_000 });
  await hangGuard(client.connect(transport), 15_000, "connect");
  try {
    const started = Date.now();
    const error = await rejection(client.callTool("big", {}), "tools/call big", 20_000);
    assert.ok(error instanceof UndeliverableResponseError, `${error.name}: ${error.message}`);
    assert.deepEqual([error.code, error.reason], ["undeliverable", "too-large"]);
    assert.match(error.message, /maxMessageBytes/);
    assert.ok(Date.now() - started < 30_000, "failed at once, not at the call's 60 s timeout");
    // The connection goes on: the next call is answered.
    assert.equal(textOf(await hangGuard(client.callTool("echo", { text: "after" }), 20_000, "tools/call")), "echo: after");
  } finally {
    await client.close();
  }
});

behaviour(
  "the legacy SSE transport: an event over maxMessageBytes that shows no response (a log line) fails no call; the answer after it arrives",
  async () => {
    const id = `h${++instances}`;
    const transport = new SseLegacyTransport({ url: `${fixture.origin}/legacy/${id}/sse`, maxMessageBytes: 100_000 });
    const client = new Client(CLIENT_INFO, { protocol: "legacy", requestTimeoutMs: 60_000 });
    const problems: string[] = [];
    client.on("problem", ({ message }) => problems.push(message));
    await hangGuard(client.connect(transport), 15_000, "connect");
    try {
      assert.equal(textOf(await hangGuard(client.callTool("big-noise", {}), 20_000, "tools/call big-noise")), "answer after noise");
      assert.ok(
        problems.some((problem) =>
          /more than 100000 characters was skipped.*its start shows no response \("result", "error" or an "id"\), so no request fails for it/.test(problem)
        ),
        problems.join("\n"),
      );
    } finally {
      await client.close();
    }
  },
);

behaviour("the legacy SSE transport waits out a 429 on its POST, and redacts an echoing JSON-RPC error", async () => {
  const id = `h${++instances}`;
  const transport = new SseLegacyTransport({ url: `${fixture.origin}/legacy/${id}/sse`, headers: SECRETS });
  const client = new Client(CLIENT_INFO, { protocol: "legacy" });
  await hangGuard(client.connect(transport), 15_000, "connect");
  try {
    const started = Date.now();
    assert.equal(textOf(await hangGuard(client.callTool("echo", { text: "legacy" }), 20_000, "tools/call")), "echo: legacy");
    assert.ok(Date.now() - started >= 900, "sent again only after Retry-After's 1 s");
    const error = await rejection(client.callTool("whoami", {}), "tools/call whoami", 20_000);
    assert.match(shown(error), /you sent (Bearer )?\[redacted\] with key \[redacted\] and \[redacted\]/);
    assertNoSecrets(shown(error), "the legacy JSON-RPC error");
  } finally {
    await client.close();
  }
});

// --- item: session renewal under repeated restarts -------------------------------------------

behaviour("two session restarts in quick succession fail none of the calls a new session served", async () => {
  const { url, posts, restart } = scenario("restarts");
  const { client, problems } = await connected(url);
  try {
    assert.equal(textOf(await client.callTool("echo", { text: "before" })), "echo: before");
    const inFlight = Array.from({ length: 10 }, () => client.callTool("slow", {}));
    await restart("after-init"); // the sessions end now, and the next new one right after it starts
    const calls = [...inFlight, ...Array.from({ length: 30 }, (_, i) => client.callTool("echo", { text: `c${i}` }))];
    const results = await hangGuard(Promise.allSettled(calls), 30_000, "the calls");
    const failed = results.filter((result) => result.status === "rejected").map((result) => String((result as PromiseRejectedResult).reason));
    assert.deepEqual(failed, [], "every call was served");
    const initializes = (await posts()).filter((post) => post.method === "initialize").length;
    assert.ok(initializes >= 3, `two new sessions were started (initialize sent ${initializes} times)`);
    assert.ok(problems.some((problem) => /ended the session; starting a new one/.test(problem)), problems.join("\n"));
    assert.equal(textOf(await client.callTool("echo", { text: "after" })), "echo: after");
  } finally {
    await client.close();
  }
});

behaviour("a restart during the new session's handshake is met by one more new session", async () => {
  const { url, posts, restart } = scenario("restarts");
  const { client } = await connected(url);
  try {
    await restart("in-handshake"); // the session started by the next initialize ends before notifications/initialized
    const calls = Array.from({ length: 20 }, (_, i) => client.callTool("echo", { text: `h${i}` }));
    const results = await hangGuard(Promise.allSettled(calls), 30_000, "the calls");
    const failed = results.filter((result) => result.status === "rejected").map((result) => String((result as PromiseRejectedResult).reason));
    assert.deepEqual(failed, [], "every call was served");
    assert.ok((await posts()).filter((post) => post.method === "initialize").length >= 3);
  } finally {
    await client.close();
  }
});

// --- item: answers over the size limit -----------------------------------------------------

behaviour("a JSON answer over maxMessageBytes fails its call at once, naming the limit", async () => {
  const { url } = scenario("big-json");
  const { client } = await connected(url, { maxMessageBytes: 100_000 });
  try {
    for (const tool of ["big", "big-chunked"]) {
      const started = Date.now();
      const error = await rejection(client.callTool(tool, {}), `tools/call ${tool}`);
      assert.ok(Date.now() - started < 10_000, `${tool}: failed at once, not at the 60 s timeout`);
      assert.match(error.message, /larger than maxMessageBytes \(100000 bytes\)/);
      assert.match(error.message, /raise maxMessageBytes/);
    }
    assert.equal(textOf(await client.callTool("echo", { text: "still fine" })), "echo: still fine");
  } finally {
    await client.close();
  }
});

behaviour("an SSE answer over maxMessageBytes fails its call at once; an oversized notification does not", async () => {
  const { url } = scenario("big-sse");
  const { client, problems } = await connected(url, { maxMessageBytes: 100_000 });
  try {
    const started = Date.now();
    const error = await rejection(client.callTool("big", {}), "tools/call big");
    assert.ok(Date.now() - started < 10_000, "failed at once, not at the 60 s timeout");
    assert.match(error.message, /larger than maxMessageBytes \(100000 bytes\)/);
    assert.equal(textOf(await hangGuard(client.callTool("big-log", {}), 15_000, "tools/call big-log")), "small answer");
    // An oversized request of the server's with the same id is not taken for the call's answer.
    assert.equal(textOf(await hangGuard(client.callTool("big-request", {}), 15_000, "tools/call big-request")), "answer after a big request");
    assert.ok(problems.some((problem) => /maxMessageBytes/.test(problem)), problems.join("\n"));
  } finally {
    await client.close();
  }
});

if (deno) deno.test({ name: "(stop the fixture server)", fn: () => fixture.stop(), sanitizeOps: false, sanitizeResources: false });
