// The apps whose MCP servers mcpwire can import, and where each keeps them: the files (Linux
// and macOS paths; HOME, XDG_CONFIG_HOME and CODEX_HOME respected), their format and the key the
// servers are under. The `imports:` key of our own config names these apps.

import { runtime } from "../../runtime/mod.ts";
import { type Context, describe, type Env, problem } from "./context.ts";
import { IMPORT_APPS, type ImportApp } from "./import-apps.ts";
import { isAbsolutePath, resolvePath, WINDOWS } from "./paths.ts";
import { suggest } from "./schema-messages.ts";

export { IMPORT_APPS, type ImportApp } from "./import-apps.ts";

/** `all` in `imports:` or `--import`: every app above. */
export const ALL_APPS = "all";

/** Other spellings people use for an app. */
const APP_ALIASES: Readonly<Record<string, ImportApp>> = {
  claude: "claude-desktop",
  "claude-desktop-app": "claude-desktop",
  "claude-cli": "claude-code",
  "vs-code": "vscode",
  code: "vscode",
  gemini: "gemini-cli",
  "codex-cli": "codex",
  codeium: "windsurf",
};

/**
 * How specific a file is: `local` (Claude Code's per-project entry in ~/.claude.json), `project`
 * (a file in the working directory), `user` (the user's own file). The more specific wins a clash.
 */
export type ImportScope = "local" | "project" | "user";

export interface ImportSource {
  app: ImportApp;
  /** Absolute path. */
  file: string;
  scope: ImportScope;
  format: "json" | "toml" | "yaml";
  /** Where the servers' mapping is in the file: `["mcpServers"]`, `["servers"]`, `["mcp", "servers"]`, … */
  serversPath: readonly string[];
}

export interface SourceOptions {
  /** The project directory (project files and `${workspaceFolder}`). */
  cwd: string;
  env: Env;
  /** The operating system in runtime.os spelling; default this one's. */
  os?: string;
}

/** The home directory from the environment (HOME; USERPROFILE on Windows), if any. */
export function homeOf(env: Env): string | undefined {
  return env.HOME || (WINDOWS ? env.USERPROFILE : undefined) || undefined;
}

/**
 * Where desktop apps keep their settings: `~/Library/Application Support` on macOS, `%APPDATA%`
 * on Windows, `$XDG_CONFIG_HOME` (default `~/.config`) elsewhere.
 */
function appDataOf(env: Env, os: string, home: string | undefined): string | undefined {
  if (os === "darwin") return home && resolvePath(home, "Library/Application Support");
  if (os === "windows") return env.APPDATA || (home && resolvePath(home, "AppData/Roaming"));
  // XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const xdg = env.XDG_CONFIG_HOME;
  return xdg && isAbsolutePath(xdg) ? xdg : home && resolvePath(home, ".config");
}

/**
 * The files of one app, most specific first (that one wins a name clash, as in the app itself):
 *
 * - claude-desktop: `claude_desktop_config.json` in the app-data directory (`mcpServers`).
 * - claude-code: `~/.claude.json` `projects[<cwd>].mcpServers` (local scope), `./.mcp.json`
 *   (project), `~/.claude.json` `mcpServers` (user).
 * - cursor: `./.cursor/mcp.json`, `~/.cursor/mcp.json` (`mcpServers`).
 * - vscode: `./.vscode/mcp.json`, `Code/User/mcp.json` in the app-data directory (`servers`), and
 *   the user `settings.json` (`mcp.servers`).
 * - windsurf: `~/.codeium/windsurf/mcp_config.json` (`mcpServers`).
 * - gemini-cli: `./.gemini/settings.json`, `~/.gemini/settings.json` (`mcpServers`).
 * - codex: `./.codex/config.toml`, `$CODEX_HOME/config.toml` (default `~/.codex`), `[mcp_servers.NAME]`.
 * - mcphost: `~/.mcphost.yml`, `~/.mcphost.yaml`, `~/.mcphost.json`, then the legacy `~/.mcp.json`
 *   (`mcpServers`). mcphost reads `.mcphost.{yml,yaml,json}` first, then `.mcp.*` (mark3labs/mcphost
 *   internal/config/config.go, EnsureConfigExists); here every one found is read, the first winning a clash.
 */
