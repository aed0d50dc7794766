// OpenTelemetry on the wire: every request carries the traceparent of its own client span in
// `_meta` (and, over HTTP, the W3C header), on stdio and Streamable HTTP, on both eras, task polls
// and multi round-trip retries included — spec 2026-07-28 basic/index ("OpenTelemetry trace
// context"); OpenTelemetry semantic conventions for MCP. Against test/fixtures/trace-echo-server.mjs.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openTelemetry } from "../../src/client/telemetry/mod.ts";
import { Client, type ClientTransport, StdioTransport, StreamableHttpTransport, tasksExtension } from "../../src/mod.ts";
import { textOf } from "../support/everything-http.ts";
import { fixturePath, type PortFixture, startPortFixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { spanIdOf, type SpanRecorder, spanRecorder } from "../support/spans.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const GUARD_MS = 20_000;

interface Seen {
  method: string;
  id: string | number;
  name?: string;
  meta: { traceparent?: string; tracestate?: string; baggage?: string };
  headers?: { traceparent?: string; tracestate?: string; baggage?: string };
}

type Era = "legacy" | "modern";
type Wire = "stdio" | "http";

/** A client of the trace-echo fixture with telemetry on, recording into `recorder`; closed after `body`. */
async function withTraced(
  era: Era,
  wire: Wire,
  recorder: SpanRecorder,
  body: (client: Client) => Promise<void>,
): Promise<Seen[]> {
  const args = era === "legacy" ? ["--era", "legacy"] : [];
  let fixture: PortFixture | undefined;
  let transport: ClientTransport;
  if (wire === "http") {
    fixture = await startPortFixture("trace-echo-server.mjs", { args: [...args, "--http"] });
    transport = new StreamableHttpTransport({ url: `${fixture.origin}/mcp` });
  } else {
    transport = new StdioTransport({ command: "node", args: [fixturePath("trace-echo-server.mjs"), ...args] });
  }
  const client = new Client(CLIENT_INFO, {
    name: "echo",
    protocol: era,
    requestTimeoutMs: 5_000,
    roots: ["/tmp/trace-echo-root"],
    telemetry: openTelemetry({ tracer: recorder.tracer }),
    use: [tasksExtension],
  });
  try {
    await client.connect(transport);
    await body(client);
    return JSON.parse(textOf((await client.callTool("seen")).content)) as Seen[];
  } finally {
    await client.close();
    await fixture?.stop();
  }
}

for (const era of ["legacy", "modern"] as const) {
  for (const wire of ["stdio", "http"] as const) {
    describe(`telemetry, ${era === "modern" ? "2026-07-28" : "2025-11-25"} over ${wire}`, () => {
      test("the traceparent the server saw belongs to the client span of that request", async () => {
        const recorder = spanRecorder();
        const seen = await hangGuard(
          withTraced(era, wire, recorder, async (client) => {
            await client.listTools();
            assert.match(textOf((await client.callTool("echo", { word: "hi" })).content), /echo/);
            // A task: its tasks/get polls are requests of their own.
            assert.equal(textOf((await client.callTool("slow")).content), "slow done");
            // 2026-07-28: a multi round-trip tool call (two tools/call requests); 2025-11-25 stdio: a roots/list request to us.
            if (era === "modern" || wire === "stdio") assert.match(textOf((await client.callTool("ask")).content), /trace-echo-root/);
            if (wire === "stdio") assert.equal(textOf((await client.callTool("progress")).content), "progressed");
          }),
          GUARD_MS,
          "the traced calls",
        );
        const spans = recorder.spans();
        const traced = seen.filter((request) => request.method !== "subscriptions/listen");
        assert.ok(traced.length >= 6, JSON.stringify(seen));
        for (const request of seen) {
          const traceparent = request.meta.traceparent;
          assert.ok(traceparent !== undefined, `${request.method} (id ${request.id}) carried no traceparent`);
          if (wire === "http") assert.equal(request.headers?.traceparent, traceparent, `${request.method}: the HTTP traceparent header`);
          if (request.method === "subscriptions/listen") continue; // its span ends at close; checked below
          const span = recorder.byId(spanIdOf(traceparent));
          assert.ok(span !== undefined, `${request.method} (id ${request.id}): no span with the id its traceparent names`);
          assert.equal(span.attributes["mcp.method.name"], request.method);
          assert.equal(span.kind, 2, "a CLIENT span");
          assert.equal(span.spanContext().traceId, traceparent.split("-")[1]);
          assert.equal(span.attributes["jsonrpc.request.id"], String(request.id));
          if (request.method === "tools/call") {
            assert.equal(span.name, `tools/call ${request.name}`);
            assert.equal(span.attributes["gen_ai.tool.name"], request.name);
          }
          assert.equal(span.attributes["network.transport"], wire === "http" ? "tcp" : "pipe");
        }
        const spanIds = new Set(seen.map((request) => spanIdOf(request.meta.traceparent!)));
        assert.equal(spanIds.size, seen.length, "each request has a span of its own");

        // The task's polls are children of the task's lifetime span.
        const polls = seen.filter((request) => request.method === "tasks/get");
        assert.ok(polls.length >= 2, `polled ${polls.length} times`);
        const taskSpan = spans.find((span) => span.name === "mcp task slow");
        assert.ok(taskSpan !== undefined, spans.map((span) => span.name).join(", "));
        for (const poll of polls) assert.equal(recorder.parentOf(recorder.byId(spanIdOf(poll.meta.traceparent!))!), taskSpan.spanContext().spanId);
        assert.match(String(taskSpan.attributes["mcp.task.id"]), /^task-/);

        if (era === "modern") {
          // Both rounds of the multi round-trip call were sent, each in its own span with the same parent.
          const rounds = seen.filter((request) => request.method === "tools/call" && request.name === "ask");
          assert.equal(rounds.length, 2);
          const [first, second] = rounds.map((round) => recorder.byId(spanIdOf(round.meta.traceparent!))!);
          assert.equal(recorder.parentOf(first!), recorder.parentOf(second!));
          // The input request carried the first round's traceparent: it was handled as that span's child.
          const handled = spans.find((span) => span.name === "roots/list" && span.kind === 1);
          assert.ok(handled !== undefined, "a SERVER span for the input request");
          assert.equal(recorder.parentOf(handled), first!.spanContext().spanId);
        } else if (wire === "stdio") {
          // The server's roots/list carried the tools/call's traceparent: it was handled as its child.
          const ask = seen.find((request) => request.method === "tools/call" && request.name === "ask")!;
          const handled = spans.find((span) => span.name === "roots/list" && span.kind === 1);
          assert.ok(handled !== undefined, "a SERVER span for the server's roots/list");
          assert.equal(recorder.parentOf(handled), spanIdOf(ask.meta.traceparent!));
        }

        if (wire === "stdio") {
          // The call's progress notifications are events of its span.
          const progressed = spans.find((span) => span.name === "tools/call progress")!;
          assert.deepEqual(progressed.events.map((event) => [event.name, event.attributes?.["mcp.progress"]]), [
            ["notifications/progress", 1],
            ["notifications/progress", 2],
          ]);
        }
        if (era === "legacy" && wire === "http") {
          // The session the server assigned is on every span after initialize.
          const listed = spans.find((span) => span.name === "tools/list")!;
          assert.equal(listed.attributes["mcp.session.id"], "trace-echo-session");
        }
        if (era === "modern") {
          // The listen stream's span ends with the connection, not as an error.
          const listen = spans.find((span) => span.name === "subscriptions/listen");
          assert.ok(listen !== undefined, "a span for subscriptions/listen");
          assert.notEqual(listen.status.code, 2, listen.status.message);
        }

        // The connect span is the parent of the era's first requests.
        const connect = spans.find((span) => span.name === "mcp connect");
        assert.ok(connect !== undefined);
        assert.equal(connect.attributes["mcp.era"], era);
        const first = spans.find((span) => span.attributes["mcp.method.name"] === (era === "modern" ? "server/discover" : "initialize"));
        assert.equal(recorder.parentOf(first!), connect.spanContext().spanId);
      });
    });
  }
}

describe("telemetry: context and errors", () => {
  test("telemetry is code the client is given: true or a bare options object is refused, naming openTelemetry()", () => {
    for (const given of [true, { tracer: spanRecorder().tracer }]) {
      assert.throws(
        () => new Client(CLIENT_INFO, { telemetry: given as never }),
        (error: unknown) => error instanceof TypeError && /openTelemetry\(\) of mcpwire\/telemetry/.test(error.message),
      );
    }
  });

  test("a call given a traceContext is that context's child; an error sets error.type", async () => {
    const { context, trace } = await import("@opentelemetry/api");
    const recorder = spanRecorder();
    const outer = recorder.tracer.startSpan("outer");
    const parent = trace.setSpan(context.active(), outer as never);
    await hangGuard(
      withTraced("modern", "stdio", recorder, async (client) => {
        await client.callTool("echo", {}, { traceContext: parent });
        await assert.rejects(client.callTool("missing", {}, { traceContext: parent }));
      }),
      GUARD_MS,
      "the calls",
    );
    outer.end();
    const spans = recorder.spans();
    const echo = spans.find((span) => span.name === "tools/call echo")!;
    assert.equal(recorder.parentOf(echo), outer.spanContext().spanId);
    const missing = spans.find((span) => span.name === "tools/call missing")!;
    assert.equal(recorder.parentOf(missing), outer.spanContext().spanId);
    assert.equal(missing.status.code, 2);
    assert.equal(missing.attributes["rpc.response.status_code"], "-32602");
    assert.equal(typeof missing.attributes["error.type"], "string");
  });

  test("the tracestate and baggage of the caller's context go with the traceparent, in _meta and as W3C headers", async () => {
    const { context, createTraceState, propagation, trace } = await import("@opentelemetry/api");
    const recorder = spanRecorder();
    // A remote parent (as a traced service receives one), with a tracestate and baggage.
    const remote = trace.wrapSpanContext({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      traceFlags: 1,
      isRemote: true,
      traceState: createTraceState("vendor=abc"),
    });
    const withBaggage = propagation.setBaggage(context.active(), propagation.createBaggage({ tenant: { value: "acme corp" } }));
    const parent = trace.setSpan(withBaggage, remote);
    const seen = await hangGuard(
      withTraced("modern", "http", recorder, async (client) => {
        await client.callTool("echo", {}, { traceContext: parent });
      }),
      GUARD_MS,
      "the call",
    );
    const echo = seen.find((request) => request.name === "echo")!;
    assert.match(echo.meta.traceparent!, /^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    assert.equal(echo.meta.tracestate, "vendor=abc");
    assert.equal(echo.meta.baggage, "tenant=acme%20corp");
    assert.deepEqual(echo.headers, { traceparent: echo.meta.traceparent, tracestate: "vendor=abc", baggage: "tenant=acme%20corp" });
    const span = recorder.byId(spanIdOf(echo.meta.traceparent!))!;
    assert.equal(recorder.parentOf(span), "b7ad6b7169203331");
  });
});
