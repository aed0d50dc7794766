// Grants without a browser against real token endpoints on loopback: client credentials, JWT
// bearer (workload identity), token exchange to an ID-JAG then JWT bearer (enterprise-managed) —
// OAuth 2.1 4.2, RFC 7523 2.1, RFC 8693 2.1, SEP-990, SEP-1933.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { AuthorizationTarget } from "../../src/auth/discovery.ts";
import { AuthError } from "../../src/auth/errors.ts";
import { clientCredentialsGrant, enterpriseManagedGrant, GRANT_JWT_BEARER, GRANT_TOKEN_EXCHANGE, jwtBearerGrant, TOKEN_TYPE } from "../../src/auth/grants.ts";
import type { GrantContext } from "../../src/auth/oauth-fetch.ts";
import { type ClientAuthentication, OAuthError } from "../../src/auth/token-endpoint.ts";
import { rejection } from "../support/rejection.ts";
import { type LoopbackServer, withLoopbackServer } from "./loopback-server.ts";

const TOKEN = { access_token: "at-1", token_type: "Bearer", expires_in: 60 };

function targetOf(server: LoopbackServer, resource = "https://mcp.example.com/mcp"): AuthorizationTarget {
  return {
    serverUrl: new URL(resource),
    resource,
    issuer: server.origin,
    metadata: { issuer: server.origin, token_endpoint: `${server.origin}/token` },
    legacy: false,
  };
}

function contextOf(target: AuthorizationTarget, resolved: ClientAuthentication, scope?: string): GrantContext & { resolvedCount: () => number } {
  let count = 0;
  return {
    target,
    ...(scope !== undefined ? { scope } : {}),
    client: () => {
      count++;
      return Promise.resolve(resolved);
    },
    fetch: (input, init) => fetch(input, init),
    resolvedCount: () => count,
  };
}

test("client credentials: grant_type, scope and resource sent, the resolved client authenticates with Basic", async () => {
  await withLoopbackServer(() => ({ body: TOKEN }), async (server) => {
    const context = contextOf(targetOf(server), { method: "client_secret_basic", clientId: "cc", clientSecret: "secret" }, "read write");
    const tokens = await clientCredentialsGrant()(context);
    assert.equal(tokens.accessToken, "at-1");
    assert.equal(context.resolvedCount(), 1);
    const [seen] = server.seen;
    assert.equal(seen!.form.get("grant_type"), "client_credentials");
    assert.equal(seen!.form.get("scope"), "read write");
    assert.equal(seen!.form.get("resource"), "https://mcp.example.com/mcp");
    assert.equal(seen!.headers.authorization, `Basic ${btoa("cc:secret")}`);
  });
});

test("client credentials refuses a public client (method none) before any request", async () => {
  await withLoopbackServer(() => ({ body: TOKEN }), async (server) => {
    const error = await rejection(clientCredentialsGrant()(contextOf(targetOf(server), { method: "none", clientId: "pub" })));
    assert.ok(error instanceof AuthError);
    assert.equal(error.code, "registration-failed");
    assert.match(error.message, /needs a client secret or a private key for client "pub"/);
    assert.equal(server.seen.length, 0);
  });
});

test("JWT bearer (workload identity): the assertion is fetched anew each time; a refusal is surfaced, not retried", async () => {
  let minted = 0;
  await withLoopbackServer(
    (
      request,
    ) => (request.form.get("assertion") === "jwt-2" ? { status: 400, body: { error: "invalid_grant", error_description: "expired" } } : { body: TOKEN }),
    async (server) => {
      const grant = jwtBearerGrant({ assertion: () => `jwt-${++minted}`, client: { method: "none", clientId: "workload" } });
      const context = contextOf(targetOf(server), { method: "none", clientId: "unused" });
      await grant(context);
      const [first] = server.seen;
      assert.equal(first!.form.get("grant_type"), GRANT_JWT_BEARER);
      assert.equal(first!.form.get("assertion"), "jwt-1");
      assert.equal(first!.form.get("client_id"), "workload");
      assert.equal(first!.form.has("scope"), false, "no scope selected, none sent");
      assert.equal(context.resolvedCount(), 0, "a configured client is used, none resolved");

      const error = await rejection(grant(context));
      assert.ok(error instanceof OAuthError);
      assert.equal(error.error, "invalid_grant");
      assert.equal(server.seen.length, 2, "one request per authorization, no retry");
    },
  );
});

