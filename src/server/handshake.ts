// The initialize handshake from the server's side: the version answered, what the host
// declared, and the one session a connection's handshake makes — spec 2025-11-25
// basic/lifecycle ("Initialization", "Version Negotiation", "Operation"); spec 2026-07-28
// basic/versioning (a dual-era server takes `initialize` as the handshake era, whatever else
// the request carries; a modern-only one names its versions in the error).

import { isSupportedProtocolVersion, LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS, type ProtocolEra } from "../client/protocol-version.ts";
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel } from "../client/types.ts";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { Params } from "../jsonrpc/peer.ts";
import { UNSUPPORTED_PROTOCOL_VERSION } from "./modern-fields.ts";
import type { HostIdentity } from "./server-handlers.ts";

/** What a host declared in its `initialize`, and what the session has been told since. */
export interface Handshake {
  /** The version answered: the host's when we speak it, else our latest. */
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** `notifications/initialized` arrived (spec 2025-11-25 lifecycle: the operation phase begins). */
  initialized: boolean;
  /** spec 2025-11-25 logging: what `logging/setLevel` last set; undefined before any. */
  logLevel: LoggingLevel | undefined;
}

/**
 * Reads an `initialize` request, or throws the RpcError it is answered with: a server that does
 * not serve the handshake era -32022 naming its versions (spec 2026-07-28 basic/versioning: a
 * modern-only server SHOULD name them in any error to `initialize`); no `protocolVersion`
 * string -32602. spec 2025-11-25 lifecycle ("Version Negotiation"): the host's version when we
 * support it, otherwise the latest we do.
 */
export function readInitialize(serverName: string, params: Params | undefined, eras: readonly ProtocolEra[]): Handshake {
  const requested = params?.protocolVersion;
  if (!eras.includes("legacy")) {
    throw new RpcError(
      `Unsupported protocol version: ${serverName} does not speak the initialize handshake; it supports ${MODERN_PROTOCOL_VERSIONS.join(", ")} ` +
        "(send server/discover, and the protocol fields in each request's _meta)",
      UNSUPPORTED_PROTOCOL_VERSION,
      { data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested } },
    );
  }
  if (typeof requested !== "string") {
    throw new RpcError(`Invalid params: initialize has no "protocolVersion" string`, ErrorCode.InvalidParams);
  }
  const capabilities = params?.capabilities;
  const info = params?.clientInfo;
  return {
    protocolVersion: isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION,
    // Both are required by the schema; a host that left one out is served as one that declared nothing.
    capabilities: typeof capabilities === "object" && capabilities !== null && !Array.isArray(capabilities) ? capabilities as ClientCapabilities : {},
    clientInfo: typeof info === "object" && info !== null && typeof (info as JsonObject).name === "string" ? info as Implementation : undefined,
    initialized: false,
    logLevel: undefined,
  };
}

/** The handshake's identity as a request made now sees it (the log level as last set). */
export function handshakeIdentity(handshake: Handshake): HostIdentity {
  return {
    era: "legacy",
    protocolVersion: handshake.protocolVersion,
    capabilities: handshake.capabilities,
    clientInfo: handshake.clientInfo,
    logLevel: handshake.logLevel,
  };
}

/** spec 2025-11-25 lifecycle ("Initialization"): the InitializeResult. */
export function initializeResult(
  handshake: Handshake,
  capabilities: JsonObject,
  serverInfo: Implementation,
  instructions: string | undefined,
): Params {
  const result: Params = { protocolVersion: handshake.protocolVersion, capabilities, serverInfo };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}

/** A second `initialize` on a session that has one: refused, the session goes on. */
export function alreadyInitialized(serverName: string, sessionId: string): RpcError {
  return new RpcError(
    `Invalid request: session ${sessionId} of ${serverName} is already initialized; a new handshake needs a new session (connection)`,
    ErrorCode.InvalidRequest,
  );
}
