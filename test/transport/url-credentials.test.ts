// A user name and password in an HTTP server's URL (src/transport/url-credentials.ts, issue 37
// item 10): each HTTP transport sends them as Authorization: Basic (RFC 7617) on every request,
// names the URL without them, and refuses them beside a configured Authorization header. Real
// loopback servers: the legacy SSE fixture (its `headers` tool says what each request carried)
// and the secret-echo fixture over Streamable HTTP (it answers 401 without the right Basic).

import assert from "node:assert/strict";
import { Client } from "../../src/client/client.ts";
import { AutoHttpTransport } from "../../src/transport/auto-http.ts";
import { SseLegacyTransport } from "../../src/transport/sse-legacy.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import type { Transport } from "../../src/transport/transport.ts";
import { TransportError } from "../../src/transport/transport.ts";
import { startSseFixture, withServer } from "../fixtures/sse-servers.ts";
import { behaviour } from "../support/behaviour.ts";
import { startPortFixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const clientInfo = { name: "url-credentials-test", version: "0.0.0" };
const BASIC = `Basic ${btoa("u:PASSWORD123")}`;

function textOf(result: { content: { type: string }[] }): string {
  return result.content.map((block) => (block as { text?: string }).text ?? "").join("\n");
}

/** `origin` with `u:PASSWORD123@` before the host. */
function withUserinfo(origin: string): string {
  return origin.replace("http://", "http://u:PASSWORD123@");
}

behaviour("legacy SSE: the GET and every POST carry Authorization: Basic; the URL is named without the password", async () => {
  await withServer(startSseFixture("good"), async (server) => {
    const transport = new SseLegacyTransport({ url: `${withUserinfo(server.origin)}/sse` });
    assert.equal(transport.url.href, `${server.origin}/sse`);
    assert.ok(!transport.description.includes("PASSWORD123"), transport.description);
    const client = new Client(clientInfo, { requestTimeoutMs: 20_000 });
    try {
      await hangGuard(client.connect(transport), 10_000, "connect");
      const seen = JSON.parse(textOf(await client.callTool("headers", {}))) as { get: Record<string, string>; post: Record<string, string> };
      assert.equal(seen.get.authorization, BASIC);
      assert.equal(seen.post.authorization, BASIC);
    } finally {
      await client.close();
    }
  });
});

for (
  const [kind, make] of [
    ["Streamable HTTP", (url: string) => new StreamableHttpTransport({ url })],
    ["auto", (url: string) => new AutoHttpTransport({ url })],
  ] as const
) {
  behaviour(`${kind}: a server that demands Basic credentials gets them from the URL's userinfo`, async () => {
    const fixture = await startPortFixture("secret-echo-server.mjs", { args: ["--http"] });
    const client = new Client(clientInfo, { requestTimeoutMs: 20_000 });
    try {
      const transport: Transport = make(`${withUserinfo(fixture.origin)}/mcp`);
      assert.ok(!transport.description.includes("PASSWORD123"), transport.description);
      await hangGuard(client.connect(transport), 10_000, "connect");
      assert.equal(textOf(await client.callTool("whoami", {})), "u");
    } finally {
      await client.close();
      await fixture.stop();
    }
  });
}

behaviour("a URL with credentials and an Authorization header too is refused (bad-url), saying which to keep, the password not shown", async () => {
  for (
    const make of [
      (url: string, headers: Record<string, string>) => new StreamableHttpTransport({ url, headers }),
      (url: string, headers: Record<string, string>) => new SseLegacyTransport({ url, headers }),
      (url: string, headers: Record<string, string>) => new AutoHttpTransport({ url, headers }),
    ]
  ) {
    assert.throws(() => make("http://u:PASSWORD123@127.0.0.1:9/mcp", { authorization: "Bearer other-token-123" }), (error: unknown) => {
      assert.ok(error instanceof TransportError);
      assert.equal(error.code, "bad-url");
      assert.match(error.message, /keep one/);
      assert.ok(!error.message.includes("PASSWORD123"), error.message);
      return true;
    });
  }
});
