// The browser page's OAuth flow in two calls (startBrowserAuthorization, then
// completeBrowserAuthorization on the redirect page) against the loopback authorization server
// fixture (test/fixtures/auth/oauth-servers.ts): a real code exchange with the PKCE verifier,
// state refusals, the URL handed back without code/state, the verifier gone after use, and the
// stored tokens used (and refreshed) by createOAuthFetch with browserAuthProvider — spec
// 2026-07-28 basic/authorization. The "browser" here follows the authorization URL with fetch.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  type BrowserAuthorizationOptions,
  browserAuthProvider,
  completeBrowserAuthorization,
  startBrowserAuthorization,
} from "../../src/auth/browser-authorization.ts";
import { AuthError } from "../../src/auth/errors.ts";
import { createOAuthFetch } from "../../src/auth/oauth-fetch.ts";
import type { WebStorage } from "../../src/auth/session-storage-token-store.ts";
import { MemoryTokenStore } from "../../src/auth/token-store.ts";
import { Client } from "../../src/client/client.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { type OAuthFixture, type OAuthFixtureOptions, startOAuthFixture } from "../fixtures/auth/oauth-servers.ts";
import { rejection } from "../support/rejection.ts";

/** A redirect page with a query of its own, which the clean URL keeps. */
const REDIRECT = "http://127.0.0.1:8976/app/callback?tab=2";

/** A Web Storage in memory: what the flow keeps between its two calls, inspectable by the test. */
class MemoryStorage implements WebStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** The browser at the authorization server: it auto-approves and redirects; the redirect's URL. */
async function follow(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  const location = response.headers.get("location");
  assert.ok(location !== null, `the authorization endpoint answered ${response.status} without a redirect`);
  return location;
}

async function withFixture(options: OAuthFixtureOptions, body: (fixture: OAuthFixture) => Promise<void>): Promise<void> {
  const fixture = await startOAuthFixture(options);
  try {
    await body(fixture);
  } finally {
    await fixture.close();
  }
}

function startOptions(fixture: OAuthFixture, store: MemoryTokenStore, pending: WebStorage): BrowserAuthorizationOptions {
  return { serverUrl: fixture.mcpUrl, redirectUri: REDIRECT, store, pending };
}

test("start then complete: the code is exchanged with the PKCE verifier, the tokens stored, and the clean URL has no code or state", async () => {
  await withFixture({}, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const url = await startBrowserAuthorization(startOptions(fixture, store, pending));

    assert.equal(url.origin + url.pathname, `${fixture.issuer}/authorize`);
    assert.equal(url.searchParams.get("redirect_uri"), REDIRECT);
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.equal(url.searchParams.get("resource"), fixture.mcpUrl);
    assert.equal(fixture.registrations.length, 1, "registered once, dynamically");
    assert.equal(fixture.registrations[0]!.application_type, "web");
    assert.deepEqual(fixture.registrations[0]!.redirect_uris, [REDIRECT]);
    assert.equal((await store.getClient(fixture.issuer))?.clientId, url.searchParams.get("client_id"), "the registration is kept in the store");
    assert.equal(pending.items.size, 1, "the verifier waits in the pending storage");
    const [verifier] = [...pending.items.values()].map((text) => (JSON.parse(text) as { verifier: string }).verifier);
    assert.ok(verifier !== undefined && !url.href.includes(verifier), "the verifier is not in the authorization URL");

    const callback = await follow(url);
    const done = await completeBrowserAuthorization({ callbackUrl: callback, store, pending });

    const exchange = fixture.tokenRequests.at(-1)!.form;
    assert.equal(exchange.get("grant_type"), "authorization_code");
    assert.equal(exchange.get("code_verifier"), verifier);
    assert.equal(createHash("sha256").update(verifier!).digest("base64url"), url.searchParams.get("code_challenge"));
    assert.equal(exchange.get("redirect_uri"), REDIRECT);
    assert.equal(exchange.get("resource"), fixture.mcpUrl);
    assert.ok(fixture.tokens.has(done.tokens.accessToken), "the tokens are the ones the authorization server issued");
    assert.equal(done.serverUrl, fixture.mcpUrl);
    assert.equal((await store.getTokens(fixture.mcpUrl, fixture.issuer))?.tokens.accessToken, done.tokens.accessToken);

    assert.equal(done.cleanUrl, REDIRECT, "code, state and iss removed; the page's own query kept");
    assert.match(callback, /[?&]code=/);
    assert.equal(pending.items.size, 0, "the verifier is removed after use");
  });
});

