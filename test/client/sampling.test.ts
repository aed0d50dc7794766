// Sampling from the client's side — spec 2025-11-25 client/sampling: the policy around the
// handler (token cap, rate limit, model allowlist, timeout, tools only when declared,
// includeContext ignored) and a user rejection answered with -1.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ClientOptions } from "../../src/client/client.ts";
import { SamplingRejectedError } from "../../src/client/sampling.ts";
import { Client, type CreateMessageRequest, type JsonRpcMessage, MemoryTransport, type Params, Peer, tasksExtension } from "../../src/mod.ts";
import { coreCapabilities } from "../support/capabilities.ts";
import { everythingClient, untilListed } from "../support/everything.ts";
import { textOf } from "../support/everything-http.ts";
import { rpcRejection } from "../support/rejection.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const ANSWER = { role: "assistant" as const, content: { type: "text" as const, text: "42" }, model: "test-model", stopReason: "endTurn" };
const REQUEST = { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 500 };

async function connected(options: ClientOptions): Promise<{ client: Client; peer: Peer; init: () => Params | undefined }> {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const peer = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  let init: Params | undefined;
  serverEnd.onmessage = (message: JsonRpcMessage) => peer.receive(message);
  peer.setRequestHandler("initialize", (params) => {
    init = params;
    return { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "in-process", version: "0.0.1" } };
  });
  void serverEnd.start();
  const client = new Client(CLIENT_INFO, { name: "in-process", ...options });
  await client.connect(clientEnd);
  return { client, peer, init: () => init };
}

describe("sampling policy against an in-process server", () => {
  test("a handler declares sampling; sampling.tools only when the policy allows tools; none without a handler", async () => {
    const { client, init } = await connected({ handlers: { sampling: async () => ANSWER } });
    assert.deepEqual(coreCapabilities(init()?.capabilities), { sampling: {} });
    await client.close();
    // With the tasks extension the client also runs the request as a task (spec 2025-11-25 basic/utilities/tasks).
    const tasks = { list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } };
    const withTasks = new Client(CLIENT_INFO, { handlers: { sampling: async () => ANSWER }, sampling: { tools: true }, use: [tasksExtension] });
    assert.deepEqual(coreCapabilities(withTasks.capabilities), { sampling: { tools: {} }, tasks });
    const bare = await connected({});
    const error = await rpcRejection(bare.peer.request("sampling/createMessage", REQUEST));
    assert.equal(error.rpcCode, -32601);
    await bare.client.close();
  });

  test("maxTokens is capped and includeContext removed before the handler sees the request", async () => {
    const seen: CreateMessageRequest[] = [];
    const { client, peer } = await connected({
      handlers: { sampling: async (request) => (seen.push(request), ANSWER) },
      sampling: { maxTokens: 100 },
    });
    try {
      const result = await peer.request("sampling/createMessage", { ...REQUEST, includeContext: "allServers", systemPrompt: "be brief" });
      assert.deepEqual(result, ANSWER);
      assert.equal(seen[0]?.maxTokens, 100);
      assert.equal(seen[0]?.includeContext, undefined);
      assert.equal(seen[0]?.systemPrompt, "be brief");
    } finally {
      await client.close();
    }
  });

  test("tools without sampling.tools get -32602 and the handler is not called; with it they pass", async () => {
    let calls = 0;
    const withTools = { ...REQUEST, tools: [{ name: "t", inputSchema: { type: "object" } }], toolChoice: { mode: "auto" } };
    const { client, peer } = await connected({ handlers: { sampling: async () => (calls++, ANSWER) } });
    const error = await rpcRejection(peer.request("sampling/createMessage", withTools));
    assert.equal(error.rpcCode, -32602);
    assert.match(error.message, /did not declare the sampling.tools capability/);
    assert.equal(calls, 0);
    await client.close();
    const allowed = await connected({ handlers: { sampling: async () => (calls++, ANSWER) }, sampling: { tools: true } });
    assert.deepEqual(await allowed.peer.request("sampling/createMessage", withTools), ANSWER);
    assert.equal(calls, 1);
    await allowed.client.close();
  });

  test("a user rejection is -1; the rate limit answers -1 once the minute's budget is spent", async () => {
    let reject = true;
    const { client, peer } = await connected({
      handlers: {
        sampling: async () => {
          if (reject) throw new SamplingRejectedError();
          return ANSWER;
        },
      },
      sampling: { requestsPerMinute: 2 },
    });
    try {
      const rejected = await rpcRejection(peer.request("sampling/createMessage", REQUEST));
      assert.equal(rejected.rpcCode, -1);
      assert.equal(rejected.message, "User rejected sampling request");
      reject = false;
      assert.deepEqual(await peer.request("sampling/createMessage", REQUEST), ANSWER);
      const limited = await rpcRejection(peer.request("sampling/createMessage", REQUEST));
      assert.equal(limited.rpcCode, -1);
      assert.match(
        limited.message,
        /server "in-process": sampling\/createMessage: rejected by the client's rate limit \(2 sampling requests per minute\); retry in \d+ s/,
      );
    } finally {
      await client.close();
    }
  });

  test("a model outside the allowlist, a malformed result and a slow handler are not sent", async () => {
    let answer: unknown = { ...ANSWER, model: "other-model" };
    let allowed: readonly string[] | undefined;
    const { client, peer } = await connected({
      handlers: {
        sampling: async (_request, context) => {
          allowed = context.allowedModels;
          if (answer === "hang") await new Promise((resolve) => setTimeout(resolve, 1000));
          return answer as typeof ANSWER;
        },
      },
      sampling: { models: ["test-model"], timeoutMs: 100 },
    });
    try {
      const wrongModel = await rpcRejection(peer.request("sampling/createMessage", REQUEST));
      assert.match(wrongModel.message, /model "other-model", which is not in the allowed models \(test-model\)/);
      assert.deepEqual(allowed, ["test-model"]);
      answer = { role: "robot", content: {}, model: "test-model" };
      assert.match((await rpcRejection(peer.request("sampling/createMessage", REQUEST))).message, /returned role "robot"/);
      answer = "hang";
      const slow = await rpcRejection(peer.request("sampling/createMessage", REQUEST));
      assert.match(slow.message, /did not answer within 100 ms/);
    } finally {
      await client.close();
    }
  });
});

describe("sampling against server-everything over stdio", () => {
  const seen: CreateMessageRequest[] = [];
  const client = everythingClient({
    handlers: {
      sampling: async (request) => {
        seen.push(request);
        return { role: "assistant", content: { type: "text", text: `echo ${request.maxTokens}` }, model: "deterministic", stopReason: "endTurn" };
      },
    },
    sampling: { maxTokens: 50 },
  });

  test("trigger-sampling-request reaches the handler with the cap applied and returns its answer", async () => {
    await untilListed(client, "trigger-sampling-request");
    const text = textOf((await client.callTool("trigger-sampling-request", { prompt: "What is 6 x 7?", maxTokens: 200 })).content);
    assert.match(text, /"text": "echo 50"/);
    assert.match(text, /"model": "deterministic"/);
    assert.equal(seen[0]?.systemPrompt, "You are a helpful test server.");
    assert.match(JSON.stringify(seen[0]?.messages), /What is 6 x 7\?/);
  });
});
