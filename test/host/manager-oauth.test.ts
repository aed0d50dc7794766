// The manager learns the OAuth tokens of its HTTP servers as they are loaded and refreshed, so
// its redactor replaces them in every output (issue 13) — against the loopback authorization
// server and protected MCP endpoint of test/fixtures/auth/oauth-servers.ts, with the host's own
// file token store (as after `mcpwire auth login`).

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createOAuthFetch } from "../../src/auth/oauth-fetch.ts";
import { FileTokenStore } from "../../src/auth/token-store.ts";
import { REDACTED } from "../../src/common/redact.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { startOAuthFixture } from "../fixtures/auth/oauth-servers.ts";
import { behaviour } from "../support/behaviour.ts";
import { serverConfig } from "../support/server-config.ts";

const REDIRECT = "http://127.0.0.1:8976/callback";

behaviour("a token loaded from the store and the one a refresh brings are both added to the manager's redactor", async () => {
  const home = mkdtempSync(join(tmpdir(), "mcpwire-oauth-"));
  const before = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = home; // where the host's token store lives
  const fixture = await startOAuthFixture({ refreshTokens: true });
  let manager: McpManager | undefined;
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
    assert.ok(stored.refreshToken !== undefined);
    // The server forgets that access token: the manager's first request meets a 401 and refreshes.
    fixture.tokens.clear();

    const server = serverConfig({ name: "guarded", transport: "http", url: fixture.mcpUrl });
    manager = new McpManager({ servers: [server], warnings: [] }, { connectRetries: 0, probeIntervalMs: 600_000 });
    await manager.start();
    assert.equal(manager.status()[0]!.state, "ready", manager.status()[0]!.lastError);
    assert.deepEqual(fixture.tokenRequests.map((request) => request.form.get("grant_type")), ["authorization_code", "refresh_token"]);
    const fresh = [...fixture.tokens.keys()];
    assert.equal(fresh.length, 1);
    assert.notEqual(fresh[0], stored.accessToken);
    // Neither token has a shape redactText would know: only learning them makes them redacted.
    for (const token of [stored.accessToken, stored.refreshToken, fresh[0], `r-${fresh[0]}`]) {
      assert.equal(manager.redactor.redact(`sent ${token} here`), `sent ${REDACTED} here`, `the redactor does not know ${token}`);
    }
  } finally {
    await manager?.close();
    await fixture.close();
    if (before === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = before;
    rmSync(home, { recursive: true, force: true });
  }
});
