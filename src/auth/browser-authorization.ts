// OAuth in a browser page: the authorization code flow with PKCE in two calls around a redirect
// (or a popup) the embedder drives — spec 2026-07-28 basic/authorization ("Authorization Flow
// Steps"), OAuth 2.1 4.1 and 7.12 (state), RFC 9207 (iss), RFC 8707 (resource). The PKCE
// verifier and the state wait in sessionStorage (never in a URL); the tokens go to the store.

import { messageOf } from "../common/error-text.ts";
import { acceptAuthorizationResponse, buildAuthorizationRequest, readAuthorizationResponse, selectScope } from "./authorization-code.ts";
import { assertSafeUrl, discover } from "./discovery.ts";
import { AuthError } from "./errors.ts";
import { resolveClient } from "./registration.ts";
import { sessionStorageOf, type WebStorage } from "./session-storage-token-store.ts";
import { type ClientAuthentication, requestToken, type TokenSet } from "./token-endpoint.ts";
import type { TokenStore } from "./token-store.ts";
import type { AuthProvider } from "./types.ts";

/** Options of startBrowserAuthorization: the MCP server, this page's redirect URI, the client and where things are kept. */
export interface BrowserAuthorizationOptions {
  /** The MCP endpoint (the protected resource). */
  serverUrl: string | URL;
  /** Where the authorization server sends the browser back: a page of yours that calls completeBrowserAuthorization. */
  redirectUri: string;
  /** Where the registration (and, on completion, the tokens) are kept: MemoryTokenStore, SessionStorageTokenStore, IndexedDbTokenStore. */
  store: TokenStore;
  /** A client registered out of band (a public client: no secret in a page). Without it: a Client ID Metadata Document, a stored registration, or dynamic registration. */
  clientId?: string;
  /** SEP-991: the HTTPS URL of your Client ID Metadata Document, used when the authorization server supports it. */
  clientMetadataUrl?: string;
  /** The client_name registered (default "mcpwire"). */
  clientName?: string;
  /** The scopes to ask for (space-separated). Default: the spec's scope selection (the resource's scopes_supported, offline_access when offered). */
  scope?: string;
  /** The protected resource metadata URL, when a 401's WWW-Authenticate named one (default: the well-known locations). */
  resourceMetadataUrl?: string;
  /** Where the verifier and state wait for the redirect (default: sessionStorage, which a same-tab redirect and a popup of the same origin both see). */
  pending?: WebStorage;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per request (metadata, registration, token). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Options of completeBrowserAuthorization: the URL the browser came back to, and the same store and pending storage as the start. */
export interface BrowserCallbackOptions {
  /** The redirect's URL: `location.href` on the redirect page. */
  callbackUrl: string | URL;
  /** Where the tokens go (the same store the start was given, so the registration is found for refreshes). */
  store: TokenStore;
  /** The storage given to startBrowserAuthorization (default: sessionStorage). */
  pending?: WebStorage;
  fetch?: typeof fetch;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What waits between the two calls, under the state; holds the verifier, so never put in a URL. */
interface PendingAuthorization {
  serverUrl: string;
  redirectUri: string;
  verifier: string;
  issuer: string;
  issAdvertised: boolean;
  tokenEndpoint: string;
  resource: string;
  client: ClientAuthentication;
  /** epoch ms */
  startedAt: number;
}

const PENDING_PREFIX = "mcpwire.oauth.pending:";
/** A redirect that comes back later than this is refused (the user starts again). */
const PENDING_LIFETIME_MS = 15 * 60_000;
/** The redirect's parameters removed from the URL handed back (RFC 6749 4.1.2, 4.1.2.1; RFC 9207). */
const RESPONSE_PARAMETERS = ["code", "state", "iss", "error", "error_description", "error_uri", "session_state"];

/**
 * The AuthProvider for createOAuthFetch in a page, with the flow's client and store. Stored
 * tokens are sent and refreshed; a new authorization it cannot do (the page drives the
 * redirect): its openAuthorizationUrl rejects with AuthError "interaction-failed" — call
 * startBrowserAuthorization then.
 */
export function browserAuthProvider(
  options: Pick<BrowserAuthorizationOptions, "redirectUri" | "store" | "clientId" | "clientMetadataUrl" | "clientName">,
): AuthProvider {
  return {
    redirectUri: options.redirectUri,
    clientMetadata: { client_name: options.clientName ?? "mcpwire", redirect_uris: [options.redirectUri], application_type: "web" },
    ...(options.clientMetadataUrl !== undefined ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    ...(options.clientId !== undefined ? { preRegistered: [{ clientId: options.clientId, tokenEndpointAuthMethod: "none" as const }] } : {}),
    store: options.store,
    openAuthorizationUrl: () =>
      Promise.reject(
        new AuthError(
          "a new authorization is needed; in a browser page call startBrowserAuthorization and send the user to the URL it returns",
          "interaction-failed",
        ),
      ),
  };
}

function requireWebCrypto(): void {
  if ((globalThis as { crypto?: { subtle?: unknown } }).crypto?.subtle === undefined) {
    throw new AuthError(
      "startBrowserAuthorization: crypto.subtle is not available (browsers offer it only to secure contexts: https pages and http://localhost); serve the page over https",
      "unsupported-runtime",
    );
  }
}

/**
 * Step one in the page: discovery, the client (pre-registered, CIMD, stored or registered now
 * and kept in `store`), the scope, and a PKCE verifier and state saved in `pending`. Resolves
 * with the authorization URL; the page sends the user there: `location.assign(url)` (redirect:
 * the redirect page calls completeBrowserAuthorization) or `window.open(url)` (popup: its
 * redirect page posts `location.href` to the opener, which calls it).
 */
export async function startBrowserAuthorization(options: BrowserAuthorizationOptions): Promise<URL> {
  requireWebCrypto();
  const pending = options.pending ?? sessionStorageOf("startBrowserAuthorization");
  const http = {
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
  const serverUrl = new URL(options.serverUrl);
  // spec 2025-11-25 basic/authorization ("Communication Security"): redirect URIs are https or loopback
  assertSafeUrl(options.redirectUri, "the redirect URI");
  const target = await discover(serverUrl, options.resourceMetadataUrl !== undefined ? { resourceMetadata: options.resourceMetadataUrl } : {}, http);
  const provider = browserAuthProvider(options);
  const resolved = await resolveClient(target.issuer, target.metadata, provider, await options.store.getClient(target.issuer), http);
  if (resolved.registered !== undefined) await options.store.setClient(resolved.registered);
  const scope = options.scope ?? selectScope(target, { offlineAccess: true });
  const request = await buildAuthorizationRequest(target, resolved.client.clientId, options.redirectUri, scope);
  const waiting: PendingAuthorization = {
    serverUrl: serverUrl.href,
    redirectUri: options.redirectUri,
    verifier: request.verifier,
    issuer: target.issuer,
    issAdvertised: target.metadata.authorization_response_iss_parameter_supported === true,
    tokenEndpoint: target.metadata.token_endpoint!,
    resource: target.resource,
    client: resolved.client,
    startedAt: Date.now(),
  };
  try {
    pending.setItem(`${PENDING_PREFIX}${request.state}`, JSON.stringify(waiting));
  } catch (error) {
    throw new AuthError(`startBrowserAuthorization: cannot keep the PKCE verifier in the pending storage (${messageOf(error)})`, "unsupported-runtime", {
      cause: error,
    });
  }
  return request.url;
}

/**
 * Step two, on the redirect page: the response checked (a state this tab started and has not
 * used yet, iss, error), the pending entry removed whatever the outcome, the code exchanged with
 * the PKCE verifier, and the tokens stored for the server. Resolves with the tokens and
 * `cleanUrl`: the callback URL without code, state, iss and error parameters, for
 * `history.replaceState(null, "", cleanUrl)`.
 */
export async function completeBrowserAuthorization(
  options: BrowserCallbackOptions,
): Promise<{ serverUrl: string; tokens: TokenSet; cleanUrl: string }> {
  const pending = options.pending ?? sessionStorageOf("completeBrowserAuthorization");
  const callback = new URL(readUrl(options.callbackUrl));
  const response = readAuthorizationResponse(callback);
  const cleanUrl = new URL(callback.href);
  for (const name of RESPONSE_PARAMETERS) cleanUrl.searchParams.delete(name);
  if (cleanUrl.search === "?") cleanUrl.search = "";

  const key = response.state !== undefined ? `${PENDING_PREFIX}${response.state}` : undefined;
  const saved = key !== undefined ? pending.getItem(key) : null;
  if (key === undefined || saved === null) {
    throw new AuthError(
      `the authorization response's state ${response.state === undefined ? "is missing" : "matches no authorization this tab started"} ` +
        "(CSRF protection, OAuth 2.1 7.12, or a redirect used twice); refusing it — start the authorization again",
      "state-mismatch",
    );
  }
  pending.removeItem(key); // one use: the verifier is gone whatever follows
  let waiting: PendingAuthorization;
  try {
    waiting = JSON.parse(saved) as PendingAuthorization;
  } catch (error) {
    throw new AuthError(`the pending authorization under ${key} is not readable (${messageOf(error)}); start the authorization again`, "interaction-failed");
  }
  if (Date.now() - waiting.startedAt > PENDING_LIFETIME_MS) {
    throw new AuthError(
      `the authorization to ${waiting.serverUrl} was started more than ${PENDING_LIFETIME_MS / 60_000} minutes ago; start it again`,
      "interaction-failed",
    );
  }
  if (callback.origin + callback.pathname !== new URL(waiting.redirectUri).origin + new URL(waiting.redirectUri).pathname) {
    throw new AuthError(
      `the authorization response came to ${callback.origin}${callback.pathname}, not to the redirect URI ${waiting.redirectUri} it was started with; refusing it`,
      "interaction-failed",
    );
  }
  const code = acceptAuthorizationResponse(response, waiting.issuer, waiting.issAdvertised, response.state!);
  const tokens = await requestToken({
    tokenEndpoint: waiting.tokenEndpoint,
    issuer: waiting.issuer,
    client: waiting.client,
    params: { grant_type: "authorization_code", code, code_verifier: waiting.verifier, redirect_uri: waiting.redirectUri },
    resource: waiting.resource,
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  await options.store.setTokens(waiting.serverUrl, waiting.issuer, tokens);
  return { serverUrl: waiting.serverUrl, tokens, cleanUrl: cleanUrl.href };
}

function readUrl(value: string | URL): string {
  try {
    return new URL(value).href;
  } catch {
    throw new AuthError(`completeBrowserAuthorization: the callback URL is not a URL; pass location.href`, "interaction-failed");
  }
}
