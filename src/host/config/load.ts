// Finding and reading a config file: `--config FILE`, or the first of the places searched
// (`mcpwire.yaml`, `.mcp.json`, `~/.mcp.json`, `$XDG_CONFIG_HOME/mcpwire/config.yaml`); then the
// servers of other apps it (or the caller) asks to import. Parsing is parse.ts, imports imports.ts;
// a project's files (those found in the working directory) go through project-trust.ts first.

import { messageOf } from "../../common/error-text.ts";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";
import type { Env } from "./context.ts";
import { ALL_APPS, resolveImportApps, unknownAppText } from "./import-sources.ts";
import { displayPath, mergeImports, readImportsThrough } from "./imports.ts";
import { parseConfig } from "./parser.ts";
import { resolvePath, userConfigPaths } from "./paths.ts";
import { ProjectGate, type ProjectTrust, untrustedConfigError } from "./project-trust.ts";
import { formatOf, parseYaml } from "./syntax.ts";
import { ConfigError, type McpwireConfig } from "./types.ts";
import { withSchemaErrors } from "./validate.ts";

/** Options of loadConfig: the file, the directory, the environment, imports and project trust. */
export interface LoadConfigOptions {
  /** The config file (`--config`); it must exist. Without it, configSearchPaths() are tried in order. */
  path?: string;
  /** Where `path` and the search start. Default: this process's working directory. */
  cwd?: string;
  /** What `${VAR}` reads, and where XDG_CONFIG_HOME / HOME come from. Default: this process's environment. */
  env?: Env;
  /**
   * Apps whose servers are imported too (`--import`), after the config's own `imports:`: names of
   * IMPORT_APPS, or `all`. With imports, no config file at all is no error (the imports are the config).
   */
  imports?: readonly string[];
  /**
   * Whether a project's config may be used: one found in `cwd` (not `path`, and not when `cwd` is
   * HOME) or a project file an import reads (`./.cursor/mcp.json`, …). `refuse` (the default):
   * only files the user approved before, by path and content hash (`mcpwire trust`); `all`: every
   * one, for this call; a function: asked about each file not approved yet, true records the
   * approval. Refused, the config found in `cwd` is a ConfigError with code `untrusted-project`
   * (nothing in it was run or expanded); a refused import file is left out with a warning.
   */
  trust?: ProjectTrust;
  /** Where approvals are kept; default `$XDG_CONFIG_HOME/mcpwire/trusted-projects.json` (defaultTrustFile). */
  trustFile?: string;
}

/**
 * Reads and parses a config file: `path` when given (a missing or unreadable file is a
 * ConfigError naming it and the OS reason), else the first of configSearchPaths() that exists
 * (none → a ConfigError listing where it looked, unless `imports` are asked for). See
 * parseConfig for what is checked. Then the servers of the apps its `imports:` and `imports`
 * name are added after its own (config/imports.ts); their problems are warnings.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<McpwireConfig> {
  const env = options.env ?? runtime.env();
  const cwd = options.cwd ?? runtime.cwd();
  const asked = options.imports ?? [];
  const unknown = resolveImportApps(asked).unknown;
  if (unknown[0] !== undefined) throw new ConfigError(unknownAppText(unknown[0].name, unknown[0].guess), "invalid-config");
  const gate = new ProjectGate({ cwd, env, trust: options.trust, trustFile: options.trustFile });
  const own = await loadOwnConfig(options.path, cwd, env, asked.length > 0, gate);
  const names = [...(own.imports ?? []), ...asked];
  if (names.length === 0) return own;
  const { apps } = resolveImportApps(names);
  const files = await readImportsThrough(apps, cwd, env, gate, { ownFile: own.file });
  const ownName = own.file === undefined ? undefined : displayPath(own.file, cwd, env.HOME);
  // `all` tries every app: one not installed is no news.
  const missingWarning = !names.some((name) => name.trim().toLowerCase() === ALL_APPS);
  return mergeImports(own, files, { ownName, missingWarning });
}

/**
 * The config file itself; with `optional`, none found is an empty config instead of an error. A
 * file found in the working directory is a project's: the gate admits it before it is parsed
 * with `env`.
 */
