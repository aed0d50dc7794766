// PKCE S256: the verifier's alphabet and length, and the challenge as RFC 7636 appendix B computes it.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createPkce, s256Challenge } from "../../src/auth/pkce.ts";

test("the S256 challenge of RFC 7636 appendix B's verifier is the appendix's value", async () => {
  assert.equal(await s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
});

test("a fresh pair: a 43-character unreserved verifier, its S256 challenge, and a new one each time", async () => {
  const a = await createPkce();
  const b = await createPkce();
  assert.match(a.verifier, /^[A-Za-z0-9\-._~]{43}$/);
  assert.equal(a.method, "S256");
  assert.equal(a.challenge, await s256Challenge(a.verifier));
  assert.notEqual(a.verifier, b.verifier);
});
