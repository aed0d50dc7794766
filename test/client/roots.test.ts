// Roots from the client's side — spec 2025-11-25 client/roots: a static list (paths become
// file:// URIs) or a handler answers roots/list; setRoots() sends list_changed.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pathToFileUri, toRoots } from "../../src/client/roots.ts";
import { Client, type JsonRpcMessage, MemoryTransport, Peer } from "../../src/mod.ts";
import { coreCapabilities } from "../support/capabilities.ts";
import { everythingClient, untilListed } from "../support/everything.ts";
import { textOf } from "../support/everything-http.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

function testServer(): { clientEnd: MemoryTransport; peer: Peer; notifications: string[] } {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const peer = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  const notifications: string[] = [];
  serverEnd.onmessage = (message: JsonRpcMessage) => {
    if ("method" in message && !("id" in message)) notifications.push(message.method);
    peer.receive(message);
  };
  peer.setRequestHandler("initialize", () => ({
    protocolVersion: "2025-11-25",
    capabilities: {},
    serverInfo: { name: "in-process", version: "0.0.1" },
  }));
  void serverEnd.start();
  return { clientEnd, peer, notifications };
}

describe("roots", () => {
  test("absolute paths become file:// URIs; relative paths and other schemes are refused", () => {
    assert.equal(pathToFileUri("/home/me/my project"), "file:///home/me/my%20project");
    assert.equal(pathToFileUri("C:\\src\\app"), "file:///C:/src/app");
    assert.deepEqual(toRoots(["/srv", { uri: "/tmp/x", name: "tmp" }, { uri: "file:///a" }]), [
      { uri: "file:///srv" },
      { uri: "file:///tmp/x", name: "tmp" },
      { uri: "file:///a" },
    ]);
    assert.throws(() => toRoots(["relative/dir"]), /not an absolute path/);
    assert.throws(() => new Client(CLIENT_INFO, { roots: ["./here"] }), /not an absolute path/);
  });

  test("a static list declares roots.listChanged and answers roots/list; setRoots() sends list_changed", async () => {
    const server = testServer();
    const client = new Client(CLIENT_INFO, { roots: [{ uri: "/work/a", name: "a" }] });
    assert.deepEqual(coreCapabilities(client.capabilities), { roots: { listChanged: true } });
    await client.connect(server.clientEnd);
    try {
      assert.deepEqual(await server.peer.request("roots/list"), { roots: [{ uri: "file:///work/a", name: "a" }] });
      await client.setRoots(["/work/b"]);
      await client.ping();
      assert.ok(server.notifications.includes("notifications/roots/list_changed"));
      assert.deepEqual(await server.peer.request("roots/list"), { roots: [{ uri: "file:///work/b" }] });
    } finally {
      await client.close();
    }
  });

  test("a roots handler answers roots/list; without roots roots/list is method-not-found and setRoots() throws", async () => {
    const server = testServer();
    const client = new Client(CLIENT_INFO, { handlers: { roots: () => [{ uri: "/dyn" }] } });
    await client.connect(server.clientEnd);
    assert.deepEqual(await server.peer.request("roots/list"), { roots: [{ uri: "file:///dyn" }] });
    await client.close();

    const bare = testServer();
    const none = new Client(CLIENT_INFO);
    await none.connect(bare.clientEnd);
    await assert.rejects(bare.peer.request("roots/list"), (error: { rpcCode?: number }) => error.rpcCode === -32601);
    await assert.rejects(none.setRoots(["/x"]), /did not declare roots/);
    await none.close();
  });
});

describe("roots against server-everything over stdio", () => {
  const client = everythingClient({ roots: [{ uri: "/projects/first", name: "first" }] });

  test("get-roots-list shows our roots, and the new ones after setRoots()", async () => {
    await untilListed(client, "get-roots-list");
    const first = textOf((await client.callTool("get-roots-list")).content);
    assert.match(first, /1\. first\n\s+URI: file:\/\/\/projects\/first/);
    await client.setRoots([{ uri: "/projects/second", name: "second" }]);
    // The server asks roots/list again when it sees list_changed; poll until it has.
    let latest = "";
    for (let attempt = 0; attempt < 50 && !/1\. second/.test(latest); attempt++) {
      latest = textOf((await client.callTool("get-roots-list")).content);
      if (!/1\. second/.test(latest)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(latest, /1\. second\n\s+URI: file:\/\/\/projects\/second/);
  });
});
