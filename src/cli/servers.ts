// `mcpwire servers`: one row per configured server with its status after start-up.

import { runtime } from "../runtime/mod.ts";
import { parseArgs, UsageError } from "./args.ts";
import { configErrors, parseLogLevel, withManager } from "./host-session.ts";
import { lineOf, write, writeJson } from "./output.ts";
import { clip, renderTable } from "./table.ts";

export const SERVERS_USAGE = `usage: mcpwire servers [--config FILE] [--json] [--log-level LEVEL]

Starts every configured server and prints one row per server: state, transport,
negotiated protocol version, server name and version, tool count, last error.
--log-level LEVEL also shows the servers' log messages at LEVEL and above on stderr.`;

export async function servers(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, {
    config: { kind: "string" },
    json: { kind: "flag" },
    "log-level": { kind: "string" },
    help: { kind: "flag" },
    debug: { kind: "flag" },
  });
  if (args.flags.has("help")) {
    await write("stdout", SERVERS_USAGE + "\n");
    return 0;
  }
  if (args.positional.length > 0) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
  const logLevel = parseLogLevel(args.values.get("log-level"));
  // Log messages are shown only when asked for with --log-level.
  return await withManager({ configPath: args.values.get("config"), showLogs: false, logLevel }, async (manager, config) => {
    const statuses = manager.status();
    if (args.flags.has("json")) {
      await writeJson(statuses);
    } else {
      // The protocol version, server info and errors come from the servers: one line each, escapes visible.
      const rows = statuses.map((status) => [
        lineOf(status.name),
        status.state,
        status.transport,
        status.protocolVersion === undefined ? "-" : `${lineOf(status.protocolVersion)}${status.era === undefined ? "" : ` (${status.era})`}`,
        status.serverInfo ? clip(lineOf(`${status.serverInfo.name} ${status.serverInfo.version}`), 60) : "-",
        String(status.tools),
        clip(lineOf(status.lastError ?? ""), 200),
      ]);
      await write("stdout", renderTable(["SERVER", "STATE", "TRANSPORT", "PROTOCOL", "INFO", "TOOLS", "LAST ERROR"], rows));
    }
    // A config error disabled a server: the rest was shown, but say so in the exit code.
    return configErrors(config).length > 0 ? 2 : 0;
  });
}
