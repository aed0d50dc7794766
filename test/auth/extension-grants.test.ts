// Extension choices end to end: an ExtensionConfig (client credentials with a private key file,
// DPoP) through createOAuthFetch against a hand-written protected resource and authorization
// server on loopback; token sources read anew — SEP-1046, SEP-1932 (RFC 9449), SEP-1933.

import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { accessTokenHash } from "../../src/auth/dpop.ts";
import { clientAuthentication, extensionAuth, tokenSource } from "../../src/auth/extension-grants.ts";
import { decodeJwt, importPublicKey, pemEncode, verifyJwt } from "../../src/auth/jwt.ts";
import { createOAuthFetch } from "../../src/auth/oauth-fetch.ts";
import type { AuthProvider } from "../../src/auth/types.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { type Answer, type SeenRequest, withLoopbackServer } from "./loopback-server.ts";
import { withTempDir } from "./temp-dir.ts";

const provider: AuthProvider = {
  redirectUri: "http://127.0.0.1:9/callback",
  clientMetadata: { redirect_uris: ["http://127.0.0.1:9/callback"] },
  openAuthorizationUrl: () => Promise.reject(new Error("no browser in this test: the grant needs none")),
};

test("client credentials with a private key file and DPoP: a bound token, proofs with ath and the RS nonce", async () => {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]) as CryptoKeyPair;
  const publicKey = await importPublicKey(await crypto.subtle.exportKey("jwk", pair.publicKey), "ES256");
  const assertions: (string | null)[] = [];
  await withTempDir(async (dir) => {
    const keyFile = join(dir, "client.pem");
    await writeFile(keyFile, pemEncode(await crypto.subtle.exportKey("pkcs8", pair.privateKey), "PRIVATE KEY"));
    let origin = "";
    const handler = async (request: SeenRequest): Promise<Answer> => {
      if (request.url === "/.well-known/oauth-protected-resource/mcp") {
        return { body: { resource: `${origin}/mcp`, authorization_servers: [origin] } };
      }
      if (request.url === "/.well-known/oauth-authorization-server") {
        return {
          body: {
            issuer: origin,
            token_endpoint: `${origin}/token`,
            grant_types_supported: ["client_credentials"],
            token_endpoint_auth_methods_supported: ["private_key_jwt"],
            dpop_signing_alg_values_supported: ["ES256"],
          },
        };
      }
      if (request.url === "/token") {
        assertions.push(request.form.get("client_assertion"));
        const verified = await verifyJwt(request.form.get("client_assertion") ?? "", publicKey);
        if (!verified || !request.headers.dpop) return { status: 401, body: { error: "invalid_client" } };
        return { body: { access_token: "bound-token", token_type: "DPoP", expires_in: 3600 } };
      }
      if (request.url === "/mcp") {
        const challenge = `DPoP resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
        if (request.headers.authorization !== "DPoP bound-token") return { status: 401, headers: { "WWW-Authenticate": challenge } };
        const proof = decodeJwt(request.headers.dpop ?? "");
        if (proof.payload.nonce !== "rs-nonce") {
          return { status: 401, headers: { "WWW-Authenticate": `DPoP error="use_dpop_nonce"`, "DPoP-Nonce": "rs-nonce" } };
        }
        return { body: { jsonrpc: "2.0", id: 1, result: {} } };
      }
      return { status: 404, body: {} };
    };
    await withLoopbackServer(handler, async (server) => {
      origin = server.origin;
      const { grant, dpop } = await extensionAuth({
        grant: { grant: "client_credentials", clientId: "svc", privateKeyFile: keyFile, keyId: "k1" },
        dpop: true,
      });
      assert.ok(grant && dpop);
      const authFetch = createOAuthFetch({ serverUrl: `${origin}/mcp`, provider: { ...provider, dpop }, grant });
      const response = await authFetch(`${origin}/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { jsonrpc: "2.0", id: 1, result: {} });

      assert.equal(assertions.length, 1);
      assert.equal(decodeJwt(assertions[0]!).header.kid, "k1");
      const token = server.seen.find((seen) => seen.url === "/token")!;
      assert.equal(token.form.get("grant_type"), "client_credentials");
      assert.equal(token.form.get("resource"), `${origin}/mcp`);
      assert.equal(decodeJwt(token.headers.dpop!).payload.htu, `${origin}/token`);
      const authorized = server.seen.filter((seen) => seen.url === "/mcp" && seen.headers.authorization === "DPoP bound-token");
      assert.equal(authorized.length, 2, "one nonce challenge, one retry");
      for (const seen of authorized) {
        assert.equal(decodeJwt(seen.headers.dpop!).payload.ath, await accessTokenHash("bound-token"));
        assert.equal(seen.body, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
      }
    });
  });
});

test("a token source from a file is read for each authorization; from an unset env var it says which", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "token");
    await writeFile(file, "first\n");
    const source = tokenSource({ file }, "workload_identity assertion");
    assert.equal(typeof source, "function");
    const read = source as () => Promise<string>;
    assert.equal(await read(), "first");
    await writeFile(file, "rotated\n");
    assert.equal(await read(), "rotated");
  });
  const name = `MCPWIRE_TEST_UNSET_${crypto.randomUUID().replace(/-/g, "")}`;
  assert.equal(runtime.env()[name], undefined);
  const fromEnv = tokenSource({ env: name }, "workload_identity assertion") as () => string;
  assert.throws(fromEnv, new RegExp(`environment variable ${name} is not set`));
  assert.throws(() => tokenSource({}, "x"), /give value, file or env/);
});

test("a configured client without secret or key is refused, unless a public client is allowed", async () => {
  await assert.rejects(clientAuthentication({ clientId: "c" }, "client_credentials"), /client "c" has neither clientSecret nor privateKey/);
  assert.deepEqual(await clientAuthentication({ clientId: "c" }, "idp client", runtime, "none"), { method: "none", clientId: "c" });
  assert.deepEqual(await clientAuthentication({ clientId: "c", clientSecret: "s", authMethod: "client_secret_post" }, "x"), {
    method: "client_secret_post",
    clientId: "c",
    clientSecret: "s",
  });
});
