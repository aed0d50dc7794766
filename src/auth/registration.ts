// Getting a client id for an authorization server, in the spec's order: pre-registered
// credentials, a Client ID Metadata Document, dynamic client registration (RFC 7591), else a
// clear error — spec 2026-07-28 basic/authorization/client-registration (and SEP-2352 binding).

import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { preview } from "../common/preview.ts";
import type { AuthorizationServerMetadata, HttpOptions } from "./discovery.ts";
import { isLoopbackHost } from "./discovery.ts";
import { AuthError } from "./errors.ts";
import type { ClientAuthentication } from "./token-endpoint.ts";
import type { StoredClientCredentials } from "./token-store.ts";
import type { AuthProvider, ClientMetadata, PreRegisteredClient } from "./types.ts";

/** A registration we keep: credentials from DCR, bound to the issuer that issued them (SEP-2352). */
export type StoredClient = StoredClientCredentials;

export interface ResolvedClient {
  client: ClientAuthentication;
  source: "pre-registered" | "client-id-metadata-document" | "stored" | "dynamic-registration";
  /** Set when a new registration was made: the caller stores it under its issuer. */
  registered?: StoredClient;
}

/**
 * The token endpoint authentication to use for a client id (and secret): what registration
 * said, else what the server supports — RFC 8414 2: an absent
 * token_endpoint_auth_methods_supported means client_secret_basic.
 */
export function chooseAuthMethod(
  metadata: AuthorizationServerMetadata,
  clientId: string,
  clientSecret: string | undefined,
  registered?: string,
): ClientAuthentication {
  if (clientSecret === undefined || clientSecret === "" || registered === "none") return { method: "none", clientId };
  if (registered === "client_secret_basic" || registered === "client_secret_post") {
    return { method: registered, clientId, clientSecret };
  }
  const supported = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  const method = supported.includes("client_secret_basic") || !supported.includes("client_secret_post") ? "client_secret_basic" : "client_secret_post";
  return { method, clientId, clientSecret };
}

/** The pre-registered credentials that belong to `issuer` (an entry without issuer fits any). */
export function preRegisteredFor(entries: readonly PreRegisteredClient[] | undefined, issuer: string): PreRegisteredClient | undefined {
  return entries?.find((entry) => entry.issuer === issuer) ?? entries?.find((entry) => entry.issuer === undefined);
}

/**
 * The metadata we send to a registration endpoint: the provider's, with the defaults the spec
 * asks for — application_type "native" when every redirect URI is loopback, else "web" (spec
 * 2026-07-28 client-registration, "Application Type"); the code and refresh grants; and the
 * token endpoint authentication a public client can use.
 */
export function registrationRequest(provider: AuthProvider, metadata: AuthorizationServerMetadata): ClientMetadata {
  const base = provider.clientMetadata;
  const redirectUris = base.redirect_uris.length > 0 ? base.redirect_uris : [provider.redirectUri];
  const native = redirectUris.every((uri) => {
    try {
      const url = new URL(uri);
      return isLoopbackHost(url.hostname) || !url.protocol.startsWith("http");
    } catch {
      return false;
    }
  });
  const supported = metadata.token_endpoint_auth_methods_supported;
  const method = base.token_endpoint_auth_method ??
    (supported === undefined || supported.includes("none")
      ? "none"
      : supported.includes("client_secret_basic")
      ? "client_secret_basic"
      : supported.includes("client_secret_post")
      ? "client_secret_post"
      : "none");
  return {
    ...base,
    redirect_uris: redirectUris,
    application_type: base.application_type ?? (native ? "native" : "web"),
    grant_types: base.grant_types ?? ["authorization_code", "refresh_token"],
    response_types: base.response_types ?? ["code"],
    token_endpoint_auth_method: method,
  };
}

