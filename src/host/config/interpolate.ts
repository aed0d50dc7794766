// `${VAR}` interpolation of config strings: `${NAME}` is the variable's value, `${NAME:-default}`
// is the value, or the default when NAME is unset or empty, and `$$` is a literal `$`.

import { McpwireError } from "../../common/mcpwire-error.ts";
import { clipText } from "../../common/preview.ts";

/** Why a string could not be interpolated: `unset-variable` (a `${NAME}` without a default names an unset variable), `bad-interpolation` (a malformed `${…}`). */
export type InterpolationErrorCode = "unset-variable" | "bad-interpolation";

/** Why a string could not be interpolated. */
export class InterpolationError extends McpwireError<InterpolationErrorCode> {
  override readonly name = "InterpolationError";
  /** The unset variable (the first, when several are), for `unset-variable`. */
  readonly variable?: string;
  /** Every unset variable the string names, in order, for `unset-variable`. */
  readonly variables: string[];

  constructor(message: string, code: InterpolationErrorCode, options: { variables?: string[]; cause?: unknown } = {}) {
    super(message, code, options);
    this.variables = options.variables ?? [];
    this.variable = this.variables[0];
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces every `${NAME}` and `${NAME:-default}` in text with values from env.
 *
 * - `${NAME}`: NAME's value; an unset NAME is an InterpolationError (an empty value is used as is).
 * - `${NAME:-default}`: NAME's value, or `default` when NAME is unset or empty (as in a POSIX
 *   shell). The default is interpolated too, so `${A:-${B:-x}}` works.
 * - `$$` is a literal `$` (so `$${HOME}` gives the text `${HOME}`, as in docker compose).
 * - A `$` followed by anything else, `$HOME` included, is left alone: only braces interpolate.
 *
 * Throws InterpolationError naming every unset variable, or the malformed `${…}`. `used` is told
 * of each variable whose value went into the text (the config keeps those named like
 * credentials out of every output: secrets.ts).
 */
export function interpolate(text: string, env: Readonly<Record<string, string | undefined>>, used?: (name: string, value: string) => void): string {
  if (!text.includes("$")) return text;
  const unset: string[] = [];
  const value = expand(text, env, unset, used);
  if (unset.length > 0) {
    const names = unset.map((name) => "${" + name + "}");
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    throw new InterpolationError(
      `${list} ${unset.length === 1 ? "is" : "are"} not set; set ${unset.length === 1 ? "it" : "them"} in the ` +
        `environment, or give a default with \${${unset[0]}:-default}`,
      "unset-variable",
      { variables: unset },
    );
  }
  return value;
}

function expand(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  unset: string[],
  used: ((name: string, value: string) => void) | undefined,
): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf("$", i);
    if (dollar === -1 || dollar === text.length - 1) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, dollar);
    const next = text[dollar + 1];
    if (next === "$") {
      out += "$";
      i = dollar + 2;
      continue;
    }
    if (next !== "{") {
      out += "$";
      i = dollar + 1;
      continue;
    }
    const close = closingBrace(text, dollar + 2);
    if (close === -1) {
      throw new InterpolationError(
        `"${clipText(text.slice(dollar), 20)}" has no closing "}"; ` +
          "write ${NAME} or ${NAME:-default}, or $${ for a literal ${",
        "bad-interpolation",
      );
    }
    const inner = text.slice(dollar + 2, close);
    const sep = inner.indexOf(":-");
    const name = sep === -1 ? inner : inner.slice(0, sep);
    if (!NAME.test(name)) {
      throw new InterpolationError(
        `"\${${inner}}" is not a variable reference; write \${NAME} or \${NAME:-default} (NAME is letters, ` +
          "digits and _), or $${ for a literal ${",
        "bad-interpolation",
      );
    }
    // Own variables only: `${constructor}` is an unset variable, not Object.prototype's.
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (sep === -1) {
      if (value === undefined) unset.push(name);
      else {
        out += value;
        used?.(name, value);
      }
    } else if (value !== undefined && value !== "") {
      out += value;
      used?.(name, value);
    } else {
      out += expand(inner.slice(sep + 2), env, unset, used);
    }
    i = close + 1;
  }
  return out;
}

/** One piece of a config string as written: literal text (`$$` already one `$`), or a `${NAME}` / `${NAME:-default}` reference. */
export type InterpolationPart = { text: string } | { variable: string; fallback?: string };

/**
 * A config string as written, in pieces, without reading any variable (`mcpwire export` writes
 * the references back in another app's syntax). `fallback` is the default as written. Throws
 * InterpolationError for a malformed `${…}`, as interpolate does.
 */
export function interpolationParts(text: string): InterpolationPart[] {
  const parts: InterpolationPart[] = [];
  let literal = "";
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf("$", i);
    if (dollar === -1 || dollar === text.length - 1) {
      literal += text.slice(i);
      break;
    }
    literal += text.slice(i, dollar);
    const next = text[dollar + 1];
    if (next !== "{") {
      literal += "$";
      i = dollar + (next === "$" ? 2 : 1);
      continue;
    }
    const close = closingBrace(text, dollar + 2);
    const inner = close === -1 ? "" : text.slice(dollar + 2, close);
    const sep = inner.indexOf(":-");
    const name = sep === -1 ? inner : inner.slice(0, sep);
    if (close === -1 || !NAME.test(name)) {
      throw new InterpolationError(
        `"${clipText(text.slice(dollar), 20)}" is not a variable reference; write \${NAME} or \${NAME:-default}`,
        "bad-interpolation",
      );
    }
    if (literal !== "") parts.push({ text: literal });
    literal = "";
    parts.push(sep === -1 ? { variable: name } : { variable: name, fallback: inner.slice(sep + 2) });
    i = close + 1;
  }
  if (literal !== "") parts.push({ text: literal });
  return parts;
}

/** The index of the `}` that closes a `${` whose body starts at from, or -1. Nested `${…}` count. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (char === "$" && (text[i + 1] === "$" || text[i + 1] === "{")) {
      if (text[i + 1] === "{") depth++;
      i++;
    } else if (char === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}
