// What every step of reading a config file shares: the file and how messages name it, the parsed
// text with its positions, the environment `${VAR}` reads, the warnings so far; and the one
// shape of a positioned problem (`file:line:column: server "x": …`).

import { clipText } from "../../common/preview.ts";
import type { Parsed, Path, Position } from "./syntax.ts";
import { ConfigError } from "./types.ts";

/** An environment to read `${VAR}` from. */
export type Env = Readonly<Record<string, string | undefined>>;

export interface Context {
  file: string;
  display: string;
  parsed: Parsed;
  json: boolean;
  env: Env;
  warnings: ConfigError[];
}

export function problem(
  context: Context,
  position: Position | undefined,
  detail: string,
  where: { server?: string; key?: string; variable?: string } = {},
): ConfigError {
  const place = position ? `${context.display}:${position.line}:${position.column}` : context.display;
  const who = where.server === undefined ? "" : `server "${where.server}"${/^(has|must) /.test(detail) ? " " : ": "}`;
  return new ConfigError(`${place}: ${who}${detail}`, "invalid-config", { file: context.file, ...position, ...where });
}

export function byPosition(a: ConfigError, b: ConfigError): number {
  return (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? Infinity) - (b.column ?? Infinity);
}

/** A value as a message names it: "the number 3", "a list" (YAML) / "an array" (JSON), "missing". */
export function describe(value: unknown, json: boolean): string {
  if (value === undefined) return "missing";
  if (value === null) return "empty (null)";
  if (typeof value === "string") {
    if (value === "") return "an empty string";
    return `the string ${JSON.stringify(clipText(value, 40))}`;
  }
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return json ? "an array" : "a list";
  return json ? "an object" : "a mapping";
}

/** `env.API_KEY`, `args[2]`, `tools.include[0]`. */
export function formatKey(path: Path): string {
  let out = "";
  for (const segment of path) out += typeof segment === "number" ? `[${segment}]` : out === "" ? segment : `.${segment}`;
  return out;
}