export function importSources(app: ImportApp, options: SourceOptions): ImportSource[] {
  const { cwd, env } = options;
  const os = options.os ?? runtime.os;
  const home = homeOf(env);
  const appData = appDataOf(env, os, home);
  const sources: ImportSource[] = [];
  const add = (base: string | undefined, path: string, scope: ImportScope, serversPath: readonly string[], format: ImportSource["format"] = "json") => {
    if (base === undefined || base === "") return;
    const file = resolvePath(base, path);
    // One file read twice (the working directory is the home directory) would clash with itself.
    if (sources.some((source) => source.file === file && source.serversPath.join("\0") === serversPath.join("\0"))) return;
    sources.push({ app, file, scope, format, serversPath });
  };
  switch (app) {
    case "claude-desktop":
      add(appData, "Claude/claude_desktop_config.json", "user", ["mcpServers"]);
      break;
    case "claude-code":
      add(home, ".claude.json", "local", ["projects", cwd, "mcpServers"]);
      add(cwd, ".mcp.json", "project", ["mcpServers"]);
      add(home, ".claude.json", "user", ["mcpServers"]);
      break;
    case "cursor":
      add(cwd, ".cursor/mcp.json", "project", ["mcpServers"]);
      add(home, ".cursor/mcp.json", "user", ["mcpServers"]);
      break;
    case "vscode":
      add(cwd, ".vscode/mcp.json", "project", ["servers"]);
      add(appData, "Code/User/mcp.json", "user", ["servers"]);
      add(appData, "Code/User/settings.json", "user", ["mcp", "servers"]);
      break;
    case "windsurf":
      add(home, ".codeium/windsurf/mcp_config.json", "user", ["mcpServers"]);
      break;
    case "gemini-cli":
      add(cwd, ".gemini/settings.json", "project", ["mcpServers"]);
      add(home, ".gemini/settings.json", "user", ["mcpServers"]);
      break;
    case "codex": {
      add(cwd, ".codex/config.toml", "project", ["mcp_servers"], "toml");
      const codexHome = env.CODEX_HOME && isAbsolutePath(env.CODEX_HOME) ? env.CODEX_HOME : home && resolvePath(home, ".codex");
      add(codexHome, "config.toml", "user", ["mcp_servers"], "toml");
      break;
    }
    case "mcphost":
      add(home, ".mcphost.yml", "user", ["mcpServers"], "yaml");
      add(home, ".mcphost.yaml", "user", ["mcpServers"], "yaml");
      add(home, ".mcphost.json", "user", ["mcpServers"]);
      add(home, ".mcp.json", "user", ["mcpServers"]);
      break;
  }
  return sources;
}

/** The app a name means (`all` is every app), or the nearest known name as a guess. */
export function resolveImportApps(names: readonly string[]): { apps: ImportApp[]; unknown: { name: string; guess?: string }[] } {
  const apps: ImportApp[] = [];
  const unknown: { name: string; guess?: string }[] = [];
  for (const name of names) {
    const key = name.trim().toLowerCase();
    const alias = Object.hasOwn(APP_ALIASES, key) ? APP_ALIASES[key] : undefined;
    const found: readonly ImportApp[] | undefined = key === ALL_APPS
      ? IMPORT_APPS
      : (IMPORT_APPS as readonly string[]).includes(key)
      ? [key as ImportApp]
      : alias !== undefined
      ? [alias]
      : undefined;
    if (found === undefined) unknown.push({ name, guess: suggest(key, [...IMPORT_APPS, ALL_APPS]) });
    else for (const app of found) if (!apps.includes(app)) apps.push(app);
  }
  return { apps, unknown };
}

/** "unknown app "x"; did you mean …? / known: …" */
export function unknownAppText(name: string, guess: string | undefined): string {
  return `unknown app "${name}" to import from; ${guess ? `did you mean "${guess}"? ` : ""}known: ${IMPORT_APPS.join(", ")} (or ${ALL_APPS})`;
}

/**
 * The top-level `imports:` key: a list of app names (a single name is taken as a list of one).
 * Another type is a ConfigError for the file; an unknown name is a warning and is skipped.
 */
export function importsOf(context: Context, root: Record<string, unknown>): string[] | undefined {
  const value = root.imports;
  if (value === undefined || value === null) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((item) => typeof item !== "string")) {
    throw problem(
      context,
      context.parsed.locate(["imports"]),
      `"imports" must be a list of apps to import servers from (${IMPORT_APPS.join(", ")}, or ${ALL_APPS}); it is ${describe(value, context.json)}`,
    );
  }
  const names: string[] = [];
  for (const [index, name] of (list as string[]).entries()) {
    const { unknown } = resolveImportApps([name]);
    if (unknown.length > 0) {
      const at = Array.isArray(value) ? ["imports", index] : ["imports"];
      context.warnings.push(problem(context, context.parsed.locate(at), `${unknownAppText(name, unknown[0]?.guess)}; it is ignored`));
      continue;
    }
    names.push(name);
  }
  return names;
}
