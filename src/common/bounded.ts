// Server data turned into text or copied, with bounds. A server decides how deep and how large its
// JSON is (a log's `data`, a result, `serverInfo`, an error's `data`); JSON.stringify and
// structuredClone recurse once per level, so 100,000 levels is a stack overflow. These walk with a
// depth limit and a size budget and mark what they left out, so the text always names the cut.

import { setOwn } from "./json.ts";
import { McpwireError } from "./mcpwire-error.ts";

/** How deep and how large a rendering or copy may be. */
export type Bounds = {
  /** Levels of objects/arrays kept; deeper values become a marker. Default 64. */
  maxDepth?: number;
  /** Characters of JSON text produced (boundedJson) before the rest is cut. Default 1,000,000. */
  maxChars?: number;
  /** Values (nodes) copied by boundedCopy before the rest is replaced by a marker. Default 100,000. */
  maxNodes?: number;
};

export const DEFAULT_MAX_DEPTH = 64;
export const DEFAULT_MAX_CHARS = 1_000_000;
export const DEFAULT_MAX_NODES = 100_000;

/** The marker put where a value nested deeper than the limit was. */
export function depthMarker(maxDepth: number): string {
  return `[nested deeper than ${maxDepth} levels: not shown]`;
}

/** Internal: thrown by boundedJson's walk when the text is over maxChars, caught there (never escapes). */
class Budget extends McpwireError<"over-budget"> {
  override readonly name = "Budget";
  constructor(maxChars: number) {
    super(`boundedJson: the text is over ${maxChars} characters`, "over-budget");
  }
}

/**
 * JSON text of `value`, never throwing: values past `maxDepth` levels become a marker string,
 * text past `maxChars` is cut with `… [cut: more than N characters]`, cycles become
 * `"[cycle]"`, what JSON cannot hold (bigint, functions) becomes a descriptive string. With
 * `indent`, pretty-printed like JSON.stringify(value, null, indent).
 */
export function boundedJson(value: unknown, bounds: Bounds & { indent?: number } = {}): string {
  const maxDepth = bounds.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxChars = bounds.maxChars ?? DEFAULT_MAX_CHARS;
  const indent = bounds.indent ?? 0;
  const parts: string[] = [];
  let length = 0;
  const seen = new Set<object>();
  const put = (text: string) => {
    parts.push(text);
    length += text.length;
    if (length > maxChars) throw new Budget(maxChars);
  };
  const newline = (depth: number) => (indent > 0 ? "\n" + " ".repeat(indent * depth) : "");
  const walk = (item: unknown, depth: number): void => {
    const json = primitiveJson(item);
    if (json !== undefined) return put(json);
    const object = item as object;
    if (depth >= maxDepth) return put(JSON.stringify(depthMarker(maxDepth)));
    if (seen.has(object)) return put('"[cycle]"');
    seen.add(object);
    if (Array.isArray(object)) {
      put("[");
      for (let i = 0; i < object.length; i++) {
        if (i > 0) put(",");
        put(newline(depth + 1));
        walk(object[i] === undefined || typeof object[i] === "function" ? null : object[i], depth + 1);
      }
      if (object.length > 0) put(newline(depth));
      put("]");
    } else {
      put("{");
      let first = true;
      for (const key of Object.keys(object)) {
        const member = (object as Record<string, unknown>)[key];
        if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
        if (!first) put(",");
        first = false;
        put(newline(depth + 1));
        put(JSON.stringify(key) + (indent > 0 ? ": " : ":"));
        walk(member, depth + 1);
      }
      if (!first) put(newline(depth));
      put("}");
    }
    seen.delete(object);
  };
  try {
    walk(value, 0);
    return parts.join("");
  } catch (error) {
    if (!(error instanceof Budget)) throw error;
    const text = parts.join("").slice(0, maxChars);
    return `${text}… [cut: more than ${maxChars} characters]`;
  }
}

/**
 * A JSON-safe copy of `value` (plain objects, arrays, primitives), never throwing: values past
 * `maxDepth` levels, and every value after the first `maxNodes`, become a marker string; cycles
 * become "[cycle]". For copying server data into state a caller keeps (status, events).
 */
export function boundedCopy<T>(value: T, bounds: Bounds = {}): T {
  const maxDepth = bounds.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxNodes = bounds.maxNodes ?? DEFAULT_MAX_NODES;
  let nodes = 0;
  const seen = new Set<object>();
  const walk = (item: unknown, depth: number): unknown => {
    if (++nodes > maxNodes) return `[more than ${maxNodes} values: not copied]`;
    if (item === null || typeof item !== "object") {
      if (typeof item === "bigint") return item.toString();
      if (typeof item === "function" || typeof item === "symbol") return undefined;
      return item;
    }
    if (depth >= maxDepth) return depthMarker(maxDepth);
    if (seen.has(item)) return "[cycle]";
    seen.add(item);
    let out: unknown;
    if (Array.isArray(item)) out = item.map((member) => walk(member, depth + 1));
    else {
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(item)) {
        const member = walk((item as Record<string, unknown>)[key], depth + 1);
        if (member !== undefined) setOwn(copy, key, member); // a `__proto__` key stays a key
      }
      out = copy;
    }
    seen.delete(item);
    return out;
  };
  return walk(value, 0) as T;
}

/** The nesting depth of `value`, counting no further than `limit` (cheap for shallow values). */
export function depthOf(value: unknown, limit: number = DEFAULT_MAX_DEPTH + 1): number {
  let deepest = 0;
  const walk = (item: unknown, depth: number): void => {
    if (item === null || typeof item !== "object" || depth >= limit) return;
    if (depth + 1 > deepest) deepest = depth + 1;
    for (const member of Array.isArray(item) ? item : Object.values(item)) {
      if (deepest >= limit) return;
      walk(member, depth + 1);
    }
  };
  walk(value, 0);
  return deepest;
}

/**
 * The nesting depth of JSON text, counting no further than `limit`, found without parsing it:
 * one pass, nothing allocated, brackets inside strings skipped. For text that is not JSON it
 * counts brackets all the same (JSON.parse judges the rest). Lets text too deep for a later
 * recursive step (JSON.stringify of a request, a schema walk) be refused before it is parsed.
 */
export function jsonTextDepth(text: string, limit: number = DEFAULT_MAX_DEPTH + 1): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // To the closing quote: one not preceded by an odd number of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return deepest;
      i = end;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > deepest && (deepest = depth) >= limit) return deepest;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return deepest;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

function primitiveJson(item: unknown): string | undefined {
  switch (typeof item) {
    case "string":
      return JSON.stringify(item);
    case "number":
      return Number.isFinite(item) ? String(item) : "null";
    case "boolean":
      return String(item);
    case "bigint":
      return JSON.stringify(`${item}n`);
    case "undefined":
    case "function":
    case "symbol":
      return "null";
    default:
      if (item === null) return "null";
      if (typeof (item as { toJSON?: unknown }).toJSON === "function") {
        try {
          const json = JSON.stringify(item);
          return json === undefined ? "null" : json;
        } catch {
          return JSON.stringify(`[${(item as object).constructor?.name ?? "object"} that cannot be shown]`);
        }
      }
      return undefined;
  }
}
