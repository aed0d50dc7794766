// What a host that supervises a connection reads of a Client without wrapping its requests
// (issue 25: supervision at the connection level): `answeredCalls`, the tools/call and ping
// answered (proof the session is healthy), and the `unavailable` option, the host's reason
// why a request cannot go out while the client is not ready.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client, type ClientState, RpcError } from "../../src/mod.ts";
import { inProcessServer } from "../support/in-process-server.ts";
import { rejection } from "../support/rejection.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

function server() {
  return inProcessServer({ tools: {} }, {
    "tools/list": () => ({ tools: [{ name: "ok", inputSchema: { type: "object" } }, { name: "fails", inputSchema: { type: "object" } }] }),
    "tools/call": (params) => {
      if (params?.name === "ok") return { content: [{ type: "text", text: "fine" }] };
      if (params?.name === "fails") return { content: [{ type: "text", text: "the tool could not" }], isError: true };
      throw new RpcError(`Unknown tool: ${String(params?.name)}`, -32602);
    },
  });
}

describe("answeredCalls", () => {
  test("counts the tools/call and ping the server answered, a tool error too, and not a protocol error or another method", async () => {
    const client = new Client(CLIENT_INFO, { name: "hooks" });
    await client.connect(server().clientEnd);
    try {
      assert.equal(client.answeredCalls, 0);
      await client.listTools();
      assert.equal(client.answeredCalls, 0, "tools/list proves nothing");
      await client.callTool("ok");
      await client.callTool("fails");
      assert.equal(client.answeredCalls, 2, "a tool error is an answer");
      await rejection(client.callTool("missing"));
      assert.equal(client.answeredCalls, 2, "a protocol error is not");
      await client.ping();
      await client.request("tools/call", { name: "ok", arguments: {} });
      assert.equal(client.answeredCalls, 4);
    } finally {
      await client.close();
    }
  });
});

describe("the unavailable option", () => {
  test("is asked only while the client is not ready, and its error replaces the client's own", async () => {
    const asked: ClientState[] = [];
    const hostError = new Error('server "hooks": reconnecting (attempt 1 of 3); the call was not sent, try again shortly');
    const client = new Client(CLIENT_INFO, {
      name: "hooks",
      unavailable: (state) => {
        asked.push(state);
        return hostError;
      },
    });
    await client.connect(server().clientEnd);
    await client.callTool("ok");
    await client.request("tools/list");
    assert.deepEqual(asked, [], "not asked while ready");
    await client.close();
    assert.equal(await rejection(client.callTool("ok")), hostError);
    assert.equal(await rejection(client.request("tools/list")), hostError);
    assert.deepEqual(asked, ["closed", "closed"]);
  });

  test("undefined leaves the client's own error", async () => {
    const client = new Client(CLIENT_INFO, { name: "hooks", unavailable: () => undefined });
    await client.connect(server().clientEnd);
    await client.close();
    const error = await rejection(client.callTool("ok"));
    assert.equal((error as Error).name, "ClientStateError");
    assert.match((error as Error).message, /closed/);
  });
});
