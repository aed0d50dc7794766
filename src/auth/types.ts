// What an embedder supplies to authorize to MCP servers: the AuthProvider (storage, the user's
// part of the flow, client metadata and credentials) — spec 2025-11-25 basic/authorization.

import type { DpopSigner } from "./dpop.ts";
import type { TokenStore } from "./token-store.ts";

/** RFC 7591 section 2 client metadata: what we register (DCR) or publish (a Client ID Metadata Document). */
export interface ClientMetadata {
  client_name?: string;
  redirect_uris: string[];
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: string;
  /** spec 2026-07-28 client-registration: MUST be given on DCR; defaulted from the redirect URIs. */
  application_type?: "native" | "web";
  scope?: string;
  client_uri?: string;
  software_id?: string;
  software_version?: string;
  [field: string]: unknown;
}

/** A client registered out of band (spec: "Preregistration"), bound to one authorization server. */
export interface PreRegisteredClient {
  /**
   * The issuer these credentials belong to (SEP-2352: credentials are keyed by issuer and never
   * sent to another authorization server). Without it, they are used with whichever
   * authorization server the MCP server names.
   */
  issuer?: string;
  clientId: string;
  clientSecret?: string;
  /** Default: from the server metadata (client_secret_basic when a secret is given and allowed). */
  tokenEndpointAuthMethod?: "none" | "client_secret_basic" | "client_secret_post";
}

/** The authorization response as the redirect delivered it (RFC 6749 4.1.2, RFC 9207). */
export interface AuthorizationResponse {
  code?: string;
  state?: string;
  /** RFC 9207 issuer identifier. */
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/** What openAuthorizationUrl is told about the authorization it is asked to carry out. */
export interface AuthorizationContext {
  /** The MCP server being authorized to. */
  serverUrl: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** The scopes asked for (space-separated), when any. */
  scope?: string;
  /** Aborted when the caller stops waiting. */
  signal: AbortSignal;
}

/**
 * The embedder's side of OAuth. mcpwire does discovery, registration, PKCE, the token requests
 * and validation; the provider stores what must outlive the process and has the user visit the
 * authorization URL.
 */
export interface AuthProvider {
  /** Where the authorization server sends the user back (must be in clientMetadata.redirect_uris). */
  readonly redirectUri: string;
  /** What we register with dynamic client registration, or publish at clientMetadataUrl. */
  readonly clientMetadata: ClientMetadata;
  /**
   * SEP-991: the HTTPS URL of our Client ID Metadata Document; used as client_id when the
   * authorization server advertises client_id_metadata_document_supported.
   */
  readonly clientMetadataUrl?: string;
  /** Clients registered out of band, each for one issuer. Tried first. */
  readonly preRegistered?: readonly PreRegisteredClient[];
  /** Where registrations and tokens persist. Default: memory only (lost at exit). */
  readonly store?: TokenStore;
  /**
   * Ask for a refresh token: `offline_access` is added to the scopes when the authorization
   * server lists it in scopes_supported (spec 2026-07-28 authorization, SEP-2207). Default true.
   */
  readonly offlineAccess?: boolean;
  /** DPoP-bound tokens (RFC 9449) when the authorization server supports them. */
  readonly dpop?: DpopSigner;
  /**
   * Has the user open `url` (a browser, a printed link) and resolves with the redirect the
   * authorization server made to redirectUri: its full URL, or its parameters. Never pass the
   * URL to a shell.
   */
  openAuthorizationUrl(url: URL, context: AuthorizationContext): Promise<string | URL | AuthorizationResponse>;
}
