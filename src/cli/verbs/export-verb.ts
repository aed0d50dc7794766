// `mcpwire export --to APP [--write] [SERVER…]`: the configured servers in another app's own
// format, the reverse of --import (host/config/export-formats.ts maps them, export-file.ts
// merges them into the app's file). Nothing is started; a `${VAR}` is written as a reference.

import { exportTarget, writeExport } from "../../host/config/export-file.ts";
import { APP_LABELS, EXPORT_APPS, type ExportApp, exportDocument, exportServers } from "../../host/config/export-formats.ts";
import { resolveImportApps } from "../../host/config/import-sources.ts";
import { resolvePath } from "../../host/config/paths.ts";
import { newServerConfig } from "../../host/config/server.ts";
import type { McpwireConfig, ServerConfig } from "../../host/config/types.ts";
import { redactorFor } from "../../host/secrets.ts";
import { didYouMean, suggestNames } from "../../registry/suggest.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, type ParsedArgs, UsageError } from "../args.ts";
import { lineOf, useRedactor, write } from "../output.ts";
import { AD_HOC_OPTIONS, AD_HOC_USAGE } from "../session/ad-hoc-servers.ts";
import { configErrors, configSource, describeConfigError, IMPORT_OPTION, loadSessionConfig, stderrLine } from "../session/host-session.ts";
import { VERSION } from "../version.ts";

export const EXPORT_USAGE = `usage: mcpwire export --to APP [SERVER…] [--write [--project] [--force]] [--config FILE] [--import APP[,APP]]

Prints the configured servers (all, or the SERVERs named) in another app's own format, the
reverse of --import. APP is one of ${EXPORT_APPS.join(", ")}:
  claude-desktop  JSON "mcpServers" (stdio servers only)
  cursor          JSON "mcpServers" (command/args/env, or url/headers)
  vscode          JSON "servers", each with "type" stdio, http or sse
  claude-code     JSON "mcpServers" with "type" (./.mcp.json, ~/.claude.json)
  codex           TOML [mcp_servers.NAME] tables (~/.codex/config.toml)
  gemini-cli      JSON "mcpServers" (httpUrl for Streamable HTTP, url for SSE)

Each field the app has is mapped (command, args, env, cwd, url, headers, transport, and
where the app has them tool filters, timeouts and enabled); a field it cannot express is
left out with a warning on stderr naming the server and the field. A value written as
\${VAR} in the config is written as the app's own variable (VS Code and Cursor \${env:VAR},
Claude Code \${VAR}, Gemini CLI \${VAR}, Codex env_vars / bearer_token_env_var /
env_http_headers), never as its value: an app without variables (Claude Desktop) does not
get that field (a warning says so).

--write      merge the servers into the app's own file (user-level: ~/.cursor/mcp.json,
             Code/User/mcp.json, ~/.claude.json, ~/.codex/config.toml, ~/.gemini/settings.json,
             claude_desktop_config.json) instead of printing them; the file's other content,
             comments and formatting are kept, the result is checked before it is written
             (atomically), and a server of the same name is refused
--project    with --write: the app's project file in this directory (./.cursor/mcp.json,
             ./.vscode/mcp.json, ./.mcp.json, ./.codex/config.toml, ./.gemini/settings.json)
--force      with --write: replace servers of the same name
--serve      one entry named "mcpwire" instead of one per server: the app launches
             \`npx -y mcpwire@VERSION serve [SERVER…]\` as its stdio server, with this config
             (its absolute path) and the servers given on the command line, so a host that
             only launches stdio servers reaches them all, in either era (docs/serve.md)

The servers are the config's as the other verbs load it: --config FILE, --import APP[,APP],
--trust-project, and servers on the command line:
${AD_HOC_USAGE}

exit codes: 0 exported, 2 usage or config error, a server of that name in the file (without --force)`;

/** The options of `mcpwire export` (completion reads them through its row of cli/verb-table.ts). */
export const EXPORT_OPTIONS = {
  ...AD_HOC_OPTIONS,
  to: { kind: "string", values: EXPORT_APPS },
  write: { kind: "flag" },
  project: { kind: "flag" },
  force: { kind: "flag" },
  serve: { kind: "flag" },
  config: { kind: "string", values: "file" },
  import: IMPORT_OPTION,
  "trust-project": { kind: "flag" },
  help: { kind: "flag" },
  debug: { kind: "flag" },
} as const;

