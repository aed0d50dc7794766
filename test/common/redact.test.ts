// Redaction of credentials from headers, text and URLs before they reach a trace, a log or an
// error message — spec 2025-11-25 basic/authorization ("Token Theft").

import assert from "node:assert/strict";
import { test } from "node:test";
import { REDACTED, redactHeaders, Redactor, redactText, redactUrl } from "../../src/common/redact.ts";

const JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLWJ5dGVz";

test("credential headers keep their scheme and lose their value; other headers are untouched", () => {
  const headers = new Headers({
    Authorization: "Bearer abcdef123456",
    DPoP: JWT,
    Cookie: "session=s3cr3t",
    "Content-Type": "application/json",
    "Mcp-Session-Id": "sess-1",
  });
  assert.deepEqual(redactHeaders(headers), {
    authorization: `Bearer ${REDACTED}`,
    dpop: REDACTED,
    cookie: REDACTED,
    "content-type": "application/json",
    "mcp-session-id": "sess-1",
  });
  assert.deepEqual(redactHeaders({ "Proxy-Authorization": "Basic dXNlcjpwYXNzd29yZA==" }), {
    "Proxy-Authorization": `Basic ${REDACTED}`,
  });
});

test("token responses, form bodies and Authorization lines in text lose their secrets", () => {
  const json = JSON.stringify({ access_token: "at-1234567890", token_type: "Bearer", refresh_token: 'rt-"q"-1', expires_in: 60 });
  assert.equal(
    redactText(json),
    `{"access_token":"${REDACTED}","token_type":"Bearer","refresh_token":"${REDACTED}","expires_in":60}`,
  );
  assert.equal(
    redactText("grant_type=authorization_code&code=abc&code_verifier=xyz&client_secret=shh&redirect_uri=http%3A%2F%2Fx"),
    `grant_type=authorization_code&code=${REDACTED}&code_verifier=${REDACTED}&client_secret=${REDACTED}&redirect_uri=http%3A%2F%2Fx`,
  );
  assert.equal(
    redactText("POST /mcp Authorization: DPoP q1w2e3r4t5y6 (retry)"),
    `POST /mcp Authorization: DPoP ${REDACTED} (retry)`,
  );
  assert.equal(redactText(`assertion is ${JWT}.`), `assertion is ${REDACTED}.`);
});

test("a challenge's parameters and prose stay readable", () => {
  const challenge = 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="read"';
  assert.equal(redactText(challenge), challenge);
  assert.equal(redactText("send a Bearer token or Basic auth"), "send a Bearer token or Basic auth");
});

test("known secrets are replaced wherever they appear, short values are left alone", () => {
  const secret = "opaque-secret-value-42";
  assert.equal(redactText(`failed for ${secret} at noon`, [secret, undefined, "ab"]), `failed for ${REDACTED} at noon`);
  assert.equal(redactText("a tab of ab", ["ab"]), "a tab of ab");
});

test("URLs lose the code and tokens in their query, and a password", () => {
  assert.equal(
    redactUrl("http://127.0.0.1:8080/callback?code=the-code&state=st&iss=https%3A%2F%2Fas"),
    `http://127.0.0.1:8080/callback?code=${encodeURIComponent(REDACTED)}&state=st&iss=https%3A%2F%2Fas`,
  );
  assert.equal(redactUrl("https://user:pw@example.com/x"), `https://user:${encodeURIComponent(REDACTED)}@example.com/x`);
  assert.equal(redactUrl("https://example.com/mcp"), "https://example.com/mcp");
});

test("a Redactor replaces the secrets it knows, scheme-stripped values included, longest first", async () => {
  const { Redactor } = await import("../../src/common/redact.ts");
  const redactor = new Redactor(["Bearer sk-live-0123456789", "env-secret-value-42", "short"]);
  redactor.addHeaders({ "X-Custom": "custom-header-secret" });
  const echoed = `401 Unauthorized: got authorization=sk-live-0123456789; env env-secret-value-42; ` +
    `custom custom-header-secret; short stays`;
  const out = redactor.redact(echoed);
  for (const secret of ["sk-live-0123456789", "env-secret-value-42", "custom-header-secret"]) assert.ok(!out.includes(secret), out);
  assert.ok(out.includes("short stays"), "values under 8 characters are not matched as text");
});

test("api-key fields in JSON and in header lines are redacted; fields that only describe keys are not", () => {
  const body = JSON.stringify({ headers: { "x-api-key": "k-0123456789", authorization: "Basic dXNlcjpwYXNz" }, token_type: "Bearer", max_tokens: 1024 });
  const out = redactText(body);
  assert.ok(!out.includes("k-0123456789") && !out.includes("dXNlcjpwYXNz"), out);
  assert.ok(out.includes('"token_type":"Bearer"') && out.includes('"max_tokens":1024'), out);
  assert.equal(redactText("X-Api-Key: k-0123456789abc"), `X-Api-Key: ${REDACTED}`);
  assert.equal(redactText("the token count is 5"), "the token count is 5");
});

test("a URL's userinfo is redacted in any text: the password, or a user name alone (often a token)", () => {
  assert.equal(
    redactText("POST http://u:PASSWORD123@127.0.0.1:1/mcp failed: http://u:PASSWORD123@127.0.0.1:1/mcp includes credentials"),
    `POST http://u:${REDACTED}@127.0.0.1:1/mcp failed: http://u:${REDACTED}@127.0.0.1:1/mcp includes credentials`,
  );
  assert.equal(redactText("clone https://ghp_abcdefgh12345678@github.com/o/r"), `clone https://${REDACTED}@github.com/o/r`);
  assert.equal(redactText("mail me at someone@example.com, see https://example.com/a@b"), "mail me at someone@example.com, see https://example.com/a@b");
  assert.equal(redactUrl("https://TOKEN1234@example.com/mcp"), `https://${encodeURIComponent(REDACTED)}@example.com/mcp`);
});

test("a known secret with quotes or backslashes is also found as JSON text writes it (escaped)", () => {
  const secret = 'tok"en\\SECRET-1';
  const redactor = new Redactor([secret]);
  assert.equal(redactor.redact(JSON.stringify({ value: secret })), `{"value":"${REDACTED}"}`);
  assert.equal(redactor.redact(`raw ${secret}`), `raw ${REDACTED}`);
});
