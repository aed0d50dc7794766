// The suite's authorization-extension scenarios (client credentials, enterprise-managed
// authorization, DPoP, workload identity), each an explicit ExtensionConfig built from the
// scenario's MCP_CONFORMANCE_CONTEXT — ext-auth SEP-1046, SEP-990, SEP-1932, SEP-1933.

import { type AuthProvider, createOAuthFetch, extensionAuth, type ExtensionConfig } from "../src/auth/mod.ts";
import type { JsonObject } from "../src/mod.ts";
import { AUTH_STEP_TIMEOUT_MS } from "./client-auth.ts";

function field(context: JsonObject | undefined, name: string): string {
  const value = context?.[name];
  if (typeof value !== "string" || value === "") {
    throw new Error(`MCP_CONFORMANCE_CONTEXT has no "${name}", which this scenario needs`);
  }
  return value;
}

/** The extension a scenario tests, from its context; undefined for the core auth scenarios. */
export function extensionConfig(scenario: string, context: JsonObject | undefined): ExtensionConfig | undefined {
  switch (scenario) {
    case "auth/client-credentials-jwt":
      return {
        grant: {
          grant: "client_credentials",
          clientId: field(context, "client_id"),
          privateKey: field(context, "private_key_pem"),
          algorithm: field(context, "signing_algorithm") === "RS256" ? "RS256" : "ES256",
        },
      };
    case "auth/client-credentials-basic":
      return {
        grant: {
          grant: "client_credentials",
          clientId: field(context, "client_id"),
          clientSecret: field(context, "client_secret"),
          authMethod: "client_secret_basic",
        },
      };
    case "auth/enterprise-managed-authorization":
      return {
        grant: {
          grant: "enterprise_managed",
          client: { clientId: field(context, "client_id"), clientSecret: field(context, "client_secret") },
          idp: {
            tokenEndpoint: field(context, "idp_token_endpoint"),
            issuer: field(context, "idp_issuer"),
            client: { clientId: field(context, "idp_client_id") },
            subjectToken: { value: field(context, "idp_id_token") },
          },
        },
      };
    case "auth/wif-jwt-bearer":
      return {
        grant: { grant: "workload_identity", clientId: field(context, "client_id"), assertion: { value: field(context, "valid_jwt") } },
      };
    case "auth/dpop":
    case "auth/dpop-nonce":
      return { dpop: true };
    default:
      return undefined;
  }
}

/**
 * The fetch for an extension scenario: createOAuthFetch with the scenario's grant and DPoP
 * signer (made on the first request: key generation and import are asynchronous).
 */
export function extensionAuthFetch(
  session: { scenario: string; url: string; context: JsonObject | undefined },
  provider: AuthProvider,
  log: (line: string) => void,
): typeof fetch | undefined {
  const config = extensionConfig(session.scenario, session.context);
  if (config === undefined) return undefined;
  log(`auth: extension ${JSON.stringify({ grant: config.grant?.grant, dpop: config.dpop })}`);
  let built: Promise<typeof fetch> | undefined;
  const build = async (): Promise<typeof fetch> => {
    const { grant, dpop } = await extensionAuth(config);
    return createOAuthFetch({
      serverUrl: session.url,
      provider: dpop !== undefined ? { ...provider, dpop } : provider,
      ...(grant !== undefined ? { grant } : {}),
      timeoutMs: AUTH_STEP_TIMEOUT_MS, // each OAuth step, as in client-auth.ts: seconds per step when every scenario runs at once
      onEvent: (event) => log(`auth: ${JSON.stringify(event)}`),
    });
  };
  return async (input, init) => await (await (built ??= build()))(input, init);
}
