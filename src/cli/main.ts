// The `mcpwire` command: picks the verb; usage and config errors become one line and exit 2.

import { ConfigError } from "../host/config/types.ts";
import { UsageError } from "./args.ts";
import { write } from "./output.ts";
import { VERSION } from "./version.ts";

export { VERSION };

const USAGE = `mcpwire ${VERSION} — a Model Context Protocol client

usage: mcpwire <verb> [options]

verbs:
  servers   start the configured servers and show each one's status
  tools     list the tools registered from the configured servers (--signatures: as signatures)
  call      call one tool: mcpwire call <registered-name> key=value… (or '{"key":"value"}')
  resources list the servers' resources and resource templates: mcpwire resources [SERVER]
  read      read a resource: mcpwire read SERVER URI [--out FILE], or a template: read SERVER TEMPLATE key=value…
  prompts   list the servers' prompts: mcpwire prompts [SERVER]
  prompt    get a prompt's messages: mcpwire prompt SERVER NAME key=value…
  complete  a server's completions for a prompt or template argument: complete SERVER --prompt NAME ARG=prefix
  watch     print each update of a resource until Ctrl-C: mcpwire watch SERVER URI
  task      a tool call running as a task: mcpwire task get|wait|cancel <server> <task-id>, task list <server>
  inspect   connect to one server given on the command line and show what it offers
  run       one prompt to a model with the servers' tools: mcpwire run -p "add 2 and 40"
  chat      an interactive conversation with a model over the servers' tools
  auth      OAuth for an HTTP server: mcpwire auth login|logout|status <server>
  import    show the servers other apps configured that --import would add: mcpwire import --list
  skills    list the servers' skills; mcpwire skills show <server> <skill> prints one
  trust     approve this directory's project config (./.mcp.json, ./mcpwire.yaml, ./.cursor/…) after seeing what it runs
  pin       tools held back since their definitions changed: pin status, pin diff [SERVER] [TOOL], pin accept|reject [SERVER] [TOOL]
  trace     read a file --trace-file wrote: trace show FILE [--explain], trace diff A B, trace html FILE -o OUT.html
  replay    serve a recorded server (a --trace-file trace) again, on stdio or --http PORT: mcpwire replay session.jsonl
  add       add a server to the config: mcpwire add NAME -- COMMAND [ARG…], add NAME --http URL
  remove    remove a server from the config: mcpwire remove NAME
  enable    enable a server the config disables: mcpwire enable NAME
  disable   disable a server in the config (enabled: false): mcpwire disable NAME
  export    print the servers in another app's format, or --write them into its file: mcpwire export --to cursor
  config    the config's JSON Schema: mcpwire config schema; mcpwire help config: every key
  completion print a shell's completion script: mcpwire completion bash|zsh|fish
  help      show this text, or a verb's: mcpwire help call
  version   print the version

Without --config the verbs servers, tools, call, resources, read, prompts, prompt, complete, watch, run, chat, skills and export read ./mcpwire.yaml, ./.mcp.json,
~/.mcp.json, then $XDG_CONFIG_HOME/mcpwire/config.yaml (default ~/.config/mcpwire/config.yaml).
--import APP[,APP] adds the servers of claude-desktop, claude-code, cursor, vscode, windsurf,
gemini-cli, codex or mcphost (or all).
A config in the working directory (and an app's project file there) is used only once you
approve it: asked on a terminal, else refused; mcpwire trust approves it, --trust-project (or
MCPWIRE_TRUST_PROJECT=1) trusts it for one run.
--debug adds stack traces to errors.`;

/** A verb: the function that runs it and its usage text. */
type Verb = { run: (args: string[]) => Promise<number>; usage: string };

