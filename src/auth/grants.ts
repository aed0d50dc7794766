// Grants without a user at a browser: client credentials (OAuth 2.1 4.2, MCP extension SEP-1046),
// the JWT bearer grant (RFC 7523 2.1) for workload identity (SEP-1933), and token exchange
// (RFC 8693) to an ID-JAG then JWT bearer for enterprise-managed authorization (SEP-990).

import type { AuthorizationTarget } from "./discovery.ts";
import type { DpopSigner } from "./dpop.ts";
import { AuthError } from "./errors.ts";
import type { GrantContext } from "./oauth-fetch.ts";
import { type ClientAuthentication, requestToken, type TokenSet } from "./token-endpoint.ts";

export const GRANT_CLIENT_CREDENTIALS = "client_credentials";
/** RFC 7523 2.1 */
export const GRANT_JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** RFC 8693 2.1 */
export const GRANT_TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

/** RFC 8693 3 token type identifiers, and SEP-990's Identity Assertion JWT Authorization Grant. */
export const TOKEN_TYPE = {
  accessToken: "urn:ietf:params:oauth:token-type:access_token",
  refreshToken: "urn:ietf:params:oauth:token-type:refresh_token",
  idToken: "urn:ietf:params:oauth:token-type:id_token",
  jwt: "urn:ietf:params:oauth:token-type:jwt",
  idJag: "urn:ietf:params:oauth:token-type:id-jag",
} as const;

/** A token or assertion, or a function that gets a fresh one (workload tokens rotate: read it each time). */
export type TokenSource = string | (() => string | Promise<string>);

/** A grant for createOAuthFetch's `grant` option. */
export type Grant = (context: GrantContext) => Promise<TokenSet>;

