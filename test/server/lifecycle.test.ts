// The server half's lifecycle in both eras, against our own Client and a raw host over memory
// pairs: server/discover, the initialize handshake and its version negotiation, stateless
// requests, sessions — spec 2025-11-25 basic/lifecycle; spec 2026-07-28 server/discover,
// basic/versioning.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../src/client/protocol-version.ts";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import { demoWithClient, demoWithRawHost, modernMeta, SERVER_INFO, until } from "./demo-server.ts";

const EXAMPLES = new URL("../fixtures/spec-examples/2026-07-28/", import.meta.url);
function example(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(path, EXAMPLES), "utf8")) as Record<string, unknown>;
}

describe("server/discover and the 2026-07-28 wire", () => {
  test("a Client under protocol auto finds the 2026-07-28 era, the server's identity, capabilities and instructions", async () => {
    const { server, client, log } = await demoWithClient({ protocol: "auto" });
    try {
      assert.equal(client.era, "modern");
      assert.equal(client.protocolVersion, "2026-07-28");
      assert.deepEqual(client.serverInfo, SERVER_INFO);
      assert.equal(client.instructions, "Use echo to echo.");
      assert.equal(client.serverCapabilities?.tools?.listChanged, true);
      const tools = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ["echo", "fail", "wait", "log", "ask"]);
      const result = await client.callTool("echo", { text: "hi" });
      assert.deepEqual(result.content, [{ type: "text", text: "hi" }]);
      // The handler saw the request's own identity, not a session's.
      const context = log.contexts.at(-1)!;
      assert.equal(context.host.era, "modern");
      assert.equal(context.host.protocolVersion, "2026-07-28");
      assert.equal(context.host.clientInfo?.name, "test-host");
      assert.equal(context.session.host, undefined);
      assert.equal(server.sessions.size, 1, "the connection's 2026-07-28 side is one session");
    } finally {
      await client.close();
      await server.close();
    }
  });

  test("the spec's DiscoverRequest example is answered with the DiscoverResult's fields, stamped", async () => {
    const { server, host } = await demoWithRawHost();
    try {
      const request = example("DiscoverRequest/server-discover-request.json");
      await host.sendRaw(request);
      await until(() => host.received.length === 1, "the discover answer");
      const answer = host.received[0] as { id: unknown; result: Record<string, unknown> };
      const expected = (example("DiscoverResultResponse/discover-result-response.json") as { result: Record<string, unknown> }).result;
      assert.equal(answer.id, request.id);
      assert.equal(answer.result.resultType, expected.resultType);
      // A dual-era server lists the example's 2026-07-28 versions first, then its handshake ones (spec 2026-07-28 basic/versioning's example).
      assert.deepEqual(answer.result.supportedVersions, [...expected.supportedVersions as string[], ...SUPPORTED_PROTOCOL_VERSIONS]);
      assert.deepEqual((answer.result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"], SERVER_INFO);
      assert.equal(answer.result.instructions, "Use echo to echo.");
      // spec 2026-07-28 caching: discover is cacheable; the server gave no hints, so conservative ones.
      assert.equal(answer.result.ttlMs, 0);
      assert.equal(answer.result.cacheScope, "private");
    } finally {
      await server.close();
    }
  });

  test("a 2026-07-28 result is stamped resultType complete and _meta serverInfo; a handler's caching hints are kept", async () => {
    const { server, host } = await demoWithRawHost();
    try {
      const read = await host.peer.request("resources/read", { uri: "demo://a", _meta: modernMeta() });
      assert.equal(read.resultType, "complete");
      assert.equal(read.ttlMs, 5000);
      assert.equal(read.cacheScope, "public");
      assert.deepEqual((read._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"], SERVER_INFO);
      const list = await host.peer.request("tools/list", { _meta: modernMeta() });
      assert.equal(list.ttlMs, 0);
      assert.equal(list.cacheScope, "private");
      const call = await host.peer.request("tools/call", { name: "echo", arguments: { text: "x" }, _meta: modernMeta() });
      assert.equal(call.resultType, "complete");
      assert.equal(call.ttlMs, undefined, "tools/call is not a cacheable result");
    } finally {
      await server.close();
    }
  });
});

describe("the initialize handshake", () => {
  test("a Client under protocol legacy gets a session at 2025-11-25, and requests answered on it", async () => {
    const { server, client, log } = await demoWithClient({ protocol: "legacy" });
    try {
      assert.equal(client.era, "legacy");
      assert.equal(client.protocolVersion, "2025-11-25");
      assert.deepEqual(client.serverInfo, SERVER_INFO);
      assert.equal(client.instructions, "Use echo to echo.");
      const result = await client.callTool("echo", { text: "legacy" });
      assert.deepEqual(result.content, [{ type: "text", text: "legacy" }]);
      const context = log.contexts.at(-1)!;
      assert.equal(context.host.era, "legacy");
      assert.equal(context.session.host?.clientInfo?.name, "test-host");
      assert.equal(server.sessions.size, 1);
      assert.equal(log.opened.length, 1);
    } finally {
      await client.close();
      await server.close();
    }
    assert.equal(server.sessions.size, 0, "the session ends with its connection");
    assert.equal(log.closed.length, 1);
    assert.equal(log.opened[0]!.signal.aborted, true);
  });

  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
    test(`initialize at ${version} is answered at ${version}`, async () => {
      const { server, host } = await demoWithRawHost();
      try {
        const result = await host.peer.request("initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } });
        assert.equal(result.protocolVersion, version);
        assert.deepEqual(result.serverInfo, SERVER_INFO);
      } finally {
        await server.close();
      }
    });
  }

  test("initialize at a version the server does not speak is answered with its latest", async () => {
    const { server, host } = await demoWithRawHost();
    try {
      const result = await host.peer.request("initialize", { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      assert.equal(result.protocolVersion, "2025-11-25");
    } finally {
      await server.close();
    }
  });

  test("before initialize only ping is answered; a second initialize on a live session is refused and the session goes on", async () => {
    const { server, host } = await demoWithRawHost({ eras: ["legacy"] });
    try {
      assert.deepEqual(await host.peer.request("ping"), {});
      await assert.rejects(
        host.peer.request("tools/list"),
        (error: unknown) => error instanceof RpcError && error.rpcCode === -32600 && /send initialize first/.test(error.message),
      );
      await host.peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
      await host.peer.notify("notifications/initialized");
      await assert.rejects(
        host.peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }),
        (error: unknown) => error instanceof RpcError && error.rpcCode === -32600 && /already initialized/.test(error.message),
      );
      const tools = await host.peer.request("tools/list");
      assert.equal((tools.tools as unknown[]).length, 5);
      assert.equal(tools.resultType, undefined, "the handshake era's results are sent as the handler returned them");
    } finally {
      await server.close();
    }
  });

  test("a modern-only server refuses initialize with -32022 naming the versions it speaks; a Client under auto still connects", async () => {
    const { server, host } = await demoWithRawHost({ eras: ["modern"] });
    try {
      await assert.rejects(
        host.peer.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }),
        (error: unknown) =>
          error instanceof RpcError && error.rpcCode === -32022 && /2026-07-28/.test(error.message) &&
          JSON.stringify((error.data as { supported: unknown }).supported) === '["2026-07-28"]',
      );
    } finally {
      await server.close();
    }
    const modern = await demoWithClient({ protocol: "auto" }, { eras: ["modern"] });
    assert.equal(modern.client.era, "modern");
    await modern.client.close();
    await modern.server.close();
  });

  test("a legacy-only server is found legacy by a Client under auto (its probe is refused)", async () => {
    const { server, client } = await demoWithClient({ protocol: "auto" }, { eras: ["legacy"] });
    try {
      assert.equal(client.era, "legacy");
      assert.deepEqual((await client.callTool("echo", { text: "a" })).content, [{ type: "text", text: "a" }]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("handler errors", () => {
  test("a handler's RpcError goes to the host as it is; any other throw is -32603 naming the method, never a stack", async () => {
    for (const protocol of ["modern", "legacy"] as const) {
      const { server, client, problems } = await demoWithClient({ protocol });
      try {
        await assert.rejects(
          client.request("tools/call", { name: "nope", arguments: {} }),
          (error: unknown) => error instanceof RpcError && error.rpcCode === -32602 && error.message === "Unknown tool: nope",
        );
        await assert.rejects(client.request("tools/call", { name: "fail", arguments: {} }), (error: unknown) => {
          assert.ok(error instanceof RpcError);
          assert.equal(error.rpcCode, -32603);
          assert.match(error.message, /tools\/call failed: the demo tool failed on purpose/);
          assert.doesNotMatch(error.message, /\bat .*\.ts:\d+/);
          return true;
        });
        assert.ok(problems.some((problem) => /tools\/call .* failed: the demo tool failed on purpose/.test(problem)));
      } finally {
        await client.close();
        await server.close();
      }
    }
  });

  test("a handler that answers no result object is answered -32603 naming the method, and reported", async () => {
    for (const protocol of ["modern", "legacy"] as const) {
      const { server, client, problems } = await demoWithClient({ protocol }, {}, { request: async () => undefined as never });
      try {
        await assert.rejects(
          client.request("tools/list", {}),
          (error: unknown) =>
            error instanceof RpcError && error.rpcCode === -32603 && /tools\/list failed: the handler of tools\/list returned nothing/.test(error.message),
        );
        assert.ok(problems.some((problem) => /returned nothing, not a result object/.test(problem)));
      } finally {
        await client.close();
        await server.close();
      }
    }
  });
});
