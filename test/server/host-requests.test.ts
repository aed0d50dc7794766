// Requests the server half sends the host while answering one of its requests (sampling,
// elicitation, roots), answered by our Client's handlers on the handshake era; refused before
// anything is sent when the host did not declare the capability, and on the 2026-07-28 wire —
// spec 2025-11-25 client/sampling, client/elicitation, client/roots, basic/lifecycle
// ("Capability Negotiation"); spec 2026-07-28 basic/patterns/mrtr.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import type { Params } from "../../src/jsonrpc/peer.ts";
import { ServerError } from "../../src/server/errors.ts";
import type { ServerRequestContext } from "../../src/server/server-handlers.ts";
import { demoWithClient } from "./demo-server.ts";

const SAMPLED = { role: "assistant" as const, content: { type: "text" as const, text: "42" }, model: "test-model", stopReason: "endTurn" };

function askText(result: { content: unknown[] }): unknown {
  return JSON.parse((result.content[0] as { text: string }).text);
}

describe("requests to the host (handshake era)", () => {
  test("sampling/createMessage, elicitation/create and roots/list reach the Client's handlers and their answers come back", async () => {
    const seen: string[] = [];
    const { server, client } = await demoWithClient({
      protocol: "legacy",
      handlers: {
        sampling: async (request) => (seen.push(`sampling ${request.maxTokens}`), SAMPLED),
        elicitation: { form: async (request) => (seen.push(`form ${request.message}`), { action: "accept", content: { name: "Ada" } }) },
      },
      roots: ["/tmp/project"],
    });
    try {
      const sampled = await client.callTool("ask", {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 50 },
      });
      assert.deepEqual((askText(sampled) as Params).content, SAMPLED.content);
      const elicited = await client.callTool("ask", {
        method: "elicitation/create",
        params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      });
      assert.deepEqual(askText(elicited), { action: "accept", content: { name: "Ada" } });
      const roots = await client.callTool("ask", { method: "roots/list" });
      assert.deepEqual(askText(roots), { roots: [{ uri: "file:///tmp/project" }] });
      assert.deepEqual(seen, ["sampling 50", "form Your name?"]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("a request for a capability the host did not declare fails with ServerError missing-capability, nothing sent", async () => {
    let caught: unknown;
    const { server, client } = await demoWithClient({ protocol: "legacy" }, {}, {
      async request(method: string, _params: Params | undefined, context: ServerRequestContext) {
        if (method !== "tools/call") throw new RpcError("Method not found", -32601);
        try {
          await context.request("sampling/createMessage", { messages: [], maxTokens: 1 });
        } catch (error) {
          caught = error;
        }
        return { content: [] };
      },
    });
    try {
      await client.callTool("anything", {});
      assert.ok(caught instanceof ServerError);
      assert.equal(caught.code, "missing-capability");
      assert.match(caught.message, /server "demo": answering tools\/call: cannot send sampling\/createMessage .* did not declare the "sampling" capability/);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("on the 2026-07-28 wire context.request fails with ServerError wrong-era", async () => {
    let caught: unknown;
    const { server, client } = await demoWithClient({ protocol: "modern", handlers: { sampling: async () => SAMPLED } }, {}, {
      async request(_method: string, _params: Params | undefined, context: ServerRequestContext) {
        await context.request("sampling/createMessage", { messages: [], maxTokens: 1 }).catch((error: unknown) => (caught = error));
        return { content: [] };
      },
    });
    try {
      await client.callTool("anything", {});
      assert.ok(caught instanceof ServerError);
      assert.equal(caught.code, "wrong-era");
      assert.match(caught.message, /input_required/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
