// Log messages, progress oddities and subscriptions from the client's side — spec
// 2025-11-25 server/utilities/logging (messages before `initialized` are kept, bounded),
// basic/utilities/progress (non-increasing progress is reported), server/resources
// ("Subscriptions": only when the server declares subscribe).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CapabilityError, Client, type JsonRpcMessage, type LogMessage, MemoryTransport, type Params, Peer, type Progress } from "../../src/mod.ts";
import { everythingClient } from "../support/everything.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

/** A server that logs `early` messages before answering initialize. */
function chattyServer(early: number, capabilities: Params = { logging: {} }): { clientEnd: MemoryTransport; peer: Peer } {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const peer = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  serverEnd.onmessage = (message: JsonRpcMessage) => peer.receive(message);
  peer.setRequestHandler("initialize", async () => {
    for (let index = 0; index < early; index++) {
      await peer.notify("notifications/message", { level: "info", logger: "boot", data: `line ${index}` });
    }
    return { protocolVersion: "2025-11-25", capabilities, serverInfo: { name: "in-process", version: "0.0.1" } };
  });
  void serverEnd.start();
  return { clientEnd, peer };
}

describe("log messages", () => {
  test("messages sent before initialized reach a listener added after connect(), in order and with their shape", async () => {
    const server = chattyServer(3);
    const client = new Client(CLIENT_INFO);
    await client.connect(server.clientEnd);
    try {
      const seen: LogMessage[] = [];
      client.on("log", (message) => seen.push(message));
      assert.deepEqual(seen, [0, 1, 2].map((index) => ({ level: "info", logger: "boot", data: `line ${index}` })));
      await server.peer.notify("notifications/message", { level: "error", data: { live: true } });
      await client.ping();
      assert.deepEqual(seen.at(-1), { level: "error", data: { live: true } });
      assert.equal(seen.length, 4);
    } finally {
      await client.close();
    }
  });

  test("a listener added before connect() gets them live, and nothing twice", async () => {
    const server = chattyServer(2);
    const client = new Client(CLIENT_INFO);
    const seen: unknown[] = [];
    client.on("log", (message) => seen.push(message.data));
    await client.connect(server.clientEnd);
    client.on("log", () => assert.fail("the early messages were already delivered"));
    assert.deepEqual(seen, ["line 0", "line 1"]);
    await client.close();
  });

  test("a flood of 20000 early messages keeps only the last 1000 and reports how many were dropped", async () => {
    const server = chattyServer(20_000);
    const client = new Client(CLIENT_INFO, { name: "flood" });
    const problems: string[] = [];
    client.on("problem", ({ message }) => problems.push(message));
    await client.connect(server.clientEnd);
    try {
      const seen: unknown[] = [];
      client.on("log", (message) => seen.push(message.data));
      assert.equal(seen.length, 1000);
      assert.equal(seen[0], "line 19000");
      assert.equal(seen.at(-1), "line 19999");
      assert.ok(problems.some((problem) => /server "flood": 19000 log message\(s\) .* dropped; kept the last 1000/.test(problem)), problems.join("\n"));
    } finally {
      await client.close();
    }
  });
});

describe("progress and subscriptions", () => {
  test("progress that does not increase is still delivered and reported as a problem", async () => {
    const server = chattyServer(0, { tools: {} });
    server.peer.setRequestHandler("tools/call", async (params) => {
      const token = (params?._meta as Params).progressToken;
      for (const progress of [1, 3, 2]) await server.peer.notify("notifications/progress", { progressToken: token, progress, total: 3 });
      return { content: [] };
    });
    const client = new Client(CLIENT_INFO);
    const problems: string[] = [];
    client.on("problem", ({ message }) => problems.push(message));
    await client.connect(server.clientEnd);
    try {
      const updates: Progress[] = [];
      await client.callTool("slow", {}, { onProgress: (progress) => updates.push(progress) });
      assert.deepEqual(updates.map((update) => update.progress), [1, 3, 2]);
      assert.ok(problems.some((problem) => /did not increase \(3 then 2\)/.test(problem)), problems.join("\n"));
    } finally {
      await client.close();
    }
  });

  test("subscribeResource needs resources.subscribe: without it a CapabilityError, nothing sent", async () => {
    const server = chattyServer(0, { resources: {} });
    let subscribes = 0;
    server.peer.setRequestHandler("resources/subscribe", () => (subscribes++, {}));
    const client = new Client(CLIENT_INFO, { name: "nosub" });
    await client.connect(server.clientEnd);
    try {
      await assert.rejects(
        client.subscribeResource("test://x"),
        (error: unknown) =>
          error instanceof CapabilityError && error.capability === "resources.subscribe" &&
          /server "nosub" declares resources without "subscribe"/.test(error.message),
      );
      assert.equal(subscribes, 0);
    } finally {
      await client.close();
    }
  });
});

describe("logging against server-everything over stdio", () => {
  const client = everythingClient();

  test("toggle-simulated-logging at level debug sends a log message with level and data", async () => {
    await client.setLoggingLevel("debug");
    const logged = new Promise<LogMessage>((resolve) => {
      const off = client.on("log", (message) => (off(), resolve(message)));
    });
    await client.callTool("toggle-simulated-logging");
    const message = await logged;
    assert.equal(typeof message.level, "string");
    assert.ok(message.data !== undefined);
    await client.callTool("toggle-simulated-logging"); // off again
  });
});
