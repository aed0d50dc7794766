// Which server owns a registered tool name, so that `mcpwire call` starts that server alone:
// only servers whose naming can make the name are asked (`mcp_<server>_<tool>` names its
// server; the longest server name that fits first), those the tool-list cache says hold it
// first, then the others one at a time in config order, stopping at the first that has it.

import type { ServerConfig } from "../../host/config/types.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import { readCachedTools, type ToolListCache } from "../../host/store/tool-list-cache.ts";
import { DEFAULT_NAMING, MAX_TOOL_NAME_LENGTH, sanitizeName } from "../../registry/naming.ts";

/** What fitToolName keeps of a name it cut (the rest is `_` and 8 hex digits). */
const KEPT_OF_CUT_NAME = MAX_TOOL_NAME_LENGTH - 9;
const CUT_NAME = /_[0-9a-f]{8}$/;

/**
 * How specific `server`'s naming is about `name`: the length of the fixed text around `{tool}`
 * (`mcp_everything_` is 15), or undefined when its naming cannot make `name` (registry/naming.ts
 * toolName: the format filled, sanitised, cut past 64 characters with a hash).
 */
export function namingFit(server: Pick<ServerConfig, "name" | "naming">, name: string): number | undefined {
  const format = server.naming ?? DEFAULT_NAMING;
  const first = format.indexOf("{tool}");
  const last = format.lastIndexOf("{tool}");
  if (first < 0) return undefined; // a naming without {tool} registers nothing (registry/naming.ts namingFormatProblem)
  const fill = (part: string) => sanitizeName(part.replaceAll("{server}", server.name));
  const before = fill(format.slice(0, first));
  const after = fill(format.slice(last + "{tool}".length));
  const whole = name.length > before.length + after.length && name.startsWith(before) && name.endsWith(after);
  // A cut name keeps only the first characters of the filled format.
  const cut = name.length === MAX_TOOL_NAME_LENGTH && CUT_NAME.test(name) && name.startsWith(before.slice(0, KEPT_OF_CUT_NAME));
  return whole || cut ? before.length + after.length : undefined;
}

/** How `server`'s naming writes its tools' names, the tool as `…`: `mcp_everything_…`. */
export function namingPattern(server: Pick<ServerConfig, "name" | "naming">): string {
  const format = server.naming ?? DEFAULT_NAMING;
  const fill = (part: string) => sanitizeName(part.replaceAll("{server}", server.name));
  return format.split("{tool}").map(fill).join("…");
}

/** What the search did: the servers it started, in order; `name` is registered when one of them has it. */
export interface OwnerSearch {
  /** The servers started to look for the tool, in the order they were started. */
  asked: string[];
  /** The servers not started that the tool-list cache holds a listing of. */
  cachedServers: string[];
  /** The registered names the tool-list cache holds for those servers (for suggestions). */
  cachedNames: string[];
}

/**
 * Starts the servers that may own `name`, one at a time, until the registry has it: first
 * those the cache says list it, then those the cache knows nothing of (or whose config changed
 * since), then those whose cached list lacks it (a server may have gained the tool without a
 * change to its config); each group most specific naming first, then in config order.
 */
export async function findToolOwner(
  manager: McpManager,
  servers: readonly ServerConfig[],
  name: string,
  cache: ToolListCache | undefined,
  start: (server: string) => Promise<void>,
): Promise<OwnerSearch> {
  const enabled = new Set(manager.status().filter((status) => status.state !== "disabled").map((status) => status.name));
  const candidates = servers
    .filter((server) => enabled.has(server.name))
    .map((server, index) => ({ server, index, fit: namingFit(server, name) }))
    .filter((candidate): candidate is { server: ServerConfig; index: number; fit: number } => candidate.fit !== undefined)
    .sort((a, b) => b.fit - a.fit || a.index - b.index)
    .map((candidate) => candidate.server);
  const listings = cache === undefined ? [] : await readCachedTools({ servers: servers.filter((server) => enabled.has(server.name)) }, cache);
  const listed = new Map(listings.map((listing) => [listing.server, listing.tools.map((tool) => tool.registered)]));
  const rank = (server: ServerConfig) => {
    const names = listed.get(server.name);
    return names === undefined ? 1 : names.includes(name) ? 0 : 2;
  };
  const order = candidates.map((server, index) => ({ server, index, rank: rank(server) })).sort((a, b) => a.rank - b.rank || a.index - b.index);
  const asked: string[] = [];
  for (const { server } of order) {
    // Found: registered, or held back by its pin (the server that holds it is the owner).
    if (manager.registry.has(name) || manager.registry.heldTools().some((held) => held.name === name)) break;
    asked.push(server.name);
    await start(server.name);
  }
  const unasked = [...listed].filter(([server]) => !asked.includes(server));
  return { asked, cachedServers: unasked.map(([server]) => server), cachedNames: unasked.flatMap(([, names]) => names) };
}
