// The one table of mcpwire's verbs. Each row is a verb's line in `mcpwire help` and the loader
// of its module in verbs/, which gives the function that runs it, its usage text and its
// command line (verb.ts). main.ts dispatches through it, usageText() writes the help from it,
// and `mcpwire completion` offers its verbs and each verb's options and arguments from it.
// A module is loaded only when its verb runs (or its help or completion is asked for): `mcpwire
// version` loads no client, manager, yaml or provider. test/architecture.test.ts checks that
// each row loads a module of verbs/ and each module of verbs/ is loaded by a row.

import { write } from "./output.ts";
import type { VerbRow, VerbTable } from "./verb.ts";
import { verbRow } from "./verb.ts";
import { VERSION } from "./version.ts";

const row = (summary: string, load: VerbRow["load"]): VerbRow => ({ summary, load });

export const VERBS: VerbTable = {
  servers: row(
    "start the configured servers and show each one's status",
    () => import("./verbs/servers-verb.ts").then((verb) => ({ run: verb.servers, usage: verb.SERVERS_USAGE, options: verb.SERVERS_OPTIONS, positionals: [] })),
  ),
  tools: row(
    "list the tools registered from the configured servers (--signatures: as signatures)",
    () => import("./verbs/tools-verb.ts").then((verb) => ({ run: verb.tools, usage: verb.TOOLS_USAGE, options: verb.TOOLS_OPTIONS, positionals: ["server"] })),
  ),
  call: row(
    'call one tool: mcpwire call <registered-name> key=value… (or \'{"key":"value"}\')',
    () => import("./verbs/call-verb.ts").then((verb) => ({ run: verb.call, usage: verb.CALL_USAGE, options: verb.CALL_OPTIONS, positionals: ["tool"] })),
  ),
  resources: row("list the servers' resources and resource templates: mcpwire resources [SERVER]", () =>
    import("./verbs/resources-verb.ts").then((verb) => ({
      run: verb.resources,
      usage: verb.RESOURCES_USAGE,
      options: verb.RESOURCES_OPTIONS,
      positionals: ["server"],
    }))),
  read: row(
    "read a resource: mcpwire read SERVER URI [--out FILE], or a template: read SERVER TEMPLATE key=value…",
    () => import("./verbs/resources-verb.ts").then((verb) => ({ run: verb.read, usage: verb.READ_USAGE, options: verb.READ_OPTIONS, positionals: ["server"] })),
  ),
  prompts: row(
    "list the servers' prompts: mcpwire prompts [SERVER]",
    () =>
      import("./verbs/prompts-verb.ts").then((verb) => ({
        run: verb.prompts,
        usage: verb.PROMPTS_USAGE,
        options: verb.PROMPTS_OPTIONS,
        positionals: ["server"],
      })),
  ),
  prompt: row(
    "get a prompt's messages: mcpwire prompt SERVER NAME key=value…",
    () =>
      import("./verbs/prompts-verb.ts").then((verb) => ({
        run: verb.prompt,
        usage: verb.PROMPT_USAGE,
        options: verb.PROMPTS_OPTIONS,
        positionals: ["server"],
      })),
  ),
  complete: row(
    "a server's completions for a prompt or template argument: complete SERVER --prompt NAME ARG=prefix",
    () =>
      import("./verbs/prompts-verb.ts").then((verb) => ({
        run: verb.complete,
        usage: verb.COMPLETE_USAGE,
        options: verb.COMPLETE_OPTIONS,
        positionals: ["server"],
      })),
  ),
  watch: row(
    "print each update of a resource until Ctrl-C: mcpwire watch SERVER URI",
    () => import("./verbs/watch-verb.ts").then((verb) => ({ run: verb.watch, usage: verb.WATCH_USAGE, options: verb.WATCH_OPTIONS, positionals: ["server"] })),
  ),
  task: row(
    "a tool call running as a task: mcpwire task get|wait|cancel <server> <task-id>, task list <server>",
    () =>
      import("./verbs/task-verb.ts").then((verb) => ({
        run: verb.task,
        usage: verb.TASK_USAGE,
        options: verb.TASK_OPTIONS,
        positionals: [{ words: verb.ACTIONS }, "server"],
      })),
  ),
  inspect: row(
    "connect to one server given on the command line and show what it offers",
    () => import("./verbs/inspect-verb.ts").then((verb) => ({ run: verb.inspect, usage: verb.INSPECT_USAGE, options: verb.INSPECT_OPTIONS, positionals: [] })),
  ),
  serve: row(
    "serve the configured servers as one MCP server, both eras: mcpwire serve [SERVER…] [--listen PORT]",
    () => import("./verbs/serve-verb.ts").then((verb) => ({ run: verb.serve, usage: verb.SERVE_USAGE, options: verb.SERVE_OPTIONS, positionals: ["server"] })),
  ),
  check: row(
    "judge servers against the spec: mcpwire check [SERVER…] (each finding with its level and spec section)",
    () => import("./verbs/check-verb.ts").then((verb) => ({ run: verb.check, usage: verb.CHECK_USAGE, options: verb.CHECK_OPTIONS, positionals: ["server"] })),
  ),
  run: row(
    'one prompt to a model with the servers\' tools: mcpwire run -p "add 2 and 40"',
    () => import("./verbs/run-verb.ts").then((verb) => ({ run: verb.run, usage: verb.RUN_USAGE, options: verb.RUN_OPTIONS, positionals: [] })),
  ),
  chat: row(
    "an interactive conversation with a model over the servers' tools",
    () => import("./verbs/chat-verb.ts").then((verb) => ({ run: verb.chat, usage: verb.CHAT_USAGE, options: verb.CHAT_OPTIONS, positionals: [] })),
  ),
  auth: row("OAuth for an HTTP server: mcpwire auth login|logout|status <server>", () =>
    import("./verbs/auth-verb.ts").then((verb) => ({
      run: verb.auth,
      usage: verb.AUTH_USAGE,
      options: verb.AUTH_OPTIONS,
      positionals: [{ words: ["login", "logout", "status"] }, "server"],
    }))),
  import: row("show the servers other apps configured that --import would add: mcpwire import --list", () =>
    import("./verbs/import-verb.ts").then((verb) => ({
      run: verb.importVerb,
      usage: verb.IMPORT_USAGE,
      options: verb.IMPORT_VERB_OPTIONS,
      positionals: [{ words: verb.IMPORT_APP_WORDS }],
    }))),
  skills: row("list the servers' skills; mcpwire skills show <server> <skill> prints one", () =>
    import("./verbs/skills-verb.ts").then((verb) => ({
      run: verb.skills,
      usage: verb.SKILLS_USAGE,
      options: verb.SKILLS_OPTIONS,
      positionals: [{ words: ["show"], orServer: true }, "server"],
    }))),
  trust: row(
    "approve this directory's project config (./.mcp.json, ./mcpwire.yaml, ./.cursor/…) after seeing what it runs",
    () => import("./verbs/trust-verb.ts").then((verb) => ({ run: verb.trust, usage: verb.TRUST_USAGE, options: verb.TRUST_OPTIONS, positionals: [] })),
  ),
  pin: row(
    "tools held back since their definitions changed: pin status, pin diff [SERVER] [TOOL], pin accept|reject [SERVER] [TOOL]",
    () =>
      import("./verbs/pin-verb.ts").then((verb) => ({
        run: verb.pin,
        usage: verb.PIN_USAGE,
        options: verb.PIN_OPTIONS,
        positionals: [{ words: verb.PIN_ACTIONS }, "server"],
      })),
  ),
  trace: row(
    "read a file --trace-file wrote: trace show FILE [--explain], trace diff A B, trace html FILE -o OUT.html",
    () =>
      import("./verbs/trace-verb.ts").then((verb) => ({
        run: verb.trace,
        usage: verb.TRACE_VERB_USAGE,
        options: verb.TRACE_OPTIONS,
        positionals: [{ words: ["show", "diff", "html"] }, "file", "file"],
      })),
  ),
  replay: row(
    "serve a recorded server (a --trace-file trace) again, on stdio or --http PORT: mcpwire replay session.jsonl",
    () =>
      import("./verbs/replay-verb.ts").then((verb) => ({ run: verb.replay, usage: verb.REPLAY_USAGE, options: verb.REPLAY_OPTIONS, positionals: ["file"] })),
  ),
  add: row(
    "add a server to the config: mcpwire add NAME -- COMMAND [ARG…], add NAME --http URL",
    () => import("./verbs/config-edit-verb.ts").then((verb) => ({ run: verb.add, usage: verb.ADD_USAGE, options: verb.ADD_OPTIONS, positionals: [] })),
  ),
  remove: row(
    "remove a server from the config: mcpwire remove NAME",
    () =>
      import("./verbs/config-edit-verb.ts").then((verb) => ({
        run: verb.remove,
        usage: verb.REMOVE_USAGE,
        options: verb.FILE_OPTIONS,
        positionals: ["server"],
      })),
  ),
  enable: row(
    "enable a server the config disables: mcpwire enable NAME",
    () =>
      import("./verbs/config-edit-verb.ts").then((verb) => ({
        run: verb.enable,
        usage: verb.ENABLE_USAGE,
        options: verb.FILE_OPTIONS,
        positionals: ["server"],
      })),
  ),
  disable: row(
    "disable a server in the config (enabled: false): mcpwire disable NAME",
    () =>
      import("./verbs/config-edit-verb.ts").then((verb) => ({
        run: verb.disable,
        usage: verb.DISABLE_USAGE,
        options: verb.FILE_OPTIONS,
        positionals: ["server"],
      })),
  ),
  export: row(
    "print the servers in another app's format, or --write them into its file: mcpwire export --to cursor",
    () => import("./verbs/export-verb.ts").then((verb) => ({ run: verb.exportVerb, usage: verb.EXPORT_USAGE, options: verb.EXPORT_OPTIONS, positionals: [] })),
  ),
  config: row("the config's JSON Schema: mcpwire config schema; mcpwire help config: every key", () =>
    import("./verbs/config-verb.ts").then((verb) => ({
      run: verb.config,
      usage: verb.configHelp(),
      options: verb.CONFIG_OPTIONS,
      positionals: [{ words: ["schema"] }],
    }))),
  // The completion verb is handed this table: it offers the verbs and their command lines.
  completion: row(
    "print a shell's completion script: mcpwire completion bash|zsh|fish",
    () =>
      import("./verbs/completion-verb.ts").then((verb) => ({
        run: (args) => verb.completion(args, VERBS),
        usage: verb.COMPLETION_USAGE,
        ...verb.COMPLETION_SYNTAX,
      })),
  ),
  // The two verbs with no module of verbs/ (main.ts also takes --help, -h and --version for them).
  help: row("show this text, or a verb's: mcpwire help call", () =>
    Promise.resolve({
      run: async (args) => {
        await write("stdout", ((await verbRow(VERBS, args[0])?.load())?.usage ?? usageText()) + "\n");
        return 0;
      },
      usage: usageText(),
      options: {},
      positionals: ["verb"],
    })),
  version: row("print the version", () =>
    Promise.resolve({
      run: async () => {
        await write("stdout", `mcpwire ${VERSION}\n`);
        return 0;
      },
      usage: usageText(),
      options: {},
      positionals: [],
    })),
};

/** What `mcpwire help` prints: a line per verb of the table, between a head and the notes that hold for all. */
export function usageText(): string {
  const lines = Object.entries(VERBS).map(([name, verb]) => `  ${name.padEnd(9)} ${verb.summary}`);
  return `mcpwire ${VERSION} — a Model Context Protocol client

usage: mcpwire <verb> [options]

verbs:
${lines.join("\n")}

Without --config the verbs servers, tools, call, resources, read, prompts, prompt, complete, watch, run, chat, skills and export read ./mcpwire.yaml, ./.mcp.json,
~/.mcp.json, then $XDG_CONFIG_HOME/mcpwire/config.yaml (default ~/.config/mcpwire/config.yaml).
--import APP[,APP] adds the servers of claude-desktop, claude-code, cursor, vscode, windsurf,
gemini-cli, codex or mcphost (or all).
A config in the working directory (and an app's project file there) is used only once you
approve it: asked on a terminal, else refused; mcpwire trust approves it, --trust-project (or
MCPWIRE_TRUST_PROJECT=1) trusts it for one run.
--debug adds stack traces to errors.`;
}
