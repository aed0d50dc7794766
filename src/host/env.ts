// The child-environment policy: a stdio server gets a safe baseline of our environment plus
// its configured `env`, and nothing else — no tokens or keys we happen to hold leak into it.

import { setOwn } from "../common/json.ts";
import { runtime } from "../runtime/mod.ts";

/**
 * What every child inherits from us, when we have it: enough to find programs, a home, a
 * terminal, a locale, a temp dir and a time zone. Every `XDG_*` variable is inherited too.
 */
export const CHILD_ENV_BASELINE: readonly string[] = [
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ",
];

/** Inherited as well on Windows, where names are matched without regard to case (`Path`, `SystemRoot`). */
export const CHILD_ENV_BASELINE_WINDOWS: readonly string[] = [
  "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP", "USERPROFILE", "USERNAME",
  "HOMEDRIVE", "HOMEPATH", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)",
  "COMMONPROGRAMFILES", "PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "OS",
];

/** Prefixes of variable families inherited whole. */
export const CHILD_ENV_BASELINE_PREFIXES: readonly string[] = ["XDG_"];

const POSIX_NAMES = new Set(CHILD_ENV_BASELINE);
const WINDOWS_NAMES = new Set([...CHILD_ENV_BASELINE, ...CHILD_ENV_BASELINE_WINDOWS]);

export interface ChildEnvironmentOptions {
  /** Apply the Windows rules (the extra names, case-insensitive matching). Default: when we run on Windows. */
  windows?: boolean;
}

/** Whether the policy passes a variable of ours with this name on to a child. */
export function isBaselineVariable(name: string, options: ChildEnvironmentOptions = {}): boolean {
  const windows = options.windows ?? runtime.os === "windows";
  const key = windows ? name.toUpperCase() : name;
  if ((windows ? WINDOWS_NAMES : POSIX_NAMES).has(key)) return true;
  return CHILD_ENV_BASELINE_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/**
 * The whole environment of a stdio server: the baseline variables present in `parentEnv`,
 * then `serverEnv` (the server's configured, interpolated `env`) on top — it wins over the
 * baseline. Nothing else of the parent's is passed on. Give the result to StdioTransport's
 * `env`, which uses it exactly as given.
 */
export function childEnvironment(
  serverEnv: Readonly<Record<string, string>> = {},
  parentEnv: Readonly<Record<string, string | undefined>> = runtime.env(),
  options: ChildEnvironmentOptions = {},
): Record<string, string> {
  const windows = options.windows ?? runtime.os === "windows";
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value !== undefined && isBaselineVariable(name, { windows })) setOwn(env, name, value);
  }
  for (const [name, value] of Object.entries(serverEnv)) {
    if (windows) {
      // Windows names are one variable whatever their case: the server's `PATH` replaces our `Path`.
      const upper = name.toUpperCase();
      for (const existing of Object.keys(env)) if (existing !== name && existing.toUpperCase() === upper) delete env[existing];
    }
    setOwn(env, name, value); // `__proto__` is a variable name like any other
  }
  return env;
}
