// httpGuard alone, on Requests built by hand: which Host and Origin headers pass for each bound
// address (DNS rebinding: spec 2025-11-25 basic/transports, "Security Warning"), and the bearer
// token (RFC 6750) — what a caller of the HTTP front or the bridge gets from it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { httpGuard } from "../../src/server/http-guard.ts";

function request(headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:8080/mcp", { method: "POST", headers });
}

function status(guard: (request: Request) => Response | undefined, headers: Record<string, string>): number {
  return guard(request(headers))?.status ?? 200;
}

describe("httpGuard", () => {
  test("bound to loopback: only loopback names pass as Host, whatever the port", () => {
    const guard = httpGuard();
    for (const host of ["127.0.0.1:8080", "localhost:9", "[::1]:8080", "LOCALHOST", "127.0.0.2:1", "app.localhost:3000"]) {
      assert.equal(status(guard, { host }), 200, host);
    }
    for (const host of ["evil.example", "evil.example:8080", "192.168.1.5:8080", "localhost.evil.example", "", "a b"]) {
      assert.equal(status(guard, { host }), 403, host);
    }
  });

  test("bound to an address or to all: that address, any IP literal for a wildcard, and the allowed hosts", () => {
    const lan = httpGuard({ boundHost: "192.168.1.5" });
    assert.equal(status(lan, { host: "192.168.1.5:8080" }), 200);
    assert.equal(status(lan, { host: "10.0.0.1:8080" }), 403);
    const all = httpGuard({ boundHost: "0.0.0.0", allowedHosts: ["mcp.example.com"] });
    assert.equal(status(all, { host: "10.0.0.1:8080" }), 200);
    assert.equal(status(all, { host: "[fe80::1]:8080" }), 200);
    assert.equal(status(all, { host: "MCP.example.com:443" }), 200);
    assert.equal(status(all, { host: "rebound.evil.example:8080" }), 403, "a name is never accepted unless allowed");
  });

  test("an Origin passes when absent, loopback, or allowed; null, foreign and non-http ones are 403", () => {
    const guard = httpGuard({ allowedOrigins: ["https://app.example"] });
    const host = "127.0.0.1:8080";
    for (const origin of ["http://localhost:5173", "https://127.0.0.1", "http://[::1]:3000", "https://app.example"]) {
      assert.equal(status(guard, { host, origin }), 200, origin);
    }
    assert.equal(status(guard, { host }), 200, "no Origin: not a browser");
    for (const origin of ["null", "https://evil.example", "https://app.example:8443", "file://", "chrome-extension://abc"]) {
      assert.equal(status(guard, { host, origin }), 403, origin);
    }
    assert.equal(status(httpGuard({ allowedOrigins: ["*"] }), { host, origin: "https://anything.example" }), 200);
  });

  test("the token: missing, malformed or wrong is 401 with WWW-Authenticate; the scheme is case-insensitive; nothing secret is echoed", async () => {
    const guard = httpGuard({ token: "t0ken-value", tokenHint: "it was printed at start" });
    const host = "127.0.0.1:8080";
    const missing = guard(request({ host }))!;
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="mcpwire"');
    assert.match(await missing.text(), /it was printed at start/);
    for (const authorization of ["Bearer t0ken-valu", "Bearer t0ken-value-and-more", "Basic dDBrZW4tdmFsdWU=", "Bearer", "t0ken-value"]) {
      const refused = guard(request({ host, authorization }))!;
      assert.equal(refused.status, 401, authorization);
      const text = await refused.text();
      assert.ok(!text.includes("t0ken"), `${authorization}: ${text}`);
    }
    assert.equal(status(guard, { host, authorization: "Bearer t0ken-value" }), 200);
    assert.equal(status(guard, { host, authorization: "bearer t0ken-value" }), 200);
    // Host and Origin come first: the token does not make a rebound name acceptable.
    assert.equal(status(guard, { host: "evil.example", authorization: "Bearer t0ken-value" }), 403);
    assert.throws(() => httpGuard({ token: "" }), TypeError);
  });
});
