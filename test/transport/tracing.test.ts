// TracingTransport: sees every message both ways and changes nothing, hooks included.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client, type ClientTransport, type JsonRpcMessage, MemoryTransport, Peer, TracingTransport } from "../../src/mod.ts";

describe("TracingTransport", () => {
  test("traces every message in both directions of a real handshake", async () => {
    const [clientEnd, serverEnd] = MemoryTransport.pair();
    const server = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
    serverEnd.onmessage = (message) => server.receive(message);
    server.setRequestHandler("initialize", () => ({
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "traced", version: "1" },
    }));
    await serverEnd.start();
    const seen: [string, string][] = [];
    const traced = new TracingTransport(clientEnd, (direction, message: JsonRpcMessage) => {
      seen.push([direction, "method" in message ? message.method : `response ${String(message.id)}`]);
    });
    const client = new Client({ name: "t", version: "1" }, { protocol: "legacy" }); // the handshake era's exact sequence
    await client.connect(traced);
    await client.ping();
    await client.close();
    assert.deepEqual(seen, [
      ["send", "initialize"],
      ["receive", "response 1"],
      ["send", "notifications/initialized"],
      ["send", "ping"],
      ["receive", "response 2"],
    ]);
  });

  test("passes setProtocolVersion, onsessionexpired (set, then cleared), sendsHeaders and each send's headers through to the inner transport", async () => {
    const versions: (string | undefined)[] = [];
    const sent: (Readonly<Record<string, string>> | undefined)[] = [];
    const inner: ClientTransport = {
      description: "inner",
      start: () => Promise.resolve(),
      send: (_message, options) => {
        sent.push(options?.headers);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
      setProtocolVersion: (version) => versions.push(version),
      sendsHeaders: true,
    };
    const traced = new TracingTransport(inner, () => {});
    traced.setProtocolVersion("2025-06-18");
    assert.deepEqual(versions, ["2025-06-18"]);
    // The transport is told the headers with each send; it has no hook for the client's tool list.
    assert.equal(traced.sendsHeaders, true);
    assert.equal("setToolSchemas" in traced, false);
    await traced.start();
    await traced.send({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { headers: { "Mcp-Method": "tools/list" } });
    assert.deepEqual(sent, [{ "Mcp-Method": "tools/list" }]);
    assert.equal(new TracingTransport({ ...inner, sendsHeaders: false }, () => {}).sendsHeaders, false);
    await traced.close();
    let renewed = 0;
    traced.onsessionexpired = () => {
      renewed++;
      return Promise.resolve();
    };
    await inner.onsessionexpired?.();
    assert.equal(renewed, 1);
    traced.onsessionexpired = undefined;
    assert.equal(inner.onsessionexpired, undefined);
  });
});