/** RFC 7591 3: POST the metadata, read client_id (and secret) from the 201. */
export async function registerClient(
  issuer: string,
  metadata: AuthorizationServerMetadata,
  request: ClientMetadata,
  options: HttpOptions = {},
): Promise<StoredClient> {
  const endpoint = metadata.registration_endpoint;
  if (endpoint === undefined) {
    throw new AuthError(`the authorization server ${issuer} has no registration_endpoint`, "registration-failed");
  }
  const fetchFn = options.fetch ?? fetch;
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let response: Response;
  let text: string;
  try {
    response = await fetchFn(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(request),
      redirect: "error",
      signal: controller.signal,
    });
    text = await response.text();
  } catch (error) {
    const reason = controller.signal.aborted && !options.signal?.aborted ? `no answer within ${durationText(timeoutMs)}` : messageOf(error);
    throw new AuthError(
      `dynamic client registration at ${endpoint} failed: ${reason}; check that the authorization server is up`,
      "registration-failed",
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed)) body = parsed;
  } catch {
    // reported below
  }
  if (!response.ok || body === undefined || typeof body.client_id !== "string") {
    const detail = body !== undefined && typeof body.error === "string"
      ? `${body.error}${typeof body.error_description === "string" ? `: ${body.error_description}` : ""}`
      : preview(text, 200);
    throw new AuthError(
      `dynamic client registration at ${endpoint} was refused (HTTP ${response.status}, ${detail}); ` +
        `register a client with ${issuer} by hand and configure its client id (auth.client_id)`,
      "registration-failed",
    );
  }
  const stored: StoredClient = { issuer, clientId: body.client_id };
  if (typeof body.client_secret === "string") stored.clientSecret = body.client_secret;
  if (typeof body.token_endpoint_auth_method === "string") stored.tokenEndpointAuthMethod = body.token_endpoint_auth_method;
  if (typeof body.client_secret_expires_at === "number" && body.client_secret_expires_at > 0) {
    stored.clientSecretExpiresAt = body.client_secret_expires_at * 1000;
  }
  return stored;
}

/**
 * A client for `issuer`, in the spec's order of preference:
 * 1. pre-registered credentials for this issuer;
 * 2. a Client ID Metadata Document URL, when the server advertises support and we have one;
 * 3. credentials we registered with this issuer before (`stored`, looked up by issuer);
 * 4. dynamic client registration, when the server has a registration endpoint;
 * 5. otherwise an AuthError saying what to configure.
 */
export async function resolveClient(
  issuer: string,
  metadata: AuthorizationServerMetadata,
  provider: AuthProvider,
  stored: StoredClient | undefined,
  options: HttpOptions = {},
): Promise<ResolvedClient> {
  const pre = preRegisteredFor(provider.preRegistered, issuer);
  if (pre !== undefined) {
    return {
      client: chooseAuthMethod(metadata, pre.clientId, pre.clientSecret, pre.tokenEndpointAuthMethod),
      source: "pre-registered",
    };
  }
  // spec 2026-07-28 client-registration: CIMD when the authorization server supports it
  if (metadata.client_id_metadata_document_supported === true && provider.clientMetadataUrl !== undefined) {
    return { client: { method: "none", clientId: provider.clientMetadataUrl }, source: "client-id-metadata-document" };
  }
  // SEP-2352: a stored registration is only ever one made with this very issuer
  const usable = stored !== undefined && stored.issuer === issuer &&
    (stored.clientSecretExpiresAt === undefined || stored.clientSecretExpiresAt > Date.now());
  if (usable) {
    return {
      client: chooseAuthMethod(metadata, stored.clientId, stored.clientSecret, stored.tokenEndpointAuthMethod),
      source: "stored",
    };
  }
  if (metadata.registration_endpoint !== undefined) {
    const registered = await registerClient(issuer, metadata, registrationRequest(provider, metadata), options);
    return {
      client: chooseAuthMethod(metadata, registered.clientId, registered.clientSecret, registered.tokenEndpointAuthMethod),
      source: "dynamic-registration",
      registered,
    };
  }
  const others = (provider.preRegistered ?? []).filter((entry) => entry.issuer !== undefined).map((entry) => entry.issuer);
  throw new AuthError(
    `no client id for the authorization server ${issuer}: it supports neither dynamic client registration nor ` +
      `(for us) Client ID Metadata Documents, and no pre-registered client is configured for it` +
      (others.length > 0 ? ` (the configured ones are for ${others.join(", ")}, and are never sent to another server)` : "") +
      `; register a client there and configure its client_id (and client_secret) with issuer ${issuer}`,
    "registration-failed",
  );
}
