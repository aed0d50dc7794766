// The authorization layer's public surface: an OAuth 2.1 client for MCP servers over HTTP —
// spec 2025-11-25 basic/authorization, 2026-07-28 basic/authorization/*.

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
export {
  assertSafeUrl,
  authorizationServerMetadataUrls,
  checkResource,
  discover,
  fetchAuthorizationServerMetadata,
  fetchProtectedResourceMetadata,
  isLoopbackHost,
  protectedResourceMetadataUrls,
} from "./discovery.ts";
export type { AuthorizationServerMetadata, AuthorizationTarget, HttpOptions, ProtectedResourceMetadata } from "./discovery.ts";
export { parseWwwAuthenticate, readResourceChallenge } from "./www-authenticate.ts";
export type { Challenge, ResourceChallenge } from "./www-authenticate.ts";
export { createPkce, randomToken, s256Challenge } from "./pkce.ts";
export type { PkcePair } from "./pkce.ts";
export { chooseAuthMethod, registerClient, registrationRequest, resolveClient } from "./registration.ts";
export type { ResolvedClient, StoredClient } from "./registration.ts";
export { authorizeWithCode, checkIssuer, readAuthorizationResponse, refreshTokens, selectScope } from "./authorization-code.ts";
export type { AuthorizationCodeOptions, ScopeSelection } from "./authorization-code.ts";
export { OAuthError, requestToken } from "./token-endpoint.ts";
export type { ClientAuthentication, TokenRequest, TokenSet } from "./token-endpoint.ts";
export { FileTokenStore, MemoryTokenStore, TokenStoreError } from "./token-store.ts";
export type { StoredClientCredentials, StoredTokens, TokenStore } from "./token-store.ts";
export { DEFAULT_REDIRECT_PORT, loopbackRedirectUri, serverAuthFetch, serverAuthProvider } from "./server-auth.ts";
export type { OpenAuthorizationUrl, ServerAuthSettings } from "./server-auth.ts";
export { DpopSigner } from "./dpop.ts";
export { redactHeaders, redactText, redactUrl } from "./redact.ts";
