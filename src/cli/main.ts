// The `mcpwire` command: picks the verb from the verb table; usage and config errors become
// one line and exit 2.
//
// Reading order for src/cli/ (docs/architecture.md, "The CLI's folders"):
//   1. main.ts (this file) and run.ts: the command line in, the exit code out.
//   2. verb-table.ts: every verb, its line of `mcpwire help`, the module in verbs/ that runs it
//      (verb.ts: what a module gives the table). The help and shell completion come from it.
//   3. verbs/: one module per verb, or per family of verbs (resources and read; add, remove,
//      enable and disable), named <name>-verb.ts; start with verbs/call-verb.ts. A verb imports
//      no other verb: what verbs share lives in the folders below.
//   4. The plumbing every verb uses, here: args.ts (options, UsageError), output.ts (everything
//      written: redacted, terminal-safe, bounded), table.ts, progress.ts, exit-codes.ts,
//      errors.ts, command-line.ts, version.ts, completion-scripts.ts.
//   5. session/: starting the servers for a verb (host-session.ts), and a model over them
//      (agent-session.ts); servers given on the command line, the one server a verb names,
//      the servers it could not reach, the startup status line, which server owns a tool.
//   6. tools/: a tool as a person types and reads it: key=value arguments typed by its schema,
//      its signature, its result as text, the diff of a changed definition, its MCP App.
//   7. interactive/: the questions asked on a terminal (a server's elicitation, a changed
//      tool's pin, a project config's trust).
//   8. trace/: a session's traffic made readable: the --trace lines, the HTML page, the diff of
//      two traces, what each method is for, and the OTLP export of --otel.

import { ConfigError } from "../host/config/types.ts";
import { UsageError } from "./args.ts";
import { write } from "./output.ts";
import { verbRow } from "./verb.ts";
import { usageText, VERBS } from "./verb-table.ts";

/** The verbs also known by an option's name. */
const ALIASES: Readonly<Record<string, string>> = { "--help": "help", "-h": "help", "--version": "version" };

export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  const debug = rest.includes("--debug");
  try {
    if (verb === undefined) {
      await write("stderr", usageText() + "\n");
      return 2;
    }
    const row = verbRow(VERBS, Object.hasOwn(ALIASES, verb) ? ALIASES[verb] : verb);
    if (row !== undefined) return await (await row.load()).run(rest);
    throw new UsageError(`unknown verb "${verb}"; verbs: ${Object.keys(VERBS).join(", ")}`);
  } catch (error) {
    // Through the verb's redactor: an error may quote a server, and a server may quote a token.
    if (error instanceof UsageError) {
      await write("stderr", `mcpwire: ${error.message}\nrun "mcpwire help${verbRow(VERBS, verb) ? ` ${verb}` : ""}" for usage\n`);
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
