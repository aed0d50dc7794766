// `mcpwire add`, `remove`, `enable`, `disable`: one server of a config file changed from the
// command line (host/config/edit.ts does the editing, keeping the rest of the file as written).

import { type ConfigEdit, editConfigFile, type ServerParts, userConfigFile } from "../../host/config/edit.ts";
import { configSearchPaths } from "../../host/config/load.ts";
import { resolvePath } from "../../host/config/paths.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, type ParsedArgs, UsageError } from "../args.ts";
import { lineOf, write } from "../output.ts";

const WHERE = `Which file: the user's config (~/.mcp.json when it exists, else
$XDG_CONFIG_HOME/mcpwire/config.yaml, default ~/.config/mcpwire/config.yaml, made when absent),
--project for ./mcpwire.yaml, or --file FILE. Comments, order and formatting outside the server's
entry are kept; the result is checked as the other verbs read it before it is written, and a
result with a problem leaves the file as it was. Nothing is run or trusted (a changed
./mcpwire.yaml needs mcpwire trust again).`;

export const ADD_USAGE = `usage: mcpwire add NAME [options] -- COMMAND [ARG…]
       mcpwire add NAME --http URL [--header K=V]… [options]
       mcpwire add NAME --sse URL [--header K=V]… [options]

Adds a server to a config file: a stdio server (the command after --), or one reached over
streamable HTTP (--http) or the legacy HTTP+SSE transport (--sse).

--header K=V   an HTTP header sent with every request (repeatable; \${VAR} is kept as written)
--env K=V      a variable for a stdio server (repeatable)
--cwd DIR      the directory a stdio server starts in (relative: to the config file's directory)
--force        replace a server of that name
--project      ./mcpwire.yaml instead of the user's config
--file FILE    that config file instead

${WHERE}

exit codes: 0 added, 2 usage error, a name that exists (without --force) or an invalid result`;

const TOGGLE_USAGE = (verb: string, what: string) =>
  `usage: mcpwire ${verb} NAME [--project | --file FILE]

${what}

${WHERE}

exit codes: 0 done, 2 usage error, no such server or an invalid result`;

export const REMOVE_USAGE = TOGGLE_USAGE("remove", "Removes the server NAME from a config file.");
export const ENABLE_USAGE = TOGGLE_USAGE("enable", "Enables the server NAME again: removes its `enabled: false`.");
export const DISABLE_USAGE = TOGGLE_USAGE("disable", "Disables the server NAME (`enabled: false`): kept in the file, not started.");

export const FILE_OPTIONS = { project: { kind: "flag" }, file: { kind: "string", values: "file" } } as const;

/** The options `mcpwire add` takes. */
export const ADD_OPTIONS = {
  ...FILE_OPTIONS,
  http: { kind: "string" },
  sse: { kind: "string" },
  header: { kind: "list" },
  env: { kind: "list" },
  cwd: { kind: "string", values: "directory" },
  force: { kind: "flag" },
} as const;

export function add(argv: readonly string[]): Promise<number> {
  const dash = argv.indexOf("--");
  const args = parseArgs(dash === -1 ? argv : argv.slice(0, dash), ADD_OPTIONS);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const [name, ...extra] = args.positional;
  if (name === undefined) throw new UsageError("add needs the server's NAME: mcpwire add NAME -- COMMAND [ARG…], or mcpwire add NAME --http URL");
  checkName(name);
  if (extra.length > 0) throw new UsageError(`unexpected "${extra[0]}"; put the server's command after --: mcpwire add ${name} -- ${extra.join(" ")}`);
  const http = args.values.get("http");
  const sse = args.values.get("sse");
  const ways = [command.length > 0, http !== undefined, sse !== undefined].filter(Boolean).length;
  if (ways !== 1) {
    throw new UsageError(
      ways === 0
        ? `add ${name}: give the server's command after -- (mcpwire add ${name} -- npx -y some-server) or its URL (--http URL or --sse URL)`
        : "add: give one of a command after --, --http URL or --sse URL",
    );
  }
  const server: ServerParts = {};
  if (command.length > 0) {
    const [program, ...rest] = command;
    if (program === undefined || program === "") throw new UsageError("add: the command after -- is empty");
    server.command = program;
    server.args = rest;
    if (args.lists.has("header")) throw new UsageError("--header is for --http and --sse servers; a stdio server takes --env K=V");
  } else {
    server.url = http ?? sse;
    server.transport = http !== undefined ? "http" : "sse";
  }
  const headers = pairs(args, "header");
  if (headers !== undefined) server.headers = headers;
  const env = pairs(args, "env");
  if (env !== undefined) {
    if (server.command === undefined) throw new UsageError("--env is for a stdio server (a command after --); an HTTP server takes --header K=V");
    server.env = env;
  }
  const cwd = args.values.get("cwd");
  if (cwd !== undefined) {
    if (server.command === undefined) throw new UsageError("--cwd is for a stdio server (a command after --)");
    server.cwd = cwd;
  }
  return apply(args, { kind: "add", name, server, force: args.flags.has("force") });
}

