// Keeps the tool-list cache (tool-list-cache.ts) in step with a manager: the tools a server lists
// are recorded when it becomes ready and whenever its registered tools change; its entry is
// dropped when it sends notifications/tools/list_changed (spec 2025-11-25 server/tools, "List
// Changed Notification": the list the cache holds is no longer the server's).

import type { Client } from "../../client/client.ts";
import { clipLine } from "../../common/preview.ts";
import { filterToolNames } from "../../registry/filters.ts";
import type { McpwireConfig, ServerConfig } from "../config/types.ts";
import { type CachedTool, MAX_CACHED_TITLE, type ToolListCache } from "../store/tool-list-cache.ts";
import type { McpManager } from "./manager.ts";

/** What followToolLists returns: stop following, and wait for the writes made so far. */
export interface ToolListRecorder {
  /** Stops listening to the manager (the writes under way go on). */
  stop(): void;
  /** Resolves once every write asked for so far has ended (written or failed: failures are ignored). */
  settled(): Promise<void>;
}

/** Records into `cache` what `manager`'s servers list, and forgets a server's listing on its list_changed. */
export function followToolLists(manager: McpManager, config: Pick<McpwireConfig, "servers">, cache: ToolListCache): ToolListRecorder {
  const servers = new Map<string, ServerConfig>(config.servers.map((server) => [server.name, server]));
  const followed = new WeakSet<Client>();
  const stops: (() => void)[] = [];
  let stopped = false;
  let writes: Promise<void> = Promise.resolve();
  const queue = (write: () => Promise<void>) => {
    writes = writes.then(write).catch(() => {}); // a cache that cannot be written costs a start next time, nothing more
  };
  const ready = (name: string) => manager.status().find((status) => status.name === name)?.state === "ready";
  const record = (name: string) => {
    const server = servers.get(name);
    const client = manager.client(name);
    if (stopped || server === undefined || client === undefined || !ready(name)) return;
    // What the server listed (its last tools/list), through its include/exclude filter: not the
    // registry's view, where a name another server took first is missing.
    const listed = client.knownTools;
    const tools: CachedTool[] = [];
    for (const original of filterToolNames([...listed.keys()], server.tools).selected) {
      const tool = listed.get(original);
      if (tool === undefined) continue;
      // The title people see beside a name: the tool's title, else its description's first line.
      const description: unknown = tool.description;
      const words = [tool.title, tool.annotations?.title, typeof description === "string" ? description.trim().split("\n", 1)[0] : undefined];
      const first = words.find((word): word is string => typeof word === "string" && word.trim() !== "");
      const title = first === undefined ? "" : clipLine(first, MAX_CACHED_TITLE);
      tools.push(title === "" ? { name: original } : { name: original, title });
    }
    queue(() => cache.record(server, tools));
  };
  stops.push(manager.on("serverstate", ({ server: name, to }) => {
    if (to !== "ready") return;
    const client = manager.client(name);
    const server = servers.get(name);
    if (client !== undefined && server !== undefined && !followed.has(client)) {
      followed.add(client);
      // Dropped before the registry's re-list lands (it needs a round trip): a run that ends
      // meanwhile leaves no stale list behind; the re-listed tools are recorded as they change.
      stops.push(client.on("toolslistchanged", () => {
        if (!stopped) queue(() => cache.forget(server));
      }));
    }
    record(name);
  }));
  stops.push(manager.registry.on("toolschange", ({ server }) => {
    record(server);
  }));
  return {
    stop: () => {
      stopped = true;
      for (const stop of stops.splice(0)) stop();
    },
    settled: () => writes,
  };
}
