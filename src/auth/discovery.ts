// Finding where and how to authorize: protected resource metadata (RFC 9728), authorization
// server metadata (RFC 8414, OpenID Connect Discovery) and the 2025-03-26 fallbacks — spec
// 2026-07-28 basic/authorization/authorization-server-discovery, 2025-11-25 basic/authorization.

import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import { preview } from "../common/preview.ts";
import { AuthError } from "./errors.ts";
import type { ResourceChallenge } from "./www-authenticate.ts";

/** RFC 9728 section 2: what an MCP server says about itself as a protected resource. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  [field: string]: unknown;
}

/** RFC 8414 section 2 (and the fields MCP and its extensions read). */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  /** SEP-991: the server accepts an HTTPS URL as client_id (Client ID Metadata Documents). */
  client_id_metadata_document_supported?: boolean;
  /** RFC 9207 2.3 */
  authorization_response_iss_parameter_supported?: boolean;
  /** RFC 9449 5.1 */
  dpop_signing_alg_values_supported?: string[];
  [field: string]: unknown;
}

export interface HttpOptions {
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Per request; default 10 s. */
  timeoutMs?: number;
}

/** Everything the authorization flow needs to know about one MCP server. */
export interface AuthorizationTarget {
  /** The MCP endpoint as configured. */
  serverUrl: URL;
  /**
   * The RFC 8707 resource indicator: the protected resource metadata's `resource`, exactly as
   * published (spec: canonical server URI), or the server URL when there is no such metadata.
   */
  resource: string;
  resourceMetadata?: ProtectedResourceMetadata;
  resourceMetadataUrl?: string;
  /** The issuer identifier the metadata was fetched for and validated against. */
  issuer: string;
  metadata: AuthorizationServerMetadata;
  /** True when found by the 2025-03-26 rules (no protected resource metadata). */
  legacy: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 5;

/** localhost, 127.0.0.0/8 and ::1: the hosts plain http is allowed to. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "::1";
}

/**
 * The URL, parsed, when it is https, or http to a loopback host; else an AuthError
 * "unsafe-url" — spec 2025-11-25 basic/authorization ("Communication Security"): all
 * authorization server endpoints MUST be served over HTTPS; redirect URIs MUST be localhost or HTTPS.
 */
export function assertSafeUrl(value: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthError(`${what} ${JSON.stringify(String(value))} is not a URL; check the server's metadata`, "unsafe-url");
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return url;
  throw new AuthError(
    `${what} ${url.href} is not https (plain http is allowed only to localhost/127.0.0.1/::1); refusing to send credentials there`,
    "unsafe-url",
  );
}

/**
 * The protected resource metadata URLs to try, in the spec's order: the WWW-Authenticate
 * `resource_metadata` alone when given; else the path-based well-known URL, then the root one
 * (spec 2026-07-28 authorization-server-discovery, "Protected Resource Metadata Discovery Requirements").
 */
export function protectedResourceMetadataUrls(serverUrl: URL, resourceMetadata?: string): URL[] {
  if (resourceMetadata !== undefined) return [new URL(resourceMetadata, serverUrl)];
  const root = new URL("/.well-known/oauth-protected-resource", serverUrl);
  const path = serverUrl.pathname.replace(/\/$/, "");
  if (path === "") return [root];
  return [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl), root];
}

/**
 * The authorization server metadata URLs for an issuer, in the spec's order: with a path,
 * RFC 8414 path insertion, OpenID path insertion, OpenID path appending; without, RFC 8414
 * then OpenID (spec 2026-07-28 authorization-server-discovery, "Authorization Server Metadata Discovery").
 */
export function authorizationServerMetadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, "");
  if (path === "") {
    return [
      new URL("/.well-known/oauth-authorization-server", url),
      new URL("/.well-known/openid-configuration", url),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url),
    new URL(`/.well-known/openid-configuration${path}`, url),
    new URL(`${path}/.well-known/openid-configuration`, url),
  ];
}

type Fetched = { kind: "json"; value: Record<string, unknown>; url: URL } | { kind: "miss"; reason: string };

/**
 * GET a metadata document. Redirects are followed by hand (at most MAX_REDIRECTS), each target
 * checked with assertSafeUrl, so a redirect cannot take discovery to plain http elsewhere.
 * A 4xx/5xx, a network error or a body that is not a JSON object is a "miss" with the reason.
 */
