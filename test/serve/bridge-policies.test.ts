// The config's policies at the bridge's boundary, as the other verbs apply them: include/exclude
// filters, tool pinning (`hold`: a changed tool is not served until accepted), redaction of a
// backend's errors; and failures kept to their backend — docs/serve.md ("Policies at the
// boundary", "Failures stay local").

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { ServerConfig } from "../../src/host/config/types.ts";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import { ToolPins } from "../../src/registry/tool-pins.ts";
import { type Bridge, createBridge } from "../../src/serve/mod.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";
import { spanIdOf, spanRecorder } from "../support/spans.ts";
import { hostContext, hostIdentity, testSession } from "./host-context.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };

function asking(name: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return stdioServerConfig(name, [fixturePath("serve/asking-server.mjs"), name], overrides);
}

function bridgeOf(servers: ServerConfig[], manager: Parameters<typeof createBridge>[0]["manager"] = {}): Bridge {
  const bridge = createBridge({ config: configOf(...servers), manager: { ...FAST, ...manager } });
  after(() => bridge.close());
  return bridge;
}

async function listed(bridge: Bridge, era: "legacy" | "modern" = "modern"): Promise<string[]> {
  const host = hostIdentity(era);
  const session = testSession(host);
  const { tools } = await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
  return (tools as { name: string }[]).map((tool) => tool.name).sort();
}

function call(bridge: Bridge, name: string): Promise<unknown> {
  const host = hostIdentity("modern");
  return bridge.handlers.request("tools/call", { name, arguments: {} }, hostContext(testSession(host), host, "tools/call"));
}

describe("policies", () => {
  it("include/exclude: an excluded tool is neither listed nor callable", async () => {
    const bridge = bridgeOf([asking("filtered", { tools: { exclude: ["hang", "crash", "leak"] } })]);
    const names = await listed(bridge);
    assert.ok(names.includes("echo") && !names.includes("hang") && !names.includes("crash"), names.join(","));
    await assert.rejects(call(bridge, "hang"), (error: unknown) => error instanceof RpcError && error.rpcCode === -32602);
  });

  it("pinning hold: a tool whose definition changed since it was pinned is not served until accepted", async () => {
    const pins = new ToolPins();
    const first = bridgeOf([asking("pinned")], { pinning: "hold", pins });
    assert.ok((await listed(first)).includes("echo"));
    await first.close();
    const changed = bridgeOf([asking("pinned", { env: { ASKING_ECHO_DESCRIPTION: "Echoes text, and now also mails it" } })], { pinning: "hold", pins });
    const said: string[] = [];
    changed.events.on("toolheld", ({ message }) => said.push(message));
    const names = await listed(changed);
    await listed(changed, "legacy"); // a second host's set reviews the same tools: said once
    assert.equal(said.length, 1, said.join("\n"));
    assert.match(
      said[0]!,
      /server "pinned": tool "echo" changed since it was pinned: its description differs; not served until it is accepted .*mcpwire pin accept pinned echo/,
    );
    assert.ok(!names.includes("echo") && names.includes("slow"), names.join(","));
    await assert.rejects(call(changed, "echo"), (error: unknown) => error instanceof RpcError && error.rpcCode === -32602);
  });

  it("redaction: a secret of the backend's config never reaches the host in its error", async () => {
    const secret = "sk-live-0123456789abcdef0123";
    const bridge = bridgeOf([asking("secretive", { env: { ASKING_TOKEN: secret }, secrets: [secret] })]);
    const error = await call(bridge, "leak").then(() => assert.fail("leak answered"), (thrown: unknown) => thrown);
    assert.ok(error instanceof RpcError);
    assert.match(error.message, /server "secretive": .*was refused upstream/);
    assert.ok(!error.message.includes(secret), error.message);
  });
});

describe("failures stay local", () => {
  it("a backend that crashes fails its pending calls at once, naming it; the other backend's calls go on", async () => {
    const bridge = bridgeOf([asking("fragile"), asking("sturdy")]);
    await listed(bridge);
    const pending = call(bridge, "mcp_fragile_hang");
    const crashed = call(bridge, "mcp_fragile_crash");
    for (const each of [pending, crashed]) {
      await assert.rejects(
        hangGuard(each, 10_000, "a call of the crashed backend"),
        (error: unknown) => error instanceof RpcError && /server "fragile"/.test(error.message),
      );
    }
    const result = await call(bridge, "mcp_sturdy_echo") as { content: { text: string }[] };
    assert.equal(result.content[0]?.text, "sturdy: ");
    // The manager restarts it as it restarts any server; its tools come back.
    await waitUntil(() => bridge.status().some((set) => set.servers.find((each) => each.name === "fragile")?.state === "ready"), "fragile restarted", 10_000);
    assert.ok((await listed(bridge)).includes("mcp_fragile_echo"));
  });
});

describe("OpenTelemetry through the bridge", () => {
  it("the host's traceparent is the parent of the backend call's span, and the backend sees that span's", async () => {
    const recorder = spanRecorder();
    const bridge = bridgeOf([asking("traced")], { telemetry: { tracer: recorder.tracer } });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const hostSpan = "00f067aa0ba902b7";
    const host = hostIdentity("modern");
    const meta = { traceparent: `00-${traceId}-${hostSpan}-01` };
    const result = await bridge.handlers.request(
      "tools/call",
      { name: "slow", arguments: {}, _meta: meta },
      hostContext(testSession(host), host, "tools/call", { meta }),
    );
    const seen = /traceparent (\S+)/.exec((result as { content: { text: string }[] }).content[0]!.text)?.[1] ?? "";
    const call = recorder.spans().find((span) => span.name.startsWith("tools/call"));
    assert.ok(call !== undefined, recorder.spans().map((span) => span.name).join(","));
    assert.equal(call.spanContext().traceId, traceId);
    assert.equal(recorder.parentOf(call), hostSpan);
    assert.equal(spanIdOf(seen), call.spanContext().spanId);
  });
});

describe("one trace for every host's backends", () => {
  it("each set's trace events count t from the bridge's start, not from their own manager's", async () => {
    const events: TraceEvent[] = [];
    const bridge = bridgeOf([asking("timed")], { trace: (event) => events.push(event) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await listed(bridge);
    const first = events.find((event) => event.server === "timed");
    assert.ok(first !== undefined, "the backend was traced");
    assert.ok(first.t >= 250, `t ${first.t} counts from the bridge's start`);
  });
});