export const remove = (argv: readonly string[]) => toggle(argv, "remove");
export const enable = (argv: readonly string[]) => toggle(argv, "enable");
export const disable = (argv: readonly string[]) => toggle(argv, "disable");

function toggle(argv: readonly string[], kind: "remove" | "enable" | "disable"): Promise<number> {
  const args = parseArgs(argv, FILE_OPTIONS);
  const [name, ...extra] = args.positional;
  if (name === undefined) throw new UsageError(`${kind} needs the server's NAME: mcpwire ${kind} NAME`);
  if (extra.length > 0) throw new UsageError(`${kind} takes one NAME; unexpected "${extra[0]}"`);
  return apply(args, { kind, name });
}

async function apply(args: ParsedArgs, edit: ConfigEdit): Promise<number> {
  const file = await targetFile(args);
  const outcome = await editConfigFile(file, edit);
  const done = {
    add: outcome.replaced ? "replaced" : "added",
    remove: "removed",
    enable: outcome.changed ? "enabled" : "left enabled (it was)",
    disable: outcome.changed ? "disabled" : "left disabled (it was)",
  }[edit.kind];
  if (!args.values.has("file") && !args.flags.has("project")) await noteShadowing(file);
  await write(
    "stdout",
    lineOf(`${done} server "${edit.name}" ${edit.kind === "add" && !outcome.replaced ? "in" : "of"} ${file}${outcome.created ? " (created)" : ""}`) + "\n",
  );
  return 0;
}

async function targetFile(args: ParsedArgs): Promise<string> {
  const given = args.values.get("file");
  if (given !== undefined && args.flags.has("project")) throw new UsageError("--project and --file name different files; give one");
  if (given !== undefined) {
    if (given === "") throw new UsageError("--file needs a path");
    return resolvePath(runtime.cwd(), given);
  }
  if (args.flags.has("project")) return resolvePath(runtime.cwd(), "mcpwire.yaml");
  return await userConfigFile(runtime.env());
}

/** The other verbs read a config in the working directory before the user's: say so when there is one. */
async function noteShadowing(file: string): Promise<void> {
  for (const path of configSearchPaths({ cwd: runtime.cwd(), env: runtime.env() }).slice(0, 2)) {
    if (path === file || (await runtime.linkInfo(path)) === undefined) continue;
    await write("stderr", lineOf(`note: the other verbs read ${path} here, not ${file}; use --project or --file to edit it`) + "\n");
    return;
  }
}

/** `--NAME K=V` options as a mapping; undefined when none was given. */
function pairs(args: ParsedArgs, option: string): Record<string, string> | undefined {
  const list = args.lists.get(option);
  if (list === undefined) return undefined;
  const result: Record<string, string> = {};
  for (const item of list) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new UsageError(`--${option} takes KEY=VALUE (got "${item}")`);
    Object.defineProperty(result, item.slice(0, eq), { value: item.slice(eq + 1), enumerable: true, writable: true, configurable: true });
  }
  return result;
}

/** A server name becomes part of tool names (mcp_NAME_tool): letters, digits, `_`, `-` and `.`. */
function checkName(name: string): void {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(name)) {
    throw new UsageError(`server name "${lineOf(name)}" must start with a letter or digit and have only letters, digits, "_", "-" and "."`);
  }
}
