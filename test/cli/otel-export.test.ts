// `--otel` end to end: the CLI run as a real child process exports its spans with OTLP/HTTP
// (@opentelemetry/exporter-trace-otlp-http, a dev dependency) to a loopback receiver that keeps
// every request it gets. The exporter sends JSON (ExportTraceServiceRequest, protobuf's JSON
// mapping: OTLP "OTLP/HTTP" with Content-Type application/json); the test parses it and checks the
// spans of `mcpwire call` and `mcpwire run`, their resource, that they are out before the process
// ends, and that no secret (a header value, a credential env value, an API key, arguments) is in
// any byte the receiver got.

import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { mcpwire, scratchDir, startMcpwire, writeConfig } from "../support/cli-runner.ts";
import { refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";
import { fixturePath, type PortFixture, startPortFixture } from "../support/fixture-process.ts";
import { waitUntil } from "../support/polling.ts";

const scratch = scratchDir("mcpwire-otel-export-");
const ECHO = fixturePath("echo-server.mjs");
const SUBSCRIPTIONS = fixturePath("subscriptions-server.mjs");
/** OTLP SpanKind (trace.proto): what the JSON mapping carries as numbers. */
const KIND = { internal: 1, server: 2, client: 3 } as const;

/** Whether the OTLP exporter is installed here: every test below needs it. */
const exporterMissing = await (async () => {
  const name = "@opentelemetry/exporter-trace-otlp-http";
  try {
    await import(name);
    return false;
  } catch {
    return `${name} is not installed (a dev dependency: npm ci)`;
  }
})();

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  events?: { name: string; attributes?: OtlpAttribute[] }[];
  status?: { code?: number; message?: string };
}
interface ExportRequest {
  resourceSpans: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans: { scope?: { name: string; version?: string }; spans: OtlpSpan[] }[] }[];
}

/** One exported span, its attributes, resource and scope flattened. */
interface Exported {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  scope: string | undefined;
  status: { code?: number; message?: string } | undefined;
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

/** What the receiver got: each request's path, content type and raw body. */
interface Received {
  path: string;
  contentType: string | undefined;
  body: string;
}

interface ReceiverOptions {
  delayMs?: number;
  hang?: boolean;
  status?: number;
}

/** A loopback OTLP/HTTP receiver: keeps every request, answers `status` (200) `{}` after `delayMs` (never, with `hang`). */
class Receiver {
  readonly received: Received[] = [];
  /** How many requests had their answer sent. */
  answered = 0;
  private server: Server;
  private held: ServerResponse[] = [];
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private constructor(options: ReceiverOptions) {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Uint8Array[] = [];
      request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      request.on("end", () => {
        const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
        let at = 0;
        for (const chunk of chunks) bytes.set(chunk, at), at += chunk.length;
        this.received.push({ path: request.url ?? "", contentType: request.headers["content-type"], body: new TextDecoder().decode(bytes) });
        if (options.hang === true) return void this.held.push(response);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          response.writeHead(options.status ?? 200, { "content-type": "application/json" }).end("{}");
          this.answered++;
        }, options.delayMs ?? 0);
        this.timers.add(timer);
      });
    });
  }

  static async start(options: ReceiverOptions = {}): Promise<Receiver> {
    const receiver = new Receiver(options);
    await new Promise<void>((resolve) => receiver.server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every span of every request, in the order received. */
  spans(): Exported[] {
    const spans: Exported[] = [];
    for (const { body } of this.received) {
      const request = JSON.parse(body) as ExportRequest;
      for (const resourceSpans of request.resourceSpans) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans) {
          for (const span of scopeSpans.spans) {
            spans.push({
              name: span.name,
              kind: span.kind,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              attributes: attributesOf(span.attributes),
              resource,
              scope: scopeSpans.scope?.name,
              status: span.status,
            });
          }
        }
      }
    }
    return spans;
  }

  /** All the bytes received, as text. */
  raw(): string {
    return this.received.map((request) => request.body).join("\n");
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const response of this.held) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The one span named `name`. */
function only(spans: Exported[], name: string): Exported {
  const found = spans.filter((span) => span.name === name);
  assert.equal(found.length, 1, `one span "${name}" among ${spans.map((span) => span.name).join(", ")}`);
  return found[0]!;
}

