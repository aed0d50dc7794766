// The Streamable HTTP transport against test/fixtures/http-mcp-server.mjs, a hand-written
// server that misbehaves on request — spec 2025-11-25 basic/transports ("Streamable HTTP":
// sending, listening, resumability, sessions, protocol version header) and basic/lifecycle.

import assert from "node:assert/strict";
import { after } from "node:test";
import { Client } from "../../src/client/client.ts";
import { RequestTimeoutError } from "../../src/jsonrpc/errors.ts";
import type { Progress } from "../../src/jsonrpc/peer.ts";
import { HttpStatusError } from "../../src/transport/http-errors.ts";
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from "../../src/transport/streamable-http/mod.ts";
import { TransportError } from "../../src/transport/transport.ts";
import { behaviour, deno } from "../support/behaviour.ts";
import { freePort, startPortFixture } from "../support/fixture-process.ts";
import { guardedRejection as rejection, hangGuard } from "../support/hang-guard.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

// --- the fixture process -------------------------------------------------------------

/** What the fixture recorded: a request it received, or a note about what it did. */
interface Seen {
  method?: string;
  scenario?: string;
  headers?: Record<string, string | undefined>;
  body?: { method?: string; id?: unknown; result?: unknown; params?: Record<string, unknown> };
  note?: string;
  at: number;
}

const fixture = await startPortFixture("http-mcp-server.mjs");
if (!deno) after(() => fixture.stop()); // under Deno: the last test, at the end of this file

let instances = 0;

/** A fresh instance of a scenario: its endpoint URL and a reader of what it saw. */
function scenario(name: string): { url: string; log: () => Promise<Seen[]> } {
  const id = `i${++instances}`;
  return {
    url: `${fixture.origin}/${name}/${id}/mcp`,
    log: async () => {
      const response = await fetch(`${fixture.origin}/__log/${id}`);
      return (await response.json()) as Seen[];
    },
  };
}

interface Connected {
  client: Client;
  transport: StreamableHttpTransport;
  problems: string[];
  log: () => Promise<Seen[]>;
  url: string;
}

async function connect(
  name: string,
  options: Partial<StreamableHttpTransportOptions> = {},
  requestTimeoutMs = 10_000,
): Promise<Connected> {
  const { url, log } = scenario(name);
  const transport = new StreamableHttpTransport({ url, headers: { "X-Api-Key": "key-1" }, reconnect: { initialDelayMs: 50 }, ...options });
  const client = new Client(CLIENT_INFO, { requestTimeoutMs, protocol: "legacy" });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  await hangGuard(client.connect(transport), 10_000, "connect");
  return { client, transport, problems, log, url };
}

/** Runs body with a connected client and closes it afterwards, whatever happens. */
async function withClient(
  name: string,
  body: (connected: Connected) => Promise<void>,
  options?: Partial<StreamableHttpTransportOptions>,
  requestTimeoutMs?: number,
): Promise<void> {
  const connected = await connect(name, options, requestTimeoutMs);
  try {
    await body(connected);
  } finally {
    await hangGuard(connected.client.close(), 10_000, "close");
  }
}

