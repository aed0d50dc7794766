// Which log messages a host gets: the threshold a host asked for, and whether a message's level
// passes it — spec 2025-11-25 server/utilities/logging (`logging/setLevel`, per session);
// spec 2026-07-28 server/utilities/logging (`io.modelcontextprotocol/logLevel`, per request:
// none without it).

import { LOGGING_LEVELS, type LoggingLevel } from "../client/types.ts";

/** Whether `value` is one of the spec's eight levels (RFC 5424 severities). */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return (LOGGING_LEVELS as readonly unknown[]).includes(value);
}

/**
 * Whether a `notifications/message` at `level` may go to a host whose threshold is `threshold`:
 * at or above it; never without a threshold (spec 2026-07-28 logging: "MUST NOT emit
 * notifications/message for a request that does not include this field"; the handshake era
 * sends none until `logging/setLevel` — HostIdentity.logLevel). A message without a known level
 * is sent only to a host that asked for everything (debug).
 */
export function logPasses(level: unknown, threshold: LoggingLevel | undefined): boolean {
  if (threshold === undefined) return false;
  const at = LOGGING_LEVELS.indexOf(level as LoggingLevel);
  return at === -1 ? threshold === "debug" : at >= LOGGING_LEVELS.indexOf(threshold);
}
