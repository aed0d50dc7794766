// What the server half tells its transport about each message it sends: the host's request it
// belongs to (SendOptions.relatedRequestId) — an answer, a progress or log notification, a
// request to the host, a listen stream's messages — and nothing for what belongs to no request
// (a session's own notifications). A transport with a stream per request (Streamable HTTP) sends
// each on that stream: spec 2025-11-25 basic/transports ("Sending Messages to the Server" 6);
// spec 2026-07-28 basic/transports/streamable-http, basic/patterns/subscriptions.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import type { CloseDetails } from "../../src/jsonrpc/errors.ts";
import type { JsonRpcMessage, RequestId } from "../../src/jsonrpc/messages.ts";
import type { SendOptions } from "../../src/jsonrpc/peer.ts";
import { Server } from "../../src/server/server.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import type { Transport } from "../../src/transport/transport.ts";
import { demoHandlers, emptyLog, modernMeta, until } from "./demo-server.ts";

/** A transport that records what is sent through it, with its SendOptions, and passes everything on. */
class RecordingTransport implements Transport {
  readonly sent: { message: JsonRpcMessage; related: RequestId | undefined }[] = [];
  readonly #inner: Transport;
  constructor(inner: Transport) {
    this.#inner = inner;
  }
  get description(): string {
    return this.#inner.description;
  }
  set onmessage(handler: ((message: JsonRpcMessage) => void) | undefined) {
    this.#inner.onmessage = handler;
  }
  set onclose(handler: ((details: CloseDetails) => void) | undefined) {
    this.#inner.onclose = handler;
  }
  set onerror(handler: ((error: Error) => void) | undefined) {
    this.#inner.onerror = handler;
  }
  start(): Promise<void> {
    return this.#inner.start();
  }
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.sent.push({ message, related: options?.relatedRequestId });
    return this.#inner.send(message, options);
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
}

function describeSent(entry: { message: JsonRpcMessage; related: RequestId | undefined }): string {
  const what = "method" in entry.message ? entry.message.method : `answer to ${String(entry.message.id)}`;
  return `${what} → ${entry.related === undefined ? "connection" : `request ${String(entry.related)}`}`;
}

describe("relatedRequestId", () => {
  test("handshake era: answers, progress, log messages and requests to the host name their request; a session's notification none", async () => {
    const server = new Server(demoHandlers(emptyLog()));
    const [clientEnd, serverEnd] = MemoryTransport.pair();
    const recording = new RecordingTransport(serverEnd);
    await server.connect(recording);
    const client = new Client({ name: "host", version: "1" }, {
      protocol: "legacy",
      handlers: { sampling: async () => ({ role: "assistant", content: { type: "text", text: "ok" }, model: "m" }) },
    });
    await client.connect(clientEnd);
    try {
      await client.setLoggingLevel("error");
      recording.sent.length = 0;
      await client.callTool("log", {});
      await client.callTool("ask", { method: "sampling/createMessage", params: { messages: [], maxTokens: 3 } });
      await server.broadcast("notifications/tools/list_changed");
      const sent = recording.sent.map(describeSent);
      const [logCall, askCall] = [sent.findIndex((line) => line.startsWith("notifications/message")), sent.findIndex((line) => line.startsWith("sampling"))];
      const logId = /request (\d+)/.exec(sent[logCall]!)![1];
      const askId = /request (\d+)/.exec(sent[askCall]!)![1];
      assert.deepEqual(sent, [
        `notifications/message → request ${logId}`,
        `answer to ${logId} → request ${logId}`,
        `sampling/createMessage → request ${askId}`,
        `answer to ${askId} → request ${askId}`,
        "notifications/tools/list_changed → connection",
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("2026-07-28: a listen stream's acknowledgment and notifications name the listen request; progress its own", async () => {
    const server = new Server(demoHandlers(emptyLog()));
    const [hostEnd, serverEnd] = MemoryTransport.pair();
    const recording = new RecordingTransport(serverEnd);
    await server.connect(recording);
    const received: JsonRpcMessage[] = [];
    hostEnd.onmessage = (message) => received.push(message);
    await hostEnd.start();
    try {
      await hostEnd.send({
        jsonrpc: "2.0",
        id: "L",
        method: "subscriptions/listen",
        params: { _meta: modernMeta(), notifications: { toolsListChanged: true } },
      });
      await until(() => received.length === 1, "the acknowledgment");
      await server.broadcast("notifications/tools/list_changed");
      await hostEnd.send({ jsonrpc: "2.0", id: "W", method: "tools/call", params: { name: "wait", arguments: {}, _meta: modernMeta({ progressToken: "t" }) } });
      await until(() => received.length === 3, "the progress");
      assert.deepEqual(recording.sent.map(describeSent), [
        "notifications/subscriptions/acknowledged → request L",
        "notifications/tools/list_changed → request L",
        "notifications/progress → request W",
      ]);
      assert.deepEqual((received[2] as { params: unknown }).params, { progressToken: "t", progress: 1, total: 2, message: "waiting" });
    } finally {
      await server.close();
      await hostEnd.close();
    }
  });

  test("the cancel of a request to the host goes where the request went: tied to the host's request it was sent for", async () => {
    const server = new Server(demoHandlers(emptyLog()));
    const [clientEnd, serverEnd] = MemoryTransport.pair();
    const recording = new RecordingTransport(serverEnd);
    await server.connect(recording);
    let asked = false;
    const client = new Client({ name: "host", version: "1" }, {
      protocol: "legacy",
      handlers: {
        sampling: (_request, context) => {
          asked = true;
          return new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true }));
        },
      },
    });
    await client.connect(clientEnd);
    try {
      recording.sent.length = 0;
      const controller = new AbortController();
      const call = client.callTool("ask", { method: "sampling/createMessage", params: { messages: [], maxTokens: 3 } }, { signal: controller.signal });
      await until(() => asked, "the sampling request at the host");
      controller.abort();
      await assert.rejects(call);
      await until(() => recording.sent.some((entry) => "method" in entry.message && entry.message.method === "notifications/cancelled"), "the cancel");
      const sent = recording.sent.map(describeSent);
      const callId = /request (\d+)/.exec(sent[0]!)![1];
      assert.deepEqual(sent, [`sampling/createMessage → request ${callId}`, `notifications/cancelled → request ${callId}`]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