export async function exportVerb(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, EXPORT_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", EXPORT_USAGE + "\n");
    return 0;
  }
  const app = appOption(args.values.get("to"));
  const toFile = args.flags.has("write");
  if (!toFile && (args.flags.has("project") || args.flags.has("force"))) {
    throw new UsageError(`--${args.flags.has("project") ? "project" : "force"} applies to --write; without --write the servers are printed`);
  }
  const config = await loadSessionConfig(configSource(args));
  // Messages on stderr may quote the config; its secrets stay out of them.
  useRedactor(redactorFor(config));
  for (const warning of config.warnings) stderrLine(`warning: ${describeConfigError(warning)}`);
  const chosen = chosenServers(config, args.positional);
  const servers = args.flags.has("serve") ? [serveEntry(config, args)] : chosen;
  const result = exportServers(app, servers);
  for (const warning of result.warnings) stderrLine(`mcpwire export: warning: ${lineOf(warning)}`);
  if (toFile) {
    const file = exportTarget(app, { cwd: runtime.cwd(), env: runtime.env(), project: args.flags.has("project") });
    if (file === undefined) {
      throw new UsageError(
        `${APP_LABELS[app]} has no ${args.flags.has("project") ? "project" : "user"}-level file to write${
          args.flags.has("project") ? "; leave out --project" : ""
        }`,
      );
    }
    if (result.servers.length === 0) {
      stderrLine(`mcpwire export: no server to write for ${APP_LABELS[app]}; ${file} was not changed`);
      return 0;
    }
    const document = await exportDocument(app, result.servers);
    refuseSecrets(document, result.resolvedSecrets);
    const written = await writeExport(app, file, result.servers, args.flags.has("force"));
    const parts = [
      written.added.length > 0 ? `added ${written.added.map((name) => `"${name}"`).join(", ")}` : "",
      written.replaced.length > 0 ? `replaced ${written.replaced.map((name) => `"${name}"`).join(", ")}` : "",
    ].filter((part) => part !== "");
    await write("stdout", lineOf(`${parts.join(", ")} in ${written.file}${written.created ? " (created)" : ""} for ${APP_LABELS[app]}`) + "\n");
    return 0;
  }
  const document = await exportDocument(app, result.servers);
  refuseSecrets(document, result.resolvedSecrets);
  // The document is the product: written as it is (a literal value of the config is the user's own text).
  await runtime.write("stdout", document);
  return 0;
}

function appOption(value: string | undefined): ExportApp {
  if (value === undefined || value === "") throw new UsageError(`export needs --to APP: one of ${EXPORT_APPS.join(", ")}`);
  const { apps, unknown } = resolveImportApps([value]);
  const app = apps.length === 1 ? apps[0] : undefined;
  if (unknown.length > 0 || app === undefined || !(EXPORT_APPS as readonly string[]).includes(app)) {
    const near = didYouMean(suggestNames(value, EXPORT_APPS));
    throw new UsageError(`--to ${lineOf(value)}: not an app mcpwire exports to${near === "" ? "" : `; ${near}`} (apps: ${EXPORT_APPS.join(", ")})`);
  }
  return app as ExportApp;
}

/** The servers named (each must exist), or every server; one whose config is broken says so on stderr. */
function chosenServers(config: McpwireConfig, names: readonly string[]) {
  for (const error of configErrors(config)) {
    if (error.variable === undefined) stderrLine(`error: ${describeConfigError(error)}${error.server ? ` (server "${error.server}" is not exported)` : ""}`);
  }
  if (names.length === 0) return config.servers;
  const known = config.servers.map((server) => server.name);
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = didYouMean(suggestNames(name, known));
    throw new UsageError(
      `no server "${lineOf(name)}" is configured${near === "" ? "" : `; ${near}`} (configured: ${known.length === 0 ? "none" : known.join(", ")})`,
    );
  }
  return config.servers.filter((server) => names.includes(server.name));
}

/**
 * The one entry `--serve` exports: `mcpwire serve` as a stdio server, launched with npx at this
 * version, given the config file in use (absolute: an app starts it from its own directory), the
 * imports, the servers named and those given on the command line, as they were given.
 */
function serveEntry(config: McpwireConfig, args: ParsedArgs): ServerConfig {
  const serveArgs = ["-y", `mcpwire@${VERSION}`, "serve", ...args.positional];
  if (config.file !== undefined) serveArgs.push("--config", resolvePath(runtime.cwd(), config.file));
  const imports = args.values.get("import");
  if (imports !== undefined) serveArgs.push("--import", imports);
  if (args.flags.has("trust-project")) serveArgs.push("--trust-project");
  for (const option of args.sequence) {
    if (!(option.name in AD_HOC_OPTIONS)) continue;
    // --sandbox takes its value after "=" (or none); the others take theirs as the next word.
    if (option.name === "sandbox") serveArgs.push(option.value === "" ? "--sandbox" : `--sandbox=${option.value}`);
    else serveArgs.push(`--${option.name}`, option.value);
  }
  return { ...newServerConfig("mcpwire", "stdio"), command: "npx", args: serveArgs };
}

/** Last guard: a value a `${VAR}` resolved to is never in what is printed or written. */
function refuseSecrets(document: string, secrets: readonly string[]): void {
  if (secrets.some((secret) => document.includes(secret))) {
    throw new UsageError("export: the output would hold the value of a ${VAR} from the config, which is never written; nothing was printed or written");
  }
}
