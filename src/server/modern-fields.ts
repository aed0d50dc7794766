// The 2026-07-28 request checks and result stamps: each request's `_meta` protocol fields read
// and checked before a handler sees it, the methods that era removed refused, and what every
// result must carry added when a handler left it out — spec 2026-07-28 basic/index ("_meta",
// "Per-request protocol fields", error codes), basic/versioning ("Protocol Version
// Negotiation"), server/utilities/logging, server/utilities/caching.

import { isModernProtocolVersion, MODERN_PROTOCOL_VERSIONS, type ProtocolEra, SUPPORTED_PROTOCOL_VERSIONS } from "../client/protocol-version.ts";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, META_SERVER_INFO } from "../client/request-meta.ts";
import type { ClientCapabilities, Implementation, JsonObject } from "../client/types.ts";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { Params } from "../jsonrpc/peer.ts";
import { isLoggingLevel } from "./log-level.ts";
import type { HostIdentity } from "./server-handlers.ts";

/** spec 2026-07-28 basic/index: the error codes of this revision. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * Methods of the handshake era that 2026-07-28 removed (spec 2026-07-28 changelog: ping,
 * logging/setLevel, resources/subscribe and unsubscribe — replaced by per-request fields and
 * subscriptions/listen): answered -32601 on that wire.
 */
export const REMOVED_MODERN_METHODS: ReadonlySet<string> = new Set(["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/** Methods only the 2026-07-28 wire has: a request for one is a 2026-07-28 request whatever it carries. */
export const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set(["server/discover", "subscriptions/listen"]);

/**
 * spec 2026-07-28 server/utilities/caching ("Cacheable Results"): the results that MUST carry
 * caching hints when complete.
 */
const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/**
 * The hints stamped when a handler gives none: stale at once and for this caller only, the
 * most careful reading a server that said nothing allows (caching: "ttlMs absent: assume 0";
 * "private" is never wrong, "public" can be).
 */
const CONSERVATIVE_TTL_MS = 0;
const CONSERVATIVE_CACHE_SCOPE = "private";

/** Whether a request says it is a 2026-07-28 one: its `_meta` names a protocol version. */
export function carriesModernFields(params: Params | undefined): boolean {
  const meta = params?._meta;
  return typeof meta === "object" && meta !== null && META_PROTOCOL_VERSION in meta;
}

/**
 * An `initialize` that is a 2026-07-28 request through and through: its `_meta` names a protocol
 * version and it has no `protocolVersion` of its own. spec 2026-07-28 basic/versioning: on the
 * stateless wire `initialize` is an unknown method (a legacy client's initialize, which has
 * `protocolVersion`, still selects legacy semantics); such a request is answered -32601.
 */
export function isStatelessInitialize(params: Params | undefined): boolean {
  return carriesModernFields(params) && typeof params?.protocolVersion !== "string";
}

/** The versions this server names in a -32022: the modern ones, then the handshake's when it serves that era. */
export function supportedVersions(eras: readonly ProtocolEra[]): string[] {
  return [...(eras.includes("modern") ? MODERN_PROTOCOL_VERSIONS : []), ...(eras.includes("legacy") ? SUPPORTED_PROTOCOL_VERSIONS : [])];
}

/**
 * The host's identity as one 2026-07-28 request gives it, or the RpcError it is answered with:
 * a missing or malformed required field -32602 naming it; a version this server does not speak
 * -32022 with the supported versions in data (spec 2026-07-28 basic/versioning), naming both;
 * a log level that is not one -32602 (spec 2026-07-28 logging, "Error Handling").
 */
export function readModernFields(serverName: string, method: string, params: Params | undefined, eras: readonly ProtocolEra[]): HostIdentity {
  const given = params?._meta;
  const meta = typeof given === "object" && given !== null && !Array.isArray(given) ? given as JsonObject : undefined;
  const version = meta?.[META_PROTOCOL_VERSION];
  if (typeof version !== "string") {
    throw new RpcError(
      `Invalid params: ${method} has no _meta "${META_PROTOCOL_VERSION}" (a 2026-07-28 request MUST carry it${
        eras.includes("legacy") ? "; on the handshake era send initialize first" : ""
      })`,
      ErrorCode.InvalidParams,
    );
  }
  if (!isModernProtocolVersion(version) || !eras.includes("modern")) {
    const supported = supportedVersions(eras);
    throw new RpcError(
      `Unsupported protocol version: ${method} asked for ${JSON.stringify(version)}; ${serverName} supports ${supported.join(", ")}`,
      UNSUPPORTED_PROTOCOL_VERSION,
      { data: { supported, requested: version } },
    );
  }
  const capabilities = meta?.[META_CLIENT_CAPABILITIES];
  if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
    throw new RpcError(
      `Invalid params: ${method} has no _meta "${META_CLIENT_CAPABILITIES}" object (a 2026-07-28 request MUST carry it, {} when it declares none)`,
      ErrorCode.InvalidParams,
    );
  }
  const level = meta?.[META_LOG_LEVEL];
  if (level !== undefined && !isLoggingLevel(level)) {
    throw new RpcError(`Invalid params: ${method}'s _meta "${META_LOG_LEVEL}" ${JSON.stringify(level)} is not a log level`, ErrorCode.InvalidParams);
  }
  const info = meta?.[META_CLIENT_INFO];
  return {
    era: "modern",
    protocolVersion: version,
    capabilities: capabilities as ClientCapabilities,
    // A SHOULD, not a MUST: a malformed one is as good as none.
    clientInfo: typeof info === "object" && info !== null && typeof (info as JsonObject).name === "string" ? info as Implementation : undefined,
    logLevel: level,
  };
}

/**
 * A 2026-07-28 result as it goes out: `resultType: "complete"` when it has none, the server's
 * identity in `_meta` (spec 2026-07-28 basic/index), and on the cacheable results conservative
 * `ttlMs`/`cacheScope` when the handler left them out (caching: "Servers MUST include caching
 * hints"). A copy: the handler's object is not changed.
 */
export function stampModernResult(method: string, result: Params, serverInfo: Implementation): Params {
  const stamped: Params = { ...result };
  stamped.resultType ??= "complete";
  const given = result._meta;
  const meta = typeof given === "object" && given !== null && !Array.isArray(given) ? given as JsonObject : undefined;
  if (meta?.[META_SERVER_INFO] === undefined) stamped._meta = { ...meta, [META_SERVER_INFO]: serverInfo };
  // spec 2026-07-28 caching: interim (input_required) results are not cacheable and carry no hints.
  if (stamped.resultType === "complete" && CACHEABLE_METHODS.has(method)) {
    if (typeof stamped.ttlMs !== "number" || stamped.ttlMs < 0) stamped.ttlMs = CONSERVATIVE_TTL_MS;
    if (stamped.cacheScope !== "public" && stamped.cacheScope !== "private") stamped.cacheScope = CONSERVATIVE_CACHE_SCOPE;
  }
  return stamped;
}
