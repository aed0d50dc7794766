// DPoP proofs and the resource server's nonce: proof claims (typ, jwk, jti, htm, htu, iat, ath,
// nonce), a verifying signature, and a 401 use_dpop_nonce retried once on loopback — RFC 9449
// sections 4.2, 7.1, 9.

import assert from "node:assert/strict";
import { test } from "node:test";
import { accessTokenHash, dpopFetch, DpopSigner, isUseDpopNonceChallenge } from "../../src/auth/dpop.ts";
import { decodeJwt, importPublicKey, jwkThumbprint, verifyJwt } from "../../src/auth/jwt.ts";
import { withLoopbackServer } from "./loopback-server.ts";

test("a proof is a dpop+jwt with the public JWK, a fresh jti, htm, htu without query and fragment, iat", async () => {
  const signer = await DpopSigner.generate();
  const proof = await signer.proof("post", "https://mcp.example.com/mcp?x=1#frag");
  const decoded = decodeJwt(proof);
  assert.equal(decoded.header.typ, "dpop+jwt");
  assert.equal(decoded.header.alg, "ES256");
  const jwk = decoded.header.jwk as JsonWebKey;
  assert.equal(jwk.d, undefined, "no private member in the header's key");
  assert.deepEqual(Object.keys(jwk).sort(), ["crv", "kty", "x", "y"]);
  assert.ok(await verifyJwt(proof, await importPublicKey(jwk, "ES256")), "the proof verifies with its own jwk");
  assert.equal(decoded.payload.htm, "POST");
  assert.equal(decoded.payload.htu, "https://mcp.example.com/mcp");
  assert.equal(typeof decoded.payload.iat, "number");
  assert.equal(decoded.payload.ath, undefined);
  assert.equal(decoded.payload.nonce, undefined);
  const again = decodeJwt(await signer.proof("POST", "https://mcp.example.com/mcp"));
  assert.notEqual(again.payload.jti, decoded.payload.jti, "each proof has its own jti");
  assert.equal(signer.thumbprint, await jwkThumbprint(jwk));
});

test("ath is the base64url SHA-256 of the access token; a remembered nonce is used per origin", async () => {
  const signer = await DpopSigner.generate();
  signer.rememberNonce("https://as.example.com/token", "as-nonce");
  const withToken = decodeJwt(await signer.proof("GET", "https://as.example.com/other", { accessToken: "tok" }));
  // sha256("tok"), base64url (node:crypto computes the same)
  assert.equal(withToken.payload.ath, "GnZ0607njffhrEOak8P6jjyUV4TU3sn9jjARc4svHWI");
  assert.equal(withToken.payload.ath, await accessTokenHash("tok"));
  assert.equal(withToken.payload.nonce, "as-nonce");
  const elsewhere = decodeJwt(await signer.proof("GET", "https://mcp.example.com/mcp"));
  assert.equal(elsewhere.payload.nonce, undefined, "another origin's nonce is not sent");
  const explicit = decodeJwt(await signer.proof("GET", "https://as.example.com/x", { nonce: "given" }));
  assert.equal(explicit.payload.nonce, "given");
});

test("dpopFetch sends Authorization: DPoP and a proof; a 401 use_dpop_nonce is retried once with the nonce", async () => {
  const signer = await DpopSigner.generate();
  await withLoopbackServer((request) => {
    const proof = decodeJwt(request.headers.dpop!);
    if (proof.payload.nonce !== "rs-nonce") {
      return {
        status: 401,
        headers: { "WWW-Authenticate": 'DPoP error="use_dpop_nonce", error_description="nonce"', "DPoP-Nonce": "rs-nonce" },
        body: { error: "use_dpop_nonce" },
      };
    }
    return { body: { ok: true } };
  }, async (server) => {
    const response = await dpopFetch({ signer, accessToken: "access-token-1" }, `${server.origin}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ok: true });
    assert.equal(server.seen.length, 2);
    for (const seen of server.seen) {
      assert.equal(seen.headers.authorization, "DPoP access-token-1");
      assert.equal(seen.body, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
      assert.equal(seen.headers["content-type"], "application/json");
    }
    const [first, second] = server.seen.map((seen) => decodeJwt(seen.headers.dpop!).payload);
    assert.equal(first!.ath, await accessTokenHash("access-token-1"));
    assert.equal(first!.htu, `${server.origin}/mcp`);
    assert.equal(second!.nonce, "rs-nonce");
    assert.notEqual(first!.jti, second!.jti);

    // The nonce is remembered: the next request carries it at once.
    await (await dpopFetch({ signer, accessToken: "access-token-1" }, `${server.origin}/mcp`, { method: "POST", body: "{}" })).text();
    assert.equal(server.seen.length, 3);
  });
});

test("a second use_dpop_nonce is returned, not retried again; a Bearer 401 is not a nonce challenge", async () => {
  const signer = await DpopSigner.generate();
  let n = 0;
  await withLoopbackServer(
    () => ({ status: 401, headers: { "WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": `n${++n}` } }),
    async (server) => {
      const response = await dpopFetch({ signer, accessToken: "t" }, `${server.origin}/mcp`, { method: "POST", body: "{}" });
      await response.body?.cancel();
      assert.equal(response.status, 401);
      assert.equal(server.seen.length, 2);
    },
  );
  const bearer = new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });
  assert.equal(isUseDpopNonceChallenge(bearer), false);
  const dpop = new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="x", DPoP error="use_dpop_nonce"' } });
  assert.equal(isUseDpopNonceChallenge(dpop), true);
  const otherScheme = new Response(null, { status: 401, headers: { "WWW-Authenticate": 'DPoP realm="x", Bearer error="use_dpop_nonce"' } });
  assert.equal(isUseDpopNonceChallenge(otherScheme), false, "the error belongs to the Bearer challenge");
});