function textOf(result: { content: { type: string }[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
}

const requests = (log: Seen[]) => log.filter((seen) => seen.method !== undefined);
const posts = (log: Seen[], method: string) => log.filter((seen) => seen.method === "POST" && seen.body?.method === method);

/** Polls the log until `found` holds (the server may see a disconnect a moment after us). */
async function eventually(log: () => Promise<Seen[]>, found: (log: Seen[]) => boolean, what: string): Promise<Seen[]> {
  for (let waited = 0; waited < 5000; waited += 25) {
    const seen = await log();
    if (found(seen)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`the server never saw ${what}`);
}

// --- sending messages ------------------------------------------------------------------

behaviour("every message is a POST accepting JSON and SSE; JSON answers are read; notifications get 202", async () => {
  await withClient("json", async ({ client, log }) => {
    const tools = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["echo", "progress"]);
    assert.equal(textOf(await client.callTool("echo", { text: "hi ✓" })), "echo: hi ✓");
    const seen = requests(await log());
    for (const request of seen.filter((request) => request.method === "POST")) {
      // 2025-11-25 transports (Sending Messages) 2.
      assert.equal(request.headers?.accept, "application/json, text/event-stream");
      assert.equal(request.headers?.["content-type"], "application/json");
    }
    assert.deepEqual(
      seen.filter((request) => request.method === "POST").map((request) => request.body?.method),
      ["initialize", "notifications/initialized", "tools/list", "tools/call"],
    );
  });
});

/** A fetch that records the signal each POST went with, by the JSON-RPC method (and tool) it carried. */
function signalRecorder(): { fetch: typeof fetch; signals: Map<string, AbortSignal[]> } {
  const signals = new Map<string, AbortSignal[]>();
  return {
    signals,
    fetch: (input, init) => {
      if (init?.method === "POST" && typeof init.body === "string" && init.signal) {
        const body = JSON.parse(init.body) as { method?: string; params?: { name?: string } };
        const key = body.params?.name === undefined ? String(body.method) : `${body.method} ${body.params.name}`;
        signals.set(key, [...(signals.get(key) ?? []), init.signal]);
      }
      return fetch(input, init);
    },
  };
}

behaviour("a request answered in its own JSON body is not aborted after its answer: nothing of it is left to let go", async () => {
  const { fetch, signals } = signalRecorder();
  await withClient("json", async ({ client }) => {
    await client.callTool("echo", { text: "one" });
    await client.callTool("echo", { text: "two" });
    const calls = signals.get("tools/call echo") ?? [];
    assert.equal(calls.length, 2);
    for (const signal of calls) assert.equal(signal.aborted, false, "the finished request's fetch was aborted");
    assert.equal(signals.get("initialize")?.[0]?.aborted, false, "the initialize request's fetch was aborted");
  }, { fetch });
});

behaviour("a request answered on its own SSE stream is not aborted either: the stream's reader lets it go at the answer", async () => {
  const { fetch, signals } = signalRecorder();
  await withClient("sse", async ({ client, problems }) => {
    assert.equal(textOf(await client.callTool("echo", { text: "one" })), "echo: one");
    const updates: Progress[] = [];
    assert.equal(textOf(await client.callTool("progress", {}, { onProgress: (progress) => updates.push(progress) })), "progress done");
    assert.equal(updates.length, 3);
    for (const key of ["tools/call echo", "tools/call progress"]) {
      assert.equal(signals.get(key)?.[0]?.aborted, false, `${key}: the answered request's fetch was aborted`);
    }
    assert.deepEqual(problems, []);
  }, { fetch });
});

behaviour("the session id from the initialize answer and the negotiated version go on every later request, the configured headers on all", async () => {
  await withClient("json", async ({ client, transport, log }) => {
    await client.callTool("echo", { text: "x" });
    assert.match(transport.sessionId ?? "", /-session-1$/);
    assert.equal(transport.protocolVersion, "2025-11-25");
    await client.close();
    const seen = requests(await log());
    const [initialize, ...later] = seen;
    assert.ok(initialize);
    assert.equal(initialize.body?.method, "initialize");
    assert.equal(initialize.headers?.["mcp-session-id"], undefined, "initialize carried a session id");
    assert.equal(initialize.headers?.["mcp-protocol-version"], undefined, "initialize carried a protocol version");
    assert.ok(later.length >= 4, `only ${later.length} later requests`);
    for (const request of later) {
      const what = `${request.method} ${request.body?.method ?? ""}`;
      assert.equal(request.headers?.["mcp-session-id"], transport.sessionId, `${what}: session id`);
      assert.equal(request.headers?.["mcp-protocol-version"], "2025-11-25", `${what}: MCP-Protocol-Version`);
    }
    for (const request of seen) assert.equal(request.headers?.["x-api-key"], "key-1", `${request.method}: configured header`);
  });
});

behaviour("close() sends DELETE with the session id; a GET answered 405 is no problem", async () => {
  await withClient("json", async ({ client, transport, problems, log }) => {
    const session = transport.sessionId;
    await eventually(log, (seen) => seen.some((request) => request.method === "GET"), "the GET for the server's stream");
    await client.close();
    assert.equal(client.state, "closed");
    const deletes = requests(await log()).filter((request) => request.method === "DELETE");
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0]!.headers?.["mcp-session-id"], session);
    assert.deepEqual(problems, []);
  });
});

