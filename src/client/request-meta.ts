// The per-request protocol fields of the 2026-07-28 revision: every request carries its
// version and the client's capabilities in `_meta`, and usually the client's identity —
// spec 2026-07-28 basic/index ("_meta", "Per-request protocol fields"). withRequestMeta, which
// puts them in a request, is in modern-request.ts (on every request's path).

import type { ClientCapabilities, Implementation, LoggingLevel } from "./types.ts";

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
