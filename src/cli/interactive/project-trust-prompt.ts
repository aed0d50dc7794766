// The CLI's side of project trust (host/config/project-trust.ts): what a project config would
// run and read, shown before it is used; the y/N question on a terminal; and how the verbs choose
// (--trust-project or MCPWIRE_TRUST_PROJECT=1 for one run, a question on a terminal, else refuse).

import type { ProjectConfigSummary } from "../../host/config/project-summary.ts";
import type { ProjectApprover, ProjectTrust } from "../../host/config/project-trust.ts";
import { runtime } from "../../runtime/mod.ts";
import { lineOf, write } from "../output.ts";
import { interruptProgress } from "../progress.ts";

/** The variable that trusts every project config of a run, as --trust-project does (for CI). */
export const TRUST_PROJECT_VARIABLE = "MCPWIRE_TRUST_PROJECT";

/**
 * How this run trusts project configs: `all` with --trust-project or MCPWIRE_TRUST_PROJECT=1
 * (or true / yes); a question per file when stdin and stdout are terminals; else `refuse`.
 */
export function cliProjectTrust(trustProject: boolean): ProjectTrust {
  const variable = (runtime.env()[TRUST_PROJECT_VARIABLE] ?? "").trim().toLowerCase();
  if (trustProject || variable === "1" || variable === "true" || variable === "yes") return "all";
  return runtime.stdinLines().isTerminal && runtime.isTerminal("stdout") ? terminalApprover : "refuse";
}

/** Shows the file on stderr and asks y/N on the terminal; only `y` / `yes` approve. */
const terminalApprover: ProjectApprover = async (summary) => {
  interruptProgress();
  await write("stderr", `${projectSummaryText(summary)}\nUse it, and remember that you approved this version of it? [y/N] `);
  const answer = await runtime.stdinLines().readLine();
  const yes = answer !== undefined && /^\s*y(es)?\s*$/i.test(answer);
  await write("stderr", yes ? `approved: ${lineOf(summary.display)}\n` : `not approved: nothing from ${lineOf(summary.display)} is used\n`);
  return yes;
};

/**
 * What a project config would do, one item a line: its servers (command and arguments, or URL),
 * the apps it imports, the providers it points elsewhere, its hooks, and the variables it reads.
 * Every string from the file is shown on one line with its control characters visible.
 */
export function projectSummaryText(summary: ProjectConfigSummary): string {
  const whose = summary.app === undefined ? "a project config" : `${summary.app}'s project config`;
  const lines = [`${lineOf(summary.display)} (${lineOf(summary.file)}) is ${whose}: it came with this directory, not from you.`];
  if (summary.problem !== undefined) lines.push(`  (${lineOf(summary.problem)})`);
  if (summary.servers.length === 0) lines.push("  servers: none");
  else lines.push("  servers:");
  for (const server of summary.servers) {
    const runs = server.command !== undefined
      ? `runs ${[server.command, ...server.args].map(shellWord).join(" ")}`
      : server.url !== undefined
      ? `connects to ${server.url}`
      : "(no command or URL)";
    lines.push(`    ${lineOf(server.name)}: ${lineOf(runs)}`);
  }
  if (summary.imports.length > 0) lines.push(`  imports: ${lineOf(summary.imports.join(", "))} (their project files are asked about one by one)`);
  for (const provider of summary.providers) lines.push(`  provider ${lineOf(provider.name)}: sends its API key to ${lineOf(provider.baseUrl)}`);
  for (const hook of summary.hooks) lines.push(`  hook (mcpwire run / chat): runs ${lineOf(hook)}`);
  lines.push(`  variables it reads: ${summary.variables.length === 0 ? "none" : lineOf(summary.variables.join(", "))}`);
  lines.push(`  content: ${summary.digest}`);
  return lines.join("\n");
}

/** An argument as a shell would need it: quoted when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
