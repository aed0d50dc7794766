// The Client's era cache (the eraCache option) — spec 2026-07-28 basic/versioning ("Backward
// Compatibility"): clients SHOULD cache the era of a server and MAY persist it, "re-probing if
// the cached assumption later fails". Real child processes for stdio; an in-process modern
// server for a remembered era that no longer holds.

import assert from "node:assert/strict";
import process from "node:process";
import { describe, test } from "node:test";
import { eraCacheKey } from "../../src/client/era-cache.ts";
import {
  Client,
  type ClientTransport,
  type EraCache,
  MemoryEraCache,
  MemoryTransport,
  Peer,
  type ProtocolEra,
  RpcError,
  StdioTransport,
} from "../../src/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { methodLog } from "../support/method-log.ts";

const FIXTURE = fixturePath("initialize-first-server.mjs");
const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

/** An EraCache that records what it was asked. */
class RecordingCache implements EraCache {
  readonly calls: string[] = [];
  readonly #inner = new MemoryEraCache();
  get(key: string): ProtocolEra | undefined {
    this.calls.push("get");
    return this.#inner.get(key);
  }
  set(key: string, era: ProtocolEra): void {
    this.calls.push(`set ${era}`);
    this.#inner.set(key, era);
  }
  forget(key: string): void {
    this.calls.push("forget");
    this.#inner.forget(key);
  }
}

/** The key the era cache knows the fixture by (Client.connect's serverKey). */
const SERVER_KEY = eraCacheKey({ command: "node", args: [FIXTURE] });

async function connectedEra(transport: ClientTransport | (() => ClientTransport), options: ConstructorParameters<typeof Client>[1]): Promise<Client> {
  const client = new Client(CLIENT_INFO, options);
  await client.connect(transport, { serverKey: SERVER_KEY });
  return client;
}

describe("the era cache of a Client", () => {
  test("a server remembered as legacy is not probed: the second connect sends initialize first", async () => {
    const log = methodLog("mcpwire-era-cache-");
    const eraCache = new RecordingCache();
    const transport = () => new StdioTransport({ command: "node", args: [FIXTURE, "--log", log.path] });
    try {
      const first = await connectedEra(transport, { eraCache });
      assert.equal(first.era, "legacy");
      await first.close();
      assert.deepEqual(log.methods(), ["server/discover", "initialize", "notifications/initialized"]);

      const second = await connectedEra(transport, { eraCache });
      assert.equal(second.era, "legacy");
      assert.deepEqual((await second.listTools()).map((tool) => tool.name), ["echo"]);
      await second.close();
      assert.deepEqual(log.methods().slice(3), ["initialize", "notifications/initialized", "tools/list"]);
      assert.deepEqual(eraCache.calls, ["get", "set legacy", "get"]);
    } finally {
      log.remove();
    }
  });

  test("a server that ignores the probe costs the discover wait once", async () => {
    const log = methodLog("mcpwire-era-cache-");
    const eraCache = new MemoryEraCache();
    const transport = () => new StdioTransport({ command: "node", args: [FIXTURE, "--silent", "--log", log.path] });
    try {
      const first = await connectedEra(transport, { eraCache, discoverTimeoutMs: 200 });
      await first.close();
      // The probe timed out and was cancelled (spec 2025-11-25 basic/utilities/cancellation).
      assert.deepEqual(log.methods(), ["server/discover", "notifications/cancelled", "initialize", "notifications/initialized"]);
      // The wait would be a minute: only a connect that skips the probe finishes.
      const second = await connectedEra(transport, { eraCache, discoverTimeoutMs: 60_000 });
      assert.equal(second.era, "legacy");
      await second.close();
      assert.deepEqual(log.methods().slice(4), ["initialize", "notifications/initialized"]);
    } finally {
      log.remove();
    }
  });

  test("a remembered legacy era that fails (initialize refused by a modern server) is forgotten and the era found afresh", async () => {
    const [clientEnd, serverEnd] = MemoryTransport.pair();
    const server = new Peer({ name: "modern server", send: (message) => serverEnd.send(message) });
    const received: string[] = [];
    serverEnd.onmessage = (message) => {
      if ("method" in message) received.push(message.method);
      server.receive(message);
    };
    serverEnd.onclose = (details) => server.close(details);
    server.setRequestHandler("initialize", () => {
      throw new RpcError("Method not found: initialize (this server speaks 2026-07-28)", -32601);
    });
    server.setRequestHandler("server/discover", () => ({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "1.0.0" } },
    }));
    void serverEnd.start();
    const eraCache = new RecordingCache();
    eraCache.set("in-process modern server", "legacy");
    eraCache.calls.length = 0;
    const problems: string[] = [];
    const client = new Client(CLIENT_INFO, { eraCache, listen: false });
    client.on("problem", ({ message }) => problems.push(message));
    try {
      await client.connect(clientEnd, { serverKey: "in-process modern server" });
      assert.equal(client.state, "ready");
      assert.equal(client.era, "modern");
      assert.equal(client.serverInfo?.name, "modern");
      assert.deepEqual(received, ["initialize", "server/discover"]);
      assert.deepEqual(eraCache.calls, ["get", "forget", "set modern"]);
      assert.ok(problems.some((message) => /the legacy era remembered for it failed/.test(message)), problems.join("\n"));
    } finally {
      await client.close();
    }
  });

  test("eraCacheKey names a stdio server by its directory and command line, an HTTP one by its URL's origin and path", () => {
    // The keys Transport.serverKey gave before: entries already in a cache file stay valid.
    assert.equal(
      eraCacheKey({ command: "node", args: ["server.js", "--flag"], cwd: "/srv" }),
      JSON.stringify(["stdio", "/srv", "node", "server.js", "--flag"]),
    );
    assert.equal(eraCacheKey({ command: "node" }), eraCacheKey({ command: "node", args: [], cwd: process.cwd() }), "default: this process's directory");
    // The query (it may hold a key) and a user:password@ stay out.
    assert.equal(eraCacheKey({ url: "https://user:secret@mcp.example.com/mcp?key=abc" }), JSON.stringify(["http", "https://mcp.example.com/mcp"]));
  });

  test("protocol legacy or modern neither reads nor writes the cache", async () => {
    const log = methodLog("mcpwire-era-cache-");
    const eraCache = new RecordingCache();
    try {
      const client = await connectedEra(new StdioTransport({ command: "node", args: [FIXTURE, "--log", log.path] }), { eraCache, protocol: "legacy" });
      await client.close();
      assert.deepEqual(eraCache.calls, []);
      assert.deepEqual(log.methods(), ["initialize", "notifications/initialized"]);
    } finally {
      log.remove();
    }
  });
});
