// The per-request protocol fields of the 2026-07-28 revision: every request carries its
// version and the client's capabilities in `_meta`, and usually the client's identity —
// spec 2026-07-28 basic/index ("_meta", "Per-request protocol fields").

import { isObject } from "../common/json.ts";
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel } from "./types.ts";

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export interface RequestMeta {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  /** spec 2026-07-28 server/utilities/logging: without it the server sends no log messages. */
  logLevel?: LoggingLevel;
}

/**
 * The params of a modern request: the caller's params, its `_meta` kept (a progress token,
 * trace context) with the protocol fields set, plus `extra` (the inputResponses and
 * requestState of a multi round-trip retry).
 */
export function withRequestMeta(params: JsonObject | undefined, meta: RequestMeta, extra?: JsonObject): JsonObject {
  const given = params?._meta;
  const fields: JsonObject = {
    ...(isObject(given) ? given : {}),
    [META_PROTOCOL_VERSION]: meta.protocolVersion,
    [META_CLIENT_CAPABILITIES]: meta.capabilities,
    [META_CLIENT_INFO]: meta.clientInfo,
  };
  if (meta.logLevel !== undefined) fields[META_LOG_LEVEL] = meta.logLevel;
  return { ...params, ...extra, _meta: fields };
}
