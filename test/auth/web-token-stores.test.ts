// The token stores a browser page can keep tokens in: SessionStorageTokenStore (sessionStorage:
// Deno has one; Node does not, and says so) and IndexedDbTokenStore (browsers only: here only its
// refusal; test/runtime/browser-oauth.test.ts uses it in Chromium), keyed as FileTokenStore is —
// spec 2025-11-25 basic/authorization ("Token Storage"), SEP-2352.

import assert from "node:assert/strict";
import { test } from "node:test";
import { AuthError } from "../../src/auth/errors.ts";
import { IndexedDbTokenStore } from "../../src/auth/indexed-db-token-store.ts";
import { SessionStorageTokenStore } from "../../src/auth/session-storage-token-store.ts";
import type { TokenSet } from "../../src/auth/token-endpoint.ts";
import { MemoryTokenStore, type TokenStore, TokenStoreError } from "../../src/auth/token-store.ts";
import { rejection } from "../support/rejection.ts";

const TOKENS: TokenSet = { accessToken: "at-secret", tokenType: "Bearer", expiresAt: 1_900_000_000_000, refreshToken: "rt-secret", scope: "read", raw: {} };
const SERVER = "https://mcp.example.com/mcp";
const ISSUER = "https://as.example.com";

async function roundTrips(store: TokenStore): Promise<void> {
  assert.equal(await store.getTokens(SERVER), undefined);
  await store.setTokens(SERVER, ISSUER, TOKENS);
  const saved = await store.getTokens(`${SERVER}#fragment`);
  assert.equal(saved?.serverUrl, SERVER);
  assert.equal(saved?.issuer, ISSUER);
  assert.deepEqual(saved?.tokens, TOKENS);
  assert.equal(await store.getTokens(SERVER, "https://other-as.example.com"), undefined, "tokens of another issuer are not offered");
  assert.equal(await store.getTokens("https://mcp.example.com/other"), undefined, "keyed per server");
  await store.setClient({ issuer: ISSUER, clientId: "cid" });
  assert.deepEqual(await store.getClient(ISSUER), { issuer: ISSUER, clientId: "cid" });
  assert.equal(await store.getClient(`${ISSUER}/tenant`), undefined, "a registration is only for its own issuer");
  await store.deleteTokens(SERVER);
  assert.equal(await store.getTokens(SERVER), undefined);
  await store.deleteClient(ISSUER);
  assert.equal(await store.getClient(ISSUER), undefined);
}

const sessionStorageHere = (globalThis as { sessionStorage?: Storage }).sessionStorage;
const noSessionStorage = sessionStorageHere === undefined ? "this runtime has no sessionStorage (Node 20); Deno and Chromium test it" : false;

test("MemoryTokenStore keeps tokens per server and registrations per issuer", async () => {
  await roundTrips(new MemoryTokenStore());
});

test("SessionStorageTokenStore keeps tokens per server and registrations per issuer in sessionStorage", { skip: noSessionStorage }, async () => {
  const store = new SessionStorageTokenStore({ prefix: `mcpwire.test.${crypto.randomUUID()}.` });
  await roundTrips(store);
  await store.setTokens(SERVER, ISSUER, TOKENS);
  const keys = Array.from({ length: sessionStorageHere!.length }, (_, index) => sessionStorageHere!.key(index) ?? "");
  assert.ok(keys.some((key) => key.endsWith(`tokens:${SERVER}`)), keys.join(", "));
  await store.deleteTokens(SERVER);
});

test("a SessionStorageTokenStore entry that is not JSON is a TokenStoreError corrupt naming its key", { skip: noSessionStorage }, async () => {
  const prefix = `mcpwire.test.${crypto.randomUUID()}.`;
  sessionStorageHere!.setItem(`${prefix}tokens:${SERVER}`, "{not json");
  const error = await rejection(new SessionStorageTokenStore({ prefix }).getTokens(SERVER));
  assert.ok(error instanceof TokenStoreError, String(error));
  assert.equal(error.code, "corrupt");
  assert.equal(error.path, `${prefix}tokens:${SERVER}`);
  sessionStorageHere!.removeItem(`${prefix}tokens:${SERVER}`);
});

test("without sessionStorage, SessionStorageTokenStore is an AuthError unsupported-runtime", {
  skip: noSessionStorage === false ? "this runtime has sessionStorage" : false,
}, () => {
  assert.throws(
    () => new SessionStorageTokenStore(),
    (error) => error instanceof AuthError && error.code === "unsupported-runtime" && /sessionStorage/.test(error.message),
  );
});

test("without indexedDB (Node, Deno), IndexedDbTokenStore is an AuthError unsupported-runtime naming the stores to use instead", () => {
  assert.throws(
    () => new IndexedDbTokenStore(),
    (error) =>
      error instanceof AuthError && error.code === "unsupported-runtime" && /indexedDB/.test(error.message) && /SessionStorageTokenStore/.test(error.message),
  );
});
