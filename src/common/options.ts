// Option objects checked where a public constructor takes them: an unknown key (a misspelt
// option, `cmd` for `command`) or a missing required one is an InvalidOptionsError naming it
// and the nearest known option, not a runtime's error about an undefined value further on.
// Only constructors call it, never a per-message path.

import { isObject } from "./json.ts";
import { McpwireError } from "./mcpwire-error.ts";
import { nearestName } from "./nearest-name.ts";

/** Why an options object was refused: always "invalid-options" (the message says which keys). */
export type InvalidOptionsCode = "invalid-options";

/** An options object with an unknown key or without a required one; `unknown` and `missing` name them. */
export class InvalidOptionsError extends McpwireError<InvalidOptionsCode> {
  override readonly name = "InvalidOptionsError";
  /** Who took the options: `StdioTransport`, `Client`, … */
  readonly who: string;
  /** The keys given that `who` does not know. */
  readonly unknown: readonly string[];
  /** The required keys not given (or given as undefined). */
  readonly missing: readonly string[];

  constructor(message: string, who: string, unknown: readonly string[], missing: readonly string[]) {
    super(message, "invalid-options");
    this.who = who;
    this.unknown = unknown;
    this.missing = missing;
  }
}

/**
 * The option names of `T`, written once as `{ name: true, … }`: the type makes the list whole
 * (a key of `T` left out, or one `T` does not have, is a compile error), so that an option the
 * code reads is never refused as unknown.
 */
export function optionNames<T>(names: { [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(names);
}

/**
 * Throws an InvalidOptionsError when `given` is not an object, has a key not in `known`, or lacks
 * one of `required` (`StdioTransport: unknown option "cmd" (did you mean "command"?); required
 * option "command" is missing`). `undefined` is no options at all, fine when nothing is required.
 */
export function checkOptions(who: string, given: unknown, known: readonly string[], required: readonly string[] = []): void {
  if (given === undefined && required.length === 0) return;
  if (!isObject(given) || Array.isArray(given)) {
    const shown = given === null ? "null" : Array.isArray(given) ? "an array" : typeof given;
    throw new InvalidOptionsError(
      `${who}: options must be an object (got ${shown})` +
        (required.length > 0 ? `; required: ${required.map((name) => `"${name}"`).join(", ")}` : ""),
      who,
      [],
      [...required],
    );
  }
  let unknown: string[] | undefined;
  for (const key in given) {
    if (Object.hasOwn(given, key) && !known.includes(key)) (unknown ??= []).push(key);
  }
  const missing = required.filter((name) => given[name] === undefined);
  if (unknown === undefined && missing.length === 0) return;
  const parts: string[] = [];
  for (const key of unknown ?? []) {
    // A required option that is missing is the likeliest meaning (`cmd` is "command", not "cwd").
    const near = nearestName(key, missing) ?? nearestName(key, known);
    parts.push(`unknown option ${JSON.stringify(key)}` + (near === undefined ? "" : ` (did you mean "${near}"?)`));
  }
  for (const name of missing) parts.push(`required option "${name}" is missing`);
  const help = unknown === undefined ? "" : `; known options: ${known.join(", ")}`;
  throw new InvalidOptionsError(`${who}: ${parts.join("; ")}${help}`, who, unknown ?? [], missing);
}
