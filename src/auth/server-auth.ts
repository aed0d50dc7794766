// OAuth for one configured server of a host: settings as plain data (the config's `auth:` key),
// tokens in a TokenStore, and a loopback redirect URI — spec 2025-11-25 basic/authorization
// (RFC 8252 7.3 loopback redirects for native apps).

import { AuthError } from "./errors.ts";
import { createOAuthFetch, type OAuthFetch, type OAuthFetchOptions } from "./oauth-fetch.ts";
import { FileTokenStore, MemoryTokenStore, type TokenStore } from "./token-store.ts";
import type { AuthorizationContext, AuthorizationResponse, AuthProvider, PreRegisteredClient } from "./types.ts";

/** A server's `auth:` settings. */
export interface ServerAuthSettings {
  /** `auth: false`: never authorize; a 401 is reported as it is. Default true. */
  enabled: boolean;
  /** Pre-registered client (config keys client_id, client_secret, issuer). */
  clientId?: string;
  clientSecret?: string;
  /** The issuer the pre-registered client belongs to (SEP-2352). */
  issuer?: string;
  /** SEP-991: our Client ID Metadata Document URL (config key client_metadata_url). */
  clientMetadataUrl?: string;
  /** The loopback redirect port (config key redirect_port). Default 8976. */
  redirectPort?: number;
}

export const DEFAULT_REDIRECT_PORT = 8976;

/** `http://127.0.0.1:PORT/callback`: RFC 8252 7.3 loopback redirect (127.0.0.1, not "localhost"). */
export function loopbackRedirectUri(port: number): string {
  return `http://127.0.0.1:${port}/callback`;
}

/** Shows the user the authorization URL and resolves to where the redirect came back. */
export type OpenAuthorizationUrl = (url: URL, context: AuthorizationContext) => Promise<string | URL | AuthorizationResponse>;

/**
 * The provider for a host server. Without `open` (a host running servers, nobody at a browser)
 * an authorization that needs a person fails with an AuthError saying to run `mcpwire auth login`;
 * stored tokens and refreshes work without one.
 */
export function serverAuthProvider(
  serverName: string,
  settings: ServerAuthSettings,
  store: TokenStore,
  open?: OpenAuthorizationUrl,
  redirectPort?: number,
): AuthProvider {
  const redirectUri = loopbackRedirectUri(redirectPort ?? settings.redirectPort ?? DEFAULT_REDIRECT_PORT);
  const preRegistered: PreRegisteredClient[] = settings.clientId === undefined ? [] : [{
    clientId: settings.clientId,
    ...(settings.clientSecret !== undefined ? { clientSecret: settings.clientSecret } : {}),
    ...(settings.issuer !== undefined ? { issuer: settings.issuer } : {}),
  }];
  return {
    redirectUri,
    clientMetadata: { client_name: "mcpwire", redirect_uris: [redirectUri], application_type: "native" },
    ...(settings.clientMetadataUrl !== undefined ? { clientMetadataUrl: settings.clientMetadataUrl } : {}),
    preRegistered,
    store,
    openAuthorizationUrl: open ?? ((_url, context) =>
      Promise.reject(
        new AuthError(
          `server "${serverName}" needs authorization at ${context.issuer}; run \`mcpwire auth login ${serverName}\` (it opens the browser), then start again`,
          "interaction-failed",
        ),
      )),
  };
}

let sharedStore: TokenStore | undefined;

/** The host's token store: FileTokenStore under the user config directory, made once. */
export function defaultTokenStore(): TokenStore {
  return (sharedStore ??= new FileTokenStore());
}

/**
 * The fetch a host's HTTP transport gets for a server, or undefined when `auth: false`.
 * Non-interactive: tokens from the store, refreshed as needed; a needed login is an AuthError.
 */
export function serverAuthFetch(
  serverName: string,
  url: string,
  settings: ServerAuthSettings,
  options: { store?: TokenStore } & Pick<OAuthFetchOptions, "fetch" | "onEvent" | "timeoutMs" | "onTokens"> = {},
): OAuthFetch | undefined {
  if (!settings.enabled) return undefined;
  let store: TokenStore;
  try {
    store = options.store ?? defaultTokenStore();
  } catch {
    store = new MemoryTokenStore(); // no config directory: nothing stored to use, nothing kept
  }
  return createOAuthFetch({
    serverUrl: url,
    provider: serverAuthProvider(serverName, settings, store),
    loginRequired: (challenge) =>
      new AuthError(
        `server "${serverName}" (${url}) needs authorization${challenge.scope ? ` (scope "${challenge.scope}")` : ""}; ` +
          `run \`mcpwire auth login ${serverName}\` once (it opens the browser), then start again`,
        "interaction-failed",
      ),
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.onEvent !== undefined ? { onEvent: options.onEvent } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.onTokens !== undefined ? { onTokens: options.onTokens } : {}),
  });
}
