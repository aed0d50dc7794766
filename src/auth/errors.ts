// The errors of the authorization layer: one class, a code to branch on, and a message that
// says who, what happened, the detail and what to do — spec 2025-11-25 basic/authorization.

import { McpwireError } from "../common/mcpwire-error.ts";

/**
 * Why authorizing to an MCP server failed or was refused (AuthError's codes).
 *
 * - "unsafe-url": a URL that is neither https nor loopback http (spec: communication security)
 * - "discovery-failed": no usable protected resource or authorization server metadata
 * - "resource-mismatch": the metadata's `resource` is not this MCP server (RFC 9728 3.3)
 * - "issuer-mismatch": metadata whose `issuer` is not the one its URL was built from (RFC 8414 3.3)
 * - "pkce-unsupported": the authorization server does not advertise S256
 * - "registration-failed": no way to get a client id (none configured, no CIMD, no DCR) or DCR refused
 * - "authorization-denied": the authorization response carried an error, or no code
 * - "state-mismatch": the response's `state` is not ours (CSRF)
 * - "iss-mismatch": the response's `iss` is missing or not the recorded issuer (RFC 9207)
 * - "step-up-limit": 403 insufficient_scope again after the scopes were granted (retry limit)
 * - "unauthorized": the server still answers 401 with a fresh token
 * - "interaction-failed": the AuthProvider could not show the URL or get the redirect back
 * - "unsupported-runtime": a Web API the browser flow or store needs is missing (sessionStorage, indexedDB, crypto.subtle)
 */
export type AuthorizationErrorCode =
  | "unsafe-url"
  | "discovery-failed"
  | "resource-mismatch"
  | "issuer-mismatch"
  | "pkce-unsupported"
  | "registration-failed"
  | "authorization-denied"
  | "state-mismatch"
  | "iss-mismatch"
  | "step-up-limit"
  | "unauthorized"
  | "interaction-failed"
  | "unsupported-runtime";

/**
 * Why a token endpoint request failed (OAuthError's codes). Its `error` field keeps the RFC 6749
 * error, or ours:
 * - "token-refused": the endpoint answered with an RFC 6749 5.2 error (`error`: "invalid_grant", …);
 * - "invalid-response": an answer that is not a token response, or broke off (`error`: "invalid_response");
 * - "fetch-failed": the request got no answer: the fetch itself failed (`error`: "request_failed");
 * - "timeout": no answer in time (`error`: "timeout").
 */
export type OAuthErrorCode = "token-refused" | "invalid-response" | "fetch-failed" | "timeout";

/**
 * Why the token store failed: a file it could not read or write, a file that holds no stored
 * entry, a directory it could not make owner-only, or no directory to keep it in ("no-directory":
 * neither XDG_CONFIG_HOME nor HOME is set).
 */
export type TokenStoreErrorCode = "unreadable" | "unwritable" | "corrupt" | "not-private" | "no-directory";

/**
 * Every code of the auth layer, one union. An AuthError's (AuthorizationErrorCode), an
 * OAuthError's (OAuthErrorCode), a TokenStoreError's (TokenStoreErrorCode: "unreadable",
 * "unwritable", "corrupt", "not-private", "no-directory") and a JwtKeyError's ("invalid-key":
 * a key that cannot be read or does not fit).
 */
export type AuthErrorCode =
  | AuthorizationErrorCode
  | OAuthErrorCode
  | TokenStoreErrorCode
  | "invalid-key";

/** Authorizing to an MCP server failed or was refused; `code` says why. */
export class AuthError extends McpwireError<AuthorizationErrorCode> {
  override readonly name = "AuthError";
}

/** The codes that mean "the client refused on purpose, for the user's safety". */
export const REFUSAL_CODES: ReadonlySet<AuthErrorCode> = new Set<AuthorizationErrorCode>([
  "unsafe-url",
  "resource-mismatch",
  "issuer-mismatch",
  "pkce-unsupported",
  "state-mismatch",
  "iss-mismatch",
  "step-up-limit",
]);