test("a state this tab did not start is refused (state-mismatch) and no token request is made", async () => {
  await withFixture({}, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const callback = new URL(await follow(await startBrowserAuthorization(startOptions(fixture, store, pending))));
    callback.searchParams.set("state", "forged-by-another-site");
    const error = await rejection(completeBrowserAuthorization({ callbackUrl: callback, store, pending }));
    assert.ok(error instanceof AuthError, String(error));
    assert.equal(error.code, "state-mismatch");
    assert.equal(fixture.tokenRequests.length, 0);
    assert.equal(await store.getTokens(fixture.mcpUrl), undefined);

    callback.searchParams.delete("state");
    const missing = await rejection(completeBrowserAuthorization({ callbackUrl: callback, store, pending }));
    assert.equal((missing as AuthError).code, "state-mismatch");
    assert.match((missing as AuthError).message, /state is missing/);
  });
});

test("a redirect used twice is refused: the verifier was removed by the first completion", async () => {
  await withFixture({}, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const callback = await follow(await startBrowserAuthorization(startOptions(fixture, store, pending)));
    await completeBrowserAuthorization({ callbackUrl: callback, store, pending });
    const again = await rejection(completeBrowserAuthorization({ callbackUrl: callback, store, pending }));
    assert.equal((again as AuthError).code, "state-mismatch");
    assert.equal(fixture.tokenRequests.length, 1, "the code was redeemed once");
  });
});

test("an iss from another authorization server is refused after the pending entry is used up", async () => {
  await withFixture({ iss: "wrong" }, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const callback = await follow(await startBrowserAuthorization(startOptions(fixture, store, pending)));
    const error = await rejection(completeBrowserAuthorization({ callbackUrl: callback, store, pending }));
    assert.equal((error as AuthError).code, "iss-mismatch");
    assert.equal(pending.items.size, 0);
    assert.equal(fixture.tokenRequests.length, 0);
  });
});

test("a refusal (error=access_denied) is authorization-denied, and the clean URL drops error and error_description too", async () => {
  await withFixture({}, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const callback = new URL(await follow(await startBrowserAuthorization(startOptions(fixture, store, pending))));
    callback.searchParams.delete("code");
    callback.searchParams.set("error", "access_denied");
    callback.searchParams.set("error_description", "the user said no");
    const error = await rejection(completeBrowserAuthorization({ callbackUrl: callback, store, pending }));
    assert.equal((error as AuthError).code, "authorization-denied");
    assert.match(error.message, /access_denied \(the user said no\)/);
    assert.equal(pending.items.size, 0, "the verifier is removed on a refusal too");
  });
});

test("a response at another page than the redirect URI, or long after the start, is refused", async () => {
  await withFixture({}, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const callback = new URL(await follow(await startBrowserAuthorization(startOptions(fixture, store, pending))));
    callback.pathname = "/elsewhere";
    const elsewhere = await rejection(completeBrowserAuthorization({ callbackUrl: callback, store, pending }));
    assert.equal((elsewhere as AuthError).code, "interaction-failed");
    assert.match(elsewhere.message, /not to the redirect URI/);

    const late = new URL(await follow(await startBrowserAuthorization(startOptions(fixture, store, pending))));
    const [key, text] = [...pending.items][0]!;
    pending.items.set(key, JSON.stringify({ ...JSON.parse(text), startedAt: 0 })); // started in 1970
    const expired = await rejection(completeBrowserAuthorization({ callbackUrl: late, store, pending }));
    assert.equal((expired as AuthError).code, "interaction-failed");
    assert.match(expired.message, /start it again/);
    assert.equal(fixture.tokenRequests.length, 0);
  });
});

test("a redirect URI that is neither https nor loopback is refused (unsafe-url) before any request", async () => {
  await withFixture({}, async (fixture) => {
    const options = { ...startOptions(fixture, new MemoryTokenStore(), new MemoryStorage()), redirectUri: "http://app.example.com/callback" };
    const error = await rejection(startBrowserAuthorization(options));
    assert.equal((error as AuthError).code, "unsafe-url");
    assert.deepEqual([...fixture.as.seen, ...fixture.rs.seen], []);
  });
});

test("a pre-registered public client id is used as given: no registration", async () => {
  await withFixture({}, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const url = await startBrowserAuthorization({ ...startOptions(fixture, store, pending), clientId: "page-client", scope: "tools:read" });
    assert.equal(url.searchParams.get("client_id"), "page-client");
    assert.equal(url.searchParams.get("scope"), "tools:read");
    assert.equal(fixture.registrations.length, 0);
    const done = await completeBrowserAuthorization({ callbackUrl: await follow(url), store, pending });
    assert.equal(done.tokens.scope, "tools:read");
    assert.equal(fixture.tokenRequests[0]!.form.get("client_id"), "page-client");
  });
});

