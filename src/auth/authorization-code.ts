// The authorization code grant with PKCE (OAuth 2.1 4.1), the resource indicator (RFC 8707),
// the iss check (RFC 9207), scope selection and the refresh grant — spec 2026-07-28
// basic/authorization ("Authorization Flow Steps", "Scope Selection Strategy", "Authorization Response Validation").

import { messageOf } from "../common/error-text.ts";
import { preview } from "../common/preview.ts";
import type { AuthorizationTarget, HttpOptions } from "./discovery.ts";
import type { DpopSigner } from "./dpop.ts";
import { AuthError } from "./errors.ts";
import { createPkce, randomToken } from "./pkce.ts";
import { type ClientAuthentication, requestToken, type TokenSet } from "./token-endpoint.ts";
import type { AuthorizationResponse, AuthProvider } from "./types.ts";

/** Space-separated scopes as a list, without empties or repeats, order kept. */
export function splitScopes(scope: string | undefined): string[] {
  if (scope === undefined) return [];
  return [...new Set(scope.split(/\s+/).filter((s) => s !== ""))];
}

export interface ScopeSelection {
  /** The `scope` of the WWW-Authenticate challenge that started this authorization. */
  challenge?: string;
  /** The scopes asked for before (a step-up keeps them: spec 2026-07-28 authorization, "Step-Up Authorization Flow"). */
  previous?: string;
  /** Add offline_access when the authorization server lists it (SEP-2207). */
  offlineAccess: boolean;
}

/**
 * The scope to ask for — spec 2026-07-28 basic/authorization ("Scope Selection Strategy"):
 * the challenge's `scope` when given, else all of the protected resource metadata's
 * scopes_supported, else none (the parameter is omitted); united with the scopes asked for
 * before; `offline_access` added only when the authorization server's scopes_supported lists
 * it, and removed when it does not (SEP-2207: MUST NOT request what it does not list).
 * Undefined means "send no scope parameter".
 */
export function selectScope(target: AuthorizationTarget, selection: ScopeSelection): string | undefined {
  const fromResource = target.resourceMetadata?.scopes_supported;
  const base = selection.challenge !== undefined
    ? splitScopes(selection.challenge)
    : Array.isArray(fromResource)
    ? fromResource.filter((s): s is string => typeof s === "string")
    : [];
  const scopes = [...new Set([...splitScopes(selection.previous), ...base])];
  const asSupports = Array.isArray(target.metadata.scopes_supported) && target.metadata.scopes_supported.includes("offline_access");
  const withoutOffline = scopes.filter((s) => s !== "offline_access");
  const final = asSupports && (selection.offlineAccess || scopes.includes("offline_access")) ? [...withoutOffline, "offline_access"] : withoutOffline;
  return final.length === 0 ? undefined : final.join(" ");
}

/** The redirect's parameters, from a URL (query) or as given. */
export function readAuthorizationResponse(value: string | URL | AuthorizationResponse): AuthorizationResponse {
  if (typeof value !== "string" && !(value instanceof URL)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthError(
      `the authorization redirect ${preview(String(value), 100)} is not a URL; paste the whole URL the browser was sent to`,
      "interaction-failed",
    );
  }
  const params = url.searchParams;
  const response: AuthorizationResponse = {};
  const code = params.get("code");
  const state = params.get("state");
  const iss = params.get("iss");
  const error = params.get("error");
  const description = params.get("error_description");
  if (code !== null) response.code = code;
  if (state !== null) response.state = state;
  if (iss !== null) response.iss = iss;
  if (error !== null) response.error = error;
  if (description !== null) response.errorDescription = description;
  return response;
}

/**
 * RFC 9207 2.4 as spec 2026-07-28 basic/authorization ("Authorization Response Validation")
 * tables it: a present `iss` is compared with the recorded issuer by simple string comparison,
 * advertised or not; an absent one is rejected only when the server advertised
 * authorization_response_iss_parameter_supported. No normalization (trailing slash, case, port).
 */
export function checkIssuer(response: AuthorizationResponse, issuer: string, advertised: boolean): void {
  if (response.iss !== undefined) {
    if (response.iss !== issuer) {
      throw new AuthError(
        `the authorization response names issuer ${JSON.stringify(response.iss)}, but the request went to ${issuer} (RFC 9207); ` +
          `refusing it, as it may come from another authorization server (a mix-up attack); the code was not used`,
        "iss-mismatch",
      );
    }
    return;
  }
  if (advertised) {
    throw new AuthError(
      `the authorization server ${issuer} advertises authorization_response_iss_parameter_supported but its response has no iss (RFC 9207 2.4); ` +
        `refusing it; the code was not used`,
      "iss-mismatch",
    );
  }
}

export interface AuthorizationCodeOptions extends HttpOptions {
  target: AuthorizationTarget;
  client: ClientAuthentication;
  provider: AuthProvider;
  /** From selectScope; undefined omits the parameter. */
  scope?: string;
  dpop?: DpopSigner;
}

/** An authorization request, built: the URL to send the user to and the secrets its response is checked and redeemed with. */
export interface AuthorizationRequest {
  url: URL;
  /** OAuth 2.1 7.12: compared with the response's `state` (CSRF). */
  state: string;
  /** RFC 7636: sent only on the token request. */
  verifier: string;
}

