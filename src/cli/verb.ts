// What a verb is to the `mcpwire` command: the function that runs it, its usage text, and its
// command line (the option table its parseArgs reads, what its positional arguments name) for
// shell completion. verb-table.ts lists the verbs; the completion verb is handed that table and
// reads it through these types, so that no module of verbs/ imports the table that loads it.

import type { OptionSpec } from "./args.ts";

/** What a positional argument names: a configured server, a registered tool, a file, a verb, or one of some words (or a server). */
export type ArgumentKind = "server" | "tool" | "file" | "verb" | { words: readonly string[]; orServer?: boolean };

/** A verb's command line: its options, and its positional arguments in order (none is completed past them). */
export interface VerbSyntax {
  options: Readonly<Record<string, OptionSpec>>;
  positionals: readonly ArgumentKind[];
}

/** A verb, its module loaded: how it runs, its help, and its command line. */
export interface Verb extends VerbSyntax {
  /** Runs the verb on the words after it; resolves to the exit code. */
  run: (args: string[]) => Promise<number>;
  /** What `mcpwire help VERB` and `mcpwire VERB --help` print. */
  usage: string;
}

/** One row of the verb table: the verb's line in `mcpwire help`, and the loader of its module. */
export interface VerbRow {
  summary: string;
  load: () => Promise<Verb>;
}

/** Every verb by name, in the order `mcpwire help` lists them. */
export type VerbTable = Readonly<Record<string, VerbRow>>;

/** The row of `name` in `table`; undefined for anything that is not a verb (`constructor` included). */
export function verbRow(table: VerbTable, name: string | undefined): VerbRow | undefined {
  return name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}
