// The Server around its connections: closing (in-flight handlers aborted, sessions ended, no
// connect after), a host that goes away, broadcast, the options it checks, and the chain it
// composes (ServerOptions.middleware: receive links see the host's requests with their
// context, send links the requests to the host) — docs/architecture.md, "The server half".

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import { InvalidOptionsError } from "../../src/common/options.ts";
import { ConnectionClosedError } from "../../src/jsonrpc/errors.ts";
import type { Middleware } from "../../src/jsonrpc/middleware.ts";
import { ServerError } from "../../src/server/errors.ts";
import { Server } from "../../src/server/server.ts";
import type { ServerRequestContext } from "../../src/server/server-handlers.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { demoHandlers, demoWithClient, emptyLog, until } from "./demo-server.ts";

describe("Server", () => {
  test("close() aborts in-flight handlers, ends every session and connection, and refuses connect after", async () => {
    const { server, client, log } = await demoWithClient({ protocol: "legacy" });
    const call = client.callTool("wait", {});
    await until(() => log.aborted.length === 1, "the wait under way");
    const session = [...server.sessions.values()][0]!;
    await server.close();
    assert.ok((await log.aborted[0]) instanceof ConnectionClosedError, "the handler's signal aborted with the connection's end");
    await assert.rejects(call, ConnectionClosedError);
    assert.equal(server.sessions.size, 0);
    assert.equal(session.signal.aborted, true);
    assert.deepEqual(log.closed, [session]);
    const [, serverEnd] = MemoryTransport.pair();
    await assert.rejects(server.connect(serverEnd), (error: unknown) => error instanceof ServerError && error.code === "server-closed");
    await client.close();
  });

  test("a host that goes away ends its session; the request the handler sent it fails with ConnectionClosedError", async () => {
    let asked: Promise<unknown> | undefined;
    const { server, client, log } = await demoWithClient(
      {
        protocol: "legacy",
        // Answers only by giving up when told to (the Client bounds a handler's time with a timer until it settles).
        handlers: {
          sampling: (_request, context) => new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(new Error("gone")))),
        },
      },
      {},
      {
        request: (_method, _params, context: ServerRequestContext) => {
          asked = context.request("sampling/createMessage", { messages: [], maxTokens: 1 }).catch((error: unknown) => error);
          return new Promise(() => {});
        },
      },
    );
    void client.callTool("x", {}).catch(() => {});
    await until(() => asked !== undefined, "the request to the host");
    const connection = [...server.sessions.values()][0]!;
    await client.close();
    assert.ok((await asked) instanceof ConnectionClosedError);
    await until(() => log.closed.length === 1, "the session closed");
    assert.equal(connection.signal.aborted, true);
    assert.equal(server.sessions.size, 0);
    await server.close();
  });

  test("broadcast reaches every session and never rejects; a throwing session hook is reported, not thrown", async () => {
    const problems: string[] = [];
    const server = new Server(
      demoHandlers(emptyLog(), {
        sessionOpened: () => {
          throw new Error("hook broke");
        },
      }),
      { onProblem: (message) => problems.push(message) },
    );
    const clients: Client[] = [];
    let heard = 0;
    for (const protocol of ["legacy", "legacy"] as const) {
      const [clientEnd, serverEnd] = MemoryTransport.pair();
      await server.connect(serverEnd);
      const client = new Client({ name: "h", version: "1" }, { protocol });
      client.on("toolslistchanged", () => heard++);
      await client.connect(clientEnd);
      clients.push(client);
    }
    assert.equal(server.sessions.size, 2);
    assert.deepEqual([...server.sessions.keys()], ["1", "2"]);
    await server.broadcast("notifications/tools/list_changed");
    await until(() => heard === 2, "both hosts told");
    await clients[0]!.close();
    await server.broadcast("notifications/tools/list_changed");
    assert.ok(problems.some((problem) => /sessionOpened threw: hook broke/.test(problem)));
    await clients[1]!.close();
    await server.close();
  });

  test("its options are checked: an unknown one and an empty eras list are refused", () => {
    assert.throws(() => new Server(demoHandlers(emptyLog()), { era: ["modern"] } as never), InvalidOptionsError);
    assert.throws(() => new Server(demoHandlers(emptyLog()), { eras: [] }), /eras must name/);
  });

  test("ServerConnectOptions.sessionId names the handshake session (an HTTP front's Mcp-Session-Id)", async () => {
    const server = new Server(demoHandlers(emptyLog()));
    const [clientEnd, serverEnd] = MemoryTransport.pair();
    const connection = await server.connect(serverEnd, { sessionId: "abc-123" });
    const client = new Client({ name: "h", version: "1" }, { protocol: "legacy" });
    await client.connect(clientEnd);
    assert.deepEqual([...server.sessions.keys()], ["abc-123"]);
    await connection.close();
    assert.match((await connection.closed).reason, /closed/);
    assert.equal(server.sessions.size, 0);
    await client.close();
    await server.close();
  });

  test("middleware: a receive link sees the host's request with its ServerRequestContext; a send link the request to the host", async () => {
    const seen: string[] = [];
    const link: Middleware = {
      name: "recorder",
      receive: (next) => (method, params, context) => {
        seen.push(`receive ${method} (${(context as ServerRequestContext).host.era})`);
        return next(method, params, context);
      },
      send: (next) => (method, params, options) => {
        seen.push(`send ${method} for ${String(options.relatedRequestId)}`);
        return next(method, params, options);
      },
    };
    const { server, client } = await demoWithClient({
      protocol: "legacy",
      handlers: { sampling: async () => ({ role: "assistant", content: { type: "text", text: "ok" }, model: "m" }) },
    }, { middleware: [link] });
    try {
      await client.callTool("ask", { method: "sampling/createMessage", params: { messages: [], maxTokens: 3 } });
      assert.equal(seen.length, 2);
      assert.match(seen[0]!, /^receive tools\/call \(legacy\)$/);
      assert.match(seen[1]!, /^send sampling\/createMessage for \d+$/);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("trace: every message of a connection becomes a message event, the host's as receive and ours as send, an answer naming its request", async () => {
    const events: TraceEvent[] = [];
    const { server, client } = await demoWithClient({ protocol: "legacy" }, { trace: (event) => events.push(event), name: "front" });
    try {
      await client.callTool("echo", { text: "traced" });
      const messages = events.filter((event) => event.kind === "message");
      const lines = messages.map((event) => `${event.dir} ${event.method ?? "?"}${event.answers === undefined ? "" : " (answer)"}`);
      assert.deepEqual(lines.slice(0, 3), ["receive initialize", "send initialize (answer)", "receive notifications/initialized"]);
      assert.ok(lines.includes("send tools/call (answer)"), lines.join(", "));
      assert.ok(messages.every((event) => event.server === "front"));
    } finally {
      await client.close();
      await server.close();
    }
  });
});
