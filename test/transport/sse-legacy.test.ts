// The legacy HTTP+SSE transport against a hand-written server that misbehaves on request
// (test/fixtures/sse-legacy-server.mjs), over real HTTP on loopback — spec 2024-11-05
// basic/transports ("HTTP with SSE"). server-everything in sse mode is in conformance/.

import assert from "node:assert/strict";
import { Client } from "../../src/client/client.ts";
import { type CloseDetails, ConnectionClosedError } from "../../src/jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { HttpStatusError } from "../../src/transport/http-errors.ts";
import { SseLegacyTransport } from "../../src/transport/sse-legacy.ts";
import { TransportError } from "../../src/transport/transport.ts";
import { type HttpServerProcess, type SseFixtureMode, startSseFixture, withServer } from "../fixtures/sse-servers.ts";
import { behaviour } from "../support/behaviour.ts";
import { freePort } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const clientInfo = { name: "sse-legacy-test", version: "0.0.0" };

/** Runs body with a fixture server in `mode`, stopping it afterwards whatever happens. */
const withFixture = (mode: SseFixtureMode, body: (server: HttpServerProcess) => Promise<void>) => withServer(startSseFixture(mode), body);

/** A client connected to the fixture's stream, as a user would set it up. */
async function connected(
  server: HttpServerProcess,
  options: { headers?: Record<string, string>; requestTimeoutMs?: number } = {},
): Promise<{ client: Client; transport: SseLegacyTransport; problems: string[] }> {
  const client = new Client(clientInfo, { requestTimeoutMs: options.requestTimeoutMs ?? 20_000 });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  const transport = new SseLegacyTransport({ url: `${server.origin}/sse`, headers: options.headers });
  await hangGuard(client.connect(transport), 10_000, "connect");
  return { client, transport, problems };
}