async function getJson(start: URL, what: string, options: HttpOptions): Promise<Fetched> {
  const fetchFn = options.fetch ?? fetch;
  let url = assertSafeUrl(start, what);
  for (let hop = 0;; hop++) {
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const onAbort = (): void => controller.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      let response: Response;
      try {
        response = await fetchFn(url, { method: "GET", headers: { accept: "application/json" }, redirect: "manual", signal: controller.signal });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        const reason = controller.signal.aborted ? `no answer within ${durationText(timeoutMs)}` : messageOf(error);
        return { kind: "miss", reason: `GET ${url.href}: ${reason}` };
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        if (hop + 1 >= MAX_REDIRECTS) return { kind: "miss", reason: `GET ${start.href}: more than ${MAX_REDIRECTS} redirects` };
        url = assertSafeUrl(new URL(location, url), `${what} (redirected from ${url.href})`);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        return { kind: "miss", reason: `GET ${url.href}: HTTP ${response.status}` };
      }
      const text = await response.text();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return { kind: "miss", reason: `GET ${url.href}: the body is not JSON (${preview(text, 80)})` };
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return { kind: "miss", reason: `GET ${url.href}: the body is not a JSON object` };
      }
      return { kind: "json", value: value as Record<string, unknown>, url };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }
}

/**
 * Fetches the protected resource metadata of an MCP server. Returns undefined when none of the
 * URLs has a document (a 2025-03-26 server); `misses` then says what each URL answered.
 */
export async function fetchProtectedResourceMetadata(
  serverUrl: URL,
  challenge: ResourceChallenge,
  options: HttpOptions = {},
): Promise<{ metadata: ProtectedResourceMetadata; url: string } | { misses: string[] }> {
  const misses: string[] = [];
  // the challenge's URL first; when it fails, the well-known ones still may answer
  const urls = challenge.resourceMetadata === undefined
    ? protectedResourceMetadataUrls(serverUrl)
    : [...protectedResourceMetadataUrls(serverUrl, challenge.resourceMetadata), ...protectedResourceMetadataUrls(serverUrl)];
  for (const url of urls) {
    const got = await getJson(url, "the protected resource metadata URL", options);
    if (got.kind === "miss") {
      misses.push(got.reason);
      continue;
    }
    if (typeof got.value.resource !== "string") {
      misses.push(`GET ${got.url.href}: the document has no "resource" (RFC 9728 2)`);
      continue;
    }
    return { metadata: got.value as ProtectedResourceMetadata, url: got.url.href };
  }
  return { misses };
}

/**
 * RFC 9728 3.3 / spec 2026-07-28 security-considerations ("Token Audience Binding"): the
 * metadata's `resource` must be this server: the same origin, and a path that is the
 * server's path or a parent of it (a resource at the root covers /mcp). Anything else would
 * have us ask for a token for another resource.
 */
export function checkResource(serverUrl: URL, metadata: ProtectedResourceMetadata, metadataUrl: string): void {
  let resource: URL;
  try {
    resource = new URL(metadata.resource);
  } catch {
    throw new AuthError(
      `the protected resource metadata at ${metadataUrl} names resource ${JSON.stringify(metadata.resource)}, which is not a URL; the server is misconfigured`,
      "resource-mismatch",
    );
  }
  const resourcePath = resource.pathname.replace(/\/$/, "");
  const serverPath = serverUrl.pathname.replace(/\/$/, "");
  const pathCovers = resourcePath === "" || serverPath === resourcePath || serverPath.startsWith(`${resourcePath}/`);
  if (resource.origin !== serverUrl.origin || !pathCovers || resource.hash !== "") {
    throw new AuthError(
      `the protected resource metadata at ${metadataUrl} is for resource ${metadata.resource}, not for the MCP server ${serverUrl.href} (RFC 9728 3.3); ` +
        `refusing to authorize, since a token would be issued for another resource — check the server URL`,
      "resource-mismatch",
    );
  }
}

/**
 * Fetches and validates an authorization server's metadata, trying the URLs in the spec's
 * order. The first document found decides: its `issuer` MUST be identical to `issuer` (RFC
 * 8414 3.3, spec 2026-07-28 authorization-server-discovery), else AuthError "issuer-mismatch".
 */
