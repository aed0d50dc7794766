// The MCP authorization extensions as explicit choices: a plain description (what a config file or
// the conformance context gives) turned into a grant and a DPoP signer for createOAuthFetch —
// ext-auth client credentials (SEP-1046), enterprise-managed authorization (SEP-990), workload
// identity federation (SEP-1933), DPoP (SEP-1932, RFC 9449).

import { runtime as defaultRuntime } from "../runtime/mod.ts";
import type { Runtime } from "../runtime/types.ts";
import { DpopSigner } from "./dpop.ts";
import { clientCredentialsGrant, enterpriseManagedGrant, type Grant, jwtBearerGrant, TOKEN_TYPE, type TokenSource } from "./grants.ts";
import { importPrivateKey, type JwsAlgorithm } from "./jwt.ts";
import type { ClientAuthentication } from "./token-endpoint.ts";
import { dpopSignerFor, type TokenStore } from "./token-store.ts";

/** A client at an authorization server, as configured: an id and one way to prove it. */
export interface ClientCredentialsConfig {
  clientId: string;
  clientSecret?: string;
  /** With a secret; default client_secret_basic (the OAuth default, RFC 6749 2.3.1). */
  authMethod?: "client_secret_basic" | "client_secret_post";
  /** For private_key_jwt: a PKCS#8 PEM or a JWK (text or object). */
  privateKey?: string | JsonWebKey;
  /** A file holding privateKey (read once). */
  privateKeyFile?: string;
  keyId?: string;
  /** Default ES256. */
  algorithm?: JwsAlgorithm;
}

/** Where a token comes from: given, read from a file each time (rotated workload tokens), or an env var. */
export interface TokenSourceConfig {
  value?: string;
  file?: string;
  env?: string;
}

export type ExtensionGrantConfig =
  | ({ grant: "client_credentials" } & ClientCredentialsConfig)
  | {
    /** RFC 7523 JWT bearer with a workload identity token (SEP-1933). */
    grant: "workload_identity";
    clientId: string;
    /** Optional: most workload setups authenticate by the assertion alone (client auth "none"). */
    client?: Omit<ClientCredentialsConfig, "clientId">;
    assertion: TokenSourceConfig;
  }
  | {
    /** SEP-990: IdP token → ID-JAG (token exchange at the IdP) → access token (JWT bearer at the AS). */
    grant: "enterprise_managed";
    /** The client at the MCP server's authorization server. */
    client: ClientCredentialsConfig;
    idp: {
      tokenEndpoint: string;
      issuer?: string;
      /** The client at the IdP. */
      client: ClientCredentialsConfig;
      /** The user's ID token from single sign-on (or an IdP refresh token, with subjectTokenType). */
      subjectToken: TokenSourceConfig;
      subjectTokenType?: "id_token" | "refresh_token";
    };
  };

/** An `auth:` extension setting of a config: the grant and DPoP to use. */
export interface ExtensionConfig {
  /** A grant in place of the authorization code flow; absent: the user authorizes in a browser. */
  grant?: ExtensionGrantConfig;
  /** DPoP-bound tokens (RFC 9449): true for ES256, or the algorithm. */
  dpop?: boolean | JwsAlgorithm;
}

/** What createOAuthFetch gets: `grant` in its options, `dpop` in the AuthProvider. */
export interface ExtensionAuth {
  grant?: Grant;
  dpop?: DpopSigner;
}

/**
 * Builds the grant and DPoP signer an ExtensionConfig describes; keys and files are read here.
 * With `keep`, the DPoP key is the one kept in that store for that server (made and kept there
 * the first time), so stored DPoP-bound tokens stay usable in the next run.
 */
export async function extensionAuth(
  config: ExtensionConfig,
  runtime: Runtime = defaultRuntime,
  keep?: { store: TokenStore; serverUrl: string },
): Promise<ExtensionAuth> {
  const result: ExtensionAuth = {};
  if (config.dpop !== undefined && config.dpop !== false) {
    const algorithm = config.dpop === true ? "ES256" : config.dpop;
    result.dpop = keep !== undefined ? await dpopSignerFor(keep.store, keep.serverUrl, algorithm) : await DpopSigner.generate(algorithm);
  }
  const grant = config.grant;
  if (grant === undefined) return result;
  const extra = result.dpop !== undefined ? { dpop: result.dpop } : {};
  switch (grant.grant) {
    case "client_credentials":
      result.grant = clientCredentialsGrant({ client: await clientAuthentication(grant, "client_credentials", runtime), ...extra });
      break;
    case "workload_identity":
      result.grant = jwtBearerGrant({
        assertion: tokenSource(grant.assertion, "workload_identity assertion", runtime),
        client: grant.client
          ? await clientAuthentication({ clientId: grant.clientId, ...grant.client }, "workload_identity client", runtime)
          : { method: "none", clientId: grant.clientId },
        ...extra,
      });
      break;
    case "enterprise_managed":
      result.grant = enterpriseManagedGrant({
        idp: {
          tokenEndpoint: grant.idp.tokenEndpoint,
          ...(grant.idp.issuer !== undefined ? { issuer: grant.idp.issuer } : {}),
          client: await clientAuthentication(grant.idp.client, "enterprise_managed idp client", runtime, "none"),
          subjectToken: tokenSource(grant.idp.subjectToken, "enterprise_managed idp subjectToken", runtime),
          subjectTokenType: grant.idp.subjectTokenType === "refresh_token" ? TOKEN_TYPE.refreshToken : TOKEN_TYPE.idToken,
        },
        client: await clientAuthentication(grant.client, "enterprise_managed client", runtime),
        ...extra,
      });
      break;
  }
  return result;
}

/**
 * The ClientAuthentication a configured client means: private_key_jwt with a key, a secret
 * method with a secret, else `fallback` ("none" only where a public client is allowed).
 */
export async function clientAuthentication(
  config: ClientCredentialsConfig,
  what: string,
  runtime: Runtime = defaultRuntime,
  fallback?: "none",
): Promise<ClientAuthentication> {
  const keyText = config.privateKey ?? (config.privateKeyFile !== undefined ? await runtime.readTextFile(config.privateKeyFile) : undefined);
  if (keyText !== undefined) {
    const algorithm = config.algorithm ?? "ES256";
    return {
      method: "private_key_jwt",
      clientId: config.clientId,
      privateKey: await importPrivateKey(keyText, algorithm),
      algorithm,
      ...(config.keyId !== undefined ? { keyId: config.keyId } : {}),
    };
  }
  if (config.clientSecret !== undefined) {
    return { method: config.authMethod ?? "client_secret_basic", clientId: config.clientId, clientSecret: config.clientSecret };
  }
  if (fallback === "none") return { method: "none", clientId: config.clientId };
  throw new TypeError(`${what}: client "${config.clientId}" has neither clientSecret nor privateKey; give one`);
}

/** A TokenSource for a configured token: a file and an env var are read anew for each authorization. */
export function tokenSource(config: TokenSourceConfig, what: string, runtime: Runtime = defaultRuntime): TokenSource {
  if (config.value !== undefined) return config.value;
  const file = config.file;
  if (file !== undefined) return async () => (await runtime.readTextFile(file)).trim();
  const name = config.env;
  if (name !== undefined) {
    return () => {
      const value = runtime.env()[name];
      if (value === undefined || value === "") throw new TypeError(`${what}: environment variable ${name} is not set`);
      return value.trim();
    };
  }
  throw new TypeError(`${what}: give value, file or env`);
}
