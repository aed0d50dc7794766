// Token requests against a real token endpoint on loopback: client authentication (Basic header
// encoding, post, none, private_key_jwt), resource, errors, DPoP nonce retry — RFC 6749 2.3 and 5,
// RFC 7523 2.2, RFC 8707, RFC 9449 8.

import assert from "node:assert/strict";
import { test } from "node:test";
import { base64UrlDecodeText } from "../../src/auth/base64url.ts";
import { DpopSigner } from "../../src/auth/dpop.ts";
import { decodeJwt, generateSigningKeyPair, importPublicKey, publicJwk, verifyJwt } from "../../src/auth/jwt.ts";
import { CLIENT_ASSERTION_TYPE, OAuthError, requestToken } from "../../src/auth/token-endpoint.ts";
import { rejection } from "../support/rejection.ts";
import { withLoopbackServer } from "./loopback-server.ts";

const TOKEN = { access_token: "at-123", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-456", scope: "read" };

test("client_secret_basic form-urlencodes id and secret before base64 and keeps them out of the body", async () => {
  await withLoopbackServer(() => ({ body: TOKEN }), async (server) => {
    const before = Date.now();
    const tokens = await requestToken({
      tokenEndpoint: `${server.origin}/token`,
      client: { method: "client_secret_basic", clientId: "my client:1", clientSecret: "s3cr%t+/é" },
      params: { grant_type: "authorization_code", code: "c0de", code_verifier: "v", redirect_uri: "http://127.0.0.1/cb" },
      resource: "https://mcp.example.com/mcp",
    });
    assert.equal(tokens.accessToken, "at-123");
    assert.equal(tokens.tokenType, "Bearer");
    assert.equal(tokens.refreshToken, "rt-456");
    assert.equal(tokens.scope, "read");
    assert.ok(tokens.expiresAt !== undefined && tokens.expiresAt >= before + 3_600_000);

    const [seen] = server.seen;
    assert.equal(seen?.method, "POST");
    assert.equal(seen?.url, "/token");
    assert.match(seen!.headers["content-type"]!, /^application\/x-www-form-urlencoded/);
    const basic = seen!.headers.authorization!;
    assert.match(basic, /^Basic [A-Za-z0-9+/]+=*$/);
    const decoded = new TextDecoder().decode(Uint8Array.from(atob(basic.slice(6)), (c) => c.charCodeAt(0)));
    assert.equal(decoded, "my+client%3A1:s3cr%25t%2B%2F%C3%A9");
    const [id, secret] = decoded.split(":").map((part) => decodeURIComponent(part!.replace(/\+/g, " ")));
    assert.deepEqual([id, secret], ["my client:1", "s3cr%t+/é"]);
    assert.equal(seen!.form.get("grant_type"), "authorization_code");
    assert.equal(seen!.form.get("code"), "c0de");
    assert.equal(seen!.form.get("resource"), "https://mcp.example.com/mcp");
    assert.equal(seen!.form.has("client_secret"), false);
    assert.equal(seen!.form.has("client_id"), false);
  });
});

test("client_secret_post sends id and secret in the body; none sends only the id", async () => {
  await withLoopbackServer(() => ({ body: TOKEN }), async (server) => {
    await requestToken({
      tokenEndpoint: `${server.origin}/token`,
      client: { method: "client_secret_post", clientId: "cid", clientSecret: "sec" },
      params: { grant_type: "client_credentials", scope: "a b" },
    });
    await requestToken({
      tokenEndpoint: `${server.origin}/token`,
      client: { method: "none", clientId: "public-client" },
      params: { grant_type: "refresh_token", refresh_token: "rt" },
    });
    const [post, none] = server.seen;
    assert.equal(post!.headers.authorization, undefined);
    assert.equal(post!.form.get("client_id"), "cid");
    assert.equal(post!.form.get("client_secret"), "sec");
    assert.equal(post!.form.get("scope"), "a b");
    assert.equal(post!.form.has("resource"), false);
    assert.equal(none!.headers.authorization, undefined);
    assert.equal(none!.form.get("client_id"), "public-client");
    assert.equal(none!.form.has("client_secret"), false);
    assert.equal(none!.form.get("refresh_token"), "rt");
  });
});

test("private_key_jwt sends a client assertion that verifies with the public key, aud = issuer", async () => {
  const pair = await generateSigningKeyPair("ES256");
  const publicKey = await importPublicKey(await publicJwk(pair.publicKey), "ES256");
  await withLoopbackServer(() => ({ body: TOKEN }), async (server) => {
    await requestToken({
      tokenEndpoint: `${server.origin}/token`,
      issuer: server.origin,
      client: { method: "private_key_jwt", clientId: "jwt-client", privateKey: pair.privateKey, keyId: "k1", algorithm: "ES256" },
      params: { grant_type: "client_credentials" },
    });
    const form = server.seen[0]!.form;
    assert.equal(form.get("client_id"), "jwt-client");
    assert.equal(form.get("client_assertion_type"), CLIENT_ASSERTION_TYPE);
    const verified = await verifyJwt(form.get("client_assertion")!, publicKey);
    assert.ok(verified, "the assertion's ES256 signature verifies");
    assert.deepEqual(verified.header, { typ: "JWT", kid: "k1", alg: "ES256" });
    const claims = verified.payload;
    assert.equal(claims.iss, "jwt-client");
    assert.equal(claims.sub, "jwt-client");
    assert.equal(claims.aud, server.origin);
    assert.equal(typeof claims.jti, "string");
    assert.ok(typeof claims.exp === "number" && typeof claims.iat === "number" && claims.exp > claims.iat);
  });
});

test("an OAuth error answer becomes an OAuthError with code, description, status and endpoint, no secret", async () => {
  await withLoopbackServer(
    () => ({ status: 400, body: { error: "invalid_grant", error_description: "code was already used" } }),
    async (server) => {
      const error = await rejection(requestToken({
        tokenEndpoint: `${server.origin}/token`,
        client: { method: "client_secret_post", clientId: "cid", clientSecret: "very-secret-value" },
        params: { grant_type: "authorization_code", code: "the-code" },
      }));
      assert.ok(error instanceof OAuthError);
      assert.equal(error.error, "invalid_grant");
      assert.equal(error.errorDescription, "code was already used");
      assert.equal(error.status, 400);
      assert.equal(error.endpoint, `${server.origin}/token`);
      assert.match(error.message, /invalid_grant \(code was already used\), HTTP 400; .*authorize again/);
      assert.doesNotMatch(error.message, /very-secret-value|the-code/);
    },
  );
});

test("an error description that echoes a secret is redacted in the OAuthError", async () => {
  await withLoopbackServer(
    (request) => ({
      status: 400,
      body: { error: "invalid_grant", error_description: `refresh token ${request.form.get("refresh_token")} is revoked` },
    }),
    async (server) => {
      const error = await rejection(requestToken({
        tokenEndpoint: `${server.origin}/token`,
        client: { method: "none", clientId: "c" },
        params: { grant_type: "refresh_token", refresh_token: "rt-very-secret-1" },
      }));
      assert.ok(error instanceof OAuthError);
      assert.equal(error.errorDescription, "refresh token [redacted] is revoked");
      assert.doesNotMatch(error.message, /rt-very-secret-1/);
    },
  );
});

test("a malformed answer is an invalid_response OAuthError: no JSON, no token_type", async () => {
  let answer = 0;
  await withLoopbackServer(
    () => (++answer === 1 ? { status: 502, body: "<html>bad gateway</html>" } : { body: { access_token: "x" } }),
    async (server) => {
      const request = {
        tokenEndpoint: `${server.origin}/token`,
        client: { method: "none", clientId: "c" } as const,
        params: { grant_type: "client_credentials" },
      };
      const noJson = await rejection(requestToken(request));
      assert.ok(noJson instanceof OAuthError);
      assert.equal(noJson.error, "invalid_response");
      assert.equal(noJson.status, 502);
      assert.match(noJson.message, /HTTP 502 and no OAuth error/);
      const noType = await rejection(requestToken(request));
      assert.ok(noType instanceof OAuthError);
      assert.equal(noType.error, "invalid_response");
      assert.match(noType.message, /has no token_type/);
    },
  );
});

test("DPoP: a proof for POST to the endpoint goes along; use_dpop_nonce is retried once with the nonce", async () => {
  const signer = await DpopSigner.generate("ES256");
  await withLoopbackServer((request) => {
    const proof = decodeJwt(request.headers.dpop!);
    if (proof.payload.nonce !== "n-1") {
      return { status: 400, headers: { "DPoP-Nonce": "n-1" }, body: { error: "use_dpop_nonce" } };
    }
    return { body: { ...TOKEN, token_type: "DPoP" } };
  }, async (server) => {
    const tokens = await requestToken({
      tokenEndpoint: `${server.origin}/token?tenant=1`,
      client: { method: "none", clientId: "c" },
      params: { grant_type: "client_credentials" },
      dpop: signer,
    });
    assert.equal(tokens.tokenType, "DPoP");
    assert.equal(server.seen.length, 2);
    const [first, second] = server.seen.map((seen) => decodeJwt(seen.headers.dpop!));
    assert.equal(first!.header.typ, "dpop+jwt");
    assert.equal(first!.payload.htm, "POST");
    assert.equal(first!.payload.htu, `${server.origin}/token`);
    assert.equal(first!.payload.nonce, undefined);
    assert.equal(second!.payload.nonce, "n-1");
    assert.notEqual(first!.payload.jti, second!.payload.jti);
    assert.equal(signer.nonceFor(server.origin), "n-1");
  });
});

test("DPoP: a second use_dpop_nonce is not retried again", async () => {
  const signer = await DpopSigner.generate("ES256");
  let n = 0;
  await withLoopbackServer(
    () => ({ status: 400, headers: { "DPoP-Nonce": `n-${++n}` }, body: { error: "use_dpop_nonce" } }),
    async (server) => {
      const error = await rejection(requestToken({
        tokenEndpoint: `${server.origin}/token`,
        client: { method: "none", clientId: "c" },
        params: { grant_type: "client_credentials" },
        dpop: signer,
      }));
      assert.ok(error instanceof OAuthError);
      assert.equal(error.error, "use_dpop_nonce");
      assert.equal(server.seen.length, 2);
    },
  );
});

test("a private_key_jwt assertion is signed anew for the DPoP nonce retry", async () => {
  const pair = await generateSigningKeyPair("ES256");
  const signer = await DpopSigner.generate("ES256");
  await withLoopbackServer(
    (_request, index) => index === 0 ? { status: 400, headers: { "DPoP-Nonce": "n" }, body: { error: "use_dpop_nonce" } } : { body: TOKEN },
    async (server) => {
      await requestToken({
        tokenEndpoint: `${server.origin}/token`,
        client: { method: "private_key_jwt", clientId: "c", privateKey: pair.privateKey, algorithm: "ES256" },
        params: { grant_type: "client_credentials" },
        dpop: signer,
      });
      const jtis = server.seen.map((seen) => JSON.parse(base64UrlDecodeText(seen.form.get("client_assertion")!.split(".")[1]!)).jti);
      assert.equal(jtis.length, 2);
      assert.notEqual(jtis[0], jtis[1]);
    },
  );
});

test("a token endpoint that never answers fails with a timeout OAuthError", async () => {
  await withLoopbackServer(() => new Promise(() => {}), async (server) => {
    const error = await rejection(requestToken({
      tokenEndpoint: `${server.origin}/token`,
      client: { method: "none", clientId: "c" },
      params: { grant_type: "client_credentials" },
      timeoutMs: 300,
    }));
    assert.ok(error instanceof OAuthError);
    assert.equal(error.error, "timeout");
    assert.match(error.message, /got no answer within 300 ms/);
  });
});

test("a redirect from the token endpoint is refused, the credentials are not sent on", async () => {
  await withLoopbackServer(
    (request) => (request.url === "/token" ? { status: 307, headers: { Location: "/elsewhere" } } : { body: TOKEN }),
    async (server) => {
      const error = await rejection(requestToken({
        tokenEndpoint: `${server.origin}/token`,
        client: { method: "client_secret_basic", clientId: "c", clientSecret: "s" },
        params: { grant_type: "client_credentials" },
      }));
      assert.ok(error instanceof OAuthError);
      assert.equal(error.error, "request_failed");
      assert.deepEqual(server.seen.map((seen) => seen.url), ["/token"]);
    },
  );
});
