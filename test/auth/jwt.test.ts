// Compact JWS with WebCrypto: ES256 and RS256 signatures verify with the public key (and fail
// when tampered with), PEM/JWK import, RFC 7638 thumbprint — RFC 7515, RFC 7518 3, RFC 7638.

import assert from "node:assert/strict";
import { test } from "node:test";
import { base64UrlDecode, base64UrlDecodeText, base64UrlEncode } from "../../src/auth/base64url.ts";
import {
  decodeJwt,
  generateSigningKeyPair,
  importPrivateKey,
  importPublicKey,
  jwkThumbprint,
  JwtKeyError,
  pemEncode,
  publicJwk,
  signJwt,
  verifyJwt,
} from "../../src/auth/jwt.ts";

test("base64url: no padding, URL alphabet, round trip; bad input is refused", () => {
  const bytes = new Uint8Array([0xfb, 0xff, 0xfe, 0x00, 0x01]);
  assert.equal(base64UrlEncode(bytes), "-__-AAE");
  assert.deepEqual(base64UrlDecode("-__-AAE"), bytes);
  assert.equal(base64UrlDecodeText(base64UrlEncode("héllo")), "héllo");
  assert.throws(() => base64UrlDecode("a+b/"), /not base64url/);
});

for (const algorithm of ["ES256", "RS256"] as const) {
  test(`${algorithm}: a signed JWT verifies with the public key, a changed payload does not`, async () => {
    const pair = await generateSigningKeyPair(algorithm);
    const token = await signJwt({ typ: "JWT", kid: "k" }, { sub: "me", n: 1 }, pair.privateKey, algorithm);
    const decoded = await verifyJwt(token, pair.publicKey);
    assert.ok(decoded, "verifies");
    assert.deepEqual(decoded.header, { typ: "JWT", kid: "k", alg: algorithm });
    assert.deepEqual(decoded.payload, { sub: "me", n: 1 });
    if (algorithm === "ES256") assert.equal(decoded.signature.length, 64, "ES256 signature is R || S, 64 bytes");
    const [h, , s] = token.split(".");
    const forged = `${h}.${base64UrlEncode(JSON.stringify({ sub: "admin", n: 1 }))}.${s}`;
    assert.equal(await verifyJwt(forged, pair.publicKey), undefined);
  });
}

test("a PKCS#8 PEM private key and a JWK public key import; signatures made with one verify with the other", async () => {
  const extractable = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]) as CryptoKeyPair;
  const pem = pemEncode(await crypto.subtle.exportKey("pkcs8", extractable.privateKey), "PRIVATE KEY");
  assert.match(pem, /^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n$/);
  const privateKey = await importPrivateKey(pem, "ES256");
  const jwk = await crypto.subtle.exportKey("jwk", extractable.publicKey);
  const publicKey = await importPublicKey(JSON.stringify(jwk), "ES256");
  const token = await signJwt({}, { iss: "c" }, privateKey, "ES256");
  assert.ok(await verifyJwt(token, publicKey));
  const spki = pemEncode(await crypto.subtle.exportKey("spki", extractable.publicKey), "PUBLIC KEY");
  assert.ok(await verifyJwt(token, await importPublicKey(spki, "ES256")));
  const privateJwk = await crypto.subtle.exportKey("jwk", extractable.privateKey);
  assert.ok(await verifyJwt(await signJwt({}, {}, await importPrivateKey(privateJwk, "ES256"), "ES256"), publicKey));
});

test("keys that cannot be used are refused with what to do", async () => {
  await assert.rejects(importPrivateKey("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----", "ES256"), (error) => {
    assert.ok(error instanceof JwtKeyError);
    assert.match(error.message, /not PKCS#8.*openssl pkcs8 -topk8/);
    return true;
  });
  await assert.rejects(importPrivateKey("not a key", "ES256"), /not a PEM block/);
  const pair = await generateSigningKeyPair("ES256");
  await assert.rejects(importPrivateKey(await publicJwk(pair.publicKey), "ES256"), /no private part/);
  await assert.rejects(signJwt({}, {}, pair.privateKey, "RS256"), /ECDSA key, but RS256 needs RSASSA-PKCS1-v1_5/);
});

test("the RFC 7638 thumbprint of the RFC's example key", async () => {
  // RFC 7638 section 3.1.
  const jwk = {
    kty: "RSA",
    n: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
    e: "AQAB",
    alg: "RS256",
    kid: "2011-04-29",
  };
  assert.equal(await jwkThumbprint(jwk), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
});

test("decodeJwt splits without verifying and refuses what is not a compact JWT", () => {
  const token = `${base64UrlEncode('{"alg":"none"}')}.${base64UrlEncode('{"a":1}')}.`;
  assert.deepEqual(decodeJwt(token).payload, { a: 1 });
  assert.throws(() => decodeJwt("a.b"), /2 parts instead of 3/);
  assert.throws(() => decodeJwt(`${base64UrlEncode("[1]")}.${base64UrlEncode("{}")}.`), /header is not a JSON object/);
});
