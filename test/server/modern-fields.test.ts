// The 2026-07-28 request checks of the server half, with the spec's own example messages where
// it has them: each request's `_meta` protocol fields (-32602 naming a missing one), an
// unsupported version (-32022 with the supported versions, naming both), the methods that
// revision removed (-32601), an `initialize` that is still a handshake, and every error keeping
// its request's id — spec 2026-07-28 basic/index ("Per-request protocol fields"),
// basic/versioning, server/utilities/logging ("Error Handling").

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import type { JsonRpcErrorResponse, JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { demoWithRawHost, modernMeta, until } from "./demo-server.ts";

const EXAMPLES = new URL("../fixtures/spec-examples/2026-07-28/", import.meta.url);
function example(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(path, EXAMPLES), "utf8")) as Record<string, unknown>;
}

/** Sends `message` as written and returns the server's answer to its id. */
async function answerTo(message: Record<string, unknown>, eras?: ("modern" | "legacy")[]): Promise<JsonRpcMessage & Record<string, unknown>> {
  const { server, host } = await demoWithRawHost(eras === undefined ? {} : { eras });
  try {
    await host.sendRaw(message);
    await until(() => host.received.some((received) => "id" in received && received.id === message.id), `an answer to ${String(message.id)}`);
    return host.received.find((received) => "id" in received && received.id === message.id) as JsonRpcMessage & Record<string, unknown>;
  } finally {
    await server.close();
  }
}

function withoutMetaKey(message: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = structuredClone(message) as { params: { _meta: Record<string, unknown> } };
  delete copy.params._meta[key];
  return copy;
}

describe("the per-request protocol fields", () => {
  test("the spec's ListToolsRequest and CallToolRequest examples are served, with the same ids", async () => {
    const list = await answerTo(example("ListToolsRequest/list-tools-request.json"));
    assert.equal(list.id, "list-tools-example");
    assert.equal((list.result as Record<string, unknown>).resultType, "complete");
    const call = await answerTo(example("CallToolRequest/call-tool-request.json"));
    // The demo has no get_weather: its handler's RpcError, with the example's id.
    assert.equal(call.id, "call-tool-example");
    assert.deepEqual((call as unknown as JsonRpcErrorResponse).error, { code: -32602, message: "Unknown tool: get_weather" });
  });

  for (const key of ["io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"]) {
    test(`a request without _meta "${key}" is answered -32602 naming it, keeping its id`, async () => {
      const answer = await answerTo(withoutMetaKey(example("ListToolsRequest/list-tools-request.json"), key)) as unknown as JsonRpcErrorResponse;
      assert.equal(answer.id, "list-tools-example");
      assert.equal(answer.error.code, -32602);
      assert.ok(answer.error.message.includes(key), answer.error.message);
    });
  }

  test("a request without clientInfo is served (a SHOULD, not a MUST)", async () => {
    const answer = await answerTo(withoutMetaKey(example("ListToolsRequest/list-tools-request.json"), "io.modelcontextprotocol/clientInfo"));
    assert.ok("result" in answer);
  });

  test("an unsupported version is answered as the spec's UnsupportedProtocolVersionError example: -32022, supported and requested in data, both named", async () => {
    const request = example("ListToolsRequest/list-tools-request.json") as { id: unknown; params: { _meta: Record<string, unknown> } };
    const expected = example("UnsupportedProtocolVersionError/unsupported-version.json") as unknown as JsonRpcErrorResponse;
    const requested = (expected.error.data as { requested: string }).requested;
    request.params._meta["io.modelcontextprotocol/protocolVersion"] = requested;
    const answer = await answerTo(request) as unknown as JsonRpcErrorResponse;
    assert.equal(answer.id, "list-tools-example");
    assert.equal(answer.error.code, expected.error.code);
    const data = answer.error.data as { supported: string[]; requested: string };
    assert.equal(data.requested, requested);
    for (const version of (expected.error.data as { supported: string[] }).supported) assert.ok(data.supported.includes(version), version);
    assert.match(answer.error.message, new RegExp(`${requested}.*2026-07-28`));
  });

  test("a legacy-only server answers a 2026-07-28 request -32022 listing only the handshake versions", async () => {
    const answer = await answerTo(example("ListToolsRequest/list-tools-request.json"), ["legacy"]) as unknown as JsonRpcErrorResponse;
    assert.equal(answer.error.code, -32022);
    assert.deepEqual((answer.error.data as { supported: string[] }).supported, ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
  });

  test("a _meta log level that is not one is answered -32602", async () => {
    const answer = await answerTo({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/list",
      params: { _meta: modernMeta({ "io.modelcontextprotocol/logLevel": "loud" }) },
    }) as unknown as JsonRpcErrorResponse;
    assert.equal(answer.error.code, -32602);
    assert.match(answer.error.message, /"loud" is not a log level/);
  });

  for (const method of ["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]) {
    test(`${method} on the 2026-07-28 wire is answered -32601`, async () => {
      const answer = await answerTo({
        jsonrpc: "2.0",
        id: `removed-${method}`,
        method,
        params: { level: "info", uri: "demo://a", _meta: modernMeta() },
      }) as unknown as JsonRpcErrorResponse;
      assert.equal(answer.id, `removed-${method}`);
      assert.equal(answer.error.code, -32601);
    });
  }

  test("a method nobody serves is answered -32601 by the handler, keeping the id", async () => {
    const answer = await answerTo({ jsonrpc: "2.0", id: "u", method: "nothing/here", params: { _meta: modernMeta() } }) as unknown as JsonRpcErrorResponse;
    assert.equal(answer.id, "u");
    assert.equal(answer.error.code, -32601);
  });

  test("an initialize carrying the 2026-07-28 fields is still a handshake", async () => {
    const answer = await answerTo({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" }, _meta: modernMeta() },
    });
    const result = answer.result as Record<string, unknown>;
    assert.equal(result.protocolVersion, "2025-06-18");
    assert.equal(result.resultType, undefined, "a handshake answer, not a stamped 2026-07-28 result");
  });

  test("a request with no protocol fields and no session is answered -32602 that says to initialize first on the handshake era", async () => {
    const answer = await answerTo({ jsonrpc: "2.0", id: 9, method: "tools/list" }) as unknown as JsonRpcErrorResponse;
    assert.equal(answer.error.code, -32602);
    assert.match(answer.error.message, /io\.modelcontextprotocol\/protocolVersion.*send initialize first/);
  });
});
