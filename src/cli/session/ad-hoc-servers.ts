// Servers given on the command line (`--stdio "command line"`, `--http URL`, `--sse URL`) for
// the verbs that start servers: read into ServerConfigs as a config file's would be, then put
// beside the config's own. The user's own command line needs no project trust; a stdio one gets
// the safe child environment plus its --env pairs, as a configured server does (host/env.ts).

import { setOwn } from "../../common/json.ts";
import { redactText } from "../../common/redact.ts";
import { newServerConfig } from "../../host/config/server.ts";
import type { McpwireConfig, SandboxSettings, ServerConfig } from "../../host/config/types.ts";
import { type ParsedArgs, UsageError } from "../args.ts";
import { splitCommandLine } from "../command-line.ts";

/** The options of every verb that starts servers, for the servers given on the command line. */
export const AD_HOC_OPTIONS = {
  stdio: { kind: "list" },
  http: { kind: "list" },
  sse: { kind: "list" },
  name: { kind: "list" },
  header: { kind: "list" },
  env: { kind: "list" },
  cwd: { kind: "list", values: "directory" },
  sandbox: { kind: "optional", values: ["default", "prefer"] },
} as const;

/** What the ad-hoc options do, for each verb's usage text. */
export const AD_HOC_USAGE = `servers on the command line (repeatable; beside the config's servers, or without any config):
--stdio "CMD ARGS…"  run this command as a server over stdio (split as a shell would split it;
                     no shell runs it); the safe environment (PATH, HOME, …) plus its --env
--http URL           a Streamable HTTP server at URL
--sse URL            a legacy HTTP+SSE server (2024-11-05) at URL
--name NAME          the server's name (default: the program, such as echo-server for
                     "node echo-server.mjs" or server-everything for "npx -y …/server-everything",
                     or the URL's host; made unique with -2, -3, …)
--env NAME=VALUE     a variable for a --stdio server       --cwd DIR  its working directory
--header "K: V"      a header for an --http / --sse server
--sandbox[=PROFILE]  run the --stdio server in a sandbox (bubblewrap, Linux): default (it reads
                     its own program, its working directory and the paths its arguments name,
                     writes a private /tmp, has no network, so npx runs offline; it does not
                     start where no sandbox can be had) or prefer (the same, but run without a
                     sandbox, with a warning, where none can be had)
--name, --env, --cwd, --sandbox and --header apply to the --stdio, --http or --sse before them (given
before the first one, to the first one)`;

/** The flag a server was given with. */
type AdHocFlag = "stdio" | "http" | "sse";

interface Given {
  flag: AdHocFlag;
  value: string;
  names: string[];
  env: string[];
  cwd: string[];
  headers: string[];
  sandbox: string[];
}

/** The ServerConfigs of the command line's servers, named in order; [] when there are none. */
export function adHocServers(args: ParsedArgs): ServerConfig[] {
  const given: Given[] = [];
  const early: Array<{ name: string; value: string }> = [];
  for (const option of args.sequence) {
    if (option.name === "stdio" || option.name === "http" || option.name === "sse") {
      given.push({ flag: option.name, value: option.value, names: [], env: [], cwd: [], headers: [], sandbox: [] });
      continue;
    }
    if (!["name", "env", "cwd", "header", "sandbox"].includes(option.name)) continue;
    if (given.length === 0) early.push(option);
    else attach(given[given.length - 1]!, option); // length > 0
  }
  if (given[0] === undefined) {
    if (early[0] !== undefined) {
      throw new UsageError(`--${early[0].name} applies to a server given on the command line; add --stdio "CMD ARGS…", --http URL or --sse URL`);
    }
    return [];
  }
  for (const option of early) attach(given[0], option);
  const servers = given.map(serverOf);
  nameUniquely(servers, given);
  return servers;
}

function attach(server: Given, option: { name: string; value: string }): void {
  if (option.name === "name") server.names.push(option.value);
  else if (option.name === "env") server.env.push(option.value);
  else if (option.name === "cwd") server.cwd.push(option.value);
  else if (option.name === "sandbox") server.sandbox.push(option.value);
  else server.headers.push(option.value);
}

/** `--sandbox[=PROFILE]` of the stdio server `label` (inspect's too): `default` (also `--sandbox` alone) or `prefer`. */
export function sandboxOption(profile: string, label: string): SandboxSettings {
  if (profile !== "" && profile !== "default" && profile !== "prefer") {
    throw new UsageError(`--sandbox=${profile} for ${label}: the profile is default or prefer (a config file's sandbox: key takes paths)`);
  }
  const prefer = profile === "prefer";
  return { profile: prefer ? "prefer" : "default", write: [], network: false, env: [], prefer };
}

/** How the server was given, for messages: `--stdio "node x.mjs"`. */
export function adHocLabel(server: ServerConfig): string {
  if (server.transport === "stdio") return `--stdio "${[server.command, ...server.args].join(" ")}"`;
  return `--${server.transport} ${server.url}`;
}