export async function fetchAuthorizationServerMetadata(
  issuer: string,
  options: HttpOptions = {},
): Promise<{ metadata: AuthorizationServerMetadata; url: string } | { misses: string[] }> {
  assertSafeUrl(issuer, "the authorization server");
  const misses: string[] = [];
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const got = await getJson(url, "the authorization server metadata URL", options);
    if (got.kind === "miss") {
      misses.push(got.reason);
      continue;
    }
    // spec 2026-07-28 authorization-server-discovery: identical, compared as strings
    if (got.value.issuer !== issuer) {
      throw new AuthError(
        `the authorization server metadata at ${got.url.href} says issuer ${
          JSON.stringify(got.value.issuer)
        }, but it was fetched for ${issuer} (RFC 8414 3.3); ` +
          `refusing to use it — the metadata may be forged or the server misconfigured`,
        "issuer-mismatch",
      );
    }
    return { metadata: got.value as AuthorizationServerMetadata, url: got.url.href };
  }
  return { misses };
}

/** Every endpoint the metadata names is https or loopback http. */
function checkEndpoints(metadata: AuthorizationServerMetadata): void {
  for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
    const value = metadata[field];
    if (value !== undefined) assertSafeUrl(value, `the authorization server's ${field}`);
  }
}

/**
 * Discovery, whole: protected resource metadata (with the resource check), then the first
 * authorization server's metadata. Without protected resource metadata, the 2025-03-26 rules:
 * the authorization server is the MCP server's origin, its metadata at the origin's
 * well-known URL, else the default endpoints /authorize, /token and /register there
 * (spec 2025-03-26 basic/authorization, "Fallbacks for Servers without Metadata Discovery").
 * `preferredIssuer` picks among several authorization servers (e.g. the one we hold credentials for).
 */
export async function discover(
  serverUrl: URL,
  challenge: ResourceChallenge,
  options: HttpOptions & { preferredIssuer?: string } = {},
): Promise<AuthorizationTarget> {
  const prm = await fetchProtectedResourceMetadata(serverUrl, challenge, options);
  if ("metadata" in prm) {
    checkResource(serverUrl, prm.metadata, prm.url);
    const servers = Array.isArray(prm.metadata.authorization_servers)
      ? prm.metadata.authorization_servers.filter((s): s is string => typeof s === "string")
      : [];
    if (servers.length === 0) {
      throw new AuthError(
        `the protected resource metadata at ${prm.url} lists no authorization_servers (RFC 9728 2); the MCP server is misconfigured`,
        "discovery-failed",
      );
    }
    // RFC 9728 7.6: the client chooses; we take the one we are told to prefer, else the first.
    const issuer = servers.find((s) => s === options.preferredIssuer) ?? servers[0]!;
    const as = await fetchAuthorizationServerMetadata(issuer, options);
    if ("misses" in as) {
      throw new AuthError(
        `no authorization server metadata for ${issuer} (named by ${prm.url}): ${as.misses.join("; ")}; check that the authorization server is up`,
        "discovery-failed",
      );
    }
    checkEndpoints(as.metadata);
    return {
      serverUrl,
      resource: prm.metadata.resource,
      resourceMetadata: prm.metadata,
      resourceMetadataUrl: prm.url,
      issuer,
      metadata: as.metadata,
      legacy: false,
    };
  }

  if (challenge.resourceMetadata !== undefined) {
    // the server speaks RFC 9728 (its challenge named the document): not a 2025-03-26 server
    throw new AuthError(
      `no protected resource metadata for ${serverUrl.href}: ${
        prm.misses.join("; ")
      }; the server's 401 named ${challenge.resourceMetadata} — check that it is served`,
      "discovery-failed",
    );
  }
  // spec 2025-03-26 basic/authorization: the authorization base URL is the server URL without its path
  const origin = serverUrl.origin;
  assertSafeUrl(origin, "the MCP server");
  const as = await fetchAuthorizationServerMetadata(origin, options);
  let metadata: AuthorizationServerMetadata;
  if ("metadata" in as) {
    metadata = as.metadata;
  } else {
    metadata = {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      // the 2025-03-26 revision required PKCE of every client and server
      code_challenge_methods_supported: ["S256"],
    };
  }
  checkEndpoints(metadata);
  return { serverUrl, resource: canonicalResource(serverUrl), issuer: origin, metadata, legacy: true };
}

/** The server URL as an RFC 8707 resource: without fragment; kept otherwise as configured. */
export function canonicalResource(serverUrl: URL): string {
  const url = new URL(serverUrl.href);
  url.hash = "";
  return url.href;
}
