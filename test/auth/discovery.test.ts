// Discovery: the metadata URLs in the spec's order, https-or-loopback, the resource check, the
// issuer check, redirects validated, the 2025-03-26 fallbacks — RFC 9728, RFC 8414, spec
// 2026-07-28 basic/authorization/authorization-server-discovery.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  assertSafeUrl,
  authorizationServerMetadataUrls,
  checkResource,
  discover,
  fetchAuthorizationServerMetadata,
  protectedResourceMetadataUrls,
} from "../../src/auth/discovery.ts";
import { AuthError } from "../../src/auth/errors.ts";
import { rejection } from "../support/rejection.ts";
import { withLoopbackServer } from "./loopback-server.ts";

const hrefs = (urls: URL[]): string[] => urls.map((url) => url.href);

test("PRM URLs: resource_metadata alone when given; else path-based, then root", () => {
  const server = new URL("https://example.com/public/mcp");
  assert.deepEqual(hrefs(protectedResourceMetadataUrls(server, "https://example.com/meta.json")), ["https://example.com/meta.json"]);
  assert.deepEqual(hrefs(protectedResourceMetadataUrls(server)), [
    "https://example.com/.well-known/oauth-protected-resource/public/mcp",
    "https://example.com/.well-known/oauth-protected-resource",
  ]);
  assert.deepEqual(hrefs(protectedResourceMetadataUrls(new URL("https://example.com/"))), ["https://example.com/.well-known/oauth-protected-resource"]);
});

test("AS metadata URLs: with a path, RFC 8414 insertion, OpenID insertion, OpenID appending; without, RFC 8414 then OpenID", () => {
  assert.deepEqual(hrefs(authorizationServerMetadataUrls("https://auth.example.com/tenant1")), [
    "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
    "https://auth.example.com/.well-known/openid-configuration/tenant1",
    "https://auth.example.com/tenant1/.well-known/openid-configuration",
  ]);
  assert.deepEqual(hrefs(authorizationServerMetadataUrls("https://auth.example.com")), [
    "https://auth.example.com/.well-known/oauth-authorization-server",
    "https://auth.example.com/.well-known/openid-configuration",
  ]);
});

test("only https, or http to a loopback host", () => {
  for (const ok of ["https://a.example/x", "http://localhost:3000/cb", "http://127.0.0.1/", "http://[::1]:8080/"]) assertSafeUrl(ok, "url");
  for (const bad of ["http://example.com/", "ftp://localhost/", "not a url"]) {
    assert.throws(() => assertSafeUrl(bad, "the thing"), (error: unknown) => error instanceof AuthError && error.code === "unsafe-url");
  }
});

test("the PRM resource must be this server: same origin, the same path or a parent", () => {
  const server = new URL("https://mcp.example.com/api/mcp");
  checkResource(server, { resource: "https://mcp.example.com/api/mcp" }, "m");
  checkResource(server, { resource: "https://mcp.example.com" }, "m");
  checkResource(server, { resource: "https://MCP.example.com/api" }, "m");
  for (
    const resource of [
      "https://evil.example.com/api/mcp",
      "https://mcp.example.com/other",
      "https://mcp.example.com/api/mcpx",
      "http://mcp.example.com/api/mcp",
    ]
  ) {
    assert.throws(
      () => checkResource(server, { resource }, "m"),
      (error: unknown) => error instanceof AuthError && error.code === "resource-mismatch",
      resource,
    );
  }
});

test("AS metadata whose issuer differs from the one its URL was built from is refused", async () => {
  await withLoopbackServer(
    (request) => request.url === "/.well-known/oauth-authorization-server" ? { body: { issuer: "https://honest.example" } } : { status: 404 },
    async (server) => {
      const error = await rejection(fetchAuthorizationServerMetadata(server.origin));
      assert.ok(error instanceof AuthError && error.code === "issuer-mismatch");
      assert.match(error.message, /honest\.example/);
    },
  );
});

test("a metadata redirect to plain http elsewhere is refused; one to loopback is followed", async () => {
  await withLoopbackServer(
    (request) =>
      request.url === "/.well-known/oauth-authorization-server" ? { status: 302, headers: { location: "http://example.com/meta" } } : { status: 404 },
    async (server) => {
      const error = await rejection(fetchAuthorizationServerMetadata(server.origin));
      assert.ok(error instanceof AuthError && error.code === "unsafe-url", String(error));
    },
  );
  await withLoopbackServer((request, index) => {
    if (request.url === "/.well-known/oauth-authorization-server") return { status: 307, headers: { location: "/moved" } };
    if (request.url === "/moved") return { body: { issuer: `http://127.0.0.1:${request.headers.host?.split(":")[1]}` } };
    return { status: 404, body: { index } };
  }, async (server) => {
    const found = await fetchAuthorizationServerMetadata(server.origin);
    assert.ok("metadata" in found);
    assert.equal(found.url, `${server.origin}/moved`);
  });
});

test("2025-03-26: no PRM means the server's origin is the AS, with metadata there or else /authorize, /token, /register", async () => {
  await withLoopbackServer(() => ({ status: 404 }), async (server) => {
    const target = await discover(new URL(`${server.origin}/mcp`), {});
    assert.equal(target.legacy, true);
    assert.equal(target.issuer, server.origin);
    assert.equal(target.metadata.authorization_endpoint, `${server.origin}/authorize`);
    assert.equal(target.metadata.token_endpoint, `${server.origin}/token`);
    assert.equal(target.metadata.registration_endpoint, `${server.origin}/register`);
    assert.deepEqual(server.seen.map((r) => r.url), [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
    ]);
  });
});

test("a PRM without authorization_servers is a clear discovery error", async () => {
  await withLoopbackServer(
    (request) => request.url.startsWith("/.well-known/oauth-protected-resource") ? { body: { resource: "http://127.0.0.1/mcp" } } : { status: 404 },
    async (server) => {
      const url = new URL(`${server.origin}/mcp`);
      const error = await rejection(discover(url, { resourceMetadata: `${server.origin}/.well-known/oauth-protected-resource/mcp` }));
      assert.ok(error instanceof AuthError, String(error));
    },
  );
});

test("a resource_metadata URL that fails falls back to the well-known URLs; with none found it is a discovery error, not 2025-03-26", async () => {
  await withLoopbackServer((request) => {
    const origin = `http://${request.headers.host}`;
    if (request.url === "/.well-known/oauth-protected-resource/mcp") return { body: { resource: `${origin}/mcp`, authorization_servers: [origin] } };
    if (request.url === "/.well-known/oauth-authorization-server") return { body: { issuer: origin } };
    return { status: 404 };
  }, async (server) => {
    const target = await discover(new URL(`${server.origin}/mcp`), { resourceMetadata: `${server.origin}/gone.json` });
    assert.equal(target.legacy, false);
    assert.equal(target.resourceMetadataUrl, `${server.origin}/.well-known/oauth-protected-resource/mcp`);
    assert.deepEqual(server.seen.slice(0, 2).map((r) => r.url), ["/gone.json", "/.well-known/oauth-protected-resource/mcp"]);
  });
  await withLoopbackServer(() => ({ status: 404 }), async (server) => {
    const error = await rejection(discover(new URL(`${server.origin}/mcp`), { resourceMetadata: `${server.origin}/gone.json` }));
    assert.ok(error instanceof AuthError && error.code === "discovery-failed", String(error));
    assert.match(error.message, /gone\.json/);
    assert.ok(!server.seen.some((r) => r.url.includes("oauth-authorization-server")));
  });
});
