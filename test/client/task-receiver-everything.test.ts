// The client as a task receiver against the reference server — spec 2025-11-25
// basic/utilities/tasks ("Task-Augmented Sampling Request"): server-everything's
// trigger-sampling-request-async and trigger-elicitation-request-async send their request with
// `params.task`, poll the client's tasks/get and fetch tasks/result; over stdio and Streamable HTTP.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ClientOptions } from "../../src/client/client.ts";
import { RELATED_TASK_META } from "../../src/client/tasks/task-store.ts";
import { Client, type ClientTransport, type ElicitResult, StdioTransport, StreamableHttpTransport, tasksExtension, type TextContent } from "../../src/mod.ts";
import { type HttpServerProcess, startEverything } from "../fixtures/sse-servers.ts";
import { EVERYTHING } from "../support/everything.ts";
import { hangGuard } from "../support/hang-guard.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };
const ASYNC_TOOLS = ["trigger-elicitation-request-async", "trigger-sampling-request-async"];

function textOf(content: { type: string }[]): string {
  return content.filter((block): block is TextContent => block.type === "text").map((block) => block.text).join("\n");
}

/** server-everything registers the async tools after initialize, from the client's capabilities. */
async function toolNames(client: Client): Promise<string[]> {
  let names: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    names = (await client.listTools({ fresh: true })).map((tool) => tool.name);
    if (names.includes("trigger-sampling-request-async") || names.includes("trigger-sampling-request")) {
      // The conditional tools come in one go; give the last of them a moment to be listed.
      return (await client.listTools({ fresh: true })).map((tool) => tool.name);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return names;
}

function handlersFor(answers: { elicitation: ElicitResult }): ClientOptions["handlers"] {
  return {
    sampling: async (request) => ({
      role: "assistant",
      content: { type: "text", text: `sampled in a task: ${JSON.stringify(request.messages[0]?.content)}` },
      model: "task-model",
      stopReason: "endTurn",
    }),
    elicitation: { form: async () => answers.elicitation },
  };
}

function receiverSuite(transportName: string, makeTransport: () => ClientTransport) {
  describe(`server-everything's async tools over ${transportName}`, () => {
    const answers: { elicitation: ElicitResult } = { elicitation: { action: "accept", content: { name: "Ada", favoriteColor: "Blue", agreeToTerms: true } } };
    const client = new Client(CLIENT_INFO, { use: [tasksExtension], name: "everything", requestTimeoutMs: 30_000, handlers: handlersFor(answers) });

    before(async () => {
      await client.connect(makeTransport());
    });
    after(async () => {
      await client.close();
    });

    test("the async tools are offered because the client declared tasks for sampling and elicitation", async () => {
      const names = await toolNames(client);
      for (const tool of ASYNC_TOOLS) assert.ok(names.includes(tool), `${tool} in ${names.join(", ")}`);
    });

    test("trigger-sampling-request-async: the client answers with a task, the server polls it to completed and fetches the result", async () => {
      const result = await hangGuard(client.callTool("trigger-sampling-request-async", { prompt: "what is 6 x 7?" }), 30_000, "the async sampling tool");
      const text = textOf(result.content);
      assert.equal(result.isError, undefined, text);
      assert.match(text, /\[COMPLETED\] Async sampling completed!/);
      assert.match(text, /Task created: [0-9a-f-]{36}/);
      assert.match(text, /Poll \d+: completed/);
      assert.match(text, /sampled in a task: .*what is 6 x 7\?/);
      assert.match(text, /"model": "task-model"/);
      assert.ok(text.includes(RELATED_TASK_META), "tasks/result carries the related-task key");
    });

    test("trigger-elicitation-request-async: the form handler's answer reaches the server through tasks/result", async () => {
      const result = await hangGuard(client.callTool("trigger-elicitation-request-async", {}), 30_000, "the async elicitation tool");
      const text = textOf(result.content);
      assert.match(text, /\[COMPLETED\] User provided the requested information!/);
      assert.match(text, /- Name: Ada/);
      assert.match(text, /- Favorite Color: Blue/);
      assert.match(text, /- Agreed to terms: true/);
    });

    test("a declined elicitation completes its task with the decline, which the server reports", async () => {
      answers.elicitation = { action: "decline" };
      const result = await hangGuard(client.callTool("trigger-elicitation-request-async", {}), 30_000, "the async elicitation tool");
      assert.match(textOf(result.content), /\[DECLINED\] User declined to provide the requested information\./);
    });
  });
}

receiverSuite("stdio", () => new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: () => {} }));

let http: HttpServerProcess | undefined;
before(async () => {
  http = await startEverything("streamableHttp");
});
after(async () => {
  await http?.stop();
});
receiverSuite("Streamable HTTP", () => new StreamableHttpTransport({ url: `${http!.origin}/mcp` }));

describe("server-everything and a client that declares no tasks", () => {
  test("with taskReceiver: false the async tools are not offered; the plain ones still are", async () => {
    const client = new Client(CLIENT_INFO, {
      use: [tasksExtension],
      name: "everything",
      requestTimeoutMs: 30_000,
      handlers: handlersFor({ elicitation: { action: "decline" } }),
      taskReceiver: false,
    });
    await client.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: () => {} }));
    try {
      const names = await toolNames(client);
      assert.ok(names.includes("trigger-sampling-request"), names.join(", "));
      for (const tool of ASYNC_TOOLS) assert.ok(!names.includes(tool), `${tool} is not offered`);
    } finally {
      await client.close();
    }
  });
});
