// Tools as the client lists them: a tools/list indexed by name (a tool without one refused, one
// whose x-mcp-header annotations break the rules left out) — spec 2025-11-25 server/tools
// ("Listing Tools"), schema Tool; spec 2026-07-28 streamable-http ("Custom Headers from Tool
// Parameters"). A tools/call result is checked in answers.ts.

import { ProtocolError } from "./errors.ts";
import { paramHeadersOf } from "./request-headers.ts";
import type { Tool } from "./types.ts";

/**
 * The tools of a tools/list, and the same by name. On the 2026-07-28 wire (`modern`) a tool whose
 * inputSchema breaks the x-mcp-header rules is left out, and `onProblem` says so.
 */
export function indexTools(
  server: string,
  listed: Tool[],
  modern: boolean,
  onProblem: (message: string) => void,
): { tools: Tool[]; byName: Map<string, Tool> } {
  const tools = modern
    ? listed.filter((tool) => {
      const headers = paramHeadersOf(tool?.inputSchema);
      if (!("problem" in headers)) return true;
      onProblem(`${server}: tool ${JSON.stringify(tool?.name)} left out: its inputSchema is invalid: ${headers.problem}`);
      return false;
    })
    : listed;
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    // spec 2025-11-25 schema: Tool requires name (and inputSchema, left to the caller to judge).
    if (typeof tool?.name !== "string") {
      throw new ProtocolError(`${server}: tools/list returned a tool without a name`, "bad-result", { method: "tools/list" });
    }
    byName.set(tool.name, tool);
  }
  return { tools, byName };
}
