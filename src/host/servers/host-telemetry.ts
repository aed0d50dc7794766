// The host's OpenTelemetry settings: the McpManager's `telemetry` option, else the config's
// `telemetry:` key, with every attribute through the host's redactor (the config's secrets,
// tokens as they are obtained) — docs/telemetry.md; OpenTelemetry semantic conventions for MCP.
// Beside them, the OAuth steps of an HTTP server as spans (spec 2025-11-25 basic/authorization).

import type { AuthEvent } from "../../auth/oauth-fetch.ts";
import { SPAN_KIND, type Telemetry, type TelemetryContext, type TelemetryOption, type TelemetryOptions } from "../../client/telemetry.ts";
import type { Redactor } from "../../common/redact.ts";
import type { McpwireConfig } from "../config/types.ts";

/** `{ telemetry }` for the supervision options when telemetry is on (the option wins over the config), else `{}`. */
export function hostTelemetry(option: TelemetryOption | undefined, config: McpwireConfig, redactor: Redactor): { telemetry?: TelemetryOptions } {
  let chosen: TelemetryOptions | undefined;
  if (option !== undefined) {
    chosen = option === false ? undefined : option === true ? {} : option;
  } else if (config.telemetry?.enabled === true) {
    chosen = { capture: { arguments: config.telemetry.captureArguments === true, results: config.telemetry.captureResults === true } };
  }
  if (chosen === undefined) return {};
  const given = chosen.redact;
  const redact = given === undefined ? (text: string) => redactor.redact(text) : (text: string) => redactor.redact(given(text));
  return { telemetry: { ...chosen, redact } };
}

/**
 * One OAuth step of a server (an AuthEvent of auth/oauth-fetch.ts) as a span of its own, ended at
 * once: `mcp oauth {step}` (challenge, discovered, client, authorized, refreshed, refresh-failed,
 * store-unreadable). Issuers and scopes only; a token never reaches it (and the redactor runs anyway).
 */
export function oauthSpan(telemetry: Telemetry, server: string, event: AuthEvent, parent: TelemetryContext | undefined): void {
  const attributes: Record<string, string | number | boolean | undefined> = { "mcp.server": server, "mcpwire.oauth.step": event.kind };
  switch (event.kind) {
    case "challenge":
      attributes["http.response.status_code"] = event.status;
      attributes["mcpwire.oauth.scope"] = event.challenge.scope;
      break;
    case "discovered":
      attributes["mcpwire.oauth.issuer"] = event.issuer;
      attributes["mcpwire.oauth.legacy"] = event.legacy;
      break;
    case "client":
      attributes["mcpwire.oauth.issuer"] = event.issuer;
      attributes["mcpwire.oauth.client_source"] = event.source;
      break;
    case "authorized":
      attributes["mcpwire.oauth.issuer"] = event.issuer;
      attributes["mcpwire.oauth.scope"] = event.scope;
      attributes["mcpwire.oauth.refreshable"] = event.refreshable;
      break;
    case "refreshed":
    case "refresh-failed":
      attributes["mcpwire.oauth.issuer"] = event.issuer;
      break;
    case "store-unreadable":
      break;
  }
  const span = telemetry.start(`mcp oauth ${event.kind}`, SPAN_KIND.internal, attributes, parent);
  if (event.kind === "refresh-failed" || event.kind === "store-unreadable") telemetry.fail(span, new Error(event.reason));
  else span.end();
}
