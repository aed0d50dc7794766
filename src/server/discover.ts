// `server/discover` from the server's side: the versions it speaks on the stateless wire, its
// capabilities for this host, its identity and instructions — spec 2026-07-28 server/discover
// ("DiscoverResult"). The caching hints and `_meta` serverInfo are stamped with every other
// result's (modern-fields.ts stampModernResult).

import { MODERN_PROTOCOL_VERSIONS } from "../client/protocol-version.ts";
import type { JsonObject } from "../client/types.ts";
import type { Params } from "../jsonrpc/peer.ts";

/**
 * The DiscoverResult. `supportedVersions` lists the 2026-07-28 versions only: a client picks
 * one of them for the requests that follow, each of which must be a stateless one (a handshake
 * version is reached by `initialize`, not by a request's `_meta`).
 */
export function discoverResult(capabilities: JsonObject, instructions: string | undefined): Params {
  const result: Params = { resultType: "complete", supportedVersions: [...MODERN_PROTOCOL_VERSIONS], capabilities };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}
