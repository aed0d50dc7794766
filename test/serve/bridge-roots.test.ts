// A backend that asks its host something while no host request is in flight — server-everything
// asks roots/list as soon as it is initialized when the client declares roots, and again on
// notifications/roots/list_changed — reaches a handshake-era host through the bridge: its
// session is asked (HostSession.request), over a memory pair and over the HTTP front (there on
// the session's GET stream) — spec 2025-11-25 client/roots, basic/transports ("Listening for
// Messages from the Server"). Before, the backend was answered -32603.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client } from "../../src/mod.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { createBridge } from "../../src/serve/mod.ts";
import { httpFront } from "../../src/server/http-front.ts";
import { Server } from "../../src/server/server.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/streamable-http.ts";
import type { Transport } from "../../src/transport/transport.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };
const ROOTS = [{ uri: "file:///work/project", name: "project" }];

/** A handshake-era host declaring roots, counting how often it is asked; no request of its is made. */
async function rootsAsked(front: (server: Server) => Promise<{ transport: Transport; close: () => Promise<void> }>): Promise<number> {
  const bridge = createBridge({ config: configOf(stdioServerConfig("everything", [EVERYTHING, "stdio"])), manager: FAST });
  const server = new Server(bridge.handlers);
  let asked = 0;
  const client = new Client({ name: "roots-host", version: "1.0.0" }, {
    handlers: {
      roots: () => {
        asked++;
        return Promise.resolve(ROOTS);
      },
    },
  });
  const { transport: wire, close } = await front(server);
  try {
    await hangGuard(client.connect(wire, { protocol: "legacy" }), 30_000, "the host's connect");
    // Asked at the backend's initialize, unless the host's GET stream was not open yet (then the
    // backend got a clear error); a roots list_changed asks again: a bounded retry until asked.
    for (let attempt = 0; asked === 0 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (asked === 0 && attempt % 10 === 9) await client.setRoots(ROOTS);
    }
    return asked;
  } finally {
    await client.close();
    await close();
    await server.close();
    await bridge.close();
  }
}

describe("a backend's roots/list with no host request in flight", () => {
  it("reaches a handshake-era host over a memory pair", async () => {
    const asked = await rootsAsked(async (server) => {
      const [hostEnd, serverEnd] = MemoryTransport.pair();
      await server.connect(serverEnd);
      return { transport: hostEnd, close: () => Promise.resolve() };
    });
    assert.ok(asked >= 1, "the host was asked roots/list without calling anything");
  });

  it("reaches a handshake-era host over the HTTP front, on its GET stream", async () => {
    const asked = await rootsAsked(async (server) => {
      const front = httpFront(server);
      const listener = await runtime.listenHttp({ port: 0 }, front);
      return {
        transport: new StreamableHttpTransport({ url: `http://127.0.0.1:${listener.port}/mcp` }),
        close: async () => {
          await front.close();
          await listener.close();
        },
      };
    });
    assert.ok(asked >= 1, "the host was asked roots/list without calling anything");
  });
});
