// `mcpwire trust`: approves a project's config files (host/config/project-trust.ts) after showing
// what each would run and read; `--list` shows the approvals, `--revoke FILE` forgets one.

import { resolvePath } from "../../host/config/paths.ts";
import { existingProjectFiles, readProjectFile } from "../../host/config/project-files.ts";
import { defaultTrustFile, projectDigest, ProjectGate, ProjectTrustStore } from "../../host/config/project-trust.ts";
import { ConfigError } from "../../host/config/types.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, UsageError } from "../args.ts";
import { projectSummaryText, TRUST_PROJECT_VARIABLE } from "../interactive/project-trust-prompt.ts";
import { lineOf, write, writeJson } from "../output.ts";
import { IMPORT_OPTION, importOption } from "../session/host-session.ts";
import { renderTable } from "../table.ts";

export const TRUST_USAGE = `usage: mcpwire trust [FILE…] [--import APP[,APP]]
       mcpwire trust --list [--json]
       mcpwire trust --revoke FILE

A config found in the working directory (./mcpwire.yaml, ./.mcp.json) and the project files of
other apps it imports (./.cursor/mcp.json, ./.vscode/mcp.json, ./.gemini/settings.json,
./.codex/config.toml, Claude Code's ./.mcp.json) came with the directory, not from you: mcpwire
starts none of their servers, and reads no variable for them, until you approve the file. On a
terminal the verbs ask; without one they refuse and name this command.

trust [FILE…]    shows what each file would run (servers, commands, URLs, hooks, providers)
                 and the variables it reads, and approves it: that path with that content. A
                 changed file is asked about again. Without FILE: the config in this directory
                 and the project files of the apps it imports (and of --import APP).
--list           the approved files: approved, changed since, or gone.
--revoke FILE    forgets the approval of FILE.

For one run without approving: --trust-project on servers, tools, call, task, run, chat,
skills, auth and import; ${TRUST_PROJECT_VARIABLE}=1 in the environment (CI). Your own files
(~/.mcp.json, ~/.config/mcpwire/config.yaml, user-scope imports) and --config FILE need no approval.
Approvals are kept in $XDG_CONFIG_HOME/mcpwire/trusted-projects.json (default ~/.config/…).`;

/** The options `mcpwire trust` takes. */
export const TRUST_OPTIONS = {
  list: { kind: "flag" },
  revoke: { kind: "string", values: "file" },
  import: IMPORT_OPTION,
  json: { kind: "flag" },
  help: { kind: "flag" },
  debug: { kind: "flag" },
} as const;

export async function trust(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, TRUST_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", TRUST_USAGE + "\n");
    return 0;
  }
  const cwd = runtime.cwd();
  const env = runtime.env();
  const store = new ProjectTrustStore(defaultTrustFile(env));
  if (args.flags.has("list")) return await list(store, args.flags.has("json"));
  const revoke = args.values.get("revoke");
  if (revoke !== undefined) {
    if (args.positional.length > 0) throw new UsageError("--revoke takes one FILE and no other");
    const file = resolvePath(cwd, revoke);
    if (await store.revoke(file)) {
      await write("stdout", `revoked: ${lineOf(file)} is no longer approved\n`);
      return 0;
    }
    await write("stderr", `mcpwire: ${lineOf(file)} was not approved; nothing to revoke (see mcpwire trust --list)\n`);
    return 1;
  }
  const summaries = args.positional.length > 0
    ? await Promise.all(args.positional.map((path) => readProjectFile(resolvePath(cwd, path), { cwd, env })))
    : await existingProjectFiles(importOption(args) ?? [], { cwd, env });
  if (summaries.length === 0) {
    if (new ProjectGate({ cwd, env }).inHome) {
      await write("stdout", "nothing to approve: this is your home directory, and the configs in it are your own\n");
      return 0;
    }
    throw new ConfigError(
      `no project config in ${cwd} to approve (looked for ./mcpwire.yaml and ./.mcp.json${args.lists.has("import") ? " and the apps' project files" : ""}); ` +
        "name the file: mcpwire trust FILE",
      "config-not-found",
    );
  }
  for (const summary of summaries) {
    await write("stdout", `${projectSummaryText(summary)}\n`);
    // The digest of the text just shown: a file changed in between stays unapproved.
    await store.approve(summary.file, summary.digest);
    await write("stdout", `approved: ${lineOf(summary.display)}\n`);
  }
  return 0;
}

async function list(store: ProjectTrustStore, json: boolean): Promise<number> {
  const rows = [];
  for (const entry of await store.list()) {
    let state: "approved" | "changed" | "missing";
    try {
      state = (await projectDigest(await runtime.readTextFile(entry.file))) === entry.digest ? "approved" : "changed";
    } catch {
      state = "missing";
    }
    rows.push({ ...entry, state });
  }
  if (json) {
    await writeJson(rows);
    return 0;
  }
  if (rows.length === 0) {
    await write("stdout", `no project config is approved${store.file === undefined ? "" : ` (${lineOf(store.file)})`}\n`);
    return 0;
  }
  const shown = { approved: "approved", changed: "changed since (asks again)", missing: "gone" } as const;
  await write("stdout", renderTable(["FILE", "STATE", "APPROVED"], rows.map((row) => [lineOf(row.file), shown[row.state], row.approvedAt])));
  return 0;
}
