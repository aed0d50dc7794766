// The `mcpwire/auth` entry: an OAuth 2.1 client for MCP servers over HTTP, handed to a
// transport as a `fetch` — spec 2025-11-25 basic/authorization, 2026-07-28 basic/authorization/*.
// createOAuthFetch and its providers, token stores, the extension grants (client credentials,
// JWT bearer, token exchange, enterprise-managed), DPoP, and the discovery steps for study.

export { AuthError, REFUSAL_CODES } from "./errors.ts";
export type { AuthErrorCode } from "./errors.ts";
export type {
  AuthorizationContext,
  AuthorizationResponse,
  AuthProvider,
  ClientMetadata,
  PreRegisteredClient,
} from "./types.ts";
export { createOAuthFetch } from "./oauth-fetch.ts";
export type { AuthEvent, GrantContext, OAuthFetch, OAuthFetchOptions } from "./oauth-fetch.ts";
export { DEFAULT_REDIRECT_PORT, loopbackRedirectUri, serverAuthFetch, serverAuthProvider } from "./server-auth.ts";
export type { OpenAuthorizationUrl, ServerAuthSettings } from "./server-auth.ts";

// token stores
export { defaultAuthDirectory, FileTokenStore, MemoryTokenStore, TokenStoreError } from "./token-store.ts";
export type { TokenStoreErrorCode } from "./token-store.ts";
export type { FileTokenStoreOptions, StoredClientCredentials, StoredDpopKey, StoredTokens, TokenStore } from "./token-store.ts";

// grants beyond the authorization code (2026-07-28 authorization extensions)
export {
  clientCredentialsGrant,
  enterpriseManagedGrant,
  exchangeToken,
  GRANT_CLIENT_CREDENTIALS,
  GRANT_JWT_BEARER,
  GRANT_TOKEN_EXCHANGE,
  jwtBearerGrant,
  TOKEN_TYPE,
} from "./grants.ts";
export type {
  ClientCredentialsOptions,
  EnterpriseIdp,
  EnterpriseManagedOptions,
  Grant,
  GrantRequestOptions,
  JwtBearerOptions,
  TokenExchangeRequest,
  TokenExchangeResult,
  TokenSource,
} from "./grants.ts";
export { extensionAuth } from "./extension-grants.ts";
export type { ClientCredentialsConfig, ExtensionAuth, ExtensionConfig, ExtensionGrantConfig, TokenSourceConfig } from "./extension-grants.ts";

// DPoP and the keys it signs with
export { dpopFetch, DpopSigner } from "./dpop.ts";
export type { DpopFetchOptions, DpopProofOptions } from "./dpop.ts";
export { generateSigningKeyPair, importPrivateKey, JWS_ALGORITHMS, JwtKeyError } from "./jwt.ts";
export type { JwsAlgorithm } from "./jwt.ts";

// the steps of the flow, for those who run or study them one at a time
export {
  discover,
  fetchAuthorizationServerMetadata,
  fetchProtectedResourceMetadata,
} from "./discovery.ts";
export type { AuthorizationServerMetadata, AuthorizationTarget, HttpOptions, ProtectedResourceMetadata } from "./discovery.ts";
export { parseWwwAuthenticate } from "./www-authenticate.ts";
export type { Challenge } from "./www-authenticate.ts";
export { createPkce } from "./pkce.ts";
export type { PkcePair } from "./pkce.ts";
export { registerClient } from "./registration.ts";
export type { ResolvedClient, StoredClient } from "./registration.ts";
export { authorizeWithCode, refreshTokens } from "./authorization-code.ts";
export type { AuthorizationCodeOptions } from "./authorization-code.ts";
export { DEFAULT_TOKEN_TIMEOUT_MS, OAuthError, requestToken } from "./token-endpoint.ts";
export type { ClientAuthentication, TokenRequest, TokenSet } from "./token-endpoint.ts";