test("the stored tokens serve the transport through browserAuthProvider, refreshed when they expire, with no new authorization", async () => {
  await withFixture({ refreshTokens: true, expiresIn: 30 }, async (fixture) => {
    const store = new MemoryTokenStore();
    const pending = new MemoryStorage();
    const url = await startBrowserAuthorization(startOptions(fixture, store, pending));
    const first = await completeBrowserAuthorization({ callbackUrl: await follow(url), store, pending });
    fixture.options.expiresIn = 3600; // the refreshed tokens live long: one refresh

    // 30 s of life is within the default 60 s refresh skew: the first request refreshes
    const oauthFetch = createOAuthFetch({ serverUrl: fixture.mcpUrl, provider: browserAuthProvider({ redirectUri: REDIRECT, store }) });
    const client = new Client({ name: "browser-page", version: "1.0.0" });
    try {
      await client.connect(new StreamableHttpTransport({ url: fixture.mcpUrl, fetch: oauthFetch }));
      assert.deepEqual((await client.listTools()).map((tool) => tool.name), ["whoami"]);
    } finally {
      await client.close();
    }
    assert.equal(fixture.authorizations.length, 1, "no second authorization");
    assert.equal(fixture.registrations.length, 1, "the stored registration is reused for the refresh");
    assert.deepEqual(fixture.tokenRequests.map((request) => request.form.get("grant_type")), ["authorization_code", "refresh_token"]);
    const now = await store.getTokens(fixture.mcpUrl);
    assert.notEqual(now?.tokens.accessToken, first.tokens.accessToken, "the refreshed tokens are stored");
  });
});

test("a new authorization the transport would need is an AuthError telling the page to start the flow", async () => {
  await withFixture({}, async (fixture) => {
    const oauthFetch = createOAuthFetch({ serverUrl: fixture.mcpUrl, provider: browserAuthProvider({ redirectUri: REDIRECT, store: new MemoryTokenStore() }) });
    const client = new Client({ name: "browser-page", version: "1.0.0" });
    try {
      const error = await rejection(client.connect(new StreamableHttpTransport({ url: fixture.mcpUrl, fetch: oauthFetch })));
      const found = error instanceof AuthError ? error : (error as { cause?: unknown }).cause;
      assert.ok(found instanceof AuthError, String(error));
      assert.equal(found.code, "interaction-failed");
      assert.match(found.message, /startBrowserAuthorization/);
    } finally {
      await client.close();
    }
  });
});

test("with loginRequired, a page without tokens learns it before any request to the authorization server, with the challenge to start from", async () => {
  await withFixture({ challengeScope: "tools:read" }, async (fixture) => {
    let challenged: { scope?: string; resourceMetadata?: string } | undefined;
    const oauthFetch = createOAuthFetch({
      serverUrl: fixture.mcpUrl,
      provider: browserAuthProvider({ redirectUri: REDIRECT, store: new MemoryTokenStore() }),
      loginRequired: (challenge) => {
        challenged = challenge;
        return new AuthError("sign in first", "interaction-failed");
      },
    });
    const response = await rejection(oauthFetch(fixture.mcpUrl, { method: "POST", body: "{}" }));
    assert.equal((response as AuthError).message, "sign in first");
    assert.equal(challenged?.scope, "tools:read");
    assert.match(challenged?.resourceMetadata ?? "", /oauth-protected-resource/);
    assert.deepEqual(fixture.as.seen, [], "no discovery or registration at the authorization server");
  });
});

const hasSessionStorage = typeof (globalThis as { sessionStorage?: unknown }).sessionStorage === "object";

test(
  "by default the verifier waits in sessionStorage (Deno has one)",
  { skip: hasSessionStorage ? false : "this runtime has no sessionStorage (Node); the browser test runs the default there" },
  async () => {
    await withFixture({}, async (fixture) => {
      const store = new MemoryTokenStore();
      const storage = (globalThis as unknown as { sessionStorage: Storage }).sessionStorage;
      const before = storage.length;
      const url = await startBrowserAuthorization({ serverUrl: fixture.mcpUrl, redirectUri: REDIRECT, store });
      assert.equal(storage.length, before + 1);
      const done = await completeBrowserAuthorization({ callbackUrl: await follow(url), store });
      assert.equal(storage.length, before, "removed after use");
      assert.equal(done.cleanUrl, REDIRECT);
    });
  },
);

test(
  "without sessionStorage and no pending storage given, the start is an AuthError unsupported-runtime naming what is missing",
  { skip: hasSessionStorage ? "this runtime has sessionStorage" : false },
  async () => {
    const error = await rejection(startBrowserAuthorization({ serverUrl: "http://127.0.0.1:1/mcp", redirectUri: REDIRECT, store: new MemoryTokenStore() }));
    assert.ok(error instanceof AuthError, String(error));
    assert.equal(error.code, "unsupported-runtime");
    assert.match(error.message, /sessionStorage/);
  },
);
