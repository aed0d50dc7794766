// The OAuth fetch wrapper end to end against a real authorization server and protected MCP
// endpoint on loopback (test/fixtures/auth/oauth-servers.ts): discovery, registration, PKCE,
// scopes, step-up, refresh, refusals — spec 2026-07-28 basic/authorization.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { AuthError } from "../../src/auth/errors.ts";
import { createOAuthFetch, type OAuthFetchOptions } from "../../src/auth/oauth-fetch.ts";
import { MemoryTokenStore } from "../../src/auth/token-store.ts";
import type { AuthProvider, PreRegisteredClient } from "../../src/auth/types.ts";
import { Client } from "../../src/client/client.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { type OAuthFixture, type OAuthFixtureOptions, startOAuthFixture } from "../fixtures/auth/oauth-servers.ts";
import { rejection } from "../support/rejection.ts";

const REDIRECT = "http://127.0.0.1:8976/callback";

interface TestProvider extends AuthProvider {
  opened: URL[];
}

/** A provider whose "user" follows the authorization URL once and hands back the redirect. */
function provider(extra: { preRegistered?: PreRegisteredClient[]; store?: MemoryTokenStore; clientMetadataUrl?: string } = {}): TestProvider {
  const opened: URL[] = [];
  return {
    opened,
    redirectUri: REDIRECT,
    clientMetadata: { client_name: "mcpwire test", redirect_uris: [REDIRECT] },
    ...(extra.clientMetadataUrl !== undefined ? { clientMetadataUrl: extra.clientMetadataUrl } : {}),
    ...(extra.preRegistered !== undefined ? { preRegistered: extra.preRegistered } : {}),
    store: extra.store ?? new MemoryTokenStore(),
    async openAuthorizationUrl(url) {
      opened.push(url);
      const response = await fetch(url, { redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      assert.ok(location !== null, `the authorization endpoint answered ${response.status} without a redirect`);
      return location;
    },
  };
}

async function withFixture(options: OAuthFixtureOptions, body: (fixture: OAuthFixture) => Promise<void>): Promise<void> {
  const fixture = await startOAuthFixture(options);
  try {
    await body(fixture);
  } finally {
    await fixture.close();
  }
}

function rpc(method: string, id = 1): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: {} }),
  };
}

function oauthFetch(fixture: OAuthFixture, p: AuthProvider, more: Partial<OAuthFetchOptions> = {}) {
  return createOAuthFetch({ serverUrl: fixture.mcpUrl, provider: p, ...more });
}

test("a 401 runs discovery, registration and the code flow with PKCE S256, state and resource, then the request succeeds with the token", async () => {
  await withFixture({ challengeScope: "mcp:read" }, async (fixture) => {
    const p = provider();
    const f = oauthFetch(fixture, p);
    const response = await f(fixture.mcpUrl, rpc("tools/list"));
    assert.equal(response.status, 200);
    assert.deepEqual(((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name), ["whoami"]);

    assert.equal(fixture.registrations.length, 1);
    assert.equal(fixture.registrations[0]!.application_type, "native"); // loopback redirect: a native app
    assert.deepEqual(fixture.registrations[0]!.grant_types, ["authorization_code", "refresh_token"]);
    assert.deepEqual(fixture.registrations[0]!.redirect_uris, [REDIRECT]);

    const [authorization] = fixture.authorizations;
    assert.equal(authorization?.get("response_type"), "code");
    assert.equal(authorization?.get("code_challenge_method"), "S256");
    assert.equal(authorization?.get("resource"), fixture.mcpUrl);
    assert.equal(authorization?.get("scope"), "mcp:read");
    assert.ok((authorization?.get("state") ?? "").length >= 32);
    const [token] = fixture.tokenRequests;
    const verifier = token?.form.get("code_verifier") ?? "";
    assert.match(verifier, /^[A-Za-z0-9\-._~]{43,128}$/);
    assert.equal(createHash("sha256").update(verifier).digest("base64url"), authorization?.get("code_challenge"));
    assert.equal(token?.form.get("resource"), fixture.mcpUrl);

    // the next request reuses the token: no second authorization
    const again = await f(fixture.mcpUrl, rpc("tools/list", 2));
    assert.equal(again.status, 200);
    await again.body?.cancel();
    assert.equal(fixture.authorizations.length, 1);
    assert.equal(p.opened.length, 1);
  });
});

test("without resource_metadata in the challenge, the path-based PRM URL is tried before the root one; an issuer with a path is tried in the spec's order", async () => {
  await withFixture({ prmInHeader: false, prmAt: "root", issuerPath: "/tenant1", metadataAt: "openid-append" }, async (fixture) => {
    const f = oauthFetch(fixture, provider());
    const response = await f(fixture.mcpUrl, rpc("tools/list"));
    assert.equal(response.status, 200);
    await response.body?.cancel();
    const rsGets = fixture.rs.seen.filter((r) => r.method === "GET").map((r) => r.url);
    assert.deepEqual(rsGets, ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]);
    const asGets = fixture.as.seen.filter((r) => r.method === "GET" && r.url.includes(".well-known")).map((r) => r.url);
    assert.deepEqual(asGets, [
      "/.well-known/oauth-authorization-server/tenant1",
      "/.well-known/openid-configuration/tenant1",
      "/tenant1/.well-known/openid-configuration",
    ]);
    // a resource at the root is sent exactly as published (no trailing slash added)
    assert.equal(fixture.authorizations[0]?.get("resource"), fixture.rs.origin);
  });
});

