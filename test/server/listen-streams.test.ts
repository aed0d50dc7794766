// subscriptions/listen through the server half, with the spec's example messages: the
// acknowledgment first, then only the kinds and URIs a stream opted into, each tagged with its
// subscription id; a graceful answer when the server closes; the listen hook; our Client's own
// listen stream — spec 2026-07-28 basic/patterns/subscriptions.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import type { ListenFilter, ServerRequestContext } from "../../src/server/server-handlers.ts";
import { demoWithClient, demoWithRawHost, SERVER_INFO, until } from "./demo-server.ts";

const EXAMPLES = new URL("../fixtures/spec-examples/2026-07-28/", import.meta.url);
function example(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(path, EXAMPLES), "utf8")) as Record<string, unknown>;
}
const LISTEN = "SubscriptionsListenRequest/listen-for-list-changes.json";

function methods(messages: JsonRpcMessage[]): string[] {
  return messages.map((message) => ("method" in message ? message.method : `answer ${String(message.id)}`));
}

describe("subscriptions/listen", () => {
  test("the spec's example is acknowledged first, fed only what it asked for, and answered gracefully when the server closes", async () => {
    const { server, host } = await demoWithRawHost();
    await host.sendRaw(example(LISTEN));
    await until(() => host.received.length === 1, "the acknowledgment");
    assert.deepEqual(host.received[0], example("SubscriptionsAcknowledgedNotification/listen-acknowledged.json"));
    await server.broadcast("notifications/prompts/list_changed"); // not asked for
    await server.broadcast("notifications/tools/list_changed");
    await server.broadcast("notifications/resources/updated", { uri: "file:///project/other.json" }); // not this URI
    await server.broadcast("notifications/resources/updated", { uri: "file:///project/config.json" });
    await server.broadcast("notifications/message", { level: "error", data: "never on a listen stream" });
    await until(() => host.received.length === 3, "two notifications");
    assert.deepEqual(host.received[1], {
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
    });
    assert.deepEqual(host.received[2], {
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "file:///project/config.json", _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
    });
    await server.close();
    await until(() => host.received.length === 4, "the listen request's answer");
    const expected = example("SubscriptionsListenResultResponse/listen-closed-response.json") as { id: string; result: Record<string, unknown> };
    const answer = host.received[3] as { id: string; result: Record<string, unknown> };
    assert.equal(answer.id, expected.id);
    assert.equal(answer.result.resultType, "complete");
    assert.deepEqual(answer.result._meta, { ...(expected.result._meta as object), "io.modelcontextprotocol/serverInfo": SERVER_INFO });
  });

  test("the acknowledgment leaves out what the server does not declare, and what the listen hook takes away", async () => {
    let hooked: { filter: ListenFilter; context: ServerRequestContext } | undefined;
    const { server, host } = await demoWithRawHost({}, {
      listen: (filter, context) => {
        hooked = { filter, context };
        return { ...filter, resourcesListChanged: undefined };
      },
    });
    try {
      const request = example(LISTEN) as { params: { notifications: Record<string, unknown> } };
      request.params.notifications = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
      await host.sendRaw(request);
      await until(() => host.received.length === 1, "the acknowledgment");
      // The demo declares prompts without listChanged: not honoured.
      assert.deepEqual(hooked?.filter, { toolsListChanged: true, resourcesListChanged: true });
      assert.deepEqual((host.received[0] as { params: Record<string, unknown> }).params.notifications, { toolsListChanged: true });
      assert.equal(hooked!.context.host.era, "modern");
      const signal = hooked!.context.signal;
      assert.equal(signal.aborted, false);
      // spec: on stdio the host cancels a stream with notifications/cancelled: no answer follows.
      await host.sendRaw({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "listen-1" } });
      await until(() => signal.aborted, "the stream's signal aborted");
      await server.broadcast("notifications/tools/list_changed");
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(methods(host.received), ["notifications/subscriptions/acknowledged"]);
    } finally {
      await server.close();
    }
  });

  test("our Client's own listen stream hears a backend's list_changed through Server.broadcast", async () => {
    const { server, client } = await demoWithClient({ protocol: "modern", listen: true });
    try {
      let changed = 0;
      client.on("toolslistchanged", () => changed++);
      // The Client opens its stream after connect: broadcast until it is heard (bounded).
      await until(() => {
        void server.broadcast("notifications/tools/list_changed");
        return changed > 0;
      }, "the list change heard");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
