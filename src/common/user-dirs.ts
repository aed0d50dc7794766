// Where mcpwire keeps a user's files — the XDG Base Directory spec: `$XDG_CACHE_HOME`,
// `$XDG_CONFIG_HOME` or `$XDG_STATE_HOME` (a relative one is invalid and ignored), else
// `~/.cache`, `~/.config` or `~/.local/state`; on Windows `%LOCALAPPDATA%` or `%APPDATA%`.
// Only text: the environment is passed in.

/**
 * `cache` for what can be made again (results, eras), `config` for what the user decided
 * (tokens), `state` for what persists between runs and is not worth backing up with the
 * config (tool pins).
 */
export type UserDirectoryKind = "cache" | "config" | "state";

const PLACES = {
  cache: { xdg: "XDG_CACHE_HOME", windows: "LOCALAPPDATA", home: ".cache" },
  config: { xdg: "XDG_CONFIG_HOME", windows: "APPDATA", home: ".config" },
  state: { xdg: "XDG_STATE_HOME", windows: "LOCALAPPDATA", home: ".local/state" },
} as const;

/** `<base>/mcpwire` for `kind`, or undefined when neither the XDG variable nor a home says where. */
export function mcpwireDirectory(kind: UserDirectoryKind, env: Readonly<Record<string, string | undefined>>, os: string): string | undefined {
  const place = PLACES[kind];
  const xdg = env[place.xdg];
  if (xdg && (xdg.startsWith("/") || /^[A-Za-z]:[\\/]/.test(xdg))) return `${trimSlash(xdg)}/mcpwire`;
  const windows = env[place.windows];
  if (os === "windows" && windows) return `${trimSlash(windows)}/mcpwire`;
  const home = env.HOME ?? env.USERPROFILE;
  return home ? `${trimSlash(home)}/${place.home}/mcpwire` : undefined;
}

/** A path without its trailing separators (`/` stays `/`). */
export function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, "") : path;
}

/** Whether an environment variable turns one of mcpwire's files off: off, 0, false or no (any case, trimmed). */
export function switchedOff(value: string | undefined): boolean {
  return /^(off|0|false|no)$/i.test(value?.trim() ?? "");
}
