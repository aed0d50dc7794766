// Client registration: the token endpoint authentication chosen, the DCR request's metadata
// (application_type), and a refused registration — RFC 7591, spec 2026-07-28 client-registration.

import assert from "node:assert/strict";
import { test } from "node:test";
import { AuthError } from "../../src/auth/errors.ts";
import { chooseAuthMethod, registerClient, registrationRequest, resolveClient } from "../../src/auth/registration.ts";
import type { AuthProvider } from "../../src/auth/types.ts";
import { rejection } from "../support/rejection.ts";
import { withLoopbackServer } from "./loopback-server.ts";

function provider(redirect: string, extra: Partial<AuthProvider> = {}): AuthProvider {
  return {
    redirectUri: redirect,
    clientMetadata: { client_name: "t", redirect_uris: [redirect] },
    openAuthorizationUrl: () => Promise.reject(new Error("not in this test")),
    ...extra,
  };
}

test("token endpoint authentication: what registration said, else basic (RFC 8414's default), post when only post; none without a secret", () => {
  const as = { issuer: "https://a" };
  assert.deepEqual(chooseAuthMethod(as, "id", undefined), { method: "none", clientId: "id" });
  assert.deepEqual(chooseAuthMethod(as, "id", "s"), { method: "client_secret_basic", clientId: "id", clientSecret: "s" });
  assert.deepEqual(chooseAuthMethod({ ...as, token_endpoint_auth_methods_supported: ["client_secret_post"] }, "id", "s"), {
    method: "client_secret_post",
    clientId: "id",
    clientSecret: "s",
  });
  assert.deepEqual(chooseAuthMethod(as, "id", "s", "client_secret_post").method, "client_secret_post");
  assert.deepEqual(chooseAuthMethod(as, "id", "s", "none"), { method: "none", clientId: "id" });
});

test("DCR metadata: application_type native for loopback redirects, web otherwise; the code and refresh grants", () => {
  const as = { issuer: "https://a", token_endpoint_auth_methods_supported: ["none", "client_secret_basic"] };
  const native = registrationRequest(provider("http://127.0.0.1:9/cb"), as);
  assert.equal(native.application_type, "native");
  assert.deepEqual(native.grant_types, ["authorization_code", "refresh_token"]);
  assert.equal(native.token_endpoint_auth_method, "none");
  assert.equal(registrationRequest(provider("https://app.example.com/cb"), as).application_type, "web");
  assert.equal(
    registrationRequest(provider("http://127.0.0.1:9/cb"), { issuer: "https://a", token_endpoint_auth_methods_supported: ["client_secret_post"] })
      .token_endpoint_auth_method,
    "client_secret_post",
  );
});

test("a refused registration names the endpoint, the AS's error and what to configure", async () => {
  await withLoopbackServer(() => ({ status: 400, body: { error: "invalid_redirect_uri", error_description: "loopback not allowed" } }), async (server) => {
    const as = { issuer: server.origin, registration_endpoint: `${server.origin}/register` };
    const error = await rejection(registerClient(server.origin, as, registrationRequest(provider("http://127.0.0.1:9/cb"), as)));
    assert.ok(error instanceof AuthError && error.code === "registration-failed");
    assert.match(error.message, /invalid_redirect_uri: loopback not allowed/);
    assert.match(error.message, /client_id/);
    assert.equal(JSON.parse(server.seen[0]!.body).application_type, "native");
  });
});

test("resolveClient: pre-registered first, then CIMD, then a stored registration of the same issuer only, then DCR", async () => {
  const as = { issuer: "https://a", client_id_metadata_document_supported: true };
  const pre = provider("http://127.0.0.1:9/cb", { preRegistered: [{ issuer: "https://a", clientId: "pre" }], clientMetadataUrl: "https://c/m.json" });
  assert.equal((await resolveClient("https://a", as, pre, undefined)).source, "pre-registered");
  const cimd = provider("http://127.0.0.1:9/cb", { clientMetadataUrl: "https://c/m.json" });
  assert.deepEqual((await resolveClient("https://a", as, cimd, undefined)).client, { method: "none", clientId: "https://c/m.json" });
  const plain = provider("http://127.0.0.1:9/cb");
  const stored = { issuer: "https://a", clientId: "s1" };
  assert.equal((await resolveClient("https://a", { issuer: "https://a" }, plain, stored)).client.clientId, "s1");
  const error = await rejection(resolveClient("https://b", { issuer: "https://b" }, plain, stored));
  assert.ok(error instanceof AuthError && error.code === "registration-failed");
});
