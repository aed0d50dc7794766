// What each verb's command line is made of, for shell completion (`mcpwire completion`): the
// option table its own parseArgs reads (so completion offers what the verb takes, no copied
// list), and what its positional arguments name. A verb's module is loaded only when asked for.

import { ALL_APPS, IMPORT_APPS } from "../host/config/import-sources.ts";
import type { OptionSpec } from "./args.ts";
import { SHELLS } from "./completion-scripts.ts";

/** What a positional argument names: a configured server, a registered tool, a file, a verb, or one of some words (or a server). */
export type ArgumentKind = "server" | "tool" | "file" | "verb" | { words: readonly string[]; orServer?: boolean };

/** A verb's command line: its options, and its positional arguments in order (none is completed past them). */
export interface VerbSyntax {
  options: Readonly<Record<string, OptionSpec>>;
  positionals: readonly ArgumentKind[];
}

const syntax = (options: Readonly<Record<string, OptionSpec>>, positionals: readonly ArgumentKind[] = []): VerbSyntax => ({ options, positionals });

/**
 * Every verb of main.ts (and help, version), by name: its syntax, loaded on demand. A verb added
 * to main.ts needs its line here (test/cli/completion.test.ts checks that both list the same verbs).
 */
export const VERB_SYNTAX: Record<string, () => Promise<VerbSyntax>> = {
  servers: () => import("./verbs/servers-verb.ts").then((verb) => syntax(verb.SERVERS_OPTIONS)),
  tools: () => import("./verbs/tools-verb.ts").then((verb) => syntax(verb.TOOLS_OPTIONS, ["server"])),
  call: () => import("./verbs/call-verb.ts").then((verb) => syntax(verb.CALL_OPTIONS, ["tool"])),
  resources: () => import("./verbs/resources-verb.ts").then((verb) => syntax(verb.RESOURCES_OPTIONS, ["server"])),
  read: () => import("./verbs/resources-verb.ts").then((verb) => syntax(verb.READ_OPTIONS, ["server"])),
  prompts: () => import("./verbs/prompts-verb.ts").then((verb) => syntax(verb.PROMPTS_OPTIONS, ["server"])),
  prompt: () => import("./verbs/prompts-verb.ts").then((verb) => syntax(verb.PROMPTS_OPTIONS, ["server"])),
  complete: () => import("./verbs/prompts-verb.ts").then((verb) => syntax(verb.COMPLETE_OPTIONS, ["server"])),
  watch: () => import("./verbs/watch-verb.ts").then((verb) => syntax(verb.WATCH_OPTIONS, ["server"])),
  task: () => import("./verbs/task-verb.ts").then((verb) => syntax(verb.TASK_OPTIONS, [{ words: verb.ACTIONS }, "server"])),
  inspect: () => import("./verbs/inspect-verb.ts").then((verb) => syntax(verb.INSPECT_OPTIONS)),
  run: () => import("./verbs/run-verb.ts").then((verb) => syntax(verb.RUN_OPTIONS)),
  chat: () => import("./verbs/chat-verb.ts").then((verb) => syntax(verb.CHAT_OPTIONS)),
  auth: () => import("./verbs/auth-verb.ts").then((verb) => syntax(verb.AUTH_OPTIONS, [{ words: ["login", "logout", "status"] }, "server"])),
  import: () => import("./verbs/import-verb.ts").then((verb) => syntax(verb.IMPORT_VERB_OPTIONS, [{ words: [...IMPORT_APPS, ALL_APPS] }])),
  skills: () => import("./verbs/skills-verb.ts").then((verb) => syntax(verb.SKILLS_OPTIONS, [{ words: ["show"], orServer: true }, "server"])),
  export: () => import("./verbs/export-verb.ts").then((verb) => syntax(verb.EXPORT_OPTIONS)),
  pin: () => import("./verbs/pin-verb.ts").then((verb) => syntax(verb.PIN_OPTIONS, [{ words: verb.PIN_ACTIONS }, "server"])),
  trust: () => import("./verbs/trust-verb.ts").then((verb) => syntax(verb.TRUST_OPTIONS)),
  trace: () =>
    Promise.all([import("./verbs/trace-verb.ts"), import("./trace/trace-html.ts")]).then(([verb, html]) =>
      syntax({ ...verb.TRACE_SHOW_OPTIONS, ...verb.TRACE_DIFF_OPTIONS, ...html.TRACE_HTML_OPTIONS }, [{ words: ["show", "diff", "html"] }, "file", "file"])
    ),
  replay: () => import("./verbs/replay-verb.ts").then((verb) => syntax(verb.REPLAY_OPTIONS, ["file"])),
  add: () => import("./verbs/config-edit-verb.ts").then((verb) => syntax(verb.ADD_OPTIONS)),
  remove: () => import("./verbs/config-edit-verb.ts").then((verb) => syntax(verb.FILE_OPTIONS, ["server"])),
  enable: () => import("./verbs/config-edit-verb.ts").then((verb) => syntax(verb.FILE_OPTIONS, ["server"])),
  disable: () => import("./verbs/config-edit-verb.ts").then((verb) => syntax(verb.FILE_OPTIONS, ["server"])),
  config: () => import("./verbs/config-verb.ts").then((verb) => syntax(verb.CONFIG_OPTIONS, [{ words: ["schema"] }])),
  // Its other options (--list, --words) are for the scripts it prints, not for people.
  completion: () => Promise.resolve(syntax({ help: { kind: "flag" } }, [{ words: SHELLS }])),
  help: () => Promise.resolve(syntax({}, ["verb"])),
  version: () => Promise.resolve(syntax({})),
};

/** The syntax of `verb`; undefined for anything that is not a verb (`constructor` included). */
export function verbSyntax(verb: string): Promise<VerbSyntax> | undefined {
  return Object.hasOwn(VERB_SYNTAX, verb) ? VERB_SYNTAX[verb]?.() : undefined;
}
