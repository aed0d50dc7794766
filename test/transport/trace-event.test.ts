// Trace events (src/transport/trace-event.ts): message events name the request an answer
// answers, its latency and the request a progress notification belongs to (memory transport);
// http events show statuses and MCP headers over loopback Streamable HTTP
// (test/fixtures/http-mcp-server.mjs) and never a credential; process events follow a real child.

import "../support/test-env.ts"; // the era cache off
import assert from "node:assert/strict";
import { after } from "node:test";
import { Client } from "../../src/client/client.ts";
import { Redactor } from "../../src/common/redact.ts";
import { createTransport } from "../../src/host/servers/transport-factory.ts";
import { Peer } from "../../src/jsonrpc/peer.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import type { ProcessTraceDetail, TraceEvent } from "../../src/transport/trace-event.ts";
import { TracingTransport } from "../../src/transport/tracing.ts";
import { startSseFixture, withServer } from "../fixtures/sse-servers.ts";
import { behaviour, deno } from "../support/behaviour.ts";
import { startPortFixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

type MessageEvent = Extract<TraceEvent, { kind: "message" }>;
type HttpEvent = Extract<TraceEvent, { kind: "http" }>;

const messages = (events: TraceEvent[]) => events.filter((event): event is MessageEvent => event.kind === "message");

behaviour("an answer names the request it answers and its latency; progress names its request", async () => {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const server = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  serverEnd.onmessage = (message) => server.receive(message);
  server.setRequestHandler("initialize", () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "traced", version: "1" } }));
  server.setRequestHandler("tools/call", async (params) => {
    const token = (params as { _meta?: { progressToken?: string | number } })._meta?.progressToken;
    if (token !== undefined) await server.notify("notifications/progress", { progressToken: token, progress: 1, total: 2 });
    // A request of the server's own while the call runs: the client's answer names it too.
    await server.request("ping", {});
    return { content: [{ type: "text", text: "done" }] };
  });
  await serverEnd.start();
  const events: TraceEvent[] = [];
  const traced = new TracingTransport(clientEnd, undefined, { sink: (event) => events.push(event), server: "mem" });
  const client = new Client({ name: "t", version: "1" }, { protocol: "legacy" });
  await client.connect(traced);
  await client.callTool("work", {}, { onProgress: () => {} });
  await client.close();
  server.close({ reason: "test over" });

  const seen = messages(events);
  for (const event of seen) {
    assert.equal(event.v, 1);
    assert.equal(event.server, "mem");
    assert.equal(event.transport, "memory");
    assert.ok(event.t >= 0 && !Number.isNaN(Date.parse(event.wall)));
    assert.equal(event.size, JSON.stringify(event.message).length);
  }
  const call = seen.find((event) => event.dir === "send" && event.method === "tools/call");
  assert.ok(call?.id !== undefined, "no tools/call event");
  const answer = seen.find((event) => event.dir === "receive" && event.answers?.method === "tools/call");
  assert.ok(answer, "no answer marked as the answer to tools/call");
  assert.deepEqual(answer.answers, { id: call.id, method: "tools/call" });
  assert.equal(answer.method, "tools/call");
  assert.ok(typeof answer.latencyMs === "number" && answer.latencyMs >= 0);
  const progress = seen.find((event) => event.method === "notifications/progress");
  assert.deepEqual(progress?.progressOf, { id: call.id, method: "tools/call" });
  const initialize = seen.find((event) => event.dir === "receive" && event.answers?.method === "initialize");
  assert.ok(initialize, "the initialize answer is not marked");
  // The server's ping, answered by us: our response names it.
  const ping = seen.find((event) => event.dir === "receive" && event.method === "ping");
  const pong = seen.find((event) => event.dir === "send" && event.answers?.method === "ping");
  assert.ok(ping && pong, "the server's ping or our answer to it is missing");
  assert.equal(pong.answers?.id, ping.id);
});

behaviour("the TraceFn of inspect --trace still sees every message when a sink is set too", async () => {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const server = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  serverEnd.onmessage = (message) => server.receive(message);
  server.setRequestHandler("initialize", () => ({ protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } }));
  await serverEnd.start();
  const texts: string[] = [];
  const events: TraceEvent[] = [];
  const traced = new TracingTransport(clientEnd, (direction, _message, text) => texts.push(`${direction} ${text}`), { sink: (event) => events.push(event) });
  const client = new Client({ name: "t", version: "1" }, { protocol: "legacy" });
  await client.connect(traced);
  await client.close();
  assert.equal(texts.length, 3);
  assert.equal(messages(events).length, 3);
});

