// The command `mcpwire call --detach` prints to follow its task: `mcpwire task wait SERVER ID`
// with what reaches that server again as this command reached it (its --config, --import and
// --trust-project, or the --http / --sse URL, --name and --header it was given on the command
// line), and the session the task lives in (--session), so that it works as printed.

import type { JoinedSession } from "../../client/client-options.ts";
import { LATEST_PROTOCOL_VERSION } from "../../client/protocol-version.ts";
import type { ServerConfig } from "../../host/config/types.ts";
import type { ParsedArgs } from "../args.ts";
import { isAdHoc } from "./ad-hoc-servers.ts";

/** `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * `mcpwire task wait SERVER TASK-ID` and the options that reach `server` as `args` did, with
 * `--session ID` (and `--session-version V` when it is not 2025-11-25) when the task lives in
 * a Streamable HTTP session. A header's value is printed as given: output redacts a secret.
 */
export function followCommand(args: ParsedArgs, server: ServerConfig, taskId: string, session: JoinedSession | undefined): string {
  const words = ["mcpwire", "task", "wait", server.name, taskId];
  if (isAdHoc(server)) {
    if (server.transport === "stdio") words.push("--stdio", [server.command ?? "", ...server.args].join(" "));
    else words.push(server.transport === "sse" ? "--sse" : "--http", server.url ?? "");
    words.push("--name", server.name);
    for (const [name, value] of Object.entries(server.headers ?? {})) words.push("--header", `${name}: ${value}`);
  }
  const config = args.values.get("config");
  if (config !== undefined) words.push("--config", config);
  for (const app of args.lists.get("import") ?? []) words.push("--import", app);
  if (args.flags.has("trust-project")) words.push("--trust-project");
  if (session !== undefined) {
    words.push("--session", session.id);
    if (session.protocolVersion !== undefined && session.protocolVersion !== LATEST_PROTOCOL_VERSION) words.push("--session-version", session.protocolVersion);
  }
  return words.map(shellWord).join(" ");
}