async function loadOwnConfig(path: string | undefined, cwd: string, env: Env, optional: boolean, gate: ProjectGate): Promise<McpwireConfig> {
  const options = { path, cwd, env };
  if (options.path !== undefined) {
    const file = resolvePath(cwd, options.path);
    let text: string;
    try {
      text = await runtime.readTextFile(file);
    } catch (error) {
      throw unreadable(options.path, file, error, "check the --config path");
    }
    return await withSchemaErrors(() => parseConfig(text, { file, env, displayName: options.path }));
  }
  const candidates = configSearchPaths({ cwd, env });
  for (const [index, file] of candidates.entries()) {
    let text: string;
    try {
      text = await runtime.readTextFile(file);
    } catch (error) {
      if (error instanceof FileError && (error.code === "ENOENT" || error.code === "ENOTDIR")) continue;
      throw unreadable(file, file, error, "fix it or pass --config FILE");
    }
    // The two in the working directory are named as a user there would name them.
    const displayName = index === 0 ? "mcpwire.yaml" : index === 1 ? ".mcp.json" : file;
    if (index < 2 && !gate.inHome) {
      const decision = await gate.admit(projectConfigFile(file, displayName, text));
      if (!decision.trusted) throw untrustedConfigError(decision.summary, decision.changed);
    }
    return await withSchemaErrors(() => parseConfig(text, { file, env, displayName }));
  }
  if (optional) return { servers: [], warnings: [], errors: [] };
  throw new ConfigError(
    `no config file found; looked for ${candidates.join(", ")}; create mcpwire.yaml or pass --config FILE ` +
      `(or use servers other apps have: --import APP, see mcpwire import --list)`,
    "config-not-found",
  );
}

/**
 * Where loadConfig looks when no path is given, in order: `mcpwire.yaml` and `.mcp.json` in
 * cwd, `~/.mcp.json` (mcphost's default, where its users keep their servers), then
 * `$XDG_CONFIG_HOME/mcpwire/config.yaml` (XDG_CONFIG_HOME defaults to `~/.config`).
 */
export function configSearchPaths(options: { cwd?: string; env?: Env } = {}): string[] {
  const cwd = options.cwd ?? runtime.cwd();
  const paths = [resolvePath(cwd, "mcpwire.yaml"), resolvePath(cwd, ".mcp.json")];
  // The same file once, when the working directory is the home directory.
  for (const file of userConfigPaths(options.env ?? runtime.env())) if (!paths.includes(file)) paths.push(file);
  return paths;
}

/** Our own config's text as the gate sees it: parsed (no `${VAR}` read), the servers under mcp_servers / mcpServers. */
export function projectConfigFile(
  file: string,
  display: string,
  text: string,
): { file: string; display: string; text: string; value: unknown; problem?: string } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (formatOf(file, body) === "json") {
    try {
      return { file, display, text, value: JSON.parse(body) };
    } catch (error) {
      return { file, display, text, value: undefined, problem: `it is not JSON: ${messageOf(error)}` };
    }
  }
  const parsed = parseYaml(body);
  return { file, display, text, value: parsed.value, ...(parsed.syntaxError ? { problem: `it is not YAML: ${parsed.syntaxError.message}` } : {}) };
}

function unreadable(shown: string, file: string, error: unknown, todo: string): ConfigError {
  const code = error instanceof FileError ? error.code : "EUNKNOWN";
  const reason = READ_FAILURES[code] ?? messageOf(error);
  const where = shown === file ? `"${file}"` : `"${shown}" (${file})`;
  const what = code === "ENOENT" ? `config file ${where} not found: ${reason}` : `cannot read config file ${where}: ${reason}`;
  return new ConfigError(`${what} (${code}); ${todo}`, code === "ENOENT" ? "config-not-found" : "unreadable-config", { file, cause: error });
}

const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a component of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory, not a file",
  ENOTREG: "it is not a regular file (a FIFO, a device or a socket)",
  EFBIG: "it is larger than mcpwire reads from a file (256 MiB)",
};
