// The AuthProvider the conformance client uses for the suite's auth/* scenarios — spec
// 2025-11-25 basic/authorization. The suite's mock authorization server redirects at once to
// redirect_uri with code, state (and iss), so "opening" the URL is one fetch that does not
// follow the redirect; its Location is the callback.

import { REFUSAL_CODES } from "../src/auth/errors.ts";
import { AuthError, type AuthProvider, createOAuthFetch, MemoryTokenStore } from "../src/auth/mod.ts";
import type { JsonObject } from "../src/mod.ts";
import { extensionAuthFetch } from "./client-auth-extensions.ts";

/** The client id metadata document URL the basic-cimd scenario expects (SEP-991). */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";
/** Never listened on: the mock authorization server only puts it in a Location header. */
const REDIRECT_URI = "http://localhost:3000/callback";
/**
 * Each authorization request's bound (metadata, registration, authorization, token). Generous:
 * the suite serves every scenario's servers from one process, and on two cores with all
 * scenarios at once one answer can take over 10 s. The client's deadline bounds the whole.
 */
export const AUTH_STEP_TIMEOUT_MS = 30_000;

/**
 * Scenarios whose point is that the client refuses (mismatched resource, issuer or iss, an
 * endless step-up): there, our AuthError refusal is the right outcome and the client exits 0.
 */
const REFUSAL_SCENARIOS: ReadonlySet<string> = new Set([
  "auth/resource-mismatch",
  "auth/scope-retry-limit",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
]);

export interface AuthSession {
  scenario: string;
  url: string;
  context: JsonObject | undefined;
}

function stringField(context: JsonObject | undefined, name: string): string | undefined {
  const value = context?.[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** "Opens" the authorization URL: one GET, no redirect followed; the Location is the callback. */
async function followOnce(url: URL, log: (line: string) => void): Promise<string> {
  const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(AUTH_STEP_TIMEOUT_MS) });
  await response.body?.cancel();
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || location === null) {
    throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect to the callback`);
  }
  const callback = new URL(location, url);
  log(`auth: authorization endpoint redirected to ${callback.origin}${callback.pathname} with ${[...callback.searchParams.keys()].join(", ")}`);
  return callback.href;
}

/** The provider for one scenario: pre-registered credentials from MCP_CONFORMANCE_CONTEXT when given. */
export function conformanceAuthProvider(session: AuthSession, log: (line: string) => void): AuthProvider {
  const clientId = stringField(session.context, "client_id");
  const clientSecret = stringField(session.context, "client_secret");
  const issuer = stringField(session.context, "issuer");
  return {
    redirectUri: REDIRECT_URI,
    clientMetadata: { client_name: "mcpwire-conformance-client", redirect_uris: [REDIRECT_URI] },
    clientMetadataUrl: CIMD_URL,
    ...(clientId !== undefined
      ? { preRegistered: [{ clientId, ...(clientSecret !== undefined ? { clientSecret } : {}), ...(issuer !== undefined ? { issuer } : {}) }] }
      : {}),
    store: new MemoryTokenStore(),
    openAuthorizationUrl: (url) => followOnce(url, log),
  };
}

/** The fetch the HTTP transport gets for an auth/* scenario (undefined for the others). */
export function conformanceAuthFetch(session: AuthSession, log: (line: string) => void): typeof fetch | undefined {
  if (!session.scenario.startsWith("auth/")) return undefined;
  const extension = extensionAuthFetch(session, conformanceAuthProvider(session, log), log); // client-auth-extensions.ts
  if (extension !== undefined) return extension;
  return createOAuthFetch({
    serverUrl: session.url,
    provider: conformanceAuthProvider(session, log),
    timeoutMs: AUTH_STEP_TIMEOUT_MS,
    onEvent: (event) => log(`auth: ${JSON.stringify(event)}`),
  });
}

/** Whether `error` (or a cause of it) is the refusal the scenario exists to see. */
export function isExpectedRefusal(scenario: string, error: unknown): boolean {
  if (!REFUSAL_SCENARIOS.has(scenario)) return false;
  for (let cause: unknown = error, depth = 0; cause !== undefined && depth < 8; depth++) {
    if (cause instanceof AuthError) return REFUSAL_CODES.has(cause.code);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return false;
}
