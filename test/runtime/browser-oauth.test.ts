// OAuth in real browsers (issue 28): headless Chromium, then Firefox, opens a page served from
// 127.0.0.1 that imports the browser bundle of `mcpwire` and `mcpwire/auth`, starts the authorization
// (startBrowserAuthorization: discovery, dynamic registration, PKCE; the verifier in
// sessionStorage) and navigates to the loopback authorization server fixture
// (test/fixtures/auth/oauth-servers.ts, another origin, CORS on), which approves at once and
// redirects back to the page's callback. The callback completes (completeBrowserAuthorization:
// state, iss, the code exchanged with the verifier), keeps the tokens in IndexedDB, replaces its
// URL with the clean one, and connects the Client over Streamable HTTP to the fixture's
// protected MCP endpoint with createOAuthFetch + browserAuthProvider (the tokens live 30 s, within
// the refresh skew: the first request refreshes them), lists and calls tools, and posts its report.
// The same with a popup: window.open to the authorization server, whose callback page (in the
// popup) posts its URL to the opener and closes; the opener completes, so its URL never holds a
// code. Every URL the browser asked for is recorded at the three loopback servers: none holds a
// token or the verifier.
//
// The bundle is made from the package as `npm run build` builds it (scripts/bundle-sizes.ts
// buildPackage), as test/runtime/browser.test.ts does: only the built package has the #runtime
// conditions that keep node: modules out of a browser bundle. One build, one page script, one set
// of assertions: the flows are a function of the browser (support/browsers.ts), run for each.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as esbuild from "esbuild";
import { buildPackage, ROOT } from "../../scripts/bundle-sizes.ts";
import { type OAuthFixture, startOAuthFixture } from "../fixtures/auth/oauth-servers.ts";
import { bundleForBrowser, type PageServer, servePage } from "../support/browser-page.ts";
import { allBrowsersSkip, BROWSERS, type PageBrowser } from "../support/browsers.ts";

/** What the page imports: the client and the browser side of mcpwire/auth. */
const BUNDLE_SOURCE = `export { Client, StreamableHttpTransport } from "mcpwire";
export { browserAuthProvider, completeBrowserAuthorization, createOAuthFetch, IndexedDbTokenStore, startBrowserAuthorization } from "mcpwire/auth";
`;

/**
 * One script for both pages. index.html: start, then location.assign to the authorization URL.
 * callback.html (where the authorization server redirects): complete, replaceState to the clean
 * URL, connect with the stored tokens, report.
 */
