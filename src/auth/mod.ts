// The `mcpwire/auth` entry: an OAuth 2.1 client for MCP servers over HTTP, handed to a
// transport as a `fetch` — spec 2025-11-25 basic/authorization, 2026-07-28 basic/authorization/*.
// createOAuthFetch and its providers, token stores (files, memory, sessionStorage, IndexedDB), the
// browser redirect flow, the extension grants (client credentials, JWT bearer, token exchange,
// enterprise-managed), DPoP, and discovery for study.
// The names: api/auth.api.md.

export { AuthError } from "./errors.ts";
// The layer's codes in one union; a class's own are its `code` type (AuthError["code"], OAuthError["code"], TokenStoreError["code"]).
export type { AuthErrorCode } from "./errors.ts";
export type { AuthorizationContext, AuthorizationResponse, AuthProvider, ClientMetadata, PreRegisteredClient } from "./types.ts";
export { createOAuthFetch } from "./oauth-fetch.ts";
export type { AuthEvent, GrantContext, OAuthFetch, OAuthFetchOptions } from "./oauth-fetch.ts";
export { loopbackRedirectUri, serverAuthFetch, serverAuthProvider } from "./server-auth.ts";
export type { OpenAuthorizationUrl, ServerAuthSettings } from "./server-auth.ts";

// in a browser page: the redirect (or popup) flow in two calls, and the stores a page can keep tokens in
export { browserAuthProvider, completeBrowserAuthorization, startBrowserAuthorization } from "./browser-authorization.ts";
export type { BrowserAuthorizationOptions, BrowserCallbackOptions } from "./browser-authorization.ts";
export { SessionStorageTokenStore } from "./session-storage-token-store.ts";
export type { WebStorage } from "./session-storage-token-store.ts";
export { IndexedDbTokenStore } from "./indexed-db-token-store.ts";

// token stores
export { defaultAuthDirectory, FileTokenStore, MemoryTokenStore, TokenStoreError } from "./token-store.ts";
export type { FileTokenStoreOptions, StoredClientCredentials, StoredDpopKey, StoredTokens, TokenStore } from "./token-store.ts";

// grants beyond the authorization code (2026-07-28 authorization extensions)
export { clientCredentialsGrant, enterpriseManagedGrant, jwtBearerGrant, TOKEN_TYPE } from "./grants.ts";
export type { ClientCredentialsOptions, EnterpriseIdp, EnterpriseManagedOptions, Grant, JwtBearerOptions, TokenSource } from "./grants.ts";
export { extensionAuth } from "./extension-grants.ts";
export type { ExtensionAuth, ExtensionConfig } from "./extension-grants.ts";

// DPoP and the keys it signs with
export { dpopFetch, DpopSigner } from "./dpop.ts";
export type { DpopFetchOptions } from "./dpop.ts";
export { generateSigningKeyPair, importPrivateKey, JwtKeyError } from "./jwt.ts";
export type { JwsAlgorithm } from "./jwt.ts";

// what discovery finds (GrantContext.target); discovery itself, the token exchange and the
// flow's other steps are modules of src/auth/ that createOAuthFetch and the grants run
export type { AuthorizationServerMetadata, AuthorizationTarget, ProtectedResourceMetadata } from "./discovery.ts";
export { OAuthError } from "./token-endpoint.ts";
export type { TokenSet } from "./token-endpoint.ts";