function serverOf(given: Given): ServerConfig {
  const label = `--${given.flag} "${given.value}"`;
  if (given.names.length > 1) throw new UsageError(`${label} has ${given.names.length} --name options; give it one`);
  if (given.cwd.length > 1) throw new UsageError(`${label} has ${given.cwd.length} --cwd options; give it one`);
  const server = newServerConfig("", given.flag);
  if (given.flag === "stdio") {
    if (given.headers.length > 0) throw new UsageError(`--header applies to --http and --sse servers, not to ${label}`);
    const [command, ...commandArgs] = splitCommandLine(given.value);
    if (command === undefined) throw new UsageError("--stdio was given an empty command line; give the command that runs the server");
    server.command = command;
    server.args = commandArgs;
    for (const pair of given.env) {
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new UsageError(`--env needs NAME=VALUE (got "${redactText(pair)}") for ${label}`);
      setOwn(server.env, pair.slice(0, eq), pair.slice(eq + 1));
    }
    if (given.cwd[0] !== undefined) server.cwd = given.cwd[0];
    if (given.sandbox.length > 1) throw new UsageError(`${label} has ${given.sandbox.length} --sandbox options; give it one`);
    if (given.sandbox[0] !== undefined) server.sandbox = sandboxOption(given.sandbox[0], label);
  } else {
    if (given.env.length > 0 || given.cwd.length > 0 || given.sandbox.length > 0) {
      const flag = given.env.length > 0 ? "env" : given.cwd.length > 0 ? "cwd" : "sandbox";
      throw new UsageError(`--${flag} applies to --stdio servers, not to ${label}`);
    }
    let url: URL;
    try {
      url = new URL(given.value);
    } catch {
      throw new UsageError(`--${given.flag} needs an http:// or https:// URL (got "${redactText(given.value)}")`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UsageError(`--${given.flag} needs an http:// or https:// URL (got "${redactText(given.value)}")`);
    }
    server.url = given.value;
    for (const pair of given.headers) {
      const colon = pair.indexOf(":");
      const name = colon === -1 ? "" : pair.slice(0, colon).trim();
      // The value stays out of the message: it is often a token.
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header needs "NAME: VALUE" (got "${redactText(pair)}") for ${label}`);
      setOwn(server.headers, name, pair.slice(colon + 1).trim());
    }
  }
  if (given.names[0] !== undefined) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(given.names[0])) {
      throw new UsageError(`--name "${given.names[0]}" for ${label}: a server name is 1 to 64 letters, digits, _ and -`);
    }
    server.name = given.names[0];
  }
  return server;
}

/** Programs that run the server named by their first other word (`node x.mjs`, `npx -y pkg`, `uvx pkg`). */
const RUNNERS = /^(node|nodejs|deno|bun|bunx|npx|pnpx|uvx|uv|python[0-9.]*|py|tsx|ts-node|pipx|docker|podman)$/;

/** The name a server gets from its command or URL: [A-Za-z0-9_-], never empty. */
function derivedName(server: ServerConfig): string {
  let word: string;
  if (server.transport === "stdio") {
    const program = baseName(server.command ?? "");
    word = program;
    if (RUNNERS.test(program.toLowerCase())) {
      // The first word that is not an option or a sub-command these runners take (`deno run -A x.ts`, `uv run x.py`, `docker run -i image`).
      const target = server.args.find((arg) => !arg.startsWith("-") && !["run", "x", "exec", "dlx", "tool"].includes(arg));
      if (target !== undefined) word = baseName(target.replace(/@[^@/]*$/, "")); // @scope/pkg@1.2 → pkg
    }
  } else {
    word = new URL(server.url ?? "").hostname;
  }
  const name = word.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 48);
  return name === "" ? "server" : name;
}

/** Words that name no server: a package's entry point (`index.js`) and the folders it sits in. */
const GENERIC = /^(index|main|server|cli|mod|dist|build|lib|src|bin|out|__main__)$/i;

/**
 * The last path segment without its extension (`test/echo-server.mjs` → `echo-server`); for an
 * entry point, the package folder above it (`…/server-everything/dist/index.js` → `server-everything`).
 */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== "" && part !== "." && part !== "..");
  const words = parts.map((part, index) => (index === parts.length - 1 && part.lastIndexOf(".") > 0 ? part.slice(0, part.lastIndexOf(".")) : part));
  for (let index = words.length - 1; index >= 0; index--) if (!GENERIC.test(words[index]!)) return words[index]!; // index in range
  return words[words.length - 1] ?? path;
}

/** Derived names made unique (`echo-server`, `echo-server-2`); two equal --name values are an error. */
function nameUniquely(servers: ServerConfig[], given: Given[]): void {
  const taken = new Map<string, string>();
  for (const [index, server] of servers.entries()) {
    if (server.name === "") continue;
    const label = `--${given[index]!.flag} "${given[index]!.value}"`; // same length
    const before = taken.get(server.name);
    if (before !== undefined) throw new UsageError(`--name "${server.name}" is given to both ${before} and ${label}; give each its own name`);
    taken.set(server.name, label);
  }
  for (const [index, server] of servers.entries()) {
    if (server.name !== "") continue;
    const base = derivedName(server);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    server.name = name;
    taken.set(name, `--${given[index]!.flag} "${given[index]!.value}"`);
  }
}

/** The servers run from the command line (withCommandLineServers marks them). */
const COMMAND_LINE = new WeakSet<ServerConfig>();

/** Whether `server` was given on the command line (not by a config file). */
export function isAdHoc(server: ServerConfig): boolean {
  return COMMAND_LINE.has(server);
}

/**
 * The config with the command line's servers after its own. A name both use is a UsageError
 * naming both (give the command line's one another --name).
 */
export function withCommandLineServers(config: McpwireConfig, servers: readonly ServerConfig[]): McpwireConfig {
  for (const server of servers) {
    const clash = config.servers.find((each) => each.name === server.name);
    if (clash !== undefined) {
      const where = clash.origin !== undefined
        ? `imported from ${clash.origin.app} (${clash.origin.file})`
        : config.file === undefined
        ? "in the config"
        : `in ${config.file}`;
      throw new UsageError(
        `server "${server.name}" of ${adHocLabel(server)} clashes with server "${clash.name}" ${where}; give the command line's one another name with --name`,
      );
    }
    COMMAND_LINE.add(server);
  }
  return { ...config, servers: [...config.servers, ...servers] };
}