test("enterprise-managed: IdP token exchange for an ID-JAG (audience = issuer, resource), then JWT bearer at the AS", async () => {
  await withLoopbackServer(() => ({
    body: { access_token: "the-id-jag", issued_token_type: TOKEN_TYPE.idJag, token_type: "N_A" },
  }), async (idp) => {
    await withLoopbackServer(() => ({ body: TOKEN }), async (as) => {
      const target = targetOf(as);
      const tokens = await enterpriseManagedGrant({
        idp: { tokenEndpoint: `${idp.origin}/token`, client: { method: "none", clientId: "idp-client" }, subjectToken: "user-id-token" },
      })(contextOf(target, { method: "client_secret_basic", clientId: "mcp-client", clientSecret: "s" }, "read"));
      assert.equal(tokens.accessToken, "at-1");

      const exchange = idp.seen[0]!.form;
      assert.equal(exchange.get("grant_type"), GRANT_TOKEN_EXCHANGE);
      assert.equal(exchange.get("subject_token"), "user-id-token");
      assert.equal(exchange.get("subject_token_type"), TOKEN_TYPE.idToken);
      assert.equal(exchange.get("requested_token_type"), TOKEN_TYPE.idJag);
      assert.equal(exchange.get("audience"), as.origin);
      assert.equal(exchange.get("resource"), "https://mcp.example.com/mcp");
      assert.equal(exchange.get("client_id"), "idp-client");
      assert.equal(exchange.get("scope"), "read");

      const bearer = as.seen[0]!;
      assert.equal(bearer.form.get("grant_type"), GRANT_JWT_BEARER);
      assert.equal(bearer.form.get("assertion"), "the-id-jag");
      assert.equal(bearer.form.get("resource"), "https://mcp.example.com/mcp");
      assert.equal(bearer.headers.authorization, `Basic ${btoa("mcp-client:s")}`);
    });
  });
});

test("enterprise-managed: an IdP that issues something other than an ID-JAG is refused before the AS is asked", async () => {
  await withLoopbackServer(() => ({
    body: { access_token: "x", issued_token_type: TOKEN_TYPE.accessToken, token_type: "Bearer" },
  }), async (idp) => {
    await withLoopbackServer(() => ({ body: TOKEN }), async (as) => {
      const error = await rejection(
        enterpriseManagedGrant({
          idp: { tokenEndpoint: `${idp.origin}/token`, client: { method: "none", clientId: "c" }, subjectToken: "t" },
        })(contextOf(targetOf(as), { method: "client_secret_post", clientId: "m", clientSecret: "s" })),
      );
      assert.ok(error instanceof AuthError);
      assert.match(error.message, /issued a urn:ietf:params:oauth:token-type:access_token instead of an ID-JAG/);
      assert.equal(as.seen.length, 0);
    });
  });
});

test("an authorization server without a token_endpoint is a discovery-failed AuthError", async () => {
  await withLoopbackServer(() => ({ body: TOKEN }), async (server) => {
    const target = { ...targetOf(server), metadata: { issuer: server.origin } };
    const error = await rejection(clientCredentialsGrant()(contextOf(target, { method: "client_secret_post", clientId: "c", clientSecret: "s" })));
    assert.ok(error instanceof AuthError);
    assert.equal(error.code, "discovery-failed");
    assert.match(error.message, /no token_endpoint/);
  });
});
