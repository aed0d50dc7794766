// The host's telemetry: the config's `telemetry:` key (true, false, or { enabled,
// capture_arguments, capture_results }) turns OpenTelemetry on for every server with the global
// tracer; a reconnect is a span, its connect attempts its children (docs/telemetry.md).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError } from "../../src/host/config/types.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { until } from "../support/polling.ts";

const GUARD_MS = 20_000;
const FILE = "/tmp/mcpwire-telemetry-config.yaml";

function configWith(telemetry: string, server = "trace-echo-server.mjs"): string {
  return ["mcp_servers:", "  local:", "    command: node", `    args: [${JSON.stringify(fixturePath(server))}]`, telemetry, ""].join("\n");
}

describe("config telemetry:", () => {
  test("true, false, a mapping; a wrong value is an error at its key, an unknown key a warning", () => {
    assert.deepEqual(parseConfig(configWith("telemetry: true"), { file: FILE, env: {} }).telemetry, { enabled: true });
    assert.deepEqual(parseConfig(configWith("telemetry: false"), { file: FILE, env: {} }).telemetry, { enabled: false });
    assert.deepEqual(parseConfig(configWith("telemetry:\n  capture_arguments: true"), { file: FILE, env: {} }).telemetry, {
      enabled: true,
      captureArguments: true,
    });
    assert.throws(() => parseConfig(configWith('telemetry: "yes"'), { file: FILE, env: {} }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /"telemetry" must be true, false, or a mapping with enabled, capture_arguments, capture_results/);
      return true;
    });
    const warned = parseConfig(configWith("telemetry:\n  capture_argument: true"), { file: FILE, env: {} });
    assert.ok(warned.warnings.some((warning) => /capture_argument/.test(warning.message)), warned.warnings.map((w) => w.message).join("\n"));
  });
});

describe("McpManager with the config's telemetry: true", () => {
  const exporter = new InMemorySpanExporter();
  before(() => {
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  });
  after(() => {
    trace.disable();
  });

  test("every server's requests are spans of the global tracer, and their traceparent reaches the server", async () => {
    exporter.reset();
    const config = parseConfig(configWith("    protocol: modern\ntelemetry: true"), { file: FILE, env: {} });
    const manager = new McpManager(config, { eraCache: false });
    let seen: { method: string; meta: { traceparent?: string } }[];
    try {
      await hangGuard(manager.start(), GUARD_MS, "the server starting");
      await manager.registry.dispatch("mcp_local_echo", { word: "hi" });
      seen = JSON.parse(JSON.parse(await manager.registry.dispatch("mcp_local_seen", {})).result);
    } finally {
      await manager.close();
    }
    const spans = exporter.getFinishedSpans();
    const call = seen.find((request) => request.method === "tools/call")!;
    const spanId = call.meta.traceparent!.split("-")[2];
    const span = spans.find((recorded) => recorded.spanContext().spanId === spanId);
    assert.equal(span?.name, "tools/call echo");
    assert.ok(spans.some((recorded) => recorded.name === "mcp connect"));
  });

  test("a reconnect is a span; the new session's connect is its child", async () => {
    exporter.reset();
    const config = parseConfig(configWith("telemetry: true", "crash-server.mjs"), { file: FILE, env: {} });
    const manager = new McpManager(config, { eraCache: false, reconnectDelay: { initialMs: 20, maxMs: 20, jitter: 0 } });
    try {
      await hangGuard(manager.start(), GUARD_MS, "the server starting");
      // The crash server dies in its first tools/call; the manager reconnects.
      await manager.registry.dispatch("mcp_local_echo", {});
      await until("the server reconnected", () => {
        const reconnect = exporter.getFinishedSpans().find((span) => span.name === "mcp reconnect");
        return reconnect !== undefined && manager.status().some((status) => status.state === "ready") ? reconnect : undefined;
      }, GUARD_MS);
    } finally {
      await manager.close();
    }
    const spans = exporter.getFinishedSpans();
    const reconnect = spans.find((span) => span.name === "mcp reconnect")!;
    assert.equal(reconnect.attributes["mcp.reconnect.attempts"], 1);
    assert.notEqual(reconnect.status.code, 2);
    const connects = spans.filter((span) => span.name === "mcp connect");
    assert.equal(connects.length, 2);
    assert.ok(
      connects.some((span) => (span as { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId === reconnect.spanContext().spanId),
      "the second connect is the reconnect's child",
    );
  });
});
