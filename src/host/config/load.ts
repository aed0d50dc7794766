// Finding and reading a config file: `--config FILE`, or the first of the places searched
// (`mcpwire.yaml`, `.mcp.json`, `$XDG_CONFIG_HOME/mcpwire/config.yaml`). Parsing is parse.ts.

import { messageOf } from "../../common/error-text.ts";
import { runtime } from "../../runtime/mod.ts";
import { FileError } from "../../runtime/types.ts";
import type { Env } from "./context.ts";
import { parseConfig } from "./parse.ts";
import { isAbsolutePath, resolvePath, WINDOWS } from "./paths.ts";
import { ConfigError, type McpwireConfig } from "./types.ts";

export interface LoadConfigOptions {
  /** The config file (`--config`); it must exist. Without it, configSearchPaths() are tried in order. */
  path?: string;
  /** Where `path` and the search start. Default: this process's working directory. */
  cwd?: string;
  /** What `${VAR}` reads, and where XDG_CONFIG_HOME / HOME come from. Default: this process's environment. */
  env?: Env;
}

/**
 * Reads and parses a config file: `path` when given (a missing or unreadable file is a
 * ConfigError naming it and the OS reason), else the first of configSearchPaths() that exists
 * (none → a ConfigError listing where it looked). See parseConfig for what is checked.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<McpwireConfig> {
  const env = options.env ?? runtime.env();
  const cwd = options.cwd ?? runtime.cwd();
  if (options.path !== undefined) {
    const file = resolvePath(cwd, options.path);
    let text: string;
    try {
      text = await runtime.readTextFile(file);
    } catch (error) {
      throw unreadable(options.path, file, error, "check the --config path");
    }
    return parseConfig(text, { file, env, displayName: options.path });
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
    return parseConfig(text, { file, env, displayName });
  }
  throw new ConfigError(
    `no config file found; looked for ${candidates.join(", ")}; create mcpwire.yaml or pass --config FILE`,
  );
}

/**
 * Where loadConfig looks when no path is given, in order: `mcpwire.yaml` and `.mcp.json` in
 * cwd, then `$XDG_CONFIG_HOME/mcpwire/config.yaml` (XDG_CONFIG_HOME defaults to `~/.config`).
 */
export function configSearchPaths(options: { cwd?: string; env?: Env } = {}): string[] {
  const cwd = options.cwd ?? runtime.cwd();
  const env = options.env ?? runtime.env();
  const paths = [resolvePath(cwd, "mcpwire.yaml"), resolvePath(cwd, ".mcp.json")];
  const xdg = env.XDG_CONFIG_HOME;
  const home = env.HOME || (WINDOWS ? env.USERPROFILE : undefined);
  // XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const configHome = xdg && isAbsolutePath(xdg) ? xdg : home ? resolvePath(home, ".config") : undefined;
  if (configHome !== undefined) paths.push(resolvePath(configHome, "mcpwire/config.yaml"));
  return paths;
}

function unreadable(shown: string, file: string, error: unknown, todo: string): ConfigError {
  const code = error instanceof FileError ? error.code : "EUNKNOWN";
  const reason = READ_FAILURES[code] ?? messageOf(error);
  const where = shown === file ? `"${file}"` : `"${shown}" (${file})`;
  const what = code === "ENOENT" ? `config file ${where} not found: ${reason}` : `cannot read config file ${where}: ${reason}`;
  return new ConfigError(`${what} (${code}); ${todo}`, { file });
}

const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a component of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory, not a file",
};
