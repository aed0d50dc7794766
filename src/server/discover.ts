// `server/discover` from the server's side: the versions it speaks on the stateless wire, its
// capabilities for this host, its identity and instructions — spec 2026-07-28 server/discover
// ("DiscoverResult"). The caching hints and `_meta` serverInfo are stamped with every other
// result's (modern-fields.ts stampModernResult).

import type { JsonObject } from "../client/types.ts";
import type { Params } from "../jsonrpc/peer.ts";

/**
 * The DiscoverResult. `supportedVersions` lists every version this server speaks, the 2026-07-28
 * ones first, the same list a -32022 names (modern-fields.ts supportedVersions): spec 2026-07-28
 * basic/versioning's own example lists "2026-07-28" and "2025-11-25" for a dual-era server, and the
 * conformance suite holds a -32022's list to the discovered one. A client picks a 2026-07-28
 * version for stateless requests; a handshake version is reached by `initialize`.
 */
export function discoverResult(capabilities: JsonObject, instructions: string | undefined, versions: readonly string[]): Params {
  const result: Params = { resultType: "complete", supportedVersions: [...versions], capabilities };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
}
