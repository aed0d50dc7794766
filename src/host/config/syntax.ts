// Config text parsed with positions: YAML (the `yaml` package's document, for line:column of every
// key and value) and JSON (JSON.parse for the value, the same text read as YAML for positions).

import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { messageOf } from "../../common/error-text.ts";
import { findJsonError } from "./json-error.ts";
import { nestingBeyond, nestingMessage, type NestingSyntax } from "./nesting.ts";
import { yamlError } from "./yaml-error.ts";

export type ConfigFormat = "yaml" | "json";

/** Where a value is: keys of mappings, indexes of lists. */
export type Path = readonly (string | number)[];

export interface Position {
  line: number;
  column: number;
}

/** Line and column (1-based) of an offset in `text`, counting lines by `\n`. */
export function positionIn(text: string, offset: number): Position {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

export interface Parsed {
  /** The whole document as plain data (undefined after a syntax error). */
  value: unknown;
  syntaxError?: { offset: number; message: string };
  /** Non-fatal findings of the parser (a JSON key given twice, an unknown YAML tag). */
  warnings: { offset: number; message: string }[];
  positionAt(offset: number): Position;
  /** Where the value (or the key) at path is written; the nearest enclosing place when it is not found. */
  locate(path: Path, which?: "key" | "value"): Position | undefined;
  /** The scalar at path as written in the file (`1.10`, `0x1F`, `true`). */
  sourceOf(path: Path): string | undefined;
}

export function formatOf(file: string, text: string): ConfigFormat {
  if (/\.json$/i.test(file)) return "json";
  if (/\.ya?ml$/i.test(file)) return "yaml";
  return text.trimStart().startsWith("{") ? "json" : "yaml";
}

export function parseYaml(text: string): Parsed {
  const deep = tooDeep(text, "yaml");
  if (deep) return deep;
  const counter = new LineCounter();
  // merge: `<<: *defaults` shares settings between servers, as agent configs often do.
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, merge: true, uniqueKeys: true });
  const parsed = locator(doc, counter);
  if (doc.errors.length > 0) {
    // Where the fault is, which is not always where the parser noticed it (yaml-error.ts).
    parsed.syntaxError = yamlError(doc, text);
    return parsed;
  }
  for (const warning of doc.warnings) parsed.warnings.push({ offset: warning.pos[0], message: `YAML: ${warning.message}` });
  try {
    parsed.value = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    parsed.syntaxError = { offset: 0, message: messageOf(error) };
  }
  return parsed;
}

export function parseJson(text: string): Parsed {
  // JSON.parse gives the value (JSON's own rules, e.g. the last of duplicate keys wins); the
  // same text read as YAML (a superset of JSON) gives positions.
  const deep = tooDeep(text, "json");
  if (deep) return deep;
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const parsed = locator(doc, counter);
  try {
    parsed.value = JSON.parse(text);
  } catch (error) {
    parsed.syntaxError = findJsonError(text) ?? { offset: 0, message: messageOf(error) };
    return parsed;
  }
  for (const error of doc.errors) {
    if (error.code !== "DUPLICATE_KEY") continue;
    const key = /"(?:[^"\\]|\\.)*"/y;
    key.lastIndex = error.pos[0];
    const name = key.exec(text)?.[0] ?? "a key";
    parsed.warnings.push({ offset: error.pos[0], message: `${name} appears twice in one object; the last one is used` });
  }
  return parsed;
}

/**
 * A text nested beyond MAX_CONFIG_NESTING, as a syntax error at the place it goes too deep,
 * found before the yaml package (which recurses per level) reads it; undefined when it is fine.
 */
export function tooDeep(text: string, syntax: NestingSyntax): Parsed | undefined {
  const offset = nestingBeyond(text, syntax);
  if (offset === undefined) return undefined;
  return {
    value: undefined,
    syntaxError: { offset, message: nestingMessage() },
    warnings: [],
    positionAt: (at) => positionIn(text, at),
    locate: () => undefined,
    sourceOf: () => undefined,
  };
}

function locator(doc: Document, counter: LineCounter): Parsed {
  const positionAt = (offset: number): Position => {
    const { line, col } = counter.linePos(offset);
    return { line, column: col };
  };
  /** The node at path, or the deepest one found on the way, and whether the whole path was found. */
  const walk = (path: Path, which: "key" | "value") => {
    let node: unknown = doc.contents;
    for (const [index, segment] of path.entries()) {
      if (isAlias(node)) node = node.resolve(doc);
      let next: unknown;
      if (isMap(node)) {
        // The last of equal keys, as JSON.parse takes it (in YAML a repeated key is an error).
        const pair = node.items.findLast((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (pair === undefined) return { node, complete: false };
        next = index === path.length - 1 && which === "key" ? pair.key : pair.value ?? pair.key;
      } else if (isSeq(node) && typeof segment === "number") {
        next = node.items[segment];
      }
      if (next === undefined || next === null) return { node, complete: false };
      node = next;
    }
    return { node, complete: true };
  };
  const startOf = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] | null } | null)?.range;
    return range ? range[0] : undefined;
  };
  return {
    value: undefined,
    warnings: [],
    positionAt,
    locate(path, which = "value") {
      const offset = startOf(walk(path, which).node);
      return offset === undefined ? undefined : positionAt(offset);
    },
    sourceOf(path) {
      const { node, complete } = walk(path, "value");
      return complete && isScalar(node) && typeof node.source === "string" ? node.source : undefined;
    },
  };
}