// Each verb's module is loaded only when that verb runs (or its help is asked for): `mcpwire
// version` does not load the client, the manager, yaml or a provider.
const VERBS: Record<string, () => Promise<Verb>> = {
  servers: () => import("./verbs/servers-verb.ts").then((verb) => ({ run: verb.servers, usage: verb.SERVERS_USAGE })),
  tools: () => import("./verbs/tools-verb.ts").then((verb) => ({ run: verb.tools, usage: verb.TOOLS_USAGE })),
  call: () => import("./verbs/call-verb.ts").then((verb) => ({ run: verb.call, usage: verb.CALL_USAGE })),
  resources: () => import("./verbs/resources-verb.ts").then((verb) => ({ run: verb.resources, usage: verb.RESOURCES_USAGE })),
  read: () => import("./verbs/resources-verb.ts").then((verb) => ({ run: verb.read, usage: verb.READ_USAGE })),
  prompts: () => import("./verbs/prompts-verb.ts").then((verb) => ({ run: verb.prompts, usage: verb.PROMPTS_USAGE })),
  prompt: () => import("./verbs/prompts-verb.ts").then((verb) => ({ run: verb.prompt, usage: verb.PROMPT_USAGE })),
  complete: () => import("./verbs/prompts-verb.ts").then((verb) => ({ run: verb.complete, usage: verb.COMPLETE_USAGE })),
  watch: () => import("./verbs/watch-verb.ts").then((verb) => ({ run: verb.watch, usage: verb.WATCH_USAGE })),
  task: () => import("./verbs/task-verb.ts").then((verb) => ({ run: verb.task, usage: verb.TASK_USAGE })),
  inspect: () => import("./verbs/inspect-verb.ts").then((verb) => ({ run: verb.inspect, usage: verb.INSPECT_USAGE })),
  run: () => import("./verbs/run-verb.ts").then((verb) => ({ run: verb.run, usage: verb.RUN_USAGE })),
  chat: () => import("./verbs/chat-verb.ts").then((verb) => ({ run: verb.chat, usage: verb.CHAT_USAGE })),
  auth: () => import("./verbs/auth-verb.ts").then((verb) => ({ run: verb.auth, usage: verb.AUTH_USAGE })),
  import: () => import("./verbs/import-verb.ts").then((verb) => ({ run: verb.importVerb, usage: verb.IMPORT_USAGE })),
  skills: () => import("./verbs/skills-verb.ts").then((verb) => ({ run: verb.skills, usage: verb.SKILLS_USAGE })),
  trust: () => import("./verbs/trust-verb.ts").then((verb) => ({ run: verb.trust, usage: verb.TRUST_USAGE })),
  pin: () => import("./verbs/pin-verb.ts").then((verb) => ({ run: verb.pin, usage: verb.PIN_USAGE })),
  trace: () => import("./verbs/trace-verb.ts").then((verb) => ({ run: verb.trace, usage: verb.TRACE_VERB_USAGE })),
  replay: () => import("./verbs/replay-verb.ts").then((verb) => ({ run: verb.replay, usage: verb.REPLAY_USAGE })),
  add: () => import("./verbs/config-edit-verb.ts").then((verb) => ({ run: verb.add, usage: verb.ADD_USAGE })),
  remove: () => import("./verbs/config-edit-verb.ts").then((verb) => ({ run: verb.remove, usage: verb.REMOVE_USAGE })),
  enable: () => import("./verbs/config-edit-verb.ts").then((verb) => ({ run: verb.enable, usage: verb.ENABLE_USAGE })),
  disable: () => import("./verbs/config-edit-verb.ts").then((verb) => ({ run: verb.disable, usage: verb.DISABLE_USAGE })),
  export: () => import("./verbs/export-verb.ts").then((verb) => ({ run: verb.exportVerb, usage: verb.EXPORT_USAGE })),
  config: () => import("./verbs/config-verb.ts").then((verb) => ({ run: verb.config, usage: verb.configHelp() })),
  completion: () =>
    import("./verbs/completion-verb.ts").then((verb) => ({ run: (args) => verb.completion(args, Object.keys(VERBS)), usage: verb.COMPLETION_USAGE })),
};

/** The loader of a verb's module; undefined for anything that is not a verb (`constructor` included). */
function verbLoader(name: string | undefined): (() => Promise<Verb>) | undefined {
  return name !== undefined && Object.hasOwn(VERBS, name) ? VERBS[name] : undefined;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  const debug = rest.includes("--debug");
  try {
    const load = verbLoader(verb);
    if (load !== undefined) return await (await load()).run(rest);
    switch (verb) {
      case "version":
      case "--version":
        await write("stdout", `mcpwire ${VERSION}\n`);
        return 0;
      case "help":
      case "--help":
      case "-h":
      case undefined:
        await write(verb === undefined ? "stderr" : "stdout", ((await verbLoader(rest[0])?.())?.usage ?? USAGE) + "\n");
        return verb === undefined ? 2 : 0;
      default:
        throw new UsageError(
          `unknown verb "${verb}"; verbs: ${Object.keys(VERBS).join(", ")}, help, version`,
        );
    }
  } catch (error) {
    // Through the verb's redactor: an error may quote a server, and a server may quote a token.
    if (error instanceof UsageError) {
      await write("stderr", `mcpwire: ${error.message}\nrun "mcpwire help${verbLoader(verb) ? ` ${verb}` : ""}" for usage\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      const { describeConfigError } = await import("./session/host-session.ts");
      await write("stderr", `mcpwire: ${describeConfigError(error)}\n`);
      // A project config refused: what it would have run and read, so the user can judge it.
      if (error.code === "untrusted-project" && error.project !== undefined) {
        const { projectSummaryText } = await import("./interactive/project-trust-prompt.ts");
        await write("stderr", `${projectSummaryText(error.project)}\n`);
      }
      return 2;
    }
    // Anything else is a bug or an environment failure: one line, the stack only with --debug.
    const text = error instanceof Error ? (debug && error.stack ? error.stack : error.message) : String(error);
    await write("stderr", `mcpwire: ${text}\n`);
    return 3;
  }
}
