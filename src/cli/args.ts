// A small command-line option parser: `--name value`, `--name=value`, boolean flags,
// repeatable options, and positional words. Unknown options are errors, not ignored.

import { McpwireError, type McpwireErrorOptions } from "../common/mcpwire-error.ts";
import type { UsageErrorCode } from "./errors.ts";

/**
 * A command line mcpwire cannot run (an unknown option, a missing value, a bad quote, …): the
 * CLI prints the message and a pointer to the verb's help, and exits 2. `code` is "usage",
 * or what was wrong with `mcpwire call`'s arguments (CallArgumentsError).
 */
export class UsageError extends McpwireError<UsageErrorCode> {
  override readonly name: string = "UsageError";
  constructor(message: string, code: UsageErrorCode = "usage", options?: McpwireErrorOptions) {
    super(message, code, options);
  }
}

export interface OptionSpec {
  /**
   * "flag" takes no value; "string" takes one; "list" takes one each time it appears;
   * "optional" takes one only as `--name=value` (`--name` alone: the value "").
   */
  kind: "flag" | "string" | "list" | "optional";
  /** What its value is, for shell completion (`mcpwire completion`): a file, a directory, or one of these words. */
  values?: "file" | "directory" | readonly string[];
}

export interface ParsedArgs {
  flags: Set<string>;
  values: Map<string, string>;
  lists: Map<string, string[]>;
  positional: string[];
  /** Every option that takes a value, in command-line order (for options that apply to the one before them, such as --env after --stdio). */
  sequence: Array<{ name: string; value: string }>;
}

export function parseArgs(argv: readonly string[], spec: Record<string, OptionSpec>): ParsedArgs {
  const parsed: ParsedArgs = { flags: new Set(), values: new Map(), lists: new Map(), positional: [], sequence: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!; // i < argv.length
    if (arg === "--") {
      parsed.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      parsed.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const option = spec[name];
    if (option === undefined) {
      const known = Object.keys(spec).map((key) => `--${key}`).join(", ");
      throw new UsageError(`unknown option --${name} (known: ${known})`);
    }
    if (option.kind === "flag") {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      parsed.flags.add(name);
      continue;
    }
    if (option.kind === "optional") {
      parsed.values.set(name, eq === -1 ? "" : arg.slice(eq + 1));
      parsed.sequence.push({ name, value: eq === -1 ? "" : arg.slice(eq + 1) });
      continue;
    }
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i]!;
    else throw new UsageError(`--${name} needs a value`);
    parsed.sequence.push({ name, value });
    if (option.kind === "string") parsed.values.set(name, value);
    else parsed.lists.set(name, [...(parsed.lists.get(name) ?? []), value]);
  }
  return parsed;
}

/** A `--NAME S` option in seconds as milliseconds (undefined when absent), or a UsageError naming it. */
export function secondsOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--${name} must be a positive number of seconds (got "${value}")`);
  return seconds * 1000;
}

/** Parses a positive integer option value, or throws a UsageError naming the option. */
export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer (got "${value}")`);
  return n;
}
