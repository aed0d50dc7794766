// `mcpwire auth login|logout|status` in process against the loopback OAuth fixture: the redirect
// arrives at the real 127.0.0.1 listener (runtime.serveLoopback), the tokens land in the store,
// and a host connection then uses them without a login; then the real command as child processes
// — spec 2025-11-25 basic/authorization.

import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { AuthError } from "../../src/auth/errors.ts";
import { serverAuthFetch } from "../../src/auth/server-auth.ts";
import { MemoryTokenStore } from "../../src/auth/token-store.ts";
import { UsageError } from "../../src/cli/args.ts";
import { auth } from "../../src/cli/verbs/auth-verb.ts";
import { startOAuthFixture } from "../fixtures/auth/oauth-servers.ts";
import { startMcpwire as mcpwire } from "../support/cli-runner.ts";
import { until } from "../support/polling.ts";
import { rejection } from "../support/rejection.ts";

async function withConfig(yaml: string, body: (file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "mcpwire-auth-"));
  try {
    const file = join(dir, "mcpwire.yaml");
    await writeFile(file, yaml);
    await body(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ping = { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' };

test("a host connection without tokens says to run auth login and registers nowhere; after login it uses the stored tokens", async () => {
  const fixture = await startOAuthFixture({ challengeScope: "mcp" });
  try {
    await withConfig(`mcp_servers:\n  remote:\n    url: ${fixture.mcpUrl}\n    auth:\n      redirect_port: 8976\n`, async (file) => {
      const store = new MemoryTokenStore();
      const hostFetch = serverAuthFetch("remote", fixture.mcpUrl, { enabled: true }, { store })!;
      const error = await rejection(hostFetch(fixture.mcpUrl, ping));
      assert.ok(error instanceof AuthError && error.code === "interaction-failed", String(error));
      assert.match(error.message, /mcpwire auth login remote/);
      assert.equal(fixture.registrations.length, 0);
      assert.equal(fixture.as.seen.length, 0); // not even discovery

      const visited: URL[] = [];
      const code = await auth(["login", "remote", "--config", file, "--redirect-port", "0"], {
        store,
        // the "browser": follows the authorization server's redirect to our loopback listener
        browser: async (url) => {
          visited.push(url);
          const response = await fetch(url);
          assert.match(await response.text(), /authorization received/);
        },
      });
      assert.equal(code, 0);
      assert.equal(visited.length, 1);
      assert.match(fixture.authorizations[0]?.get("redirect_uri") ?? "", /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal(fixture.authorizations[0]?.get("scope"), "mcp"); // from the probe's 401 challenge
      const saved = await store.getTokens(fixture.mcpUrl);
      assert.equal(saved?.issuer, fixture.issuer);

      const again = serverAuthFetch("remote", fixture.mcpUrl, { enabled: true }, { store })!;
      const response = await again(fixture.mcpUrl, ping);
      assert.equal(response.status, 200);
      await response.body?.cancel();

      assert.equal(await auth(["logout", "remote", "--config", file], { store }), 0);
      assert.equal(await store.getTokens(fixture.mcpUrl), undefined);
    });
  } finally {
    await fixture.close();
  }
});

test("auth login refuses a stdio server, an unknown one and auth: false, by name", async () => {
  await withConfig(`mcp_servers:\n  local:\n    command: node\n  off:\n    url: http://127.0.0.1:9/mcp\n    auth: false\n`, async (file) => {
    const store = new MemoryTokenStore();
    for (const [name, pattern] of [["local", /stdio server/], ["nope", /no server "nope".*local, off/], ["off", /auth: false/]] as const) {
      const error = await rejection(auth(["login", name, "--config", file], { store }));
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, pattern);
    }
    assert.equal(serverAuthFetch("off", "http://127.0.0.1:9/mcp", { enabled: false }), undefined);
  });
});

// --- the real command, as child processes of the runtime under test -------------------------

test("mcpwire servers says to log in; auth login (--no-browser, the printed URL visited) stores 0600 tokens; then the server is ready", async () => {
  const fixture = await startOAuthFixture({ challengeScope: "mcp" });
  try {
    await withConfig(`mcp_servers:\n  remote:\n    url: ${fixture.mcpUrl}\n    connect_timeout: 20\n`, async (file) => {
      const env = { XDG_CONFIG_HOME: join(file, "..", "xdg") };
      const before = mcpwire(["servers", "--config", file, "--json"], env);
      assert.notEqual(await before.code, -1);
      assert.match(before.stdout() + before.stderr(), /run `mcpwire auth login remote`/);
      assert.equal(fixture.registrations.length, 0);

      const login = mcpwire(["auth", "login", "remote", "--config", file, "--no-browser", "--redirect-port", "0", "--timeout", "60"], env);
      const url = await until("the authorization URL on stderr", () => /^\s+(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(login.stderr())?.[1]);
      const page = await fetch(url); // the user's browser: the AS redirects to mcpwire's listener
      assert.match(await page.text(), /authorization received/);
      assert.equal(await login.code, 0, login.stderr());
      assert.match(login.stdout(), /logged in to "remote" with scope "mcp"/);
      for (const token of fixture.tokens.keys()) assert.ok(!(login.stdout() + login.stderr()).includes(token), "an access token was printed");

      const tokenDir = join(env.XDG_CONFIG_HOME, "mcpwire", "auth", "tokens");
      const [name] = await readdir(tokenDir);
      assert.ok(name !== undefined);
      assert.equal((await stat(join(tokenDir, name))).mode & 0o777, 0o600);

      const status = mcpwire(["auth", "status", "--config", file, "--json"], env);
      assert.equal(await status.code, 0, status.stderr());
      const [row] = JSON.parse(status.stdout()) as { auth: string; issuer: string; scope: string }[];
      assert.deepEqual([row?.auth, row?.issuer, row?.scope], ["logged in", fixture.issuer, "mcp"]);

      const after = mcpwire(["servers", "--config", file, "--json"], env);
      assert.equal(await after.code, 0, after.stderr());
      const [server] = JSON.parse(after.stdout()) as { state: string; tools: number }[];
      assert.deepEqual([server?.state, server?.tools], ["ready", 1]);
    });
  } finally {
    await fixture.close();
  }
});
