// `mcpwire import --list`: what would be imported from the MCP configs of other apps — per app
// and file, the servers found and the problems — without starting anything.

import { ALL_APPS, IMPORT_APPS, type ImportApp, resolveImportApps, unknownAppText } from "../../host/config/import-sources.ts";
import { displayPath, type ImportedFile, mergeImports, readImports } from "../../host/config/imports.ts";
import { loadConfig } from "../../host/config/load.ts";
import { ConfigError, type McpwireConfig, type ServerConfig } from "../../host/config/types.ts";
import { redactorFor } from "../../host/secrets.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, UsageError } from "../args.ts";
import { TRUST_PROJECT_VARIABLE } from "../interactive/project-trust-prompt.ts";
import { lineOf, useRedactor, write, writeJson } from "../output.ts";
import { renderTable } from "../table.ts";

export const IMPORT_USAGE = `usage: mcpwire import [--list] [APP[,APP]…] [--config FILE] [--json]

Shows what mcpwire would import from the MCP configs of other apps: for each app and each file
it reads (found or not), the servers in it and the problems (a file that does not parse, a
server shape mcpwire does not know, a VS Code \${input:…} prompt), each as file:line:col.
Nothing is started. A server your own config (--config FILE, or the one found as usual) also
defines is marked "shadowed": yours wins.

Apps: ${IMPORT_APPS.join(", ")} (default: all of them).
Use them with --import APP[,APP] on servers, tools, call, run and chat, or with
imports: [APP, …] in the config.`;

/** What `mcpwire import`'s argument may be, for completion: an app, or all of them. */
export const IMPORT_APP_WORDS: readonly string[] = [...IMPORT_APPS, ALL_APPS];

/** The options `mcpwire import` takes. */
export const IMPORT_VERB_OPTIONS = {
  list: { kind: "flag" },
  config: { kind: "string", values: "file" },
  "trust-project": { kind: "flag" },
  json: { kind: "flag" },
  help: { kind: "flag" },
  debug: { kind: "flag" },
} as const;

export async function importVerb(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, IMPORT_VERB_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", IMPORT_USAGE + "\n");
    return 0;
  }
  const names = args.positional.flatMap((word) => word.split(",")).map((name) => name.trim()).filter((name) => name !== "");
  const { apps, unknown } = resolveImportApps(names);
  if (unknown[0] !== undefined) throw new UsageError(unknownAppText(unknown[0].name, unknown[0].guess));
  const cwd = runtime.cwd();
  const env = runtime.env();
  const chosen: readonly ImportApp[] = names.length === 0 ? IMPORT_APPS : apps;
  // A listing asks nobody: a project file not approved is shown as such, its servers unbuilt.
  const trust = args.flags.has("trust-project") || ["1", "true", "yes"].includes((env[TRUST_PROJECT_VARIABLE] ?? "").trim().toLowerCase()) ? "all" : "refuse";
  const files = await readImports(chosen, { cwd, env, trust });
  const own = await ownConfig(args.values.get("config"), trust);
  const ownServers = own?.servers.filter((server) => server.origin === undefined) ?? [];
  const ownName = own?.file === undefined ? undefined : displayPath(own.file, cwd, env.HOME);
  const merged = mergeImports({ servers: ownServers, warnings: [], file: own?.file }, files, { ownName, missingWarning: false });
  const imported = new Set(merged.servers.filter((server) => server.origin !== undefined));
  // Problems quote the apps' files; their secrets (env values, headers) stay out of the output.
  useRedactor(redactorFor({ servers: files.flatMap((file) => file.servers), warnings: [] }));
  const problemsOf = (file: ImportedFile) => merged.warnings.filter((warning) => warning.file === file.file);

  if (args.flags.has("json")) {
    await writeJson(files.map((file) => ({
      app: file.app,
      file: file.file,
      scope: file.scope,
      state: file.state,
      servers: file.servers.map((server) => ({
        name: server.name,
        transport: server.transport,
        enabled: server.enabled,
        imported: imported.has(server),
        ...(server.error ? { error: server.error.message } : {}),
      })),
      problems: problemsOf(file).map((problem) => problem.message),
    })));
    return 0;
  }
  const serversText = (file: ImportedFile): string => {
    switch (file.state) {
      case "missing":
        return "(no file)";
      case "unreadable":
      case "broken":
        return "(not read: see below)";
      case "untrusted":
        return `(not approved: ${file.untrusted?.servers.map((server) => server.name).join(", ") || "no servers"}; see below)`;
    }
    if (file.servers.length === 0) return "(no servers)";
    if (file.file === own?.file) return `${file.servers.map((server) => server.name).join(", ")} (your config)`;
    return file.servers.map((server) => `${server.name}${serverNote(server, imported)}`).join(", ");
  };
  const rows = files.map((file) => [file.app, file.scope, lineOf(file.display), lineOf(serversText(file))]);
  await write("stdout", renderTable(["APP", "SCOPE", "FILE", "SERVERS"], rows));
  const problems = files.flatMap(problemsOf);
  if (problems.length > 0) {
    await write("stdout", `\nproblems:\n${problems.map((problem) => `  ${lineOf(problem.message)}\n`).join("")}`);
  }
  return 0;
}

function serverNote(server: ServerConfig, imported: ReadonlySet<ServerConfig>): string {
  if (!imported.has(server)) return " (shadowed)";
  return server.enabled ? "" : " (disabled)";
}

/** The user's own config (its servers win a clash), when there is one; a --config given must load. */
async function ownConfig(path: string | undefined, trust: "all" | "refuse"): Promise<McpwireConfig | undefined> {
  try {
    return await loadConfig({ path, trust });
  } catch (error) {
    if (path === undefined && error instanceof ConfigError) return undefined;
    throw error;
  }
}
