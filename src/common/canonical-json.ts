// Canonical JSON — RFC 8785 (JSON Canonicalization Scheme, JCS): the one text of a JSON value
// that a digest is taken over. Object keys sorted by their UTF-16 code units, numbers as
// ECMAScript writes them, strings with only the escapes JSON requires, no whitespace.

import { McpwireError } from "./mcpwire-error.ts";

/** Why a value has no canonical form: a number JSON cannot hold, a lone surrogate, a value that is not JSON, too deep. */
export type CanonicalJsonErrorCode = "not-canonicalizable";

/** A value that has no canonical JSON text (RFC 8785 3.2.2.3: NaN and Infinity; RFC 7493 (I-JSON) 2.1: lone surrogates). */
export class CanonicalJsonError extends McpwireError<CanonicalJsonErrorCode> {
  override readonly name = "CanonicalJsonError";
}

/** Nesting deeper than this is refused (the writer recurses once per level). */
export const MAX_CANONICAL_DEPTH = 512;

/** The RFC 8785 text of `value` (plain JSON data: objects, arrays, strings, finite numbers, booleans, null). */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts, 0);
  return parts.join("");
}

function write(value: unknown, out: string[], depth: number): void {
  if (depth > MAX_CANONICAL_DEPTH) throw new CanonicalJsonError(`nested deeper than ${MAX_CANONICAL_DEPTH} levels`, "not-canonicalizable");
  switch (typeof value) {
    case "string":
      out.push(quote(value));
      return;
    case "number":
      // RFC 8785 3.2.2.3: ECMAScript's Number serialization (ECMA-262 Number::toString), -0 as 0.
      if (!Number.isFinite(value)) throw new CanonicalJsonError(`the number ${value} has no JSON form`, "not-canonicalizable");
      out.push(Object.is(value, -0) ? "0" : String(value));
      return;
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "object": {
      if (value === null) {
        out.push("null");
        return;
      }
      if (Array.isArray(value)) {
        out.push("[");
        for (let index = 0; index < value.length; index++) {
          if (index > 0) out.push(",");
          write(value[index], out, depth + 1);
        }
        out.push("]");
        return;
      }
      // RFC 8785 3.2.3: properties sorted by their names as arrays of UTF-16 code units
      // (what Array.prototype.sort does to strings by default).
      const keys = Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined).sort();
      out.push("{");
      for (const [index, key] of keys.entries()) {
        if (index > 0) out.push(",");
        out.push(quote(key), ":");
        write((value as Record<string, unknown>)[key], out, depth + 1);
      }
      out.push("}");
      return;
    }
    default:
      throw new CanonicalJsonError(`a ${typeof value} is not a JSON value`, "not-canonicalizable");
  }
}

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * RFC 8785 3.2.2.2: a string as ECMAScript's JSON.stringify quotes it — `\b \t \n \f \r \" \\`,
 * other controls as `\u00xx` (lower-case hex), everything else as it is. A lone surrogate (which
 * JSON.stringify would write as `\udxxx`) is refused: JCS takes I-JSON input only.
 */
function quote(text: string): string {
  if (LONE_SURROGATE.test(text)) {
    throw new CanonicalJsonError(`the string ${JSON.stringify(text.slice(0, 40))} holds a lone surrogate (not I-JSON, RFC 7493 2.1)`, "not-canonicalizable");
  }
  return JSON.stringify(text);
}