/** The environment of a CLI run: no OTEL_ variable of this process, these ones. */
function envWith(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("OTEL_")) env[name] = value;
  return { ...env, MCPWIRE_TOOL_CACHE: "off", ...extra };
}

const SECRET_HEADER = "otlp-header-secret-7f3a9c2e";
const SECRET_ENV = "otlp-env-secret-51d8b0a4";
const SECRET_KEY = "sk-otlp-api-key-c06e2f19";

describe("mcpwire --otel exports with OTLP/HTTP", { skip: exporterMissing }, () => {
  let http: PortFixture | undefined;
  let nowhere = "";
  before(async () => {
    http = await startPortFixture("trace-echo-server.mjs", { args: ["--http"] });
    nowhere = await refusedOrigin();
  });
  after(async () => {
    await http?.stop();
  });

  test("call: the client span of the tool call, the connect span and the resource, sent as JSON to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces", async () => {
    const receiver = await Receiver.start();
    try {
      const outcome = await mcpwire(["call", "--otel", "--stdio", `node ${ECHO}`, "echo", '{"text":"hi"}'], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.origin}/` }),
      });
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.equal(outcome.stdout, "hi\n");
      assert.doesNotMatch(outcome.stderr, /warning/);
      assert.ok(receiver.received.length > 0, "no export request");
      for (const request of receiver.received) {
        assert.equal(request.path, "/v1/traces");
        assert.match(request.contentType ?? "", /^application\/json/);
      }
      const spans = receiver.spans();
      const call = only(spans, "tools/call echo");
      assert.equal(call.kind, KIND.client);
      assert.equal(call.attributes["mcp.method.name"], "tools/call");
      assert.equal(call.attributes["gen_ai.tool.name"], "echo");
      assert.equal(call.attributes["gen_ai.operation.name"], "execute_tool");
      assert.equal(call.attributes["network.transport"], "pipe");
      assert.equal(typeof call.attributes["mcp.protocol.version"], "string");
      const connect = only(spans, "mcp connect");
      assert.equal(connect.kind, KIND.client);
      assert.equal(only(spans, "initialize").parentSpanId, connect.spanId, "initialize runs inside the connect span");
      for (const span of spans) {
        assert.equal(span.resource["service.name"], "mcpwire");
        assert.equal(typeof span.resource["service.version"], "string");
        assert.equal(span.scope, "mcpwire");
      }
    } finally {
      await receiver.close();
    }
  });

  test("the traceparent the server saw is the exported client span of that request (Streamable HTTP)", async () => {
    const receiver = await Receiver.start();
    try {
      const outcome = await mcpwire(["call", "--otel", "--json", "--http", `${http!.origin}/mcp`, "seen"], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin }),
      });
      assert.equal(outcome.code, 0, outcome.stderr);
      const result = JSON.parse(outcome.stdout) as { content: { text: string }[] };
      const seen = JSON.parse(result.content[0]!.text) as {
        method: string;
        name?: string;
        meta: { traceparent?: string };
        headers?: { traceparent?: string };
      }[];
      const own = seen.filter((entry) => entry.method === "tools/call" && entry.name === "seen").at(-1);
      assert.ok(own?.meta.traceparent, outcome.stdout);
      const call = only(receiver.spans(), "tools/call seen");
      assert.equal(call.attributes["network.transport"], "tcp");
      assert.equal(own.meta.traceparent, `00-${call.traceId}-${call.spanId}-01`);
      assert.equal(own.headers?.traceparent, own.meta.traceparent);
    } finally {
      await receiver.close();
    }
  });

  test("OTEL_SERVICE_NAME names the service, OTEL_RESOURCE_ATTRIBUTES adds to it, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as given", async () => {
    const receiver = await Receiver.start();
    try {
      const outcome = await mcpwire(["call", "--otel", "--stdio", `node ${ECHO}`, "echo", '{"text":"hi"}'], {
        env: envWith({
          OTEL_EXPORTER_OTLP_ENDPOINT: nowhere,
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.origin}/collector/traces`,
          OTEL_SERVICE_NAME: "my-agent",
          OTEL_RESOURCE_ATTRIBUTES: "service.name=overridden,deployment.environment.name=staging,team=a%20b",
        }),
      });
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.deepEqual(receiver.received.map((request) => request.path), receiver.received.map(() => "/collector/traces"));
      const call = only(receiver.spans(), "tools/call echo");
      assert.equal(call.resource["service.name"], "my-agent");
      assert.equal(call.resource["deployment.environment.name"], "staging");
      assert.equal(call.resource["team"], "a b");
    } finally {
      await receiver.close();
    }
  });

  test("the spans are out before the process ends: it waits for the receiver's slow answer", async () => {
    const receiver = await Receiver.start({ delayMs: 700 });
    try {
      const outcome = await mcpwire(["call", "--otel", "--stdio", `node ${ECHO}`, "echo", '{"text":"hi"}'], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin }),
      });
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.ok(receiver.received.length > 0, "no export request");
      assert.equal(receiver.answered, receiver.received.length, "the CLI ended before its export was answered");
      only(receiver.spans(), "tools/call echo");
    } finally {
      await receiver.close();
    }
  });

  test("a receiver that never answers holds the CLI at most for its bounded flush: it ends with the call's code", async () => {
    const receiver = await Receiver.start({ hang: true });
    try {
      const outcome = await mcpwire(["call", "--otel", "--stdio", `node ${ECHO}`, "echo", '{"text":"hi"}'], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin }),
        timeoutMs: 60_000,
      });
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.equal(outcome.stdout, "hi\n");
      assert.ok(receiver.received.length > 0, "no export request");
      assert.match(
        outcome.stderr,
        /^warning: --otel: (spans were not exported to|the last spans were still being sent to) http:\/\/127\.0\.0\.1:\d+\/v1\/traces/m,
      );
    } finally {
      await receiver.close();
    }
  });

  test("Ctrl-C: the spans are flushed before the process exits 130, the listen stream's span (ended by the close) among them", async () => {
    const receiver = await Receiver.start();
    const running = startMcpwire(["watch", "--otel", "subs", "note://a", "--stdio", `node ${JSON.stringify(SUBSCRIPTIONS)}`, "--name", "subs"], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin,
    }, 60_000);
    const exited = new Promise<string>((resolve) => running.child.on("close", (code, signal) => resolve(String(code ?? signal))));
    try {
      await waitUntil(() => running.stdout().includes("updated note://a"), "the first update", 60_000);
      running.child.kill("SIGINT");
      // 130; Deno's node:child_process reports an exit of 128 + 2 as the signal itself.
      assert.match(await exited, /^(130|SIGINT)$/, running.stderr());
      const names = receiver.spans().map((span) => span.name);
      assert.ok(names.includes("mcp connect"), names.join(", "));
      assert.ok(names.includes("subscriptions/listen"), names.join(", "));
    } finally {
      running.child.kill("SIGKILL");
      await receiver.close();
    }
  });

  test("a collector that is not there: the verb's own outcome, and a warning that the spans were not exported", async () => {
    const outcome = await mcpwire(["call", "--otel", "--stdio", `node ${ECHO}`, "echo", '{"text":"hi"}'], {
      env: envWith({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${nowhere}/v1/traces?token=query-secret` }),
    });
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(outcome.stdout, "hi\n");
    assert.match(
      outcome.stderr,
      /^warning: --otel: spans were not exported to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(.+\); check that an OTLP\/HTTP collector listens there/m,
    );
    assert.doesNotMatch(outcome.stderr, /query-secret/);
  });

  test("a collector that answers 400: said once, with its status", async () => {
    const receiver = await Receiver.start({ status: 400 });
    try {
      const outcome = await mcpwire(["call", "--otel", "--stdio", `node ${ECHO}`, "echo", '{"text":"hi"}'], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin }),
      });
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.equal(outcome.stderr.match(/warning: --otel: spans were not exported/g)?.length, 1, outcome.stderr);
    } finally {
      await receiver.close();
    }
  });

  test("no secret in any byte exported: --header of an --http server, a credential --env of a --stdio server, arguments, captured contents", async () => {
    const receiver = await Receiver.start();
    try {
      // Contents captured on purpose: the redactor must still take the secrets out.
      const config = await writeConfig(scratch.path, "capture.yaml", ["mcp_servers: {}", "telemetry:", "  capture_arguments: true", "  capture_results: true"]);
      const http_ = http!;
      const env = envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin });
      const overHttp = await mcpwire(
        [
          "call",
          "--otel",
          "--config",
          config,
          "--http",
          `${http_.origin}/mcp`,
          "--header",
          `Authorization: Bearer ${SECRET_HEADER}`,
          "echo",
          JSON.stringify({ text: `say ${SECRET_HEADER}` }),
        ],
        { env },
      );
      assert.equal(overHttp.code, 0, overHttp.stderr);
      const overStdio = await mcpwire(
        ["call", "--otel", "--config", config, "--stdio", `node ${ECHO}`, "--env", `API_TOKEN=${SECRET_ENV}`, "echo", JSON.stringify({ text: SECRET_ENV })],
        { env },
      );
      assert.equal(overStdio.code, 0, overStdio.stderr);
      const spans = receiver.spans();
      const calls = spans.filter((span) => span.name.startsWith("tools/call "));
      assert.equal(calls.length, 2, spans.map((span) => span.name).join(", "));
      for (const call of calls) assert.equal(typeof call.attributes["gen_ai.tool.call.arguments"], "string", "arguments are captured (redacted)");
      const raw = receiver.raw();
      for (const secret of [SECRET_HEADER, SECRET_ENV]) assert.ok(!raw.includes(secret), `${secret} was exported`);
    } finally {
      await receiver.close();
    }
  });

  test("run: invoke_agent → chat → execute_tool → tools/call, one trace, the API key nowhere", async () => {
    const api = await startFakeModelApi("openai", [
      { toolCalls: [{ name: "mcp_echo_echo", arguments: { text: `from the model ${SECRET_KEY}` } }] },
      { text: "done" },
    ], { apiKey: SECRET_KEY });
    const receiver = await Receiver.start();
    try {
      const config = await writeConfig(scratch.path, "run.yaml", [
        "providers:",
        "  openai:",
        `    base_url: ${JSON.stringify(api.url)}`,
        `    api_key: ${SECRET_KEY}`,
        "telemetry:",
        "  capture_arguments: true",
        "mcp_servers:",
        "  echo:",
        "    command: node",
        `    args: [${JSON.stringify(ECHO)}]`,
      ]);
      const outcome = await mcpwire(["run", "--otel", "-p", "echo something", "--yes", "--model", "openai/any", "--config", config], {
        env: envWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin, OLLAMA_HOST: nowhere }),
      });
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.match(outcome.stdout, /done/);
      const spans = receiver.spans();
      const agent = only(spans, "invoke_agent mcpwire");
      const chats = spans.filter((span) => span.name === "chat any");
      assert.equal(chats.length, 2, spans.map((span) => span.name).join(", "));
      const tool = only(spans, "execute_tool mcp_echo_echo");
      const call = only(spans, "tools/call echo");
      for (const chat of chats) {
        assert.equal(chat.parentSpanId, agent.spanId);
        assert.equal(chat.kind, KIND.client);
        assert.equal(chat.attributes["gen_ai.operation.name"], "chat");
        assert.equal(chat.attributes["gen_ai.request.model"], "any");
      }
      const asking = chats.find((chat) => chat.spanId === tool.parentSpanId);
      assert.ok(asking, "execute_tool is a child of the model request that asked for it");
      assert.equal(call.parentSpanId, tool.spanId, "the MCP request is a child of execute_tool");
      assert.equal(call.kind, KIND.client);
      for (const span of [...chats, tool, call]) assert.equal(span.traceId, agent.traceId);
      assert.equal(tool.attributes["gen_ai.tool.name"], "mcp_echo_echo");
      assert.equal(call.attributes["gen_ai.tool.name"], "echo");
      assert.ok(!receiver.raw().includes(SECRET_KEY), "the API key was exported");
    } finally {
      await receiver.close();
      await api.close();
    }
  });
});
