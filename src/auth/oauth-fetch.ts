// The fetch wrapper that makes an HTTP transport authorize: it adds the access token, and on a
// 401 or a 403 insufficient_scope runs discovery, registration and authorization, then retries —
// spec 2026-07-28 basic/authorization ("Access Token Usage", "Scope Challenge Handling", "Step-Up Authorization Flow").

import { messageOf } from "../common/error-text.ts";
import { retryOnReset } from "../transport/reset-retry.ts";
import { authorizeWithCode, refreshTokens, selectScope, splitScopes } from "./authorization-code.ts";
import { type AuthorizationTarget, discover } from "./discovery.ts";
import { dpopFetch } from "./dpop.ts";
import { AuthError } from "./errors.ts";
import { resolveClient, type ResolvedClient, type StoredClient } from "./registration.ts";
import { type ClientAuthentication, OAuthError, type TokenSet } from "./token-endpoint.ts";
import { MemoryTokenStore, type TokenStore } from "./token-store.ts";
import type { AuthProvider } from "./types.ts";
import { offersOnlyOtherSchemes, readResourceChallenge, type ResourceChallenge } from "./www-authenticate.ts";

/** What a grant other than the authorization code (client credentials, JWT bearer, …) is given. */
export interface GrantContext {
  target: AuthorizationTarget;
  /** From the scope selection strategy; undefined: send no scope. */
  scope?: string;
  /** Resolves the client (pre-registered, CIMD, stored or DCR) for target.issuer. */
  client(): Promise<ClientAuthentication>;
  fetch: typeof fetch;
  signal?: AbortSignal;
}

/** What the wrapper did, for traces and CLIs. Never holds a token or secret. */
export type AuthEvent =
  | { kind: "challenge"; status: number; challenge: ResourceChallenge }
  | { kind: "discovered"; issuer: string; resource: string; legacy: boolean; resourceMetadataUrl?: string }
  | { kind: "client"; issuer: string; source: ResolvedClient["source"]; clientId: string }
  | { kind: "authorized"; issuer: string; scope?: string; expiresAt?: number; refreshable: boolean }
  | { kind: "refreshed"; issuer: string }
  | { kind: "refresh-failed"; issuer: string; reason: string }
  /** The store could not be read (a corrupt file, permissions): going on without stored tokens. */
  | { kind: "store-unreadable"; reason: string };

/** Options of createOAuthFetch: the MCP server's URL, the AuthProvider, the fetch to wrap, and the timeouts. */
export interface OAuthFetchOptions {
  /** The MCP endpoint (the protected resource). */
  serverUrl: string | URL;
  provider: AuthProvider;
  /** Used for the MCP requests and the authorization requests. Default: the global fetch. */
  fetch?: typeof fetch;
  /** Per authorization request (metadata, registration, token). Default 10 s (token: 30 s). */
  timeoutMs?: number;
  /** Refresh this long before the access token expires. Default 60 s. */
  refreshSkewMs?: number;
  /** Step-up authorizations per request before giving up. Default 2. */
  maxStepUps?: number;
  /** A grant to use instead of the authorization code flow (extensions: client credentials, …). */
  grant?: (context: GrantContext) => Promise<TokenSet>;
  onEvent?: (event: AuthEvent) => void;
  /**
   * Called with every token set as it is obtained (authorization, refresh, a grant) or loaded
   * from the store, before it is used: a host adds its tokens to its Redactor here, so no trace,
   * error message or event shows them.
   */
  onTokens?: (tokens: TokenSet) => void;
  /**
   * Non-interactive use (a host running servers, nobody at a browser): when a new authorization
   * would be needed (not a refresh, and no `grant`), the error this returns is thrown instead —
   * before discovery or registration touch any server.
   */
  loginRequired?: (challenge: ResourceChallenge) => Error;
}

/** A fetch with OAuth, and what it holds. */
export interface OAuthFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * Runs discovery and authorization now (e.g. `mcpwire auth login`), without an MCP request;
   * `challenge` is what an unauthenticated request's 401 said (resource_metadata, scope), if any.
   */
  authorize(signal?: AbortSignal, challenge?: ResourceChallenge): Promise<TokenSet>;
  /** Forgets the tokens (memory and store); the next request authorizes again. */
  logout(): Promise<void>;
  /** The current tokens, if any (to show expiry and scope; never print accessToken). */
  tokens(): Promise<TokenSet | undefined>;
}