/** What every grant request may carry besides its own parameters. */
export interface GrantRequestOptions {
  dpop?: DpopSigner;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The token endpoint of a discovered authorization server, or an AuthError saying it has none. */
export function tokenEndpointOf(target: AuthorizationTarget): string {
  const endpoint = target.metadata.token_endpoint;
  if (typeof endpoint !== "string" || endpoint === "") {
    throw new AuthError(
      `authorization server ${target.issuer}: its metadata has no token_endpoint, so no token can be requested; ` +
        "check the authorization server's configuration",
      "discovery-failed",
    );
  }
  return endpoint;
}

async function resolveSource(source: TokenSource): Promise<string> {
  return typeof source === "string" ? source : await source();
}

function common(context: GrantContext, options: GrantRequestOptions) {
  return {
    fetch: options.fetch ?? context.fetch,
    ...((options.signal ?? context.signal) !== undefined ? { signal: options.signal ?? context.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.dpop !== undefined ? { dpop: options.dpop } : {}),
  };
}

function scoped(params: Record<string, string>, scope: string | undefined): Record<string, string> {
  return scope === undefined || scope === "" ? params : { ...params, scope };
}

/** Options of clientCredentialsGrant: the client and how it authenticates. */
export interface ClientCredentialsOptions extends GrantRequestOptions {
  /**
   * How the client authenticates (client_secret_basic, client_secret_post, private_key_jwt).
   * Default: the client the fetch wrapper resolves (pre-registered or registered) for the issuer.
   */
  client?: ClientAuthentication;
}

/**
 * The client credentials grant: the client acts on its own behalf, no user involved
 * (OAuth 2.1 4.2; MCP extension "OAuth Client Credentials", SEP-1046).
 */
export function clientCredentialsGrant(options: ClientCredentialsOptions = {}): Grant {
  return async (context) => {
    const client = options.client ?? await context.client();
    // spec ext-auth oauth-client-credentials: a confidential client only; "none" cannot prove anything.
    if (client.method === "none") {
      throw new AuthError(
        `authorization server ${context.target.issuer}: the client credentials grant needs a client secret or a private key ` +
          `for client "${client.clientId}"; configure one`,
        "registration-failed",
      );
    }
    return await requestToken({
      tokenEndpoint: tokenEndpointOf(context.target),
      issuer: context.target.issuer,
      client,
      params: scoped({ grant_type: GRANT_CLIENT_CREDENTIALS }, context.scope),
      resource: context.target.resource,
      ...common(context, options),
    });
  };
}

/** Options of jwtBearerGrant: the assertion and the client. */
export interface JwtBearerOptions extends GrantRequestOptions {
  /** The JWT the authorization server trusts (a workload identity token, an ID-JAG, …). */
  assertion: TokenSource;
  /** Default: the client the fetch wrapper resolves for the issuer. */
  client?: ClientAuthentication;
}

/**
 * The JWT bearer grant (RFC 7523 2.1): a signed JWT from a party the authorization server trusts
 * is traded for an access token. Workload identity federation (SEP-1933) is this grant with the
 * platform's workload token as the assertion. A refusal (invalid_grant, invalid_scope,
 * unauthorized_client) is reported, never retried with another grant.
 */
export function jwtBearerGrant(options: JwtBearerOptions): Grant {
  return async (context) => {
    const client = options.client ?? await context.client();
    const assertion = await resolveSource(options.assertion);
    return await jwtBearerRequest(context.target, assertion, client, context.scope, common(context, options));
  };
}

async function jwtBearerRequest(
  target: AuthorizationTarget,
  assertion: string,
  client: ClientAuthentication,
  scope: string | undefined,
  options: GrantRequestOptions & { fetch: typeof fetch },
): Promise<TokenSet> {
  return await requestToken({
    tokenEndpoint: tokenEndpointOf(target),
    issuer: target.issuer,
    client,
    // spec RFC 7523 2.1: grant_type and assertion (one JWT); scope optional.
    params: scoped({ grant_type: GRANT_JWT_BEARER, assertion }, scope),
    resource: target.resource,
    ...options,
  });
}

/** An RFC 8693 token exchange request. */
export interface TokenExchangeRequest extends GrantRequestOptions {
  tokenEndpoint: string;
  issuer?: string;
  client: ClientAuthentication;
  subjectToken: string;
  subjectTokenType: string;
  requestedTokenType?: string;
  /** RFC 8693 2.1: the logical name of the target service (for an ID-JAG: the authorization server's issuer). */
  audience?: string;
  resource?: string;
  scope?: string;
  actorToken?: string;
  actorTokenType?: string;
}

/** A token exchange's answer: the tokens, and what kind of token was issued (RFC 8693 2.2.1). */
export interface TokenExchangeResult extends TokenSet {
  issuedTokenType?: string;
}

/** One RFC 8693 token exchange. */
export async function exchangeToken(request: TokenExchangeRequest): Promise<TokenExchangeResult> {
  const params: Record<string, string> = {
    grant_type: GRANT_TOKEN_EXCHANGE,
    subject_token: request.subjectToken,
    subject_token_type: request.subjectTokenType,
  };
  if (request.requestedTokenType !== undefined) params.requested_token_type = request.requestedTokenType;
  if (request.audience !== undefined) params.audience = request.audience;
  if (request.scope !== undefined && request.scope !== "") params.scope = request.scope;
  if (request.actorToken !== undefined) {
    params.actor_token = request.actorToken;
    params.actor_token_type = request.actorTokenType ?? TOKEN_TYPE.jwt;
  }
  const tokens = await requestToken({
    tokenEndpoint: request.tokenEndpoint,
    ...(request.issuer !== undefined ? { issuer: request.issuer } : {}),
    client: request.client,
    params,
    ...(request.resource !== undefined ? { resource: request.resource } : {}),
    ...(request.dpop !== undefined ? { dpop: request.dpop } : {}),
    ...(request.fetch !== undefined ? { fetch: request.fetch } : {}),
    ...(request.signal !== undefined ? { signal: request.signal } : {}),
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
  });
  const issued = tokens.raw.issued_token_type;
  return typeof issued === "string" ? { ...tokens, issuedTokenType: issued } : tokens;
}

/** The enterprise identity provider of SEP-990: where the user's identity is exchanged for an ID-JAG. */
export interface EnterpriseIdp {
  /** The IdP's token endpoint. */
  tokenEndpoint: string;
  /** The IdP's issuer (audience of a private_key_jwt assertion to it). */
  issuer?: string;
  /** How the client authenticates to the IdP (its client at the IdP, not at the MCP authorization server). */
  client: ClientAuthentication;
  /** The user's token from single sign-on: an ID token (default) or an IdP refresh token. */
  subjectToken: TokenSource;
  /** Default urn:ietf:params:oauth:token-type:id_token. */
  subjectTokenType?: string;
}

/** Options of enterpriseManagedGrant: the enterprise IdP and the user's token. */
export interface EnterpriseManagedOptions extends GrantRequestOptions {
  idp: EnterpriseIdp;
  /** The client at the MCP server's authorization server. Default: the one the fetch wrapper resolves. */
  client?: ClientAuthentication;
}

/**
 * Enterprise-managed authorization (SEP-990): the user's IdP token is exchanged at the IdP for an
 * ID-JAG (RFC 8693, requested_token_type id-jag, audience = the authorization server's issuer,
 * resource = the MCP server), then the ID-JAG is presented to the authorization server with the
 * JWT bearer grant (RFC 7523) for the access token. No browser is opened.
 */
export function enterpriseManagedGrant(options: EnterpriseManagedOptions): Grant {
  return async (context) => {
    const http = common(context, options);
    const { dpop: _dpop, ...withoutDpop } = http; // the ID-JAG is not a DPoP-bound token
    const idJag = await exchangeToken({
      tokenEndpoint: options.idp.tokenEndpoint,
      ...(options.idp.issuer !== undefined ? { issuer: options.idp.issuer } : {}),
      client: options.idp.client,
      subjectToken: await resolveSource(options.idp.subjectToken),
      subjectTokenType: options.idp.subjectTokenType ?? TOKEN_TYPE.idToken,
      // spec SEP-990 (ext-auth enterprise-managed-authorization) "Token Exchange": requested_token_type
      // id-jag, audience the MCP authorization server's issuer, resource the MCP server.
      requestedTokenType: TOKEN_TYPE.idJag,
      audience: context.target.issuer,
      resource: context.target.resource,
      ...(context.scope !== undefined ? { scope: context.scope } : {}),
      ...withoutDpop,
    });
    if (idJag.issuedTokenType !== undefined && idJag.issuedTokenType !== TOKEN_TYPE.idJag) {
      throw new AuthError(
        `identity provider ${options.idp.tokenEndpoint}: the token exchange issued a ${idJag.issuedTokenType} ` +
          `instead of an ID-JAG (${TOKEN_TYPE.idJag}); check that the IdP supports enterprise-managed authorization for this client`,
        "authorization-denied",
      );
    }
    const client = options.client ?? await context.client();
    return await jwtBearerRequest(context.target, idJag.accessToken, client, context.scope, http);
  };
}
