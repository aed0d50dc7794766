// HostSession.request: a request to the host tied to none of its requests (roots/list right after
// initialize), on the handshake era only — over a memory pair with our own Client and a raw host,
// and over the HTTP front, where it goes on the session's GET stream and fails at once when the
// host has none open (spec 2025-11-25 basic/transports, "Listening for Messages from the Server";
// basic/lifecycle: nothing but pings and logging before notifications/initialized).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import type { Params } from "../../src/jsonrpc/peer.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { ServerError } from "../../src/server/errors.ts";
import { httpFront } from "../../src/server/http-front.ts";
import { Server } from "../../src/server/server.ts";
import type { HostSession } from "../../src/server/server-handlers.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/streamable-http.ts";
import { demoHandlers, demoWithClient, demoWithRawHost, emptyLog, until } from "./demo-server.ts";

const ROOTS = [{ uri: "file:///work/project", name: "project" }];

function only(server: Server): HostSession {
  const sessions = [...server.sessions.values()];
  assert.equal(sessions.length, 1, "one session");
  return sessions[0]!;
}

async function rejectsWith(promise: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ServerError, String(error));
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

describe("HostSession.request over a memory pair", () => {
  test("asks a handshake-era host that declared roots, with no request of its in flight", async () => {
    let asked = 0;
    const { server, client } = await demoWithClient({
      protocol: "legacy",
      handlers: {
        roots: () => {
          asked++;
          return Promise.resolve(ROOTS);
        },
      },
    });
    try {
      const answer = await only(server).request!("roots/list", undefined, { timeoutMs: 5000 });
      assert.deepEqual(answer.roots, ROOTS);
      assert.equal(asked, 1);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("refuses what the host did not declare (missing-capability) and a 2026-07-28 connection (wrong-era)", async () => {
    const legacy = await demoWithClient({ protocol: "legacy" });
    try {
      await rejectsWith(only(legacy.server).request!("roots/list"), "missing-capability", /did not declare the "roots" capability/);
    } finally {
      await legacy.client.close();
      await legacy.server.close();
    }
    const modern = await demoWithClient({ protocol: "modern", roots: ROOTS });
    try {
      await modern.client.listTools();
      await rejectsWith(only(modern.server).request!("roots/list"), "wrong-era", /2026-07-28 connection has no session to ask/);
    } finally {
      await modern.client.close();
      await modern.server.close();
    }
  });

  test("waits for notifications/initialized before it sends; a session that ends first fails it", async () => {
    const { server, host } = await demoWithRawHost();
    host.peer.setRequestHandler("roots/list", () => ({ roots: ROOTS }) as Params);
    try {
      await host.peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "raw", version: "1" } });
      const pending = only(server).request!("roots/list", undefined, { timeoutMs: 5000 });
      await new Promise((resolve) => setTimeout(resolve, 30));
      assert.equal(host.received.some((message) => "method" in message && message.method === "roots/list"), false, "nothing sent before initialized");
      await host.sendRaw({ jsonrpc: "2.0", method: "notifications/initialized" });
      assert.deepEqual((await pending).roots, ROOTS);
    } finally {
      await server.close();
    }

    const second = await demoWithRawHost();
    await second.host.peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: { roots: {} }, clientInfo: { name: "raw", version: "1" } });
    const never = only(second.server).request!("roots/list");
    await second.server.close();
    await rejectsWith(never, "not-initialized", /session ended first/);
  });
});

describe("HostSession.request over the HTTP front", () => {
  async function front() {
    const server = new Server(demoHandlers(emptyLog()));
    const handler = httpFront(server);
    const listener = await runtime.listenHttp({ port: 0 }, handler);
    const url = `http://127.0.0.1:${listener.port}/mcp`;
    return {
      server,
      url,
      close: async () => {
        await handler.close();
        await server.close();
        await listener.close();
      },
    };
  }

  test("goes on the session's GET stream to our own Client", async () => {
    const target = await front();
    const client = new Client({ name: "http-host", version: "1" }, { roots: ROOTS });
    try {
      await client.connect(new StreamableHttpTransport({ url: target.url }), { protocol: "legacy" });
      const session = only(target.server);
      // The Client opens its GET stream once its notifications/initialized is answered: a bounded retry until it is.
      let answer: Params | undefined;
      for (let attempt = 0; answer === undefined; attempt++) {
        try {
          answer = await session.request!("roots/list", undefined, { timeoutMs: 5000 });
        } catch (error) {
          if (attempt >= 200 || !/no GET stream/.test(String(error))) throw error;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      assert.deepEqual(answer.roots, ROOTS);
    } finally {
      await client.close();
      await target.close();
    }
  });

  test("fails at once, saying why, when the host has no GET stream open", async () => {
    const target = await front();
    const client = new Client({ name: "http-host", version: "1" }, { roots: ROOTS });
    try {
      await client.connect(new StreamableHttpTransport({ url: target.url, listen: false }), { protocol: "legacy" });
      const session = only(target.server);
      await until(() => (session.host !== undefined), "the session's handshake");
      // The request timeout is far beyond the test's: it must not be what ends the request.
      await assert.rejects(session.request!("roots/list", undefined, { timeoutMs: 600_000 }), /no GET stream open/);
    } finally {
      await client.close();
      await target.close();
    }
  });
});
