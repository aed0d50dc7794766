// With telemetry on, the OAuth steps of an HTTP server are spans (`mcp oauth {step}`), and no
// token is in any attribute — against the loopback authorization server and protected MCP
// endpoint of test/fixtures/auth/oauth-servers.ts, with the host's own file token store.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createOAuthFetch } from "../../src/auth/oauth-fetch.ts";
import { FileTokenStore } from "../../src/auth/token-store.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { startOAuthFixture } from "../fixtures/auth/oauth-servers.ts";
import { behaviour } from "../support/behaviour.ts";
import { serverConfig } from "../support/server-config.ts";
import { spanRecorder } from "../support/spans.ts";

const REDIRECT = "http://127.0.0.1:8976/callback";

behaviour("the OAuth steps of a server are spans, and no token is in any attribute", async () => {
  const home = mkdtempSync(join(tmpdir(), "mcpwire-oauth-otel-"));
  const before = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = home; // where the host's token store lives
  const fixture = await startOAuthFixture({ refreshTokens: true });
  const recorder = spanRecorder();
  let manager: McpManager | undefined;
  const tokens: string[] = [];
  try {
    // `mcpwire auth login`, as a test: the code flow once, its tokens saved in the file store.
    const store = new FileTokenStore({ directory: join(home, "mcpwire", "auth") });
    const login = createOAuthFetch({
      serverUrl: fixture.mcpUrl,
      provider: {
        redirectUri: REDIRECT,
        clientMetadata: { client_name: "mcpwire test", redirect_uris: [REDIRECT] },
        store,
        async openAuthorizationUrl(url) {
          const response = await fetch(url, { redirect: "manual" });
          await response.body?.cancel();
          return response.headers.get("location") ?? "";
        },
      },
    });
    const stored = await login.authorize();
    tokens.push(stored.accessToken, stored.refreshToken!);
    // The server forgets that access token: the manager's first request meets a 401 and refreshes.
    fixture.tokens.clear();

    const server = serverConfig({ name: "guarded", transport: "http", url: fixture.mcpUrl });
    manager = new McpManager({ servers: [server], warnings: [] }, {
      connectRetries: 0,
      probeIntervalMs: 600_000,
      eraCache: false,
      telemetry: { tracer: recorder.tracer, capture: { arguments: true, results: true } },
    });
    await manager.start();
    assert.equal(manager.status()[0]!.state, "ready", manager.status()[0]!.lastError);
    tokens.push(...fixture.tokens.keys());
  } finally {
    await manager?.close();
    await fixture.close();
    if (before === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = before;
    rmSync(home, { recursive: true, force: true });
  }
  const names = recorder.spans().map((span) => span.name);
  assert.ok(names.includes("mcp oauth challenge"), names.join(", "));
  assert.ok(names.includes("mcp oauth refreshed"), names.join(", "));
  const refreshed = recorder.spans().find((span) => span.name === "mcp oauth refreshed")!;
  assert.equal(refreshed.attributes["mcp.server"], "guarded");
  assert.equal(typeof refreshed.attributes["mcpwire.oauth.issuer"], "string");
  assert.ok(names.includes("mcp connect"), names.join(", "));
  for (const text of recorder.allText()) {
    for (const token of tokens) assert.ok(!text.includes(token), `an attribute holds a token: ${text}`);
  }
});