const PAGE_SCRIPT = `const errorOf = (error) => ({ name: error?.name, code: error?.code, message: String(error?.message ?? error) });
const mcpwire = await import("./bundle/oauth.js");
const redirectUri = location.origin + "/callback.html";
const databaseName = "mcpwire-oauth-test";

async function begin() {
  const params = new URLSearchParams(location.search);
  sessionStorage.setItem("test.name", params.get("name"));
  sessionStorage.setItem("test.mcp", params.get("mcp"));
  const url = await mcpwire.startBrowserAuthorization({
    serverUrl: params.get("mcp"),
    redirectUri,
    store: new mcpwire.IndexedDbTokenStore({ databaseName }),
  });
  if (params.get("mode") !== "popup") return void location.assign(url);
  // the popup's callback page hands its URL back by postMessage; this page completes
  const callbackUrl = await new Promise((resolve, reject) => {
    const popup = window.open(url, "mcpwire-authorization", "popup,width=500,height=600");
    if (popup === null) return reject(new Error("the popup was blocked"));
    window.addEventListener("message", (event) => {
      if (event.origin === location.origin && event.source === popup && typeof event.data?.callbackUrl === "string") resolve(event.data.callbackUrl);
    });
  });
  return await finish(callbackUrl);
}

async function finish(callbackUrl) {
  const mcp = sessionStorage.getItem("test.mcp");
  const found = { userAgent: navigator.userAgent, callbackHadCode: new URL(callbackUrl).searchParams.has("code") };
  const store = new mcpwire.IndexedDbTokenStore({ databaseName });
  const done = await mcpwire.completeBrowserAuthorization({ callbackUrl, store });
  if (callbackUrl === location.href) history.replaceState(null, "", done.cleanUrl);
  found.cleanUrl = done.cleanUrl;
  found.pendingLeft = Object.keys(sessionStorage).filter((key) => key.startsWith("mcpwire.oauth.pending"));
  await store.close();

  // a new store object: the tokens come from IndexedDB, not from memory
  const again = new mcpwire.IndexedDbTokenStore({ databaseName });
  const stored = await again.getTokens(mcp);
  found.storedInIndexedDb = stored !== undefined && stored.tokens.accessToken === done.tokens.accessToken;
  const oauthFetch = mcpwire.createOAuthFetch({
    serverUrl: mcp,
    provider: mcpwire.browserAuthProvider({ redirectUri, store: again }),
    onEvent: (event) => (found.events ??= []).push(event.kind),
  });
  const client = new mcpwire.Client({ name: "browser-oauth-page", version: "1.0.0" });
  await client.connect(new mcpwire.StreamableHttpTransport({ url: mcp, fetch: oauthFetch }));
  found.server = client.serverInfo?.name;
  found.tools = (await client.listTools()).map((tool) => tool.name);
  found.call = (await client.callTool("whoami", {})).content.map((block) => block.text).join("");
  await client.close();
  found.refreshedStored = (await again.getTokens(mcp))?.tokens.accessToken !== done.tokens.accessToken;
  await again.close();
  found.finalUrl = location.href;
  return found;
}

const name = location.pathname === "/callback.html" ? sessionStorage.getItem("test.name") : new URLSearchParams(location.search).get("name");
let report;
try {
  if (location.pathname === "/callback.html" && window.opener !== null) {
    // the popup: back to the page that opened it, then gone
    window.opener.postMessage({ callbackUrl: location.href }, location.origin);
    window.close();
  } else if (location.pathname === "/callback.html") report = await finish(location.href);
  else report = await begin();
} catch (error) {
  report = { failed: errorOf(error), stack: String(error?.stack ?? ""), at: location.href.replace(/code=[^&]*/, "code=…") };
}
if (report !== undefined) {
  await fetch("/result/" + name, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(report) });
}
`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mcpwire OAuth in a browser</title></head>
<body><script type="module" src="/page.js"></script></body></html>
`;

interface OAuthPageReport {
  failed?: { message: string };
  stack?: string;
  at?: string;
  userAgent: string;
  callbackHadCode: boolean;
  cleanUrl: string;
  finalUrl: string;
  pendingLeft: string[];
  storedInIndexedDb: boolean;
  refreshedStored: boolean;
  events: string[];
  server: string;
  tools: string[];
  call: string;
}

const skip = allBrowsersSkip();

/** One page visit's flow: the authorization server and MCP endpoint it used, what the page reported, and every URL it asked the page server for. */
interface Flow {
  browser: PageBrowser;
  fixture: OAuthFixture;
  report: OAuthPageReport;
  pageRequests: string[];
  origin: string;
}

describe("the browser OAuth flow in headless Chromium and Firefox, tokens in IndexedDB, the client connected with them", { skip }, () => {
  const scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-browser-oauth-test-"));
  const site = join(scratch, "site");
  const fixtures: OAuthFixture[] = [];
  const servers: PageServer[] = [];

  before(async () => {
    const built = join(scratch, "package");
    mkdirSync(built);
    buildPackage(built);
    mkdirSync(site);
    await bundleForBrowser({ resolveDir: built, outdir: join(site, "bundle"), source: BUNDLE_SOURCE, name: "oauth", nodePaths: [join(ROOT, "node_modules")] });
    await esbuild.stop();
    writeFileSync(join(site, "index.html"), PAGE);
    writeFileSync(join(site, "callback.html"), PAGE);
    writeFileSync(join(site, "page.js"), PAGE_SCRIPT);
  });

  after(async () => {
    for (const server of servers) await server.close();
    for (const fixture of fixtures) await fixture.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A fresh authorization server, MCP endpoint and page origin (so a fresh IndexedDB), and one run of `mode` in `browser`. */
  async function run(browser: PageBrowser, mode: "redirect" | "popup"): Promise<Flow> {
    // 30 s tokens with refresh tokens: within the default 60 s skew, so the client refreshes
    const fixture = await startOAuthFixture({ cors: true, refreshTokens: true, expiresIn: 30 });
    fixtures.push(fixture);
    const pageRequests: string[] = [];
    const pages = await servePage({ dir: site, onRequest: (method, url) => pageRequests.push(`${method} ${url}`) });
    servers.push(pages);
    const url = `${pages.origin}/index.html?name=${mode}&mode=${mode}&mcp=${encodeURIComponent(fixture.mcpUrl)}`;
    const report = (await browser.open(url, pages.result(mode, 90_000), 100_000, { popups: mode === "popup" })) as OAuthPageReport;
    return { browser, fixture, report, pageRequests, origin: pages.origin };
  }

  function assertConnected({ browser, fixture, report }: Flow): void {
    assert.equal(report.failed, undefined, `the page failed in ${browser.name} at ${report.at}: ${JSON.stringify(report.failed)}\n${report.stack}`);
    assert.match(report.userAgent, browser.userAgent);
    assert.equal(report.callbackHadCode, true, "the authorization server redirected back with a code");
    assert.equal(report.server, "oauth-fixture");
    assert.deepEqual(report.tools, ["whoami"]);
    assert.match(report.call, /^scopes:/);
    assert.equal(fixture.authorizations.length, 1, "one authorization");
    assert.equal(fixture.registrations.length, 1, "registered once (dynamic registration), reused for the refresh");
    assert.equal(fixture.registrations[0]!.application_type, "web");
    const mcpCalls = fixture.rs.seen.filter((request) => request.method === "POST" && request.url === "/mcp");
    assert.ok(mcpCalls.length >= 3, `initialize, tools/list, tools/call reached the server (${mcpCalls.length})`);
    assert.ok(mcpCalls.every((request) => fixture.tokens.has(request.headers.authorization?.replace(/^Bearer /, "") ?? "")), "each with a token it issued");
  }

  function assertStoredAndRefreshed({ fixture, report }: Flow): void {
    assert.equal(report.storedInIndexedDb, true, "a new IndexedDbTokenStore reads the tokens");
    assert.deepEqual(fixture.tokenRequests.map((request) => request.form.get("grant_type")).slice(0, 2), ["authorization_code", "refresh_token"]);
    assert.ok(report.events.includes("refreshed"), report.events.join(", "));
    assert.equal(report.refreshedStored, true, "the refreshed tokens replaced the first ones in IndexedDB");
    assert.deepEqual(report.pendingLeft, [], "no pending authorization (verifier) left in sessionStorage");
  }

  /** No access or refresh token the server issued, and no PKCE verifier, in any URL the browser asked any of the three servers for. */
  function assertNoSecretInUrls({ fixture, pageRequests }: Flow): void {
    const urls = [
      ...pageRequests.map((line) => `page ${line}`),
      ...fixture.as.seen.map((request) => `AS ${request.method} ${request.url}`),
      ...fixture.rs.seen.map((request) => `RS ${request.method} ${request.url}`),
    ];
    assert.ok(pageRequests.some((line) => line.startsWith("GET /callback.html?code=")), pageRequests.join("\n"));
    const secrets = [
      ...fixture.tokens.keys(),
      ...[...fixture.tokens.keys()].map((token) => `r-${token}`), // the refresh tokens
      ...fixture.tokenRequests.map((request) => request.form.get("code_verifier")).filter((verifier): verifier is string => verifier !== null),
    ];
    assert.ok(secrets.length >= 3, "tokens were issued and a verifier sent");
    for (const secret of secrets) {
      const inUrl = urls.filter((url) => url.includes(secret) || url.includes(encodeURIComponent(secret)));
      assert.deepEqual(inUrl, [], `a secret appeared in a URL`);
    }
  }

  for (const browser of BROWSERS) {
    describe(`headless ${browser.name}`, { skip: browser.skip }, () => flowSuite(browser));
  }

  /** Both flows, in `browser`. */
  function flowSuite(browser: PageBrowser): void {
    describe("a redirect: location.assign to the authorization server, completed on the callback page", () => {
      let flow: Flow | undefined;
      before(async () => {
        flow = await run(browser, "redirect");
      });

      test("the page completes the redirect flow and lists and calls the protected server's tools with the token", () => {
        assertConnected(flow!);
      });

      test("the tokens are kept in IndexedDB and refreshed there when they near expiry; the PKCE verifier is gone", () => {
        assertStoredAndRefreshed(flow!);
      });

      test("the final page URL has no code or state, and no token or verifier appears in any URL the browser visited", () => {
        const clean = `${flow!.origin}/callback.html`;
        assert.equal(flow!.report.cleanUrl, clean);
        assert.equal(flow!.report.finalUrl, clean, "history.replaceState took the code and state out of the address bar");
        assertNoSecretInUrls(flow!);
      });
    });

    describe("a popup: window.open to the authorization server, its callback posts its URL back and the opener completes", () => {
      let flow: Flow | undefined;
      before(async () => {
        flow = await run(browser, "popup");
      });

      test("the opener completes the flow, keeps the tokens in IndexedDB, and connects with them", () => {
        assertConnected(flow!);
        assertStoredAndRefreshed(flow!);
      });

      test("the opener's URL never held a code, and no token or verifier appears in any URL the browser visited", () => {
        assert.ok(!/[?&](code|state)=/.test(flow!.report.finalUrl), flow!.report.finalUrl);
        assert.ok(flow!.report.finalUrl.startsWith(`${flow!.origin}/index.html?`), flow!.report.finalUrl);
        assertNoSecretInUrls(flow!);
      });
    });
  }
});
