// ClientOptions.trace (src/client/client-trace.ts): the Client's own trace — `message` events
// from a transport it wraps once at connect, `lifecycle` events from its state changes (the era
// and why) — over the memory transport, the 2026-07-28 reference fixture over stdio (a real
// child), and server-everything over stdio (the fallback to initialize). No credential appears.

import "../support/test-env.ts"; // the era cache off
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { modernServerArgs } from "../../conformance/fixtures/modern-server-launch.ts";
import { Client } from "../../src/client/client.ts";
import { Peer } from "../../src/jsonrpc/peer.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { behaviour } from "../support/behaviour.ts";
import { EVERYTHING } from "../support/everything-path.ts";

type MessageEvent = Extract<TraceEvent, { kind: "message" }>;
type LifecycleEvent = Extract<TraceEvent, { kind: "lifecycle" }>;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INFO = { name: "mcpwire-trace-test", version: "1.0.0" };
/** A bearer token: the trace's redaction knows `Bearer …` wherever it appears (common/redact.ts). */
const SECRET = "tracedSecretToken0123456789abcdef";

const messages = (events: TraceEvent[]) => events.filter((event): event is MessageEvent => event.kind === "message");
const lifecycle = (events: TraceEvent[]) => events.filter((event): event is LifecycleEvent => event.kind === "lifecycle");

behaviour("a sink gets every message both ways, answers naming their request, and the lifecycle (memory transport)", async () => {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const server = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  serverEnd.onmessage = (message) => server.receive(message);
  server.setRequestHandler("initialize", () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "mem", version: "1" } }));
  server.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: `echo Bearer ${SECRET}` }] }));
  await serverEnd.start();
  const events: TraceEvent[] = [];
  const client = new Client(INFO, { name: "mem", protocol: "legacy", trace: (event) => events.push(event) });
  await client.connect(clientEnd);
  const result = await client.callTool("echo", { message: "hi" });
  assert.equal((result.content[0] as { text: string }).text, `echo Bearer ${SECRET}`, "the trace changes no message");
  await client.close();
  server.close({ reason: "test over" });

  for (const event of events) {
    assert.equal(event.v, 1);
    assert.equal(event.server, "mem", "the server's name defaults to the client's name");
    assert.equal(event.transport, "memory");
  }
  const seen = messages(events);
  assert.deepEqual(seen.filter((event) => event.dir === "send" && event.answers === undefined).map((event) => event.method), [
    "initialize",
    "notifications/initialized",
    "tools/call",
  ]);
  const call = seen.find((event) => event.method === "tools/call" && event.dir === "send")!;
  const answer = seen.find((event) => event.answers?.method === "tools/call");
  assert.deepEqual(answer?.answers, { id: call.id!, method: "tools/call" });
  assert.ok(typeof answer?.latencyMs === "number");
  assert.ok(!JSON.stringify(events).includes(SECRET), "a credential-shaped value reached the trace");
  assert.deepEqual(lifecycle(events).map((event) => event.phase), ["connecting", "era", "ready", "close"]);
  const era = lifecycle(events).find((event) => event.phase === "era")!;
  assert.equal(era.era, "legacy");
  assert.equal(era.protocolVersion, "2025-11-25");
  assert.match(era.reason ?? "", /pinned by the protocol option \(legacy\)/);
});

behaviour("over stdio to the 2026-07-28 reference fixture: the probe answered, the era modern, tools/call answered", async () => {
  const events: TraceEvent[] = [];
  const client = new Client(INFO, { trace: { sink: (event) => events.push(event), server: "modern" }, listen: false });
  const transport = new StdioTransport({ command: "node", args: modernServerArgs("--stdio", "--era", "modern"), cwd: ROOT });
  try {
    await client.connect(transport);
    await client.callTool("echo", { message: `Bearer ${SECRET}` });
  } finally {
    await client.close();
  }
  assert.ok(events.every((event) => event.server === "modern" && event.transport === "stdio"), JSON.stringify(events[0]));
  const seen = messages(events);
  assert.ok(seen.some((event) => event.dir === "receive" && event.answers?.method === "server/discover"), "no answer to server/discover");
  assert.ok(!seen.some((event) => event.method === "initialize"), "initialize was sent to a modern server");
  assert.ok(seen.some((event) => event.dir === "receive" && event.answers?.method === "tools/call"));
  const era = lifecycle(events).find((event) => event.phase === "era");
  assert.equal(era?.era, "modern");
  assert.equal(era?.protocolVersion, "2026-07-28");
  assert.match(era?.reason ?? "", /server\/discover answered/);
  assert.ok(!JSON.stringify(events).includes(SECRET), "a credential-shaped value reached the trace");
});

behaviour("over stdio to server-everything: server/discover refused, the fallback to initialize said in the era event", async () => {
  const events: TraceEvent[] = [];
  const client = new Client(INFO, { name: "everything", trace: (event) => events.push(event) });
  try {
    await client.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"] }));
    await client.listTools();
  } finally {
    await client.close();
  }
  const era = lifecycle(events).find((event) => event.phase === "era");
  assert.equal(era?.era, "legacy");
  assert.match(era?.reason ?? "", /^server\/discover answered error -32601 .*fell back to the initialize handshake/);
  const phases = lifecycle(events).map((event) => event.phase);
  assert.deepEqual([phases[0], phases.at(-1)], ["connecting", "close"]);
  assert.ok(messages(events).some((event) => event.answers?.method === "tools/list"));
});

behaviour("a failed connect is traced as failed, with the reason", async () => {
  const events: TraceEvent[] = [];
  const client = new Client(INFO, { trace: (event) => events.push(event) });
  const transport = new StdioTransport({ command: "node", args: ["-e", "process.exit(3)"] });
  await assert.rejects(client.connect(transport));
  const failed = lifecycle(events).find((event) => event.phase === "failed");
  assert.ok(failed?.reason !== undefined && failed.reason.length > 0, JSON.stringify(events));
});