// --- process events ---------------------------------------------------------------------

behaviour("a real child's spawn, stderr lines and exit code are observed, credential shapes redacted", async () => {
  const secret = "sk-process-secret-0123456789";
  const details: ProcessTraceDetail[] = [];
  const script = "process.stderr.write('starting with ' + process.argv[1] + '\\n'); process.exit(3)";
  const transport = new StdioTransport({ command: "node", args: ["-e", script, "--", `--api-key=${secret}`], observer: (detail) => details.push(detail) });
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  await transport.start();
  await hangGuard(closed, 10_000, "the child's exit");
  await transport.close();
  const spawn = details.find((detail) => detail.phase === "spawn");
  assert.ok(spawn?.phase === "spawn" && spawn.pid === transport.pid, "no spawn with the pid");
  assert.match(spawn.command, /^node -e /);
  const stderr = details.filter((detail) => detail.phase === "stderr");
  assert.equal(stderr.length, 1);
  assert.ok(stderr[0]!.phase === "stderr" && stderr[0]!.line.startsWith("starting with --api-key="));
  const exit = details.find((detail) => detail.phase === "exit");
  assert.deepEqual(exit, { kind: "process", phase: "exit", pid: transport.pid, code: 3, signal: null });
  assert.ok(!JSON.stringify(details).includes(secret), `the secret appears: ${JSON.stringify(details)}`);
});

behaviour("a command that cannot start is observed as spawn-failed", async () => {
  const details: ProcessTraceDetail[] = [];
  const transport = new StdioTransport({ command: "mcpwire-no-such-command-xyz", observer: (detail) => details.push(detail) });
  await assert.rejects(transport.start());
  await transport.close();
  assert.equal(details.length, 1);
  assert.ok(details[0]!.phase === "spawn-failed" && /not found/.test(details[0]!.error));
});

// --- http events ------------------------------------------------------------------------

const fixture = await startPortFixture("http-mcp-server.mjs");
if (!deno) after(() => fixture.stop()); // under Deno: the last test, at the end of this file

behaviour("over Streamable HTTP: statuses, Mcp-Session-Id, MCP-Protocol-Version, the refusal's body, SSE ids and the reconnect; no credential", async () => {
  // Known secrets through every path: a bearer token and a custom header's value (configured
  // headers), and a host secret that is also the instance's name — so it is in the URL, in the
  // session id the server assigns, and (with the others) in the arguments the server echoes.
  const token = "tok-bearer-4f1c2e9a7b3d";
  const custom = "custom-header-value-9e8d7c6b";
  const hostSecret = "hostsecret0a1b2c3d";
  const redactor = new Redactor([hostSecret]);
  const events: TraceEvent[] = [];
  const transport = createTransport(
    { transport: "http", url: `${fixture.origin}/cut/${hostSecret}/mcp`, headers: { Authorization: `Bearer ${token}`, "X-Custom-Secret": custom } },
    { redactor, trace: { sink: (event) => events.push(event), server: "web", startedAt: performance.now() } },
  );
  const client = new Client({ name: "t", version: "1" }, { protocol: "auto", requestTimeoutMs: 10_000 });
  try {
    await hangGuard(client.connect(transport), 10_000, "connect");
    const progress: number[] = [];
    await hangGuard(
      client.callTool("slow", { text: `${token} ${custom} ${hostSecret}` }, { onProgress: ({ progress: p }) => progress.push(p) }),
      10_000,
      "call",
    );
    assert.deepEqual(progress, [1, 2]);
  } finally {
    await hangGuard(client.close(), 10_000, "close");
  }
  const text = JSON.stringify(events);
  for (const secret of [token, custom, hostSecret]) assert.ok(!text.includes(secret), `${secret} appears in the trace`);

  const http = events.filter((event): event is HttpEvent => event.kind === "http");
  for (const event of http) assert.equal(event.transport, "streamable-http");
  const responses = http.filter((event) => event.phase === "response");
  // The server/discover probe is refused 400 (no session): its body is traced, then initialize opens a session.
  assert.ok(responses.some((event) => event.phase === "response" && event.method === "POST" && event.status === 400), "no 400");
  assert.ok(http.some((event) => event.phase === "body" && event.status === 400 && event.body.includes("Mcp-Session-Id header is required")), "no 400 body");
  const opened = responses.find((event) => event.phase === "response" && event.status === 200 && event.responseHeaders["Mcp-Session-Id"] !== undefined);
  assert.ok(opened?.phase === "response", "no response with Mcp-Session-Id");
  assert.match(opened.responseHeaders["Mcp-Session-Id"]!, /^\[redacted\]-session-\d+$/);
  assert.ok(!opened.url.includes(hostSecret));
  assert.ok(
    responses.some((event) =>
      event.phase === "response" && event.requestHeaders["MCP-Protocol-Version"] === "2025-11-25" && event.requestHeaders["Mcp-Session-Id"] !== undefined
    ),
    "no request carried MCP-Protocol-Version and the session",
  );
  assert.ok(http.some((event) => event.phase === "sse-event" && event.eventId === "c1"), "no SSE event id c1");
  assert.ok(
    responses.some((event) =>
      event.phase === "response" && event.method === "GET" && event.reconnect === true && event.requestHeaders["Last-Event-ID"] === "c1"
    ),
    "no reconnect",
  );
  const call = messages(events).find((event) => event.dir === "send" && event.method === "tools/call");
  const answer = messages(events).find((event) => event.answers?.method === "tools/call");
  assert.ok(call && answer && answer.answers?.id === call.id);
  assert.equal(messages(events).filter((event) => event.progressOf?.method === "tools/call").length, 2);
});

