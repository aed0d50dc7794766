// A request whose connection is reset before any answer is sent once more, on a new
// connection — against a real loopback server that drops the connection of chosen requests.

import assert from "node:assert/strict";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { Client, StreamableHttpTransport } from "../../src/mod.ts";
import { isConnectionReset, retryOnReset } from "../../src/transport/reset-retry.ts";
import { readBody } from "../support/http-body.ts";

/** Answers with the request's own body. */
function echo(body: string, res: ServerResponse): void {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(body === "" ? "{}" : body);
}

/**
 * A server that drops the connection (no answer) of the requests `drop` picks, and hands the
 * rest to `answer` (by default their body is sent back).
 */
async function startServer(
  drop: (count: number, body: string) => boolean,
  answer: (body: string, res: ServerResponse) => void = echo,
): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    bodies.push(body);
    if (drop(bodies.length, body)) {
      req.socket.destroy();
      return;
    }
    answer(body, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("retryOnReset", () => {
  test("a POST whose connection is dropped before the answer is sent once more, and its answer arrives", async () => {
    const server = await startServer((count) => count === 1);
    try {
      const response = await retryOnReset(fetch)(server.url, { method: "POST", body: '{"n":1}' });
      assert.equal(await response.text(), '{"n":1}');
      assert.deepEqual(server.bodies, ['{"n":1}', '{"n":1}']);
    } finally {
      await server.close();
    }
  });

  test("a second reset is the caller's error, recognisable as a reset; there is no third try", async () => {
    const server = await startServer(() => true);
    try {
      const error = await retryOnReset(fetch)(server.url, { method: "POST", body: "x" }).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof Error);
      assert.ok(isConnectionReset(error), String(error));
      assert.equal(server.bodies.length, 2);
    } finally {
      await server.close();
    }
  });

  test("a refused connection is not a reset and is not retried; an aborted request is not retried", async () => {
    const closed = await startServer(() => false);
    const url = closed.url;
    await closed.close();
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const refused = await retryOnReset(counting)(url, { method: "POST", body: "x" }).then(() => undefined, (e: unknown) => e);
    assert.ok(refused instanceof Error && !isConnectionReset(refused), String(refused));
    assert.equal(calls, 1);
    const server = await startServer(() => true);
    try {
      const controller = new AbortController();
      const dropping: typeof fetch = async (input, init) => {
        calls++;
        try {
          return await fetch(input, init);
        } finally {
          controller.abort();
        }
      };
      calls = 0;
      await retryOnReset(dropping)(server.url, { method: "POST", body: "x", signal: controller.signal }).catch(() => {});
      assert.equal(calls, 1, "aborted: not sent again");
    } finally {
      await server.close();
    }
  });

  test("the Streamable HTTP transport survives a reset connection: the request goes again and is answered", async () => {
    // Every POST of tools/call has its connection dropped the first time it arrives.
    const seen = new Set<string>();
    const firstCall = (_count: number, body: string) => {
      const message = JSON.parse(body);
      if (message.method !== "tools/call" || seen.has(String(message.id))) return false;
      seen.add(String(message.id));
      return true;
    };
    const server = await startServer(firstCall, (body, res) => {
      const message = JSON.parse(body);
      const reply = (result: unknown) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
      };
      if (message.id === undefined) return void res.writeHead(202).end();
      if (message.method === "initialize") {
        return reply({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "resetting", version: "1" } });
      }
      if (message.method === "tools/list") return reply({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
      if (message.method === "tools/call") return reply({ content: [{ type: "text", text: "answered" }] });
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no" } }));
    });
    const client = new Client({ name: "t", version: "1" }, { protocol: "legacy" });
    try {
      await client.connect(new StreamableHttpTransport({ url: `${server.url}mcp`, listen: false }));
      const result = await client.callTool("echo", {});
      assert.deepEqual(result.content, [{ type: "text", text: "answered" }]);
      assert.equal(server.bodies.filter((body) => body.includes('"tools/call"')).length, 2);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
