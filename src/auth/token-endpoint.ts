// The OAuth token endpoint: one token request, client authentication, the answer parsed — RFC 6749
// sections 2.3 and 5, OAuth 2.1 section 3.2, RFC 7523 section 2.2 (private_key_jwt), RFC 8707
// (resource), RFC 9449 sections 5 and 8 (DPoP and its nonce); spec 2025-11-25 basic/authorization.

import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { McpwireError } from "../common/mcpwire-error.ts";
import { redactText } from "../common/redact.ts";
import { base64Encode } from "./base64url.ts";
import type { DpopSigner } from "./dpop.ts";
import type { OAuthErrorCode } from "./errors.ts";
import { signJwt } from "./jwt.ts";

/** How the client proves who it is to the token endpoint (RFC 6749 2.3, RFC 7523 2.2). */
export type ClientAuthentication =
  | { method: "none"; clientId: string }
  | { method: "client_secret_basic" | "client_secret_post"; clientId: string; clientSecret: string }
  | { method: "private_key_jwt"; clientId: string; privateKey: CryptoKey; keyId?: string; algorithm: "ES256" | "RS256" };

/** The tokens one successful token request returned. */
export interface TokenSet {
  accessToken: string;
  /** "Bearer" or "DPoP" as the server spelled it (compare case-insensitively: RFC 6749 7.1). */
  tokenType: string;
  /** epoch ms */
  expiresAt?: number;
  refreshToken?: string;
  /** The granted scope, when the server said (RFC 6749 5.1: else the requested one). */
  scope?: string;
  /** The whole JSON answer (id_token, issued_token_type, … live here). */
  raw: Record<string, unknown>;
}

export interface TokenRequest {
  tokenEndpoint: string;
  /** The authorization server's issuer (the audience of a private_key_jwt assertion). */
  issuer?: string;
  client: ClientAuthentication;
  /** grant_type and the grant's own parameters (code, code_verifier, redirect_uri, refresh_token, …). */
  params: Record<string, string>;
  /** RFC 8707 resource indicator, sent when given. */
  resource?: string;
  /** DPoP (RFC 9449): a proof is attached and a use_dpop_nonce error retried once with the nonce. */
  dpop?: DpopSigner;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** How long one token request may take (each attempt) unless `timeoutMs` says otherwise. */
export const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;

/** How long a private_key_jwt client assertion is valid. */
const ASSERTION_LIFETIME_S = 300;

/** An OAuth error answer (RFC 6749 5.2) or a malformed one: error, error_description, status, endpoint. */
export class OAuthError extends McpwireError<OAuthErrorCode> {
  override readonly name = "OAuthError";
  /** The RFC 6749 5.2 error code ("invalid_grant", …), or ours: "invalid_response", "request_failed", "timeout". */
  readonly error: string;
  readonly errorDescription?: string;
  /** The HTTP status, when an answer came. */
  readonly status?: number;
  readonly endpoint: string;