behaviour("SSE answers: progress arrives before the result, a server request is answered by a new POST, the GET stream delivers", async () => {
  await withClient("sse", async ({ client, problems, log }) => {
    const listChanged = new Promise<void>((resolve) => client.on("toolslistchanged", () => resolve()));
    const updates: Progress[] = [];
    const result = await client.callTool("progress", {}, { onProgress: (progress) => updates.push(progress) });
    assert.equal(textOf(result), "progress done");
    assert.deepEqual(updates.map(({ progress, total }) => [progress, total]), [[1, 3], [2, 3], [3, 3]]);

    const asked = await client.callTool("ask");
    assert.equal(textOf(asked), "the client answered ping with {}");
    const answer = (await log()).find((seen) => seen.method === "POST" && seen.body?.id === "srv-1");
    assert.ok(answer, "the answer to the server's ping was not POSTed");
    assert.deepEqual(answer.body?.result, {});
    assert.ok(answer.headers?.["mcp-session-id"], "the answer carried no session id");

    await hangGuard(listChanged, 5000, "notifications/tools/list_changed from the GET stream");
    assert.deepEqual(problems, []);
  });
});

behaviour("close() aborts the open GET stream, and a 405 to DELETE is fine", async () => {
  await withClient("sse", async ({ client, problems, log }) => {
    await eventually(log, (seen) => seen.some((request) => request.method === "GET"), "the GET for the server's stream");
    await client.close();
    assert.equal(client.state, "closed");
    await eventually(log, (seen) => seen.some((entry) => entry.note === "get-stream-closed"), "the GET stream closed");
    assert.equal(requests(await log()).filter((request) => request.method === "DELETE").length, 1);
    assert.deepEqual(problems, []);
  });
});

behaviour("an SSE event that is not JSON is reported and skipped; the call still gets its answer", async () => {
  await withClient("sse", async ({ client, problems }) => {
    const result = await client.callTool("bad-data");
    assert.equal(textOf(result), "after bad data");
    assert.ok(problems.some((problem) => /not JSON: "\{this is not json"/.test(problem)), problems.join("\n"));
  });
});

behaviour("a JSON answer that does not parse fails that call with a clear error; the connection goes on", async () => {
  await withClient("json", async ({ client }) => {
    const error = await rejection(client.callTool("garbage"), "tools/call garbage");
    assert.ok(error instanceof TransportError);
    assert.equal(error.code, "bad-json");
    assert.match(error.message, /tools\/call \(id \d+\) is not JSON: "\{this is not json"/);
    assert.equal(textOf(await client.callTool("echo", { text: "still here" })), "echo: still here");
  });
});

// --- resumability ----------------------------------------------------------------------

behaviour("a stream the server ends before the answer is resumed with Last-Event-ID after its retry interval", async () => {
  await withClient("retry", async ({ client, log }) => {
    const result = await client.callTool("slow");
    assert.equal(textOf(result), "answered after the retry interval");
    const seen = await log();
    const closed = seen.find((entry) => entry.note === "post-stream-closed");
    const resumed = seen.find((entry) => entry.method === "GET" && entry.headers?.["last-event-id"] === "r1");
    assert.ok(closed && resumed, "no close and resumption in the log");
    // 2025-11-25 transports: the client MUST wait `retry` (700 ms) before reconnecting.
    assert.ok(resumed.at - closed.at >= 650, `reconnected after ${Math.round(resumed.at - closed.at)} ms`);
    assert.equal(posts(seen, "tools/call").length, 1, "the request was sent again");
  });
});

behaviour("a connection dropped in the middle of a call is resumed with Last-Event-ID and the answer arrives", async () => {
  await withClient("cut", async ({ client, log }) => {
    const updates: number[] = [];
    const result = await client.callTool("slow", {}, { onProgress: ({ progress }) => updates.push(progress) });
    assert.equal(textOf(result), "answered after the cut");
    assert.deepEqual(updates, [1, 2]);
    const seen = await log();
    assert.ok(seen.some((entry) => entry.note === "connection-dropped"));
    assert.ok(seen.some((entry) => entry.method === "GET" && entry.headers?.["last-event-id"] === "c1"), "no GET with Last-Event-ID c1");
    assert.equal(posts(seen, "tools/call").length, 1, "the request was sent again");
  });
});

behaviour("a stream cut before the answer without an event id fails that call and does not send it again", async () => {
  await withClient("cut-no-id", async ({ client, log }) => {
    const error = await rejection(client.callTool("slow"), "tools/call slow");
    assert.ok(error instanceof TransportError);
    assert.equal(error.code, "stream-broken");
    assert.match(error.message, /broke .* before the answer, and the server gave no event id to resume it with; the request was not sent again/);
    assert.equal(posts(await log(), "tools/call").length, 1);
    assert.equal(client.state, "ready");
  });
});