behaviour("an HTTP transport without an observer reports nothing and works as before", async () => {
  const events: TraceEvent[] = [];
  const transport = createTransport({ transport: "http", url: `${fixture.origin}/json/plain/mcp` }, {});
  const client = new Client({ name: "t", version: "1" }, { protocol: "legacy" });
  try {
    await hangGuard(client.connect(transport), 10_000, "connect");
    await client.callTool("echo", { text: "x" });
  } finally {
    await client.close();
  }
  assert.deepEqual(events, []);
  assert.ok(!(transport instanceof TracingTransport));
});

behaviour("an auto URL that falls back to the legacy HTTP+SSE transport: the refusal, the GET stream and the POSTs, named sse once chosen", async () => {
  await withServer(startSseFixture("good"), async (server) => {
    const token = "tok-legacy-trace-0f9e8d7c6b";
    const events: TraceEvent[] = [];
    const transport = createTransport(
      { transport: "auto", url: `${server.origin}/sse`, headers: { Authorization: `Bearer ${token}` } },
      { trace: { sink: (event) => events.push(event), server: "legacy", startedAt: performance.now() } },
    );
    const client = new Client({ name: "t", version: "1" }, { requestTimeoutMs: 10_000 });
    try {
      await hangGuard(client.connect(transport), 10_000, "connect");
      await client.listTools();
    } finally {
      await hangGuard(client.close(), 10_000, "close");
    }
    assert.ok(!JSON.stringify(events).includes(token), "the token appears in the trace");
    const http = events.filter((event): event is HttpEvent => event.kind === "http");
    assert.ok(http.some((event) => event.phase === "response" && event.method === "POST" && event.status >= 400), "no refused POST");
    assert.ok(http.some((event) => event.phase === "response" && event.method === "GET" && event.status === 200), "no GET stream");
    const answer = messages(events).find((event) => event.answers?.method === "tools/list");
    assert.equal(answer?.transport, "sse");
    // The legacy stream's event ids are traced too (the fixture gives each message event one).
    const ids = http.filter((event) => event.phase === "sse-event").map((event) => (event as { eventId: string }).eventId);
    assert.ok(ids.length >= 2 && ids.every((id) => /^m\d+$/.test(id)), `SSE event ids of the legacy stream: ${JSON.stringify(ids)}`);
  });
});

// Deno runs tests in the order they were registered: this one goes last.
if (deno) deno.test({ name: "(stop the fixture server)", fn: () => fixture.stop(), sanitizeOps: false, sanitizeResources: false });
