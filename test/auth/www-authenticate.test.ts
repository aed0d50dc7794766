// WWW-Authenticate parsing: several challenges, quoted strings with commas and escapes, token68,
// and the parameters an MCP client acts on — RFC 9110 11.6.1, RFC 6750 3, RFC 9728 5.1.

import assert from "node:assert/strict";
import { test } from "node:test";
import { offersOnlyOtherSchemes, parseWwwAuthenticate, readResourceChallenge } from "../../src/auth/www-authenticate.ts";

test("a Bearer challenge's parameters are read, quoted or not, names case-insensitive", () => {
  assert.deepEqual(parseWwwAuthenticate('Bearer realm="mcp", Scope="a b", error=invalid_token'), [
    { scheme: "bearer", params: { realm: "mcp", scope: "a b", error: "invalid_token" } },
  ]);
});

test("a quoted value may hold commas and escaped quotes; a second challenge starts at a bare token", () => {
  const challenges = parseWwwAuthenticate(
    'Bearer error_description="no, \\"really\\" not", resource_metadata="https://x/.well-known/oauth-protected-resource", DPoP algs="ES256 RS256"',
  );
  assert.equal(challenges.length, 2);
  assert.equal(challenges[0]!.params.error_description, 'no, "really" not');
  assert.equal(challenges[0]!.params.resource_metadata, "https://x/.well-known/oauth-protected-resource");
  assert.deepEqual(challenges[1], { scheme: "dpop", params: { algs: "ES256 RS256" } });
});

test("a token68 challenge keeps its value; a bare scheme has no params", () => {
  assert.deepEqual(parseWwwAuthenticate("Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Negotiate"), [
    { scheme: "basic", params: {}, token68: "YWxhZGRpbjpvcGVuc2VzYW1l==" },
    { scheme: "negotiate", params: {} },
  ]);
});

test("garbage is skipped, never thrown", () => {
  assert.deepEqual(parseWwwAuthenticate('=x, ,, "quoted"'), []);
  assert.deepEqual(parseWwwAuthenticate(""), []);
});

test("readResourceChallenge takes resource_metadata, scope and error from the Bearer challenge", () => {
  const headers = new Headers({
    "www-authenticate":
      'Basic realm="x", Bearer error="insufficient_scope", scope="files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="need write"',
  });
  assert.deepEqual(readResourceChallenge(headers), {
    scheme: "bearer",
    resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource",
    scope: "files:write",
    error: "insufficient_scope",
    errorDescription: "need write",
  });
  assert.deepEqual(readResourceChallenge(new Headers()), {});
});

test("offersOnlyOtherSchemes: Basic or Digest alone is not OAuth; Bearer, DPoP, resource_metadata or no header is", () => {
  const only = (value?: string) => offersOnlyOtherSchemes(new Headers(value === undefined ? {} : { "WWW-Authenticate": value }));
  assert.equal(only('Basic realm="x"'), true);
  assert.equal(only('Digest realm="x", nonce="n", Basic realm="x"'), true);
  assert.equal(only('Basic realm="x", Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource"'), false);
  assert.equal(only('DPoP algs="ES256"'), false);
  assert.equal(only('Custom resource_metadata="https://a.example/m"'), false);
  assert.equal(only(), false, "no header: discovery from the well-known URLs");
});