behaviour("resuming gives up after reconnect.maxRetries attempts, backing off, and fails the call", async () => {
  await withClient("resume-503", async ({ client, log }) => {
    const error = await rejection(client.callTool("slow"), "tools/call slow");
    assert.ok(error instanceof TransportError);
    assert.equal(error.code, "reconnect-failed");
    assert.match(error.message, /ended; gave up after 3 reconnection attempt\(s\) \(the last: HTTP 503: "busy, try later"\)/);
    assert.match(error.message, /the request was not sent again/);
    const seen = await log();
    const resumes = seen.filter((entry) => entry.method === "GET" && entry.headers?.["last-event-id"] === "g1");
    assert.equal(resumes.length, 3);
    // Backoff from 40 ms, doubling: the second gap at least 80 ms, the third at least 160 ms.
    assert.ok(resumes[1]!.at - resumes[0]!.at >= 70, `gap ${resumes[1]!.at - resumes[0]!.at}`);
    assert.ok(resumes[2]!.at - resumes[1]!.at >= 150, `gap ${resumes[2]!.at - resumes[1]!.at}`);
    assert.equal(posts(seen, "tools/call").length, 1);
  }, { reconnect: { maxRetries: 3, initialDelayMs: 40 } });
});

behaviour("the GET stream for server messages is reopened when the server ends it, resuming from its last event id", async () => {
  const { url, log } = scenario("listen");
  const client = new Client(CLIENT_INFO);
  let changes = 0;
  const twice = new Promise<void>((resolve) => client.on("toolslistchanged", () => ++changes === 2 && resolve()));
  await client.connect(new StreamableHttpTransport({ url, reconnect: { initialDelayMs: 20 } }));
  try {
    await hangGuard(twice, 5000, "two notifications/tools/list_changed");
    const gets = requests(await log()).filter((request) => request.method === "GET");
    assert.deepEqual(gets.map((request) => request.headers?.["last-event-id"]), [undefined, "l1"]);
  } finally {
    await client.close();
  }
  await eventually(log, (seen) => seen.some((entry) => entry.note === "get-stream-closed"), "the reopened GET stream closed");
});

// --- bounds ----------------------------------------------------------------------------

behaviour("a call that times out closes its stream and is cancelled; close() does not wait for a DELETE that never comes", async () => {
  await withClient("hang", async ({ client, log }) => {
    const error = await rejection(client.callTool("slow", {}, { timeoutMs: 300 }), "tools/call slow");
    assert.ok(error instanceof RequestTimeoutError, `not a timeout: ${error.message}`);
    const seen = await eventually(
      log,
      (entries) => entries.some((entry) => entry.note === "stream-aborted") && posts(entries, "notifications/cancelled").length > 0,
      "the stream let go and notifications/cancelled",
    );
    assert.equal(posts(seen, "notifications/cancelled")[0]!.body?.params?.requestId, posts(seen, "tools/call")[0]!.body?.id);
    await hangGuard(client.close(), 5000, "close with a DELETE that is never answered");
    assert.equal(client.state, "closed");
  }, { closeTimeoutMs: 300 });
});

// --- sessions --------------------------------------------------------------------------

behaviour("a 404 for the session starts a new one: the client initializes again and the call goes once more", async () => {
  await withClient("expire", async ({ client, transport, problems, log }) => {
    const first = transport.sessionId;
    assert.equal(textOf(await client.callTool("forget")), "forgotten");
    assert.equal(textOf(await client.callTool("echo", { text: "again" })), "echo: again");
    assert.notEqual(transport.sessionId, first);
    assert.equal(client.state, "ready");
    const seen = await log();
    const initializes = posts(seen, "initialize");
    assert.equal(initializes.length, 2);
    assert.equal(initializes[1]!.headers?.["mcp-session-id"], undefined, "the new initialize carried the old session id");
    const echoes = posts(seen, "tools/call").filter((request) => request.body?.params?.name === "echo");
    assert.deepEqual(echoes.map((request) => request.headers?.["mcp-session-id"]), [first, transport.sessionId]);
    assert.equal(echoes[1]!.headers?.["mcp-protocol-version"], "2025-11-25");
    assert.ok(problems.some((problem) => /ended the session; starting a new one/.test(problem)), problems.join("\n"));
  });
});