function textOf(result: { content: { type: string }[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
}

/** Expects start() to reject with a TransportError; returns it. */
async function startFailure(transport: SseLegacyTransport): Promise<TransportError> {
  try {
    await hangGuard(transport.start(), 10_000, "start()");
  } catch (error) {
    assert.ok(error instanceof TransportError, `not a TransportError: ${error}`);
    return error;
  } finally {
    await transport.close();
  }
  assert.fail("start() resolved");
}

behaviour("the endpoint is resolved against the SSE URL; messages go there and answers come back as message events", async () => {
  await withFixture("good", async (server) => {
    const { client, transport, problems } = await connected(server);
    try {
      assert.equal(transport.endpoint?.href, `${server.origin}/message?session=1`);
      assert.equal(client.state, "ready");
      assert.equal(client.serverInfo?.name, "sse-fixture-good");
      assert.equal(client.protocolVersion, "2024-11-05");
      assert.deepEqual((await client.listTools()).map((tool) => tool.name), ["echo", "headers", "cut", "explode", "garbage"]);
      assert.equal(textOf(await client.callTool("echo", { text: "over the old transport ✓" })), "over the old transport ✓");
      assert.deepEqual(problems, []);
    } finally {
      await client.close();
    }
  });
});

behaviour("the configured headers go with the GET and with every POST; the GET asks for text/event-stream", async () => {
  await withFixture("good", async (server) => {
    const { client } = await connected(server, { headers: { Authorization: "Bearer sekrit", "X-Team": "wire" } });
    try {
      const seen = JSON.parse(textOf(await client.callTool("headers")));
      assert.equal(seen.get.authorization, "Bearer sekrit");
      assert.equal(seen.get["x-team"], "wire");
      assert.equal(seen.get.accept, "text/event-stream");
      assert.equal(seen.post.authorization, "Bearer sekrit");
      assert.equal(seen.post["x-team"], "wire");
      assert.match(seen.post["content-type"], /^application\/json/);
    } finally {
      await client.close();
    }
  });
});

behaviour("an endpoint on another origin is refused, and the error names both origins", async () => {
  await withFixture("foreign-endpoint", async (server) => {
    const error = await startFailure(new SseLegacyTransport({ url: `${server.origin}/sse` }));
    assert.equal(error.code, "endpoint-origin");
    assert.match(error.message, new RegExp(`http://mcp\\.example\\.invalid:${server.port}`));
    assert.ok(error.message.includes(server.origin), error.message);
    assert.match(error.message, /refusing to send messages there/);
  });
});

behaviour("a stream that never sends the endpoint event: start() gives up after endpointTimeoutMs and says what was missing", async () => {
  await withFixture("no-endpoint", async (server) => {
    const error = await startFailure(new SseLegacyTransport({ url: `${server.origin}/sse`, endpointTimeoutMs: 300 }));
    assert.equal(error.code, "no-endpoint");
    assert.match(error.message, /sent no "endpoint" event within 300 ms/);
    assert.ok(error.message.includes(`${server.origin}/sse`), error.message);
  });
});

behaviour("a GET answered with an error status is an HttpStatusError with the status and the start of the body", async () => {
  await withFixture("get-404", async (server) => {
    const error = await startFailure(new SseLegacyTransport({ url: `${server.origin}/sse` }));
    assert.ok(error instanceof HttpStatusError);
    assert.equal(error.code, "http-status");
    assert.equal(error.status, 404);
    assert.equal(error.bodyStart, "no SSE stream here");
    assert.match(error.message, /GET http:\/\/127\.0\.0\.1:\d+\/sse answered HTTP 404: "no SSE stream here"/);
  });
});

behaviour("a GET answered with something other than an event stream is refused as not-sse", async () => {
  await withFixture("not-sse", async (server) => {
    const error = await startFailure(new SseLegacyTransport({ url: `${server.origin}/sse` }));
    assert.equal(error.code, "not-sse");
    assert.match(error.message, /Content-Type "application\/json", not an SSE stream/);
    assert.match(error.message, /this is not an event stream/);
  });
});

behaviour("nothing listening: start() fails at once naming the URL", async () => {
  const port = await freePort();
  const error = await startFailure(new SseLegacyTransport({ url: `http://127.0.0.1:${port}/sse` }));
  assert.equal(error.code, "fetch-failed");
  assert.ok(error.message.includes(`GET http://127.0.0.1:${port}/sse failed`), error.message);
  assert.match(error.message, /is the server running/);
});

behaviour("the stream ending in the middle of a call fails that call at once, and the client is failed", async () => {
  await withFixture("good", async (server) => {
    const { client } = await connected(server, { requestTimeoutMs: 60_000 });
    const closes: CloseDetails[] = [];
    const transport = client.transport!;
    const previous = transport.onclose;
    transport.onclose = (details) => {
      closes.push(details);
      previous?.(details);
    };
    try {
      const call = client.callTool("cut");
      await assert.rejects(hangGuard(call, 10_000, "the cut call"), (error: unknown) => {
        assert.ok(error instanceof ConnectionClosedError, `not a ConnectionClosedError: ${error}`);
        assert.match(error.message, /tools\/call failed: connection closed: the server ended the SSE stream/);
        return true;
      });
      assert.equal(client.state, "failed");
      assert.deepEqual(closes, [{ reason: "the server ended the SSE stream" }]);
      await assert.rejects(client.callTool("echo", { text: "too late" }), /connection closed/);
    } finally {
      await client.close();
    }
  });
});

behaviour("a POST answered with an error names the URL, the status and the start of the body; the connection stays up", async () => {
  await withFixture("good", async (server) => {
    const { client } = await connected(server);
    try {
      await assert.rejects(client.callTool("explode"), (error: unknown) => {
        assert.ok(error instanceof HttpStatusError, `not an HttpStatusError: ${error}`);
        assert.equal(error.status, 500);
        // The query (here a session id, often a key) is not shown.
        assert.ok(error.message.includes(`tools/call: POST ${server.origin}/message?`), error.message);
        assert.match(error.message, / answered HTTP 500: /);
        assert.ok(!error.message.includes("session=1"), error.message);
        assert.equal(error.url, `${server.origin}/message?session=1`);
        assert.match(error.message, /the fixture exploded on purpose/);
        return true;
      });
      assert.equal(client.state, "ready");
      assert.equal(textOf(await client.callTool("echo", { text: "still here" })), "still here");
    } finally {
      await client.close();
    }
  });
});

behaviour("message events that are not JSON or not JSON-RPC are reported and skipped", async () => {
  await withFixture("good", async (server) => {
    const { client, problems } = await connected(server);
    try {
      assert.equal(textOf(await client.callTool("garbage")), "after garbage");
      assert.equal(problems.length, 2, problems.join("\n"));
      assert.match(problems[0]!, /skipped a "message" event that is not JSON .*\{not json/);
      assert.match(problems[1]!, /skipped a "message" event that is not JSON-RPC \(missing "jsonrpc": "2.0"\)/);
      assert.equal(client.state, "ready");
    } finally {
      await client.close();
    }
  });
});

behaviour("close() aborts the stream promptly, fires onclose once, and later sends are refused", async () => {
  await withFixture("good", async (server) => {
    const transport = new SseLegacyTransport({ url: `${server.origin}/sse` });
    const closes: CloseDetails[] = [];
    const received: JsonRpcMessage[] = [];
    transport.onclose = (details) => closes.push(details);
    transport.onmessage = (message) => received.push(message);
    await hangGuard(transport.start(), 10_000, "start()");
    await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await hangGuard(transport.close(), 5000, "close()");
    await transport.close();
    assert.deepEqual(closes, [{ reason: "closed by the client" }]);
    await assert.rejects(transport.send({ jsonrpc: "2.0", id: 2, method: "ping" }), (error: unknown) => {
      assert.ok(error instanceof TransportError);
      assert.equal(error.code, "closed");
      return true;
    });
  });
});

behaviour("send() before start() and a second start() are refused; close() before start() still fires onclose", async () => {
  const transport = new SseLegacyTransport({ url: "http://127.0.0.1:9/sse" });
  await assert.rejects(
    transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }),
    /cannot send notifications\/initialized, the connection is not started/,
  );
  const closes: CloseDetails[] = [];
  transport.onclose = (details) => closes.push(details);
  await transport.close();
  assert.deepEqual(closes, [{ reason: "closed before it started" }]);
  await assert.rejects(transport.start(), /close\(\) was called before start\(\)/);
  await assert.rejects(transport.start(), /already started/);
  assert.throws(() => new SseLegacyTransport({ url: "ftp://example.com/sse" }), /must be http:\/\/ or https:\/\//);
});
