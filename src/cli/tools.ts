// `mcpwire tools`: every registered tool (built-in and MCP) with its toolset and description.

import { runtime } from "../runtime/mod.ts";
import { isAppOnlyTool } from "../registry/visibility.ts";
import { APP_ONLY_MARK } from "./inspect-apps.ts";
import { parseArgs, UsageError } from "./args.ts";
import { configErrors, IMPORT_OPTION, importOption, parseLogLevel, withManager } from "./host-session.ts";
import { lineOf, write, writeJson } from "./output.ts";
import { clip, renderTable } from "./table.ts";

export const TOOLS_USAGE = `usage: mcpwire tools [--config FILE] [--import APP[,APP]] [--json] [--log-level LEVEL]

Starts every configured server and lists the tools registered from them, by the names
an LLM (and \`mcpwire call\`) uses. --json prints an array of
{ name, toolset, server, tool, description, inputSchema, appOnly }. A tool marked
[app only] is for its server's MCP App: callable by name, never offered to a model.
--log-level LEVEL also shows the servers' log messages at LEVEL and above on stderr.`;

export async function tools(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, {
    config: { kind: "string" },
    import: IMPORT_OPTION,
    json: { kind: "flag" },
    "log-level": { kind: "string" },
    help: { kind: "flag" },
    debug: { kind: "flag" },
  });
  if (args.flags.has("help")) {
    await write("stdout", TOOLS_USAGE + "\n");
    return 0;
  }
  if (args.positional.length > 0) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
  const logLevel = parseLogLevel(args.values.get("log-level"));
  // Log messages are shown only when asked for with --log-level.
  return await withManager({ configPath: args.values.get("config"), imports: importOption(args), showLogs: false, logLevel }, async (manager, config) => {
    const registered = manager.registry.tools();
    if (args.flags.has("json")) {
      const list = registered.map((tool) => ({
        name: tool.name,
        toolset: tool.toolset,
        server: tool.origin.kind === "mcp" ? tool.origin.server : null,
        tool: tool.origin.kind === "mcp" ? tool.origin.tool : tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        appOnly: isAppOnlyTool(tool),
      }));
      await writeJson(list);
    } else {
      // Names and descriptions come from the servers: each cell is one line, escapes made visible.
      const rows = registered.map((tool) => [lineOf(tool.name) + (isAppOnlyTool(tool) ? APP_ONLY_MARK : ""), lineOf(tool.toolset), clip(lineOf(tool.description ?? ""), 80)]);
      await write("stdout", renderTable(["NAME", "TOOLSET", "DESCRIPTION"], rows));
      const down = manager.status().filter((status) => status.state !== "ready" && status.state !== "disabled");
      for (const status of down) {
        void write("stderr", `warning: server "${lineOf(status.name)}" is ${status.state}: ${lineOf(status.lastError ?? "no detail")}\n`);
      }
    }
    // A config error disabled a server: the rest was shown, but say so in the exit code.
    return configErrors(config).length > 0 ? 2 : 0;
  });
}
