// The `mcpwire` command: picks the verb; usage and config errors become one line and exit 2.

import { ConfigError } from "../host/config/types.ts";
import { runtime } from "../runtime/mod.ts";
import { UsageError } from "./args.ts";
import { auth, AUTH_USAGE } from "./auth.ts";
import { call, CALL_USAGE } from "./call.ts";
import { chat, CHAT_USAGE } from "./chat.ts";
import { CommandLineError } from "./command-line.ts";
import { describeConfigError } from "./host-session.ts";
import { inspect, INSPECT_USAGE } from "./inspect.ts";
import { write } from "./output.ts";
import { run, RUN_USAGE } from "./run-verb.ts";
import { servers, SERVERS_USAGE } from "./servers.ts";
import { tools, TOOLS_USAGE } from "./tools.ts";
import { VERSION } from "./version.ts";

export { VERSION };

const USAGE = `mcpwire ${VERSION} — a Model Context Protocol client

usage: mcpwire <verb> [options]

verbs:
  servers   start the configured servers and show each one's status
  tools     list the tools registered from the configured servers
  call      call one tool: mcpwire call <registered-name> '{"arg":"value"}'
  inspect   connect to one server given on the command line and show what it offers
  run       one prompt to a model with the servers' tools: mcpwire run -p "add 2 and 40"
  chat      an interactive conversation with a model over the servers' tools
  auth      OAuth for an HTTP server: mcpwire auth login|logout|status <server>
  help      show this text, or a verb's: mcpwire help call
  version   print the version

Without --config the verbs servers, tools, call, run and chat read ./mcpwire.yaml, ./.mcp.json,
then $XDG_CONFIG_HOME/mcpwire/config.yaml (default ~/.config/mcpwire/config.yaml).
--debug adds stack traces to errors.`;

const VERB_USAGE: Record<string, string> = {
  servers: SERVERS_USAGE,
  tools: TOOLS_USAGE,
  call: CALL_USAGE,
  inspect: INSPECT_USAGE,
  run: RUN_USAGE,
  chat: CHAT_USAGE,
  auth: AUTH_USAGE,
};

export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  const debug = rest.includes("--debug");
  try {
    switch (verb) {
      case "servers":
        return await servers(rest);
      case "tools":
        return await tools(rest);
      case "call":
        return await call(rest);
      case "inspect":
        return await inspect(rest);
      case "run":
        return await run(rest);
      case "auth":
        return await auth(rest);
      case "chat":
        return await chat(rest);
      case "version":
      case "--version":
        await write("stdout", `mcpwire ${VERSION}\n`);
        return 0;
      case "help":
      case "--help":
      case "-h":
      case undefined:
        await write(verb === undefined ? "stderr" : "stdout", (VERB_USAGE[rest[0]] ?? USAGE) + "\n");
        return verb === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown verb "${verb}"; verbs: servers, tools, call, inspect, run, chat, auth, help, version`);
    }
  } catch (error) {
    // Through the verb's redactor: an error may quote a server, and a server may quote a token.
    if (error instanceof UsageError || error instanceof CommandLineError) {
      await write("stderr", `mcpwire: ${error.message}\nrun "mcpwire help${verb && VERB_USAGE[verb] ? ` ${verb}` : ""}" for usage\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      await write("stderr", `mcpwire: ${describeConfigError(error)}\n`);
      return 2;
    }
    // Anything else is a bug or an environment failure: one line, the stack only with --debug.
    const text = error instanceof Error ? (debug && error.stack ? error.stack : error.message) : String(error);
    await write("stderr", `mcpwire: ${text}\n`);
    return 3;
  }
}
