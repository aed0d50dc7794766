// The environment of a child process (a stdio server): a safe baseline of ours — enough to find
// programs, a home, a terminal, a locale — plus the server's own `env`, and nothing else, so no
// token or key we happen to hold leaks into it. The one list of that baseline: StdioTransport's
// default and the host's config (host/env.ts) both use it.

import { setOwn } from "../common/json.ts";
import { coreRuntime } from "../runtime/mod.ts";

/**
 * What every child inherits from us, when we have it: enough to find programs, a home, a
 * terminal, a locale, a temp dir and a time zone. Every `XDG_*` variable is inherited too.
 */
export const CHILD_ENV_BASELINE: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TMPDIR",
  "TZ",
];

/** Inherited as well on Windows, where names are matched without regard to case (`Path`, `SystemRoot`). */
export const CHILD_ENV_BASELINE_WINDOWS: readonly string[] = [
  "SYSTEMROOT",
  "SYSTEMDRIVE",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
  "TEMP",
  "TMP",
  "USERPROFILE",
  "USERNAME",
  "HOMEDRIVE",
  "HOMEPATH",
  "APPDATA",
  "LOCALAPPDATA",
  "PROGRAMDATA",
  "PROGRAMFILES",
  "PROGRAMFILES(X86)",
  "COMMONPROGRAMFILES",
  "PROCESSOR_ARCHITECTURE",
  "NUMBER_OF_PROCESSORS",
  "OS",
];

/** Prefixes of variable families inherited whole. */
export const CHILD_ENV_BASELINE_PREFIXES: readonly string[] = ["XDG_"];

const POSIX_NAMES = new Set(CHILD_ENV_BASELINE);
const WINDOWS_NAMES = new Set([...CHILD_ENV_BASELINE, ...CHILD_ENV_BASELINE_WINDOWS]);

/**
 * How a child's environment is made from the `env` given for it:
 * - "baseline" (the default): the baseline variables of ours (CHILD_ENV_BASELINE: PATH, HOME, …)
 *   with `env` on top — what a config file's `env` means, and what the official SDK does;
 * - "exact": `env` alone, exactly as given (no PATH unless it is in `env`);
 * - "inherit": our whole environment with `env` on top — every secret we hold included.
 */
export type EnvMode = "baseline" | "exact" | "inherit";

export const ENV_MODES: readonly EnvMode[] = ["baseline", "exact", "inherit"];

export interface ChildEnvironmentOptions {
  /** Apply the Windows rules (the extra names, case-insensitive matching). Default: when we run on Windows. */
  windows?: boolean;
}

/** Whether the policy passes a variable of ours with this name on to a child. */
export function isBaselineVariable(name: string, options: ChildEnvironmentOptions = {}): boolean {
  const windows = options.windows ?? coreRuntime.os === "windows";
  const key = windows ? name.toUpperCase() : name;
  if ((windows ? WINDOWS_NAMES : POSIX_NAMES).has(key)) return true;
  return CHILD_ENV_BASELINE_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/**
 * The whole environment of a stdio server: the baseline variables present in `parentEnv`,
 * then `serverEnv` (the server's configured, interpolated `env`) on top — it wins over the
 * baseline. Nothing else of the parent's is passed on. This is what StdioTransport does with
 * its `env` by default (`envMode: "baseline"`).
 */
export function childEnvironment(
  serverEnv: Readonly<Record<string, string>> = {},
  parentEnv: Readonly<Record<string, string | undefined>> = coreRuntime.env(),
  options: ChildEnvironmentOptions = {},
): Record<string, string> {
  const windows = options.windows ?? coreRuntime.os === "windows";
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value !== undefined && isBaselineVariable(name, { windows })) setOwn(env, name, value);
  }
  return overlay(env, serverEnv, windows);
}

/** The environment a child gets from `env` under `mode` (see EnvMode). */
export function environmentFor(
  mode: EnvMode,
  env: Readonly<Record<string, string>> = {},
  parentEnv: Readonly<Record<string, string | undefined>> = coreRuntime.env(),
  options: ChildEnvironmentOptions = {},
): Record<string, string> {
  if (mode === "exact") return overlay({}, env, false);
  if (mode === "baseline") return childEnvironment(env, parentEnv, options);
  const ours: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) if (value !== undefined) setOwn(ours, name, value);
  return overlay(ours, env, options.windows ?? coreRuntime.os === "windows");
}

/** `base` with `env` on top; on Windows a name replaces its other spellings (`PATH` over `Path`). */
function overlay(base: Record<string, string>, env: Readonly<Record<string, string>>, windows: boolean): Record<string, string> {
  for (const [name, value] of Object.entries(env)) {
    if (windows) {
      // Windows names are one variable whatever their case: the server's `PATH` replaces our `Path`.
      const upper = name.toUpperCase();
      for (const existing of Object.keys(base)) if (existing !== name && existing.toUpperCase() === upper) delete base[existing];
    }
    setOwn(base, name, value); // `__proto__` is a variable name like any other
  }
  return base;
}

/** Where a variable's value is read on this platform: `PATH`, or on Windows `Path` or any spelling. */
export function variableOf(env: Readonly<Record<string, string>>, name: string, options: ChildEnvironmentOptions = {}): string | undefined {
  if (env[name] !== undefined) return env[name];
  if (!(options.windows ?? coreRuntime.os === "windows")) return undefined;
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) if (key.toUpperCase() === upper) return value;
  return undefined;
}
