// `mcpwire servers`: one row per configured server with its status after start-up.

import { fitLine } from "../../common/preview.ts";
import { displayPath } from "../../host/config/imports.ts";
import type { ServerStatus } from "../../host/servers/server-status.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, UsageError } from "../args.ts";
import { lineOf, write, writeJson } from "../output.ts";
import { AD_HOC_USAGE, isAdHoc } from "../session/ad-hoc-servers.ts";
import { configSource, parseLogLevel, SESSION_OPTIONS, TRACE_USAGE, withManager } from "../session/host-session.ts";
import { configCode, reach } from "../session/server-reach.ts";
import { renderTable } from "../table.ts";

export const SERVERS_USAGE = `usage: mcpwire servers [--config FILE] [--import APP[,APP]] [--json] [--log-level LEVEL]

Starts every configured server and prints one row per server: state, transport,
negotiated protocol version, server name and version, tool count, where it is configured
(the config file, the app and file it was imported from, or "command line"), sandbox (a
stdio server: "yes (PROFILE)" in the sandbox its sandbox: key or --sandbox asks for,
"yes (PROFILE, deno permissions)" for a Deno script given Deno's permission flags instead,
"no (prefer)" when sandbox: prefer ran it without one, "no" when it asks for none), last error.
--import APP[,APP] adds the servers of other apps (claude-desktop, claude-code, cursor, vscode,
windsurf, gemini-cli, codex, mcphost, or all); see mcpwire import --list.
--log-level LEVEL also shows the servers' log messages at LEVEL and above on stderr.
${AD_HOC_USAGE}

${TRACE_USAGE}

exit codes: 0 every enabled server is ready, 2 usage or config error (a config error disabled
            a server), 3 a server could not be reached (its row says why)`;

/** The SANDBOX column: whether a stdio server runs in its sandbox, and the profile its config names. */
function sandboxText(status: ServerStatus): string {
  if (status.transport !== "stdio") return "-";
  if (status.sandbox === undefined) return "no";
  const by = status.sandbox.by === "deno" ? ", deno permissions" : "";
  return `${status.sandbox.sandboxed ? "yes" : "no"} (${status.sandbox.profile}${by})`;
}

/** The options `mcpwire servers` takes. */
export const SERVERS_OPTIONS = { ...SESSION_OPTIONS, json: { kind: "flag" } } as const;

export async function servers(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, SERVERS_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", SERVERS_USAGE + "\n");
    return 0;
  }
  if (args.positional.length > 0) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
  const logLevel = parseLogLevel(args.values.get("log-level"));
  // Log messages are shown only when asked for with --log-level.
  return await withManager({ ...configSource(args), showLogs: false, logLevel, listing: true }, async (manager, config) => {
    const statuses = manager.status();
    // Where each server is configured: an imported one names its app and file.
    const origins = new Map(config.servers.map((server) => [server.name, server.origin]));
    const commandLine = new Set(config.servers.filter(isAdHoc).map((server) => server.name));
    const cwd = runtime.cwd();
    const home = runtime.env().HOME;
    const originText = (name: string): string => {
      const origin = origins.get(name);
      if (origin !== undefined) return `${origin.app} ${displayPath(origin.file, cwd, home)}`;
      if (commandLine.has(name)) return "command line";
      return config.file === undefined ? "-" : displayPath(config.file, cwd, home);
    };
    if (args.flags.has("json")) {
      await writeJson(statuses.map((status) => {
        const origin = origins.get(status.name);
        if (commandLine.has(status.name)) return { ...status, commandLine: true };
        return origin === undefined ? status : { ...status, origin };
      }));
    } else {
      // The protocol version, server info and errors come from the servers: one line each, escapes visible.
      const rows = statuses.map((status) => [
        lineOf(status.name),
        status.state,
        status.transport,
        status.protocolVersion === undefined ? "-" : `${lineOf(status.protocolVersion)}${status.era === undefined ? "" : ` (${status.era})`}`,
        status.serverInfo ? fitLine(lineOf(`${status.serverInfo.name} ${status.serverInfo.version}`), 60) : "-",
        String(status.tools),
        lineOf(originText(status.name)),
        sandboxText(status),
        fitLine(lineOf(status.lastError ?? ""), 200),
      ]);
      await write("stdout", renderTable(["SERVER", "STATE", "TRANSPORT", "PROTOCOL", "INFO", "TOOLS", "ORIGIN", "SANDBOX", "LAST ERROR"], rows));
    }
    // A server not reached is in the table with its error (and named on stderr): exit 3, as for
    // every list verb (server-reach.ts); a config error that disabled one: exit 2.
    return Math.max(reach(manager, "servers", { say: false }).code, configCode(config));
  });
}