const DEFAULT_SKEW_MS = 60_000;
const DEFAULT_MAX_STEP_UPS = 2;

/**
 * A fetch for one MCP server that authorizes as the server asks:
 * - every request to the server's origin carries `Authorization: Bearer <token>` (or DPoP);
 * - a token about to expire is refreshed first, when there is a refresh token;
 * - a 401 is answered by one refresh (when possible), else by a new authorization — discovery
 *   run again, so a changed authorization server is noticed (SEP-2352) — then the request is
 *   sent again; a second 401 with a fresh token is an AuthError "unauthorized";
 * - a 403 with `error="insufficient_scope"` is a step-up: the union of the scopes asked for
 *   before and the challenge's, at most `maxStepUps` times per request, and never when the
 *   challenge asks only for scopes already granted (AuthError "step-up-limit").
 * Concurrent requests share one authorization.
 */
export function createOAuthFetch(options: OAuthFetchOptions): OAuthFetch {
  const serverUrl = new URL(options.serverUrl);
  const provider = options.provider;
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  const store: TokenStore = provider.store ?? new MemoryTokenStore();
  const skew = options.refreshSkewMs ?? DEFAULT_SKEW_MS;
  const maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  const emit = (event: AuthEvent): void => options.onEvent?.(event);
  const http = {
    // The authorization server's requests, once more on a connection reset (a reused
    // keep-alive connection the server had closed); the MCP requests are the transport's.
    fetch: retryOnReset(baseFetch),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };

  let target: AuthorizationTarget | undefined;
  let client: ClientAuthentication | undefined;
  let tokens: TokenSet | undefined;
  let issuerOfTokens: string | undefined;
  /** The scopes asked for by the last authorization (kept across step-ups). */
  let requestedScope: string | undefined;
  /** Bumped by every new token set: a request that failed with an older one just retries. */
  let generation = 0;
  let loaded = false;
  let pending: Promise<void> | undefined;

  async function load(): Promise<void> {
    if (loaded) return;
    loaded = true;
    let saved: Awaited<ReturnType<TokenStore["getTokens"]>>;
    try {
      saved = await store.getTokens(serverUrl.href);
    } catch (error) {
      // a server that needs no authorization must not fail over a broken token file
      emit({ kind: "store-unreadable", reason: messageOf(error) });
      return;
    }
    if (saved !== undefined) {
      options.onTokens?.(saved.tokens);
      tokens = saved.tokens;
      issuerOfTokens = saved.issuer;
      requestedScope = saved.tokens.scope;
      generation++;
    }
  }

  async function clientFor(found: AuthorizationTarget, signal?: AbortSignal): Promise<ClientAuthentication> {
    const stored: StoredClient | undefined = await store.getClient(found.issuer);
    const resolved = await resolveClient(found.issuer, found.metadata, provider, stored, { ...http, ...(signal ? { signal } : {}) });
    if (resolved.registered !== undefined) await store.setClient(resolved.registered);
    emit({ kind: "client", issuer: found.issuer, source: resolved.source, clientId: resolved.client.clientId });
    return resolved.client;
  }

  async function accept(found: AuthorizationTarget, fresh: TokenSet, scope: string | undefined): Promise<void> {
    options.onTokens?.(fresh);
    tokens = fresh;
    issuerOfTokens = found.issuer;
    requestedScope = scope ?? fresh.scope;
    generation++;
    await store.setTokens(serverUrl.href, found.issuer, fresh);
  }

  /** Discovery, client, scope, grant: one whole authorization. */
  async function authorizeNow(challenge: ResourceChallenge, previous: string | undefined, signal?: AbortSignal): Promise<void> {
    if (options.loginRequired !== undefined && options.grant === undefined) throw options.loginRequired(challenge);
    const found = await discover(serverUrl, challenge, {
      ...http,
      ...(signal ? { signal } : {}),
      ...(issuerOfTokens ? { preferredIssuer: issuerOfTokens } : {}),
    });
    emit({
      kind: "discovered",
      issuer: found.issuer,
      resource: found.resource,
      legacy: found.legacy,
      ...(found.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: found.resourceMetadataUrl } : {}),
    });
    if (target !== undefined && target.issuer !== found.issuer) client = undefined; // SEP-2352: a new AS, a new client
    target = found;
    const scope = selectScope(found, {
      ...(challenge.scope !== undefined ? { challenge: challenge.scope } : {}),
      ...(previous !== undefined ? { previous } : {}),
      offlineAccess: provider.offlineAccess !== false,
    });
    let fresh: TokenSet;
    if (options.grant !== undefined) {
      fresh = await options.grant({
        target: found,
        ...(scope !== undefined ? { scope } : {}),
        client: async () => (client ??= await clientFor(found, signal)),
        fetch: baseFetch,
        ...(signal ? { signal } : {}),
      });
    } else {
      client = await clientFor(found, signal);
      fresh = await authorizeWithCode({
        ...http,
        ...(signal ? { signal } : {}),
        target: found,
        client,
        provider,
        ...(scope !== undefined ? { scope } : {}),
        ...(provider.dpop !== undefined ? { dpop: provider.dpop } : {}),
      });
    }
    await accept(found, fresh, scope);
    emit({
      kind: "authorized",
      issuer: found.issuer,
      ...(scope !== undefined ? { scope } : {}),
      ...(fresh.expiresAt !== undefined ? { expiresAt: fresh.expiresAt } : {}),
      refreshable: fresh.refreshToken !== undefined,
    });
  }

  /** The refresh grant; false (tokens dropped) when it fails, so a new authorization follows. */
  async function refreshNow(signal?: AbortSignal): Promise<boolean> {
    const refreshToken = tokens?.refreshToken;
    if (refreshToken === undefined) return false;
    let reason: string;
    try {
      target ??= await discover(serverUrl, {}, { ...http, ...(signal ? { signal } : {}), ...(issuerOfTokens ? { preferredIssuer: issuerOfTokens } : {}) });
      if (issuerOfTokens !== undefined && target.issuer !== issuerOfTokens) {
        // Tokens of one authorization server are not refreshed at another: dropped, a new authorization follows.
        reason = `the authorization server changed from ${issuerOfTokens} to ${target.issuer}`;
      } else {
        client ??= await clientFor(target, signal);
        const fresh = await refreshTokens(target, client, refreshToken, {
          ...http,
          ...(signal ? { signal } : {}),
          ...(provider.dpop !== undefined ? { dpop: provider.dpop } : {}),
        });
        await accept(target, fresh, requestedScope);
        emit({ kind: "refreshed", issuer: target.issuer });
        return true;
      }
    } catch (error) {
      if (error instanceof AuthError && error.code !== "discovery-failed") throw error;
      reason = error instanceof OAuthError ? error.error : messageOf(error);
    }
    emit({ kind: "refresh-failed", issuer: target?.issuer ?? issuerOfTokens ?? "?", reason });
    tokens = undefined;
    await store.deleteTokens(serverUrl.href);
    return false;
  }

  /**
   * Runs `work` unless another request's authorization is under way; then waits for that one
   * and shares its outcome: its tokens, or its error (the user is not asked twice).
   */
  async function exclusive(seen: number, work: () => Promise<void>): Promise<void> {
    while (pending !== undefined) {
      const other = pending;
      try {
        await other;
      } catch (error) {
        if (generation === seen) throw error;
      }
    }
    if (generation !== seen) return; // someone else got new tokens meanwhile
    pending = work();
    try {
      await pending;
    } finally {
      pending = undefined;
    }
  }

  async function send(input: string | URL | Request, init: RequestInit | undefined, copy: () => Request | undefined): Promise<Response> {
    const request = copy();
    const url = new URL(request?.url ?? (input instanceof URL ? input.href : String(input)));
    const headers = new Headers(request?.headers ?? init?.headers);
    const ours = url.origin === serverUrl.origin; // never a token to another origin
    const current = tokens;
    if (ours && current !== undefined && current.tokenType.toLowerCase() === "dpop" && provider.dpop !== undefined) {
      const base: RequestInit = { ...init, headers };
      return await dpopFetch({ signer: provider.dpop, accessToken: current.accessToken, fetch: baseFetch }, request ?? url, request ? { headers } : base);
    }
    if (ours && current !== undefined) headers.set("authorization", `Bearer ${current.accessToken}`);
    if (request !== undefined) return await baseFetch(new Request(request, { headers }));
    return await baseFetch(input, { ...init, headers });
  }

  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    await load();
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined;
    const original = input instanceof Request ? input.clone() : undefined;
    const copy = (): Request | undefined => original?.clone();
    let refreshed = false;
    let authorized = false;
    let stepUps = 0;

    if (tokens?.expiresAt !== undefined && tokens.refreshToken !== undefined && tokens.expiresAt - skew <= Date.now()) {
      const seen = generation;
      await exclusive(seen, async () => {
        refreshed = await refreshNow(signal);
      });
    }
    for (;;) {
      const seen = generation;
      const response = await send(input, init, copy);
      if (response.status !== 401 && response.status !== 403) return response;
      const url = new URL(input instanceof Request ? input.url : input instanceof URL ? input.href : String(input));
      if (url.origin !== serverUrl.origin) return response;
      // RFC 9110 11.6.1: a 401 names the schemes it takes. One that offers only others (Basic,
      // Digest: the URL's user:password refused) is no OAuth resource; its answer is the caller's.
      if (offersOnlyOtherSchemes(response.headers)) return response;
      const challenge = readResourceChallenge(response.headers);
      if (response.status === 403 && challenge.error !== "insufficient_scope") return response;
      emit({ kind: "challenge", status: response.status, challenge });
      await response.body?.cancel().catch(() => undefined);

      if (response.status === 401) {
        if (generation !== seen) continue; // another request re-authorized meanwhile
        if (authorized) {
          throw new AuthError(
            `${serverUrl.href} still answers 401 after a new authorization` +
              `${challenge.error !== undefined ? ` (${challenge.error}${challenge.errorDescription ? `: ${challenge.errorDescription}` : ""})` : ""}; ` +
              `check the server's authorization configuration, or run \`mcpwire auth logout\` and log in again`,
            "unauthorized",
          );
        }
        await exclusive(seen, async () => {
          // spec 2026-07-28 authorization: refresh once on 401; a failed refresh means a new authorization
          if (!refreshed && tokens?.refreshToken !== undefined) {
            refreshed = true;
            if (await refreshNow(signal)) return;
          }
          authorized = true;
          await authorizeNow(challenge, undefined, signal);
        });
        continue;
      }

      // 403 insufficient_scope: step-up (spec 2026-07-28 authorization, "Step-Up Authorization Flow")
      if (generation !== seen) continue;
      const granted = splitScopes(tokens?.scope ?? requestedScope);
      const wanted = splitScopes(challenge.scope);
      const nothingNew = tokens !== undefined && wanted.every((scope) => granted.includes(scope));
      if (stepUps >= maxStepUps || nothingNew) {
        throw new AuthError(
          `${serverUrl.href} answers 403 insufficient_scope${challenge.scope ? ` (wants "${challenge.scope}")` : ""}` +
            (nothingNew ? ` although the token was granted those scopes` : ` after ${stepUps} step-up authorization(s)`) +
            `; giving up instead of authorizing again (retry limit) — check the scopes the account may be granted`,
          "step-up-limit",
        );
      }
      stepUps++;
      await exclusive(seen, () => authorizeNow(challenge, requestedScope, signal));
    }
  };

  const result = wrapped as OAuthFetch;
  result.authorize = async (signal?: AbortSignal, challenge: ResourceChallenge = {}): Promise<TokenSet> => {
    await load();
    await exclusive(generation, () => authorizeNow(challenge, undefined, signal));
    if (tokens === undefined) throw new AuthError(`authorizing to ${serverUrl.href} produced no tokens`, "unauthorized");
    return tokens;
  };
  result.logout = async (): Promise<void> => {
    await load();
    tokens = undefined;
    requestedScope = undefined;
    generation++;
    await store.deleteTokens(serverUrl.href);
  };
  result.tokens = async (): Promise<TokenSet | undefined> => {
    await load();
    return tokens;
  };
  return result;
}
