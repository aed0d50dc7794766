// `mcpwire tools`: every registered tool (built-in and MCP) with its toolset and description.

import { fitLine } from "../../common/preview.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import { isAppOnlyTool } from "../../registry/visibility.ts";
import { parseArgs, UsageError } from "../args.ts";
import { lineOf, write, writeJson } from "../output.ts";
import { AD_HOC_USAGE } from "../session/ad-hoc-servers.ts";
import { configSource, parseLogLevel, SESSION_OPTIONS, TRACE_USAGE, withManager } from "../session/host-session.ts";
import { onlyServer } from "../session/server-choice.ts";
import { configCode, reach } from "../session/server-reach.ts";
import { renderTable } from "../table.ts";
import { APP_ONLY_MARK } from "../tools/inspect-apps.ts";
import { signatureListing } from "../tools/signature.ts";

export const TOOLS_USAGE = `usage: mcpwire tools [SERVER] [--signatures | --json] [--config FILE] [--import APP[,APP]] [--log-level LEVEL]

Starts every configured server (only SERVER, when given) and lists the tools registered from
them, by the names an LLM (and \`mcpwire call\`) uses. --signatures prints each tool as a
TypeScript-style signature under its description: required parameters first, optional ones
as \`name?: type\`, enums as unions of literals (\`"a" | "b"\`), arrays as \`T[]\`, objects as
\`{ k: T }\`, with each parameter's description, bounds and default as \`@param\` lines.
--json prints { tools: [{ name, toolset, server, tool, description, inputSchema, appOnly }],
unreached: [{ server, state, error }] }.
A tool marked [app only] is for its server's MCP App: callable by name, never offered to a model.
--log-level LEVEL also shows the servers' log messages at LEVEL and above on stderr.
${AD_HOC_USAGE}

${TRACE_USAGE}

exit codes: 0 listed, 2 usage or config error (a config error disabled a server: the rest is
            listed), 3 a server could not be reached (the others' tools are listed; none
            reached: nothing is)`;

/** The options `mcpwire tools` takes. */
export const TOOLS_OPTIONS = { ...SESSION_OPTIONS, json: { kind: "flag" }, signatures: { kind: "flag" } } as const;

export async function tools(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, TOOLS_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", TOOLS_USAGE + "\n");
    return 0;
  }
  const [server, extra] = args.positional;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (tools takes at most one server name)`);
  if (args.flags.has("signatures") && args.flags.has("json")) throw new UsageError("--signatures and --json cannot be combined; choose one");
  const logLevel = parseLogLevel(args.values.get("log-level"));
  // Log messages are shown only when asked for with --log-level; with SERVER, only that server starts.
  const onConfig = server === undefined ? undefined : (config: McpwireConfig) => onlyServer(config, server);
  return await withManager({ ...configSource(args), showLogs: false, logLevel, onConfig, listing: true }, async (manager, config) => {
    // A server that could not be reached is said, and with none reached nothing is listed (server-reach.ts).
    const reached = reach(manager, "tools");
    if (reached.none) return reached.code;
    const registered = manager.registry.tools().filter((tool) => server === undefined || (tool.origin.kind === "mcp" && tool.origin.server === server));
    if (args.flags.has("signatures")) {
      // The outputSchema is the client's (the registry keeps inputs only): a return type where a server listed one.
      const listed = registered.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        server: tool.origin.kind === "mcp" ? tool.origin.server : null,
        outputSchema: tool.origin.kind === "mcp" ? manager.client(tool.origin.server)?.knownTools.get(tool.origin.tool)?.outputSchema : undefined,
      }));
      await write("stdout", signatureListing(listed));
    } else if (args.flags.has("json")) {
      const list = registered.map((tool) => ({
        name: tool.name,
        toolset: tool.toolset,
        server: tool.origin.kind === "mcp" ? tool.origin.server : null,
        tool: tool.origin.kind === "mcp" ? tool.origin.tool : tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        appOnly: isAppOnlyTool(tool),
      }));
      await writeJson({ tools: list, unreached: reached.unreached });
    } else if (registered.length === 0) {
      await write("stdout", "no tools\n");
    } else {
      // Names and descriptions come from the servers: each cell is one line, escapes made visible.
      const rows = registered.map((
        tool,
      ) => [lineOf(tool.name) + (isAppOnlyTool(tool) ? APP_ONLY_MARK : ""), lineOf(tool.toolset), fitLine(lineOf(tool.description ?? ""), 80)]);
      await write("stdout", renderTable(["NAME", "TOOLSET", "DESCRIPTION"], rows));
    }
    // A config error disabled a server: the rest was shown, but say so in the exit code.
    return Math.max(reached.code, configCode(config, server));
  });
}