behaviour("a session that cannot be started again closes the transport and fails the client", async () => {
  const { client } = await connect("expire-fatal");
  try {
    await client.callTool("forget");
    const error = await rejection(client.callTool("echo", { text: "lost" }), "tools/call echo");
    assert.match(error.message, /a new session could not be started: .*HTTP 500.*initialize refused/);
    assert.equal(client.state, "failed");
    assert.match(client.failure?.message ?? "", /connection closed: the server ended session .* \(HTTP 404\) and a new session could not be started/);
  } finally {
    await client.close();
  }
});

// --- errors ----------------------------------------------------------------------------

behaviour("an error status names the URL and the status and quotes the start of the body", async () => {
  const { url } = scenario("status");
  const transport = new StreamableHttpTransport({ url });
  const client = new Client(CLIENT_INFO);
  const error = await rejection(client.connect(transport), "connect");
  assert.ok(error instanceof HttpStatusError && error instanceof TransportError);
  assert.equal(error.code, "http-status");
  assert.equal(error.status, 500);
  assert.ok(error.message.includes(url), error.message);
  assert.match(error.message, /answered HTTP 500: "internal failure: the database is on fire\./);
  assert.doesNotMatch(error.message, /END-MARKER/, "more than the start of the body");
  assert.match(error.message, /check the server's log/);
  assert.equal(client.state, "failed");
});

behaviour("a 404 to the first POST is a TransportError with status 404, as the legacy fallback expects", async () => {
  const { url } = scenario("not-found");
  const transport = new StreamableHttpTransport({ url });
  await transport.start();
  const error = await rejection(
    transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    "initialize",
  );
  assert.ok(error instanceof TransportError);
  assert.equal(error.code, "http-status");
  assert.equal((error as TransportError & { status?: number }).status, 404);
  assert.match(error.message, /"no MCP endpoint here"; check the URL's path/);
  await transport.close();
});

behaviour("a redirect to another origin is refused, naming both places", async () => {
  const { url, log } = scenario("redirect-foreign");
  const client = new Client(CLIENT_INFO);
  const error = await rejection(client.connect(new StreamableHttpTransport({ url, headers: { "X-Api-Key": "secret" } })), "connect");
  assert.ok(error instanceof TransportError);
  assert.equal(error.code, "redirect-origin");
  assert.ok(error.message.includes(url), error.message);
  assert.match(error.message, /to http:\/\/localhost:\d+\/json\/.*, on another origin/);
  assert.equal(requests(await log()).filter((request) => request.scenario === "json").length, 0, "the redirect was followed");
});

behaviour("a redirect within the origin is followed, with the method and body", async () => {
  await withClient("redirect-same", async ({ client }) => {
    assert.equal(textOf(await client.callTool("echo", { text: "moved" })), "echo: moved");
  });
});

behaviour("connection refused is a TransportError naming the URL", async () => {
  const url = `http://127.0.0.1:${await freePort()}/mcp`;
  const client = new Client(CLIENT_INFO);
  const error = await rejection(client.connect(new StreamableHttpTransport({ url })), "connect");
  assert.ok(error instanceof TransportError);
  assert.equal(error.code, "fetch-failed");
  assert.ok(error.message.includes(url), error.message);
  assert.match(error.message, /refused/i);
});

behaviour("send before start and after close rejects with code closed; onclose fires once", async () => {
  const { url } = scenario("json");
  const transport = new StreamableHttpTransport({ url });
  const message = { jsonrpc: "2.0", method: "notifications/initialized" } as const;
  const early = await rejection(transport.send(message), "send before start");
  assert.equal((early as TransportError).code, "closed");
  const closes: string[] = [];
  transport.onclose = ({ reason }) => closes.push(reason);
  await transport.start();
  await transport.close();
  await transport.close();
  const late = await rejection(transport.send(message), "send after close");
  assert.equal((late as TransportError).code, "closed");
  assert.deepEqual(closes, ["closed by the client"]);
});

behaviour("the URL must be http or https", () => {
  assert.throws(() => new StreamableHttpTransport({ url: "ftp://example.com/mcp" }), (error: unknown) => {
    assert.ok(error instanceof TransportError);
    assert.equal(error.code, "bad-url");
    return true;
  });
  return Promise.resolve();
});

// Deno runs tests in the order they were registered: this one goes last.
if (deno) deno.test({ name: "(stop the fixture server)", fn: () => fixture.stop(), sanitizeOps: false, sanitizeResources: false });
