// `mcpwire completion bash|zsh|fish`: prints a shell's completion script (completion-scripts.ts).
// The script asks `mcpwire completion --words -- WORD…` what to offer for the last word: verbs,
// a verb's options (from its own option table: the verb table's row), an option's values, server
// names from the config, tool names from the tool-list cache (host/store/tool-list-cache.ts), or
// files. Completion never prompts and never starts a server: a project config is read only if
// approved before (`mcpwire trust`), and names that hold a secret or odd characters are left out.

import { withTimeout } from "../../common/timing.ts";
import { loadConfig } from "../../host/config/load.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import { redactorFor } from "../../host/secrets.ts";
import { readCachedTools } from "../../host/store/tool-list-cache.ts";
import { runtime } from "../../runtime/mod.ts";
import { type OptionSpec, parseArgs, UsageError } from "../args.ts";
import { completionScript, type Shell, SHELLS } from "../completion-scripts.ts";
import { redacted, useRedactor, write } from "../output.ts";
import { type ArgumentKind, verbRow, type VerbSyntax, type VerbTable } from "../verb.ts";

export const COMPLETION_USAGE = `usage: mcpwire completion bash|zsh|fish

Prints a script that completes mcpwire's verbs, options, option values, server names (from
the config, as the verbs find it) and tool names (mcp_<server>_<tool>, from the tools each
server listed the last time mcpwire started it) in that shell. Completing never starts a
server and never asks anything: a project config (./mcpwire.yaml, ./.mcp.json) is used only
once approved (mcpwire trust).

install:
  bash  mcpwire completion bash > ~/.local/share/bash-completion/completions/mcpwire
        (read by the bash-completion package; without it, add to ~/.bashrc:
        source <(mcpwire completion bash)); bash 4 or later
  zsh   add to ~/.zshrc, after compinit: source <(mcpwire completion zsh)
        (or save it as _mcpwire in a directory of $fpath: mcpwire completion zsh > DIR/_mcpwire)
  fish  mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish

Open a new shell (or source the file) for it to take effect. The script runs the mcpwire it
completes, so it keeps up with the installed version.`;

/** The options of `mcpwire completion`: --list and --words (with --config, --import) are the scripts'. */
const OPTIONS = {
  help: { kind: "flag" },
  list: { kind: "string" },
  words: { kind: "flag" },
  config: { kind: "string" },
  import: { kind: "list" },
} as const satisfies Record<string, OptionSpec>;

/** What completion offers for `mcpwire completion` itself: --help and a shell; --list and --words are the scripts'. */
export const COMPLETION_SYNTAX: VerbSyntax = { options: { help: { kind: "flag" } }, positionals: [{ words: SHELLS }] };

/** The global options `mcpwire` takes before a verb. */
const GLOBAL_OPTIONS = ["--help", "--version"];

/** How long completion waits for the config or the tool-list cache (a slow file system): then it offers none. */
const READ_MS = 3_000;
/** The most names offered at once, and the longest one. */
const MAX_CANDIDATES = 2000;
const MAX_NAME = 256;
/** What a name offered may hold: letters, digits and the punctuation names and paths use — nothing a shell would read as syntax. */
const SAFE_NAME = /^[\p{L}\p{N}_.,:@%+=/-]+$/u;

/** What the shell offers for a word: these words, or its own file or directory names. */
export interface CompletionAnswer {
  kind: "words" | "files" | "directories";
  words: string[];
}

/** Where the config comes from, as the command line being completed says (--config, --import). */
interface ConfigChoice {
  path?: string;
  imports?: string[];
}

/**
 * `mcpwire completion SHELL` prints the script; `--list verbs|options VERB|servers|tools` one name
 * a line; `--words -- WORD…` the answer for the last word (first line: words, files or
 * directories). `verbs` is the verb table (verb-table.ts), which this module does not import.
 */
export async function completion(argv: readonly string[], verbs: VerbTable): Promise<number> {
  const args = parseArgs(argv, OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", COMPLETION_USAGE + "\n");
    return 0;
  }
  if (args.flags.has("words")) {
    const answer = await answerFor(args.positional, verbs);
    await write("stdout", [answer.kind, ...answer.words].join("\n") + "\n");
    return 0;
  }
  const list = args.values.get("list");
  if (list !== undefined) {
    const source = { path: args.values.get("config"), imports: importNames(args.lists.get("import") ?? []) };
    const names = await listed(list, args.positional, verbs, source);
    await write("stdout", names.map((name) => `${name}\n`).join(""));
    return 0;
  }
  const [shell, extra] = args.positional;
  if (shell === undefined) throw new UsageError(`completion needs a shell: mcpwire completion ${SHELLS.join("|")}`);
  if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`completion: no script for "${shell}"; shells: ${SHELLS.join(", ")}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (completion takes one shell)`);
  await write("stdout", completionScript(shell as Shell));
  return 0;
}

/** `--list KIND`: the verbs, a verb's options, the configured servers, or the cached tools. */
async function listed(kind: string, positional: readonly string[], verbs: VerbTable, source: ConfigChoice): Promise<string[]> {
  switch (kind) {
    case "verbs":
      return Object.keys(verbs);
    case "options": {
      const syntax = await verbRow(verbs, positional[0])?.load();
      if (syntax === undefined) throw new UsageError(`completion --list options needs a verb; verbs: ${Object.keys(verbs).join(", ")}`);
      return optionNames(syntax.options);
    }
    case "servers":
      return await serverNames(source);
    case "tools":
      return await toolNames(source);
    default:
      throw new UsageError(`completion --list: "${kind}" is not one of verbs, options, servers, tools`);
  }
}

/**
 * What to offer for the last of `words` (the words after `mcpwire`, the last being the one
 * completed, maybe empty): see the file's comment.
 */