  constructor(
    message: string,
    code: OAuthErrorCode,
    options: { error: string; errorDescription?: string; status?: number; endpoint: string; cause?: unknown },
  ) {
    super(message, code, options);
    this.error = options.error;
    this.errorDescription = options.errorDescription;
    this.status = options.status;
    this.endpoint = options.endpoint;
  }
}

/** The JWT-bearer client assertion type (RFC 7523 2.2). */
export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/**
 * Sends one token request and returns the tokens. Rejects with an OAuthError naming the endpoint,
 * the OAuth error and what to do; never with a token or secret in the message.
 */
export async function requestToken(request: TokenRequest): Promise<TokenSet> {
  const endpoint = request.tokenEndpoint;
  const grant = request.params.grant_type ?? "(no grant_type)";
  let nonceRetried = false;
  for (;;) {
    const response = await post(request);
    request.dpop?.noteResponse(endpoint, response);
    const answer = await readAnswer(response, endpoint, grant);
    if (response.ok) return tokenSet(answer);
    const error = typeof answer.body?.error === "string" ? answer.body.error : undefined;
    // spec RFC 9449 8: the AS asks for a nonce with 400 use_dpop_nonce and a DPoP-Nonce header;
    // the client retries once with a proof carrying it.
    if (error === "use_dpop_nonce" && request.dpop && !nonceRetried && response.headers.get("DPoP-Nonce")) {
      nonceRetried = true;
      continue;
    }
    throw errorAnswer(answer, secretsOf(request));
  }
}

/** The request's secret values: what an error message must never repeat. */
function secretsOf(request: TokenRequest): string[] {
  const secrets = ["code", "code_verifier", "refresh_token", "assertion", "subject_token", "actor_token"]
    .map((name) => request.params[name])
    .filter((value): value is string => value !== undefined);
  if ("clientSecret" in request.client) secrets.push(request.client.clientSecret);
  return secrets;
}

/** The form body and headers of one attempt (an assertion and a DPoP proof are made anew each time). */
async function post(request: TokenRequest): Promise<Response> {
  const endpoint = request.tokenEndpoint;
  const form = new URLSearchParams(request.params);
  // spec 2025-11-25 basic/authorization "Resource Parameter Implementation": MUST be included in
  // token requests (RFC 8707 2).
  if (request.resource !== undefined) form.set("resource", request.resource);
  const headers = new Headers({
    "Content-Type": "application/x-www-form-urlencoded",
    Accept: "application/json",
  });
  const client = request.client;
  switch (client.method) {
    case "none":
      // RFC 6749 2.3.1 / OAuth 2.1 3.2.1: a public client identifies itself with client_id.
      form.set("client_id", client.clientId);
      break;
    case "client_secret_basic":
      // RFC 6749 2.3.1: id and secret are form-urlencoded first, then joined by ":" and base64ed.
      headers.set("Authorization", basicCredentials(client.clientId, client.clientSecret));
      break;
    case "client_secret_post":
      form.set("client_id", client.clientId);
      form.set("client_secret", client.clientSecret);
      break;
    case "private_key_jwt": {
      form.set("client_id", client.clientId);
      form.set("client_assertion_type", CLIENT_ASSERTION_TYPE);
      form.set("client_assertion", await clientAssertion(client, request.issuer ?? endpoint));
      break;
    }
  }
  if (request.dpop) headers.set("DPoP", await request.dpop.proof("POST", endpoint));

  const timeoutMs = request.timeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const grant = request.params.grant_type ?? "(no grant_type)";
  try {
    // redirect "error": a redirected POST would carry the client's credentials somewhere else.
    return await (request.fetch ?? fetch)(endpoint, {
      method: "POST",
      headers,
      body: form.toString(),
      redirect: "error",
      signal,
    });
  } catch (error) {
    if (timeout.aborted && !request.signal?.aborted) {
      throw new OAuthError(
        `token endpoint ${endpoint}: the ${grant} request got no answer within ${durationText(timeoutMs)}; ` +
          "check that the authorization server is up, or raise the timeout",
        "timeout",
        { error: "timeout", endpoint, cause: error },
      );
    }
    if (request.signal?.aborted) throw request.signal.reason ?? error;
    throw new OAuthError(
      `token endpoint ${endpoint}: the ${grant} request failed (${messageOf(error)}); ` +
        "check the token_endpoint in the authorization server's metadata (a redirect is refused)",
      "fetch-failed",
      { error: "request_failed", endpoint, cause: error },
    );
  }
}

/** `Basic base64(urlencode(id) ":" urlencode(secret))` — RFC 6749 2.3.1. */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return `Basic ${base64Encode(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
}

/** application/x-www-form-urlencoded encoding of one value (RFC 6749 appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** A signed JWT proving the client holds its key (RFC 7523 2.2 and 3). */
async function clientAssertion(
  client: Extract<ClientAuthentication, { method: "private_key_jwt" }>,
  audience: string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  // spec RFC 7523 3: iss and sub are the client_id, aud the authorization server, exp required,
  // jti lets the server refuse a replay.
  const payload = {
    iss: client.clientId,
    sub: client.clientId,
    aud: audience,
    iat: now,
    exp: now + ASSERTION_LIFETIME_S,
    jti: crypto.randomUUID(),
  };
  const header: Record<string, unknown> = { typ: "JWT" };
  if (client.keyId !== undefined) header.kid = client.keyId;
  return await signJwt(header, payload, client.privateKey, client.algorithm);
}

/** One answer of a token endpoint: what its messages name (endpoint, grant, status) and its JSON body, if an object. */
interface TokenAnswer {
  endpoint: string;
  grant: string;
  status: number;
  body: Record<string, unknown> | undefined;
}

async function readAnswer(response: Response, endpoint: string, grant: string): Promise<TokenAnswer> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new OAuthError(
      `token endpoint ${endpoint}: the answer to the ${grant} request (HTTP ${response.status}) broke off ` +
        `(${messageOf(error)}); try again`,
      "invalid-response",
      { error: "invalid_response", status: response.status, endpoint, cause: error },
    );
  }
  let body: Record<string, unknown> | undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) body = value;
  } catch {
    // not JSON: no body
  }
  return { endpoint, grant, status: response.status, body };
}

function tokenSet({ endpoint, grant, status, body }: TokenAnswer): TokenSet {
  // spec RFC 6749 5.1: access_token and token_type are REQUIRED; expires_in in seconds.
  const malformed = (what: string): OAuthError =>
    new OAuthError(
      `token endpoint ${endpoint}: the answer to the ${grant} request (HTTP ${status}) ${what}; ` +
        "the authorization server does not follow RFC 6749 5.1 — report it to its operator",
      "invalid-response",
      { error: "invalid_response", status, endpoint },
    );
  if (!body) throw malformed("is not a JSON object");
  if (typeof body.access_token !== "string" || body.access_token === "") throw malformed("has no access_token");
  if (typeof body.token_type !== "string" || body.token_type === "") throw malformed("has no token_type");
  const tokens: TokenSet = { accessToken: body.access_token, tokenType: body.token_type, raw: body };
  const expiresIn = typeof body.expires_in === "string" ? Number(body.expires_in) : body.expires_in;
  if (typeof expiresIn === "number" && Number.isFinite(expiresIn) && expiresIn >= 0) {
    tokens.expiresAt = Date.now() + expiresIn * 1000;
  }
  if (typeof body.refresh_token === "string" && body.refresh_token !== "") tokens.refreshToken = body.refresh_token;
  if (typeof body.scope === "string") tokens.scope = body.scope;
  return tokens;
}

function errorAnswer({ endpoint, grant, status, body }: TokenAnswer, secrets: string[]): OAuthError {
  const error = typeof body?.error === "string" ? body.error : undefined;
  if (error === undefined) {
    return new OAuthError(
      `token endpoint ${endpoint}: the ${grant} request failed with HTTP ${status} and no OAuth error ` +
        "in the answer; check the token_endpoint URL and the authorization server's logs",
      "invalid-response",
      { error: "invalid_response", status, endpoint },
    );
  }
  // A server may echo what it was sent; the message must not carry it on (spec: token theft).
  const description = typeof body?.error_description === "string" ? redactText(body.error_description, secrets) : undefined;
  return new OAuthError(
    `token endpoint ${endpoint}: the ${grant} request was refused with ${error}` +
      `${description ? ` (${description})` : ""}, HTTP ${status}; ${advice(error, grant)}`,
    "token-refused",
    { error, errorDescription: description, status, endpoint },
  );
}

/** What a user can do about each RFC 6749 5.2 error. */
function advice(error: string, grant: string): string {
  switch (error) {
    case "invalid_client":
      return "check the client id, secret or key, and the token endpoint auth method the server expects";
    case "invalid_grant":
      return grant === "refresh_token"
        ? "the refresh token is no longer valid; authorize again"
        : "the grant expired, was used already or was issued to another client; authorize again";
    case "unauthorized_client":
      return `this client may not use the ${grant} grant; check its registration`;
    case "unsupported_grant_type":
      return `the server does not support the ${grant} grant; check its grant_types_supported`;
    case "invalid_scope":
      return "ask for fewer or other scopes (see the server's scopes_supported)";
    case "invalid_dpop_proof":
    case "use_dpop_nonce":
      return "the DPoP proof was refused; check the client clock and the DPoP algorithm";
    default:
      return "see the error description and the authorization server's documentation";
  }
}
