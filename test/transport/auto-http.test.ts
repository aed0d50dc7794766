// The automatic choice between Streamable HTTP and the legacy HTTP+SSE transport — spec
// 2025-11-25 basic/transports ("Backwards Compatibility"): against server-everything in both
// HTTP modes, and against test/fixtures/sse-legacy-server.mjs for the fault cases.

import assert from "node:assert/strict";
import { Client } from "../../src/client/client.ts";
import type { CloseDetails } from "../../src/jsonrpc/errors.ts";
import { AutoHttpTransport } from "../../src/transport/auto-http.ts";
import { SseLegacyTransport } from "../../src/transport/sse-legacy.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { TransportError } from "../../src/transport/transport.ts";
import { startEverything, startSseFixture, withServer } from "../fixtures/sse-servers.ts";
import { behaviour } from "../support/behaviour.ts";
import { freePort } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const clientInfo = { name: "auto-http-test", version: "0.0.0" };

function textOf(result: { content: { type: string }[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
}

/** Connects a client over an AutoHttpTransport; returns both (the caller closes the client). */
async function connectAuto(url: string, headers?: Record<string, string>): Promise<{ client: Client; transport: AutoHttpTransport; problems: string[] }> {
  const transport = new AutoHttpTransport({ url, headers });
  const client = new Client(clientInfo, { requestTimeoutMs: 20_000 });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  await hangGuard(client.connect(transport), 15_000, "connect");
  return { client, transport, problems };
}

/** Expects connect() over an AutoHttpTransport to fail with a TransportError; returns it and the transport. */
async function connectFailure(url: string): Promise<{ error: TransportError; transport: AutoHttpTransport }> {
  const transport = new AutoHttpTransport({ url, endpointTimeoutMs: 2000 });
  const client = new Client(clientInfo, { requestTimeoutMs: 20_000 });
  try {
    await hangGuard(client.connect(transport), 15_000, "connect");
  } catch (error) {
    assert.ok(error instanceof TransportError, `not a TransportError: ${error}`);
    assert.equal(client.state, "failed");
    return { error, transport };
  } finally {
    await client.close();
  }
  assert.fail("connect() resolved");
}

/** server-everything in each of its HTTP modes, and what the automatic choice makes of it. */
const EVERYTHING_MODES = [
  { mode: "sse", path: "/sse", how: "the POST is refused (404), the GET stream sends an endpoint", kind: "sse", inner: SseLegacyTransport },
  { mode: "streamableHttp", path: "/mcp", how: "the POST is accepted", kind: "streamable-http", inner: StreamableHttpTransport },
] as const;

for (const { mode, path, how, kind, inner } of EVERYTHING_MODES) {
  behaviour(`server-everything in ${mode} mode: ${how}, ${kind} is chosen`, async () => {
    await withServer(startEverything(mode), async (server) => {
      const { client, transport, problems } = await connectAuto(`${server.origin}${path}`);
      try {
        assert.equal(transport.kind, kind);
        assert.ok(transport.inner instanceof inner);
        assert.equal(client.serverInfo?.name, "mcp-servers/everything");
        assert.equal(textOf(await client.callTool("echo", { message: `chosen: ${kind}` })), `Echo: chosen: ${kind}`);
        assert.deepEqual(problems, [], "a refused probe is not a problem");
      } finally {
        await client.close();
      }
    });
  });
}

behaviour("a 405 falls back too; initialize is sent again over the legacy stream and the headers go on every request", async () => {
  await withServer(startSseFixture("good"), async (server) => {
    const { client, transport } = await connectAuto(`${server.origin}/sse`, { "X-Team": "wire" });
    try {
      assert.equal(transport.kind, "sse");
      assert.equal(client.serverInfo?.name, "sse-fixture-good");
      const seen = JSON.parse(textOf(await client.callTool("headers")));
      assert.equal(seen.get["x-team"], "wire");
      assert.equal(seen.post["x-team"], "wire");
      // The client's server/discover probe (refused: not a modern server), initialize POSTed
      // (refused: not Streamable HTTP), the legacy stream, then initialize re-sent there: each with the header.
      const requests = server.output.filter((line) => /^(GET|POST) /.test(line));
      assert.deepEqual(requests.slice(0, 4), [
        "POST /sse x-team=wire",
        "POST /sse x-team=wire",
        "GET /sse x-team=wire",
        "POST /message x-team=wire",
      ]);
    } finally {
      await client.close();
    }
  });
});

behaviour("refused by both transports: the error names the POST's status and why the GET was no SSE stream", async () => {
  await withServer(startSseFixture("not-sse"), async (server) => {
    const { error, transport } = await connectFailure(`${server.origin}/sse`);
    assert.equal(transport.kind, undefined);
    assert.equal(error.code, "not-sse");
    assert.match(error.message, /not a Streamable HTTP server \(.*405.*\), and not a legacy HTTP\+SSE server either \(.*not an SSE stream.*\); check the URL/);
    assert.ok(error.message.startsWith(`http "${server.origin}/sse"`), error.message);
  });
});

behaviour("any other failure of the POST is reported as it is, without trying the legacy transport", async () => {
  await withServer(startSseFixture("post-500"), async (server) => {
    const { error, transport } = await connectFailure(`${server.origin}/sse`);
    assert.equal(transport.kind, undefined);
    assert.equal(error.code, "http-status");
    assert.equal((error as TransportError & { status?: number }).status, 500);
    assert.match(error.message, /database is on fire/);
    assert.ok(!server.output.some((line) => line.startsWith("GET /sse")), `the legacy stream was tried: ${server.output.join(" | ")}`);
  });
  const port = await freePort();
  const { error } = await connectFailure(`http://127.0.0.1:${port}/mcp`);
  assert.doesNotMatch(error.message, /legacy/);
  assert.ok(error.message.includes(`127.0.0.1:${port}`), error.message);
});

behaviour("close() while the fallback waits for the endpoint event ends the connect promptly and fires onclose once", async () => {
  await withServer(startSseFixture("no-endpoint"), async (server) => {
    const transport = new AutoHttpTransport({ url: `${server.origin}/sse` });
    const closes: CloseDetails[] = [];
    const client = new Client(clientInfo, { requestTimeoutMs: 20_000 });
    const connecting = client.connect(transport);
    const closeSeen = new Promise<void>((resolve) => {
      const wrapped = transport.onclose;
      transport.onclose = (details) => {
        closes.push(details);
        wrapped?.(details);
        resolve();
      };
    });
    // wait until the legacy stream is open, then close
    const deadline = Date.now() + 10_000;
    while (!server.output.some((line) => line.startsWith("GET /sse")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await hangGuard(client.close(), 5000, "close()");
    await assert.rejects(hangGuard(connecting, 5000, "connect"), /close\(\) was called while it was connecting/);
    await closeSeen;
    assert.equal(closes.length, 1);
    assert.equal(transport.kind, undefined);
  });
});

behaviour("the description names the URL; a non-http URL is refused at once", () => {
  const transport = new AutoHttpTransport({ url: "http://127.0.0.1:9/mcp" });
  assert.equal(transport.description, 'http "http://127.0.0.1:9/mcp"');
  assert.equal(transport.kind, undefined);
  assert.throws(() => new AutoHttpTransport({ url: "file:///etc/passwd" }), /must be http:\/\/ or https:\/\//);
  return Promise.resolve();
});