test("scopes: the challenge's, else the PRM's scopes_supported, else none; offline_access only when the AS lists it", async () => {
  await withFixture({ prmScopes: ["a", "b"], asScopes: ["a", "b", "offline_access"] }, async (fixture) => {
    const response = await oauthFetch(fixture, provider())(fixture.mcpUrl, rpc("tools/list"));
    await response.body?.cancel();
    assert.equal(fixture.authorizations[0]?.get("scope"), "a b offline_access");
  });
  await withFixture({ prmScopes: ["a", "offline_access"], asScopes: ["a"] }, async (fixture) => {
    const response = await oauthFetch(fixture, provider())(fixture.mcpUrl, rpc("tools/list"));
    await response.body?.cancel();
    assert.equal(fixture.authorizations[0]?.get("scope"), "a");
  });
  await withFixture({}, async (fixture) => {
    const response = await oauthFetch(fixture, provider())(fixture.mcpUrl, rpc("tools/list"));
    await response.body?.cancel();
    assert.equal(fixture.authorizations[0]?.has("scope"), false);
  });
});

test("403 insufficient_scope steps up with the union of the scopes asked before and the challenge's", async () => {
  await withFixture({ challengeScope: "read", methodScopes: { "tools/call": ["write"] } }, async (fixture) => {
    const f = oauthFetch(fixture, provider());
    const listed = await f(fixture.mcpUrl, rpc("tools/list"));
    await listed.body?.cancel();
    const called = await f(fixture.mcpUrl, rpc("tools/call", 2));
    assert.equal(called.status, 200);
    assert.match(JSON.stringify(await called.json()), /scopes: read write/);
    assert.deepEqual(fixture.authorizations.map((a) => a.get("scope")), ["read", "read write"]);
  });
});

test("step-up is bounded: at most two step-ups per request, then AuthError step-up-limit", async () => {
  await withFixture({ challengeScope: "admin", methodScopes: { "tools/list": ["admin", "root"] }, grantOnly: ["admin"] }, async (fixture) => {
    const error = await rejection(oauthFetch(fixture, provider())(fixture.mcpUrl, rpc("tools/list")));
    assert.ok(error instanceof AuthError && error.code === "step-up-limit", String(error));
    assert.match(error.message, /403 insufficient_scope \(wants "admin root"\) after 2 step-up/);
    assert.equal(fixture.authorizations.length, 3); // the 401's, then two step-ups
  });
});

test("a 403 that asks only for scopes already granted ends at once in step-up-limit, without authorizing again", async () => {
  await withFixture({ challengeScope: "admin", methodScopes: { "tools/list": ["admin"] }, alwaysForbid: true }, async (fixture) => {
    const error = await rejection(oauthFetch(fixture, provider())(fixture.mcpUrl, rpc("tools/list")));
    assert.ok(error instanceof AuthError && error.code === "step-up-limit", String(error));
    assert.match(error.message, /although the token was granted those scopes/);
    assert.equal(fixture.authorizations.length, 1);
  });
});

test("a token about to expire is refreshed before the request; a failed refresh falls back to a new authorization", async () => {
  await withFixture({ refreshTokens: true, expiresIn: 30 }, async (fixture) => {
    const f = oauthFetch(fixture, provider());
    const first = await f(fixture.mcpUrl, rpc("tools/list"));
    await first.body?.cancel();
    const second = await f(fixture.mcpUrl, rpc("tools/list", 2)); // 30 s left < the 60 s skew
    assert.equal(second.status, 200);
    await second.body?.cancel();
    assert.deepEqual(fixture.tokenRequests.map((t) => t.form.get("grant_type")), ["authorization_code", "refresh_token"]);
    assert.equal(fixture.tokenRequests[1]?.form.get("resource"), fixture.mcpUrl);
    assert.equal(fixture.authorizations.length, 1);

    fixture.options.refreshFails = true;
    const third = await f(fixture.mcpUrl, rpc("tools/list", 3));
    assert.equal(third.status, 200);
    await third.body?.cancel();
    assert.equal(fixture.authorizations.length, 2);
  });
});