export async function answerFor(words: readonly string[], verbs: VerbTable): Promise<CompletionAnswer> {
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1);
  const [verb, ...rest] = before;
  if (verb === undefined) return offer(current, current.startsWith("-") ? GLOBAL_OPTIONS : Object.keys(verbs));
  const syntax: VerbSyntax | undefined = await verbRow(verbs, verb)?.load();
  if (syntax === undefined) return offer(current, []);
  const source: ConfigChoice = {};
  const imports: string[] = [];
  let position = 0;
  let pending: OptionSpec | undefined; // an option before the current word that takes it as its value
  let dashes = false;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!; // i < rest.length
    if (dashes || word === "-" || !word.startsWith("-")) {
      position++;
      continue;
    }
    if (word === "--") {
      dashes = true;
      continue;
    }
    const eq = word.indexOf("=");
    const name = word.slice(2, eq === -1 ? undefined : eq);
    const spec = word.startsWith("--") ? syntax.options[name] : undefined;
    if (spec === undefined || (spec.kind !== "string" && spec.kind !== "list")) continue;
    let value: string | undefined;
    if (eq !== -1) value = word.slice(eq + 1);
    else if (i + 1 < rest.length) value = rest[++i];
    else pending = spec;
    if (value === undefined) continue;
    if (name === "config") source.path = withHome(value);
    if (name === "import") imports.push(value);
  }
  if (imports.length > 0) source.imports = importNames(imports);
  if (pending !== undefined) return valuesOf(pending, current, "");
  if (!dashes && current.startsWith("-")) {
    const eq = current.indexOf("=");
    if (eq === -1) return offer(current, optionNames(syntax.options));
    const spec = current.startsWith("--") ? syntax.options[current.slice(2, eq)] : undefined;
    return spec === undefined || spec.kind === "flag" ? offer(current, []) : valuesOf(spec, current.slice(eq + 1), current.slice(0, eq + 1));
  }
  if (dashes) return offer(current, []);
  const kind = syntax.positionals[position];
  return kind === undefined ? offer(current, []) : await argumentsOf(kind, current, verbs, source);
}

/** The values of an option: files, directories, or its words (after `prefix`, such as `--log-level=`). */
function valuesOf(spec: OptionSpec, value: string, prefix: string): CompletionAnswer {
  const values = spec.values;
  if (values === "file") return { kind: "files", words: [] };
  if (values === "directory") return { kind: "directories", words: [] };
  // A list option takes several words joined by commas (--import cursor,vscode): the last one is completed.
  const comma = spec.kind === "list" ? value.lastIndexOf(",") + 1 : 0;
  const before = prefix + value.slice(0, comma);
  return offer(before + value.slice(comma), (values ?? []).map((word) => before + word));
}

async function argumentsOf(kind: ArgumentKind, current: string, verbs: VerbTable, source: ConfigChoice): Promise<CompletionAnswer> {
  if (kind === "file") return { kind: "files", words: [] };
  if (kind === "verb") return offer(current, Object.keys(verbs));
  if (kind === "server") return offer(current, await serverNames(source));
  if (kind === "tool") return offer(current, await toolNames(source));
  return offer(current, [...kind.words, ...(kind.orServer === true ? await serverNames(source) : [])]);
}

/** The words that start with `current`, each once, safe to hand a shell, at most MAX_CANDIDATES. */
function offer(current: string, words: readonly string[]): CompletionAnswer {
  const seen = new Set<string>();
  for (const word of words) {
    if (seen.size >= MAX_CANDIDATES) break;
    if (word.startsWith(current) && word.length <= MAX_NAME && SAFE_NAME.test(word) && redacted(word) === word) seen.add(word);
  }
  return { kind: "words", words: [...seen] };
}

/** `--NAME` for each option of a table. */
function optionNames(options: Readonly<Record<string, OptionSpec>>): string[] {
  return Object.keys(options).map((name) => `--${name}`);
}

/** A path as the shell would pass it: a leading `~/` is the home directory (the words completed are as typed). */
function withHome(path: string): string {
  const home = runtime.env().HOME;
  return path.startsWith("~/") && home ? `${home}${path.slice(1)}` : path;
}

/** `--import` values as app names (commas split them). */
function importNames(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(",")).map((name) => name.trim()).filter((name) => name !== "");
}

/**
 * The config as the verbs would load it, but never asking: a project config not approved before
 * is not read (trust "refuse", whatever --trust-project or MCPWIRE_TRUST_PROJECT say). Undefined
 * when there is none or it cannot be read. The config's secrets are redacted from what is printed.
 */
async function quietConfig(source: ConfigChoice): Promise<McpwireConfig | undefined> {
  try {
    const config = await withTimeout(loadConfig({ path: source.path, imports: source.imports, trust: "refuse" }), READ_MS, () => new Error("slow"));
    useRedactor(redactorFor(config));
    return config;
  } catch {
    return undefined;
  }
}

/** The names of the configured servers, in config order (disabled ones too: `enable` takes them). */
async function serverNames(source: ConfigChoice): Promise<string[]> {
  const config = await quietConfig(source);
  return config === undefined ? [] : offer("", config.servers.map((server) => server.name)).words;
}

/** The registered names of the tools the enabled servers listed last (the tool-list cache); no server is started. */
async function toolNames(source: ConfigChoice): Promise<string[]> {
  const config = await quietConfig(source);
  if (config === undefined) return [];
  const enabled = config.servers.filter((server) => server.enabled);
  const cached = await withTimeout(readCachedTools({ servers: enabled }), READ_MS, () => new Error("slow")).catch(() => []);
  return offer("", cached.flatMap((server) => server.tools.map((tool) => tool.registered))).words;
}
