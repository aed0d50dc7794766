// Scope selection, the RFC 9207 iss table and reading the redirect — spec 2026-07-28
// basic/authorization ("Scope Selection Strategy", "Authorization Response Validation").

import assert from "node:assert/strict";
import { test } from "node:test";
import { checkIssuer, readAuthorizationResponse, selectScope } from "../../src/auth/authorization-code.ts";
import type { AuthorizationTarget } from "../../src/auth/discovery.ts";
import { AuthError } from "../../src/auth/errors.ts";

function target(prmScopes?: string[], asScopes?: string[]): AuthorizationTarget {
  return {
    serverUrl: new URL("https://mcp.example.com/mcp"),
    resource: "https://mcp.example.com/mcp",
    resourceMetadata: { resource: "https://mcp.example.com/mcp", ...(prmScopes ? { scopes_supported: prmScopes } : {}) },
    issuer: "https://auth.example.com",
    metadata: { issuer: "https://auth.example.com", ...(asScopes ? { scopes_supported: asScopes } : {}) },
    legacy: false,
  };
}

test("scope: the challenge's first, else all of the PRM's scopes_supported, else omitted", () => {
  assert.equal(selectScope(target(["a", "b"]), { challenge: "c", offlineAccess: false }), "c");
  assert.equal(selectScope(target(["a", "b"]), { offlineAccess: false }), "a b");
  assert.equal(selectScope(target(), { offlineAccess: false }), undefined);
});

test("a step-up keeps the scopes asked before (the union), without repeats", () => {
  assert.equal(selectScope(target(), { challenge: "write read", previous: "read", offlineAccess: false }), "read write");
});

test("offline_access only when the AS lists it; removed when it does not", () => {
  assert.equal(selectScope(target(["a"], ["a", "offline_access"]), { offlineAccess: true }), "a offline_access");
  assert.equal(selectScope(target(["a"], ["a", "offline_access"]), { offlineAccess: false }), "a");
  assert.equal(selectScope(target(["a", "offline_access"], ["a"]), { offlineAccess: true }), "a");
});

test("iss: compared as a plain string when present, advertised or not; absent is refused only when advertised", () => {
  const issuer = "https://auth.example.com";
  checkIssuer({ iss: issuer }, issuer, true);
  checkIssuer({ iss: issuer }, issuer, false);
  checkIssuer({}, issuer, false);
  const refused = (error: unknown): boolean => error instanceof AuthError && error.code === "iss-mismatch";
  assert.throws(() => checkIssuer({}, issuer, true), refused);
  assert.throws(() => checkIssuer({ iss: "https://evil.example.com" }, issuer, false), refused);
  for (const variant of [`${issuer}/`, "https://AUTH.example.com", "https://auth.example.com:443"]) {
    assert.throws(() => checkIssuer({ iss: variant }, issuer, true), refused, variant);
  }
});

test("the redirect URL's parameters are read, percent-decoded", () => {
  assert.deepEqual(
    readAuthorizationResponse("http://127.0.0.1:1/cb?code=c%2B1&state=s&iss=https%3A%2F%2Fauth.example.com&error=access_denied&error_description=no+thanks"),
    { code: "c+1", state: "s", iss: "https://auth.example.com", error: "access_denied", errorDescription: "no thanks" },
  );
  assert.throws(() => readAuthorizationResponse("not a url"), (error: unknown) => error instanceof AuthError && error.code === "interaction-failed");
});