test("a 401 with a refreshable token refreshes once instead of authorizing again", async () => {
  await withFixture({ refreshTokens: true }, async (fixture) => {
    const f = oauthFetch(fixture, provider());
    const first = await f(fixture.mcpUrl, rpc("tools/list"));
    await first.body?.cancel();
    fixture.tokens.clear(); // the server forgets the access token (its refresh token stays good): a 401
    const second = await f(fixture.mcpUrl, rpc("tools/list", 2));
    assert.equal(second.status, 200);
    await second.body?.cancel();
    assert.deepEqual(fixture.tokenRequests.map((t) => t.form.get("grant_type")), ["authorization_code", "refresh_token"]);
    assert.equal(fixture.authorizations.length, 1);
  });
});

test("refusals: a PRM for another resource, metadata with another issuer, a wrong, missing or normalized iss, no S256 — and no code reaches the token endpoint", async () => {
  const cases: [string, OAuthFixtureOptions, string][] = [
    ["resource", { prmResource: "https://evil.example.com/mcp" }, "resource-mismatch"],
    ["metadata issuer", { metadataIssuer: "https://attacker.example.com" }, "issuer-mismatch"],
    ["wrong iss", { iss: "wrong" }, "iss-mismatch"],
    ["unadvertised wrong iss", { iss: "wrong", issAdvertised: false }, "iss-mismatch"],
    ["missing iss", { iss: "omit" }, "iss-mismatch"],
    ["normalized iss", { iss: "normalized" }, "iss-mismatch"],
    ["no PKCE", { pkce: false }, "pkce-unsupported"],
  ];
  for (const [name, options, code] of cases) {
    await withFixture(options, async (fixture) => {
      const error = await rejection(oauthFetch(fixture, provider())(fixture.mcpUrl, rpc("tools/list")));
      assert.ok(error instanceof AuthError, `${name}: ${String(error)}`);
      assert.equal(error.code, code, `${name}: ${error.message}`);
      assert.equal(fixture.tokenRequests.length, 0, name);
    });
  }
  // absent and not advertised: proceed
  await withFixture({ iss: "omit", issAdvertised: false }, async (fixture) => {
    const response = await oauthFetch(fixture, provider())(fixture.mcpUrl, rpc("tools/list"));
    assert.equal(response.status, 200);
    await response.body?.cancel();
  });
});

test("a changed authorization server means a new registration there; the old client id is never sent to it (SEP-2352)", async () => {
  await withFixture({}, async (first) => {
    await withFixture({}, async (second) => {
      const store = new MemoryTokenStore();
      const f = createOAuthFetch({ serverUrl: first.mcpUrl, provider: provider({ store }) });
      const ok = await f(first.mcpUrl, rpc("tools/list"));
      await ok.body?.cancel();
      const oldClient = first.authorizations[0]?.get("client_id");
      // the resource now names the second AS, and forgets the first AS's tokens
      first.authorizationServerOverride = second.issuer;
      first.tokens.clear();
      // tokens issued by the second AS must be accepted by the resource: share its table
      second.tokens = first.tokens;
      const again = await f(first.mcpUrl, rpc("tools/list", 2));
      assert.equal(again.status, 200);
      await again.body?.cancel();
      assert.equal(second.registrations.length, 1);
      assert.notEqual(second.authorizations[0]?.get("client_id"), oldClient);
      assert.ok(second.tokenRequests.every((t) => t.form.get("client_id") !== oldClient));
      assert.ok((await store.getClient(first.issuer)) !== undefined && (await store.getClient(second.issuer)) !== undefined);
    });
  });
});

test("pre-registered credentials are used with their issuer only; without DCR another issuer gets a clear error", async () => {
  await withFixture({ dcr: false, authMethods: ["client_secret_basic"] }, async (fixture) => {
    const pre = [{ issuer: fixture.issuer, clientId: "pre id", clientSecret: "pre secret" }];
    const response = await oauthFetch(fixture, provider({ preRegistered: pre }))(fixture.mcpUrl, rpc("tools/list"));
    assert.equal(response.status, 200);
    await response.body?.cancel();
    assert.equal(fixture.authorizations[0]?.get("client_id"), "pre id");
    assert.match(fixture.tokenRequests[0]?.authorization ?? "", /^Basic /);

    const elsewhere = [{ issuer: "https://other.example.com", clientId: "x", clientSecret: "y" }];
    const error = await rejection(oauthFetch(fixture, provider({ preRegistered: elsewhere }))(fixture.mcpUrl, rpc("tools/list")));
    assert.ok(error instanceof AuthError && error.code === "registration-failed", String(error));
    assert.match(error.message, /https:\/\/other\.example\.com/);
    assert.match(error.message, /configure its client_id/);
  });
});

