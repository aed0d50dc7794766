// What a server sends the Client unasked, surfacing as events — spec 2025-11-25
// server/tools, server/resources, server/prompts ("List Changed Notification"),
// server/resources ("Subscriptions"), server/utilities/logging — and the shape checks of
// the typed resource, prompt, completion and logging methods, against an in-process server.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ClientEventType } from "../../src/client/client-events.ts";
import { Client, type Params, ProtocolError, RpcError } from "../../src/mod.ts";
import { nextEvent } from "../support/events.ts";
import { type InProcessServer, inProcessServer } from "../support/in-process-server.ts";
import { rejection } from "../support/rejection.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

describe("server notifications surface as client events", () => {
  let server: InProcessServer;
  let client: Client;

  before(async () => {
    server = inProcessServer({ tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: {}, logging: {} }, {});
    client = new Client(CLIENT_INFO, { name: "in-process" });
    await client.connect(server.clientEnd);
  });

  after(() => client.close());

  const listChanged: [string, ClientEventType][] = [
    ["notifications/tools/list_changed", "toolslistchanged"],
    ["notifications/resources/list_changed", "resourceslistchanged"],
    ["notifications/prompts/list_changed", "promptslistchanged"],
  ];
  for (const [method, type] of listChanged) {
    test(`${method} emits "${type}"`, async () => {
      const event = nextEvent(client, type);
      await server.peer.notify(method);
      assert.equal(await event, undefined);
    });
  }

  test('notifications/message emits "log" with level, logger and data', async () => {
    const event = nextEvent(client, "log");
    await server.peer.notify("notifications/message", { level: "warning", logger: "db", data: { rows: 3, slow: true } });
    assert.deepEqual(await event, { level: "warning", logger: "db", data: { rows: 3, slow: true } });
  });

  test('notifications/message without a logger emits "log" without one', async () => {
    const event = nextEvent(client, "log");
    await server.peer.notify("notifications/message", { level: "info", data: "plain text" });
    assert.deepEqual(await event, { level: "info", data: "plain text" });
  });

  test('notifications/resources/updated emits "resourceupdated" with the uri', async () => {
    const event = nextEvent(client, "resourceupdated");
    await server.peer.notify("notifications/resources/updated", { uri: "test://watched" });
    assert.deepEqual(await event, { uri: "test://watched" });
  });

  test('a malformed notification is reported as a "problem", not emitted, and the connection survives', async () => {
    const logs: unknown[] = [];
    const off = client.on("log", (log) => logs.push(log));
    try {
      const noLevel = nextEvent(client, "problem");
      await server.peer.notify("notifications/message", { data: "no level" });
      assert.match((await noLevel).message, /notifications\/message without a "level"; ignored/);
      const noUri = nextEvent(client, "problem");
      await server.peer.notify("notifications/resources/updated", {});
      assert.match((await noUri).message, /notifications\/resources\/updated without a "uri"; ignored/);
      assert.deepEqual(logs, []);
      assert.equal(client.state, "ready");
      await client.ping();
    } finally {
      off();
    }
  });

  test("an unknown notification is ignored", async () => {
    await server.peer.notify("notifications/something_new", { x: 1 });
    await client.ping();
    assert.equal(client.state, "ready");
  });

  test("a listener removed with the function on() returned hears nothing more", async () => {
    let heard = 0;
    const off = client.on("toolslistchanged", () => heard++);
    const first = nextEvent(client, "toolslistchanged");
    await server.peer.notify("notifications/tools/list_changed");
    await first;
    off();
    const second = nextEvent(client, "toolslistchanged");
    await server.peer.notify("notifications/tools/list_changed");
    await second;
    assert.equal(heard, 1);
  });
});

describe("resources, prompts, completion and logging against an in-process server", () => {
  let server: InProcessServer;
  let client: Client;

  before(async () => {
    server = inProcessServer({ resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} }, {
      "resources/read": (params) => {
        if (params?.uri === "test://missing") throw new RpcError("Resource not found", -32002, { data: { uri: params.uri } });
        if (params?.uri === "test://bad") return { content: "not contents" };
        return { contents: [{ uri: params?.uri, mimeType: "text/plain", text: "hello" }] };
      },
      "resources/subscribe": () => ({}),
      "resources/unsubscribe": () => ({}),
      "prompts/get": (params) => ({
        messages: [{ role: "user", content: { type: "text", text: `args ${JSON.stringify(params?.arguments)}` } }],
      }),
      "completion/complete": (params) => ({ completion: { values: [`${(params?.argument as Params).value}!`], hasMore: false } }),
      "logging/setLevel": () => ({}),
    });
    client = new Client(CLIENT_INFO, { name: "in-process" });
    await client.connect(server.clientEnd);
  });

  after(() => client.close());

  function lastParams(method: string): Params | undefined {
    const message = server.received.filter((m) => "method" in m && m.method === method).at(-1);
    return message && "params" in message ? message.params : undefined;
  }

  test("readResource returns the contents; a missing resource is RpcError -32002", async () => {
    const result = await client.readResource("test://here");
    assert.deepEqual(result.contents, [{ uri: "test://here", mimeType: "text/plain", text: "hello" }]);
    const error = await rejection(client.readResource("test://missing"));
    assert.ok(error instanceof RpcError);
    assert.equal(error.rpcCode, -32002);
  });

  test("a resources/read result without a contents array is a ProtocolError naming the uri", async () => {
    const error = await rejection(client.readResource("test://bad"));
    assert.ok(error instanceof ProtocolError);
    assert.match(error.message, /resources\/read "test:\/\/bad" returned no "contents" array/);
  });

  test("subscribeResource and unsubscribeResource send the uri", async () => {
    await client.subscribeResource("test://watched");
    assert.deepEqual(lastParams("resources/subscribe"), { uri: "test://watched" });
    await client.unsubscribeResource("test://watched");
    assert.deepEqual(lastParams("resources/unsubscribe"), { uri: "test://watched" });
  });

  test("getPrompt sends the name and string arguments and returns the messages", async () => {
    const result = await client.getPrompt("greet", { who: "world" });
    assert.deepEqual(lastParams("prompts/get"), { name: "greet", arguments: { who: "world" } });
    assert.equal(result.messages[0]?.role, "user");
  });

  test("complete sends ref, argument and context, and returns completion.values", async () => {
    const completion = await client.complete(
      { type: "ref/prompt", name: "greet" },
      { name: "who", value: "wor" },
      { arguments: { lang: "en" } },
    );
    assert.deepEqual(completion, { values: ["wor!"], hasMore: false });
    assert.deepEqual(lastParams("completion/complete"), {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "who", value: "wor" },
      context: { arguments: { lang: "en" } },
    });
  });

  test("setLoggingLevel sends logging/setLevel with the level", async () => {
    await client.setLoggingLevel("debug");
    assert.deepEqual(lastParams("logging/setLevel"), { level: "debug" });
  });
});