/**
 * The authorization URL (OAuth 2.1 4.1.1) with PKCE S256, a fresh state, the scope and the
 * resource indicator; refuses an authorization server without S256 or without its endpoints.
 */
export async function buildAuthorizationRequest(
  target: AuthorizationTarget,
  clientId: string,
  redirectUri: string,
  scope: string | undefined,
): Promise<AuthorizationRequest> {
  const { metadata } = target;
  // spec 2026-07-28 security-considerations ("Authorization Code Protection"): no S256, no flow
  const methods = metadata.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes("S256")) {
    throw new AuthError(
      `the authorization server ${target.issuer} does not advertise PKCE S256 (code_challenge_methods_supported is ${JSON.stringify(methods ?? null)}); ` +
        `MCP clients must refuse to proceed without it — ask the server's operator to enable PKCE`,
      "pkce-unsupported",
    );
  }
  if (metadata.authorization_endpoint === undefined || metadata.token_endpoint === undefined) {
    throw new AuthError(
      `the authorization server metadata of ${target.issuer} lacks ${
        metadata.authorization_endpoint === undefined ? "authorization_endpoint" : "token_endpoint"
      }; the server is misconfigured`,
      "discovery-failed",
    );
  }
  const pkce = await createPkce();
  const state = randomToken(32);
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("code_challenge", pkce.challenge);
  url.searchParams.set("code_challenge_method", pkce.method);
  url.searchParams.set("state", state);
  if (scope !== undefined) url.searchParams.set("scope", scope);
  // spec 2026-07-28 authorization ("Resource Parameter Implementation"): on both requests
  url.searchParams.set("resource", target.resource);
  return { url, state, verifier: pkce.verifier };
}

/**
 * The authorization response checked — iss, then state, then error, then code — and its code
 * returned. `issAdvertised`: the server's authorization_response_iss_parameter_supported.
 */
export function acceptAuthorizationResponse(response: AuthorizationResponse, issuer: string, issAdvertised: boolean, state: string): string {
  // iss first: on a mismatch not even the error is acted on (spec: "MUST NOT act on or display error")
  checkIssuer(response, issuer, issAdvertised);
  if (response.state !== state) {
    throw new AuthError(
      `the authorization response's state does not match the request's (CSRF protection, OAuth 2.1 7.12); refusing it — start the authorization again`,
      "state-mismatch",
    );
  }
  if (response.error !== undefined) {
    throw new AuthError(
      `the authorization server ${issuer} refused the authorization: ${response.error}` +
        `${response.errorDescription !== undefined ? ` (${response.errorDescription})` : ""}; try again, or check the client's permissions there`,
      "authorization-denied",
    );
  }
  if (response.code === undefined || response.code === "") {
    throw new AuthError(`the authorization response from ${issuer} has no code; start the authorization again`, "authorization-denied");
  }
  return response.code;
}

/**
 * One authorization: the URL built and handed to the provider, its redirect validated (iss,
 * then state, then error), and the code exchanged for tokens at the token endpoint.
 */
export async function authorizeWithCode(options: AuthorizationCodeOptions): Promise<TokenSet> {
  const { target, client, provider } = options;
  const { metadata } = target;
  const request = await buildAuthorizationRequest(target, client.clientId, provider.redirectUri, options.scope);

  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let answer: string | URL | AuthorizationResponse;
  try {
    answer = await provider.openAuthorizationUrl(request.url, {
      serverUrl: target.serverUrl.href,
      issuer: target.issuer,
      ...(options.scope !== undefined ? { scope: options.scope } : {}),
      signal: controller.signal,
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError(
      `authorizing to ${target.serverUrl.href} at ${target.issuer} did not complete: ${messageOf(error)}`,
      "interaction-failed",
      { cause: error },
    );
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  const code = acceptAuthorizationResponse(
    readAuthorizationResponse(answer),
    target.issuer,
    metadata.authorization_response_iss_parameter_supported === true,
    request.state,
  );
  return await requestToken({
    tokenEndpoint: metadata.token_endpoint!,
    issuer: target.issuer,
    client,
    params: {
      grant_type: "authorization_code",
      code,
      code_verifier: request.verifier,
      redirect_uri: provider.redirectUri,
    },
    resource: target.resource,
    ...(options.dpop !== undefined ? { dpop: options.dpop } : {}),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

/** The refresh grant (OAuth 2.1 4.3); the new set keeps the old refresh token when none came back. */
export async function refreshTokens(
  target: AuthorizationTarget,
  client: ClientAuthentication,
  refreshToken: string,
  options: HttpOptions & { dpop?: DpopSigner } = {},
): Promise<TokenSet> {
  if (target.metadata.token_endpoint === undefined) {
    throw new AuthError(`the authorization server metadata of ${target.issuer} lacks token_endpoint`, "discovery-failed");
  }
  const tokens = await requestToken({
    tokenEndpoint: target.metadata.token_endpoint,
    issuer: target.issuer,
    client,
    params: { grant_type: "refresh_token", refresh_token: refreshToken },
    resource: target.resource,
    ...(options.dpop !== undefined ? { dpop: options.dpop } : {}),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return tokens.refreshToken === undefined ? { ...tokens, refreshToken } : tokens;
}