test("a Client ID Metadata Document URL is the client_id when the AS supports it (no registration), and only then", async () => {
  const metadataUrl = "https://client.example.com/meta.json";
  await withFixture({ cimd: true }, async (fixture) => {
    const response = await oauthFetch(fixture, provider({ clientMetadataUrl: metadataUrl }))(fixture.mcpUrl, rpc("tools/list"));
    assert.equal(response.status, 200);
    await response.body?.cancel();
    assert.equal(fixture.registrations.length, 0);
    assert.equal(fixture.authorizations[0]?.get("client_id"), metadataUrl);
  });
  await withFixture({}, async (fixture) => {
    const response = await oauthFetch(fixture, provider({ clientMetadataUrl: metadataUrl }))(fixture.mcpUrl, rpc("tools/list"));
    await response.body?.cancel();
    assert.equal(fixture.registrations.length, 1);
    assert.notEqual(fixture.authorizations[0]?.get("client_id"), metadataUrl);
  });
});

test("tokens in the store are used by a new wrapper without authorizing; logout forgets them", async () => {
  await withFixture({}, async (fixture) => {
    const store = new MemoryTokenStore();
    const first = await oauthFetch(fixture, provider({ store }))(fixture.mcpUrl, rpc("tools/list"));
    await first.body?.cancel();
    const p = provider({ store });
    const f = oauthFetch(fixture, p);
    const second = await f(fixture.mcpUrl, rpc("tools/list"));
    assert.equal(second.status, 200);
    await second.body?.cancel();
    assert.equal(p.opened.length, 0);
    await f.logout();
    assert.equal(await store.getTokens(fixture.mcpUrl), undefined);
    assert.equal(await f.tokens(), undefined);
  });
});

test("requests that meet the 401 together share one authorization", async () => {
  await withFixture({}, async (fixture) => {
    const p = provider();
    const f = oauthFetch(fixture, p);
    const responses = await Promise.all([1, 2, 3].map((id) => f(fixture.mcpUrl, rpc("tools/list", id))));
    for (const response of responses) {
      assert.equal(response.status, 200);
      await response.body?.cancel();
    }
    assert.equal(p.opened.length, 1);
    assert.equal(fixture.tokenRequests.length, 1);
  });
});

test("when the shared authorization fails, every waiting request gets its error and the user is asked once", async () => {
  await withFixture({ iss: "wrong" }, async (fixture) => {
    const p = provider();
    const f = oauthFetch(fixture, p);
    const outcomes = await Promise.allSettled([1, 2, 3].map((id) => f(fixture.mcpUrl, rpc("tools/list", id))));
    for (const outcome of outcomes) {
      assert.equal(outcome.status, "rejected");
      assert.ok(outcome.reason instanceof AuthError && outcome.reason.code === "iss-mismatch", String(outcome.reason));
    }
    assert.equal(p.opened.length, 1);
  });
});

test("the token is never sent to another origin", async () => {
  await withFixture({}, async (fixture) => {
    const f = oauthFetch(fixture, provider());
    const ok = await f(fixture.mcpUrl, rpc("tools/list"));
    await ok.body?.cancel();
    const other = await f(`${fixture.as.origin}/elsewhere`, { method: "GET" });
    await other.body?.cancel();
    const seen = fixture.as.seen.find((r) => r.url === "/elsewhere");
    assert.equal(seen?.headers.authorization, undefined);
  });
});

test("a Client over Streamable HTTP connects, lists and calls through the wrapper", async () => {
  await withFixture({ challengeScope: "mcp" }, async (fixture) => {
    const f = oauthFetch(fixture, provider());
    const client = new Client({ name: "oauth-test", version: "0.0.0" }, { protocol: "legacy" });
    await client.connect(new StreamableHttpTransport({ url: fixture.mcpUrl, fetch: f }));
    try {
      const tools = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["whoami"]);
      const result = await client.callTool("whoami", {});
      assert.deepEqual(result.content, [{ type: "text", text: "scopes: mcp" }]);
      assert.equal(fixture.authorizations.length, 1);
    } finally {
      await client.close();
    }
  });
});

test("an unreadable token store does not stop requests that need no authorization; it is reported", async () => {
  await withFixture({}, async (fixture) => {
    const broken = new MemoryTokenStore();
    broken.getTokens = () => Promise.reject(new Error("tokens/x.json is not JSON"));
    const events: string[] = [];
    const f = createOAuthFetch({ serverUrl: fixture.mcpUrl, provider: provider({ store: broken }), onEvent: (event) => events.push(event.kind) });
    const response = await f(`${fixture.rs.origin}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(response.status, 200);
    await response.body?.cancel();
    assert.deepEqual(events, ["store-unreadable"]);
  });
});
