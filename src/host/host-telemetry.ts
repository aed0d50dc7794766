// The host's OpenTelemetry settings: the McpManager's `telemetry` option, else the config's
// `telemetry:` key, with every attribute through the host's redactor (the config's secrets,
// tokens as they are obtained) — docs/telemetry.md; OpenTelemetry semantic conventions for MCP.

import type { TelemetryOption, TelemetryOptions } from "../client/telemetry.ts";
import type { Redactor } from "../common/redact.ts";
import type { McpwireConfig } from "./config/types.ts";

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
