// File paths of a config: where the search looks, a relative `cwd` or root against the file's
// directory. No node:path here: only src/runtime/ knows the runtime.

import { runtime } from "../../runtime/mod.ts";
import type { Env } from "./context.ts";

export const WINDOWS = runtime.os === "windows";

export function isAbsolutePath(path: string): boolean {
  return WINDOWS ? /^(?:[A-Za-z]:)?[\\/]/.test(path) : path.startsWith("/");
}

/** path when absolute, else base/path; `.` and `..` segments resolved. */
export function resolvePath(base: string, path: string): string {
  return normalize(isAbsolutePath(path) ? path : `${base}/${path}`);
}

export function directoryOf(file: string): string {
  const cut = Math.max(file.lastIndexOf("/"), WINDOWS ? file.lastIndexOf("\\") : -1);
  return cut === -1 ? "." : cut === 0 ? file.slice(0, 1) : file.slice(0, cut);
}

function normalize(path: string): string {
  const separator = WINDOWS ? "\\" : "/";
  const root = (WINDOWS ? /^(?:[A-Za-z]:)?[\\/]|^[A-Za-z]:/ : /^\//).exec(path)?.[0] ?? "";
  const out: string[] = [];
  for (const segment of path.slice(root.length).split(WINDOWS ? /[\\/]/ : "/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
    else if (segment !== ".." || root === "") out.push(segment);
  }
  const joined = root.replace(/[\\/]$/, separator) + out.join(separator);
  return joined === "" ? "." : joined;
}

/** The user's own config files configSearchPaths ends with: `~/.mcp.json`, then `$XDG_CONFIG_HOME/mcpwire/config.yaml`. */
export function userConfigPaths(env: Env): string[] {
  const paths: string[] = [];
  const xdg = env.XDG_CONFIG_HOME;
  const home = env.HOME || (WINDOWS ? env.USERPROFILE : undefined);
  if (home) paths.push(resolvePath(home, ".mcp.json"));
  // XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const configHome = xdg && isAbsolutePath(xdg) ? xdg : home ? resolvePath(home, ".config") : undefined;
  if (configHome !== undefined) paths.push(resolvePath(configHome, "mcpwire/config.yaml"));
  return paths;
}
