// A value written loosely on a command line, as a shell leaves it: `[x,y]`, `{k:1,tags:[a,b]}`
// (the shell took the quotes of `{"k":1}`). Only the structure is read here; the scalars stay
// text until call-arguments.ts types them by the tool's schema.

/** A loose value's structure; a quoted scalar (`"x y"`, `'2'`) is a string wherever a string may stand. */
export type Loose =
  | { kind: "scalar"; text: string; quoted: boolean }
  | { kind: "array"; items: Loose[] }
  | { kind: "object"; entries: [string, Loose][] };

/** Levels of brackets a loose value may nest. */
const MAX_LOOSE_DEPTH = 64;

/** The loose value `text` holds, or undefined when it is not well formed. */
export function parseLoose(text: string): Loose | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && /\s/.test(text.charAt(at))) at++;
  };
  const quoted = (): string | undefined => {
    const quote = text[at];
    let end = at + 1;
    while (end < text.length && text[end] !== quote) end += quote === '"' && text[end] === "\\" ? 2 : 1;
    if (end >= text.length) return undefined;
    const body = text.slice(at, end + 1);
    at = end + 1;
    if (quote === "'") return body.slice(1, -1);
    const value = parseJson(body);
    return typeof value === "string" ? value : undefined;
  };
  const bare = (stops: string): string => {
    const start = at;
    while (at < text.length && !stops.includes(text.charAt(at))) at++;
    return text.slice(start, at).trim();
  };
  const value = (depth: number, stops: string): Loose | undefined => {
    if (depth > MAX_LOOSE_DEPTH) return undefined;
    space();
    const char = text[at];
    if (char === "[") {
      at++;
      const items: Loose[] = [];
      space();
      if (text[at] === "]") return at++, { kind: "array", items };
      for (;;) {
        const item = value(depth + 1, ",]");
        if (item === undefined) return undefined;
        items.push(item);
        space();
        if (text[at] === "]") return at++, { kind: "array", items };
        if (text[at++] !== ",") return undefined;
      }
    }
    if (char === "{") {
      at++;
      const entries: [string, Loose][] = [];
      const keys = new Set<string>();
      space();
      if (text[at] === "}") return at++, { kind: "object", entries };
      for (;;) {
        space();
        const key = text[at] === '"' || text[at] === "'" ? quoted() : bare(":,}");
        if (key === undefined || key === "" || keys.has(key)) return undefined;
        space();
        if (text[at++] !== ":") return undefined;
        const member = value(depth + 1, ",}");
        if (member === undefined) return undefined;
        keys.add(key);
        entries.push([key, member]);
        space();
        if (text[at] === "}") return at++, { kind: "object", entries };
        if (text[at++] !== ",") return undefined;
      }
    }
    if (char === '"' || char === "'") {
      const string = quoted();
      return string === undefined ? undefined : { kind: "scalar", text: string, quoted: true };
    }
    const scalar = bare(stops);
    return scalar === "" ? undefined : { kind: "scalar", text: scalar, quoted: false };
  };
  const parsed = value(0, "");
  space();
  return parsed !== undefined && at === text.length ? parsed : undefined;
}

/** A loose value with no schema to type it: each scalar JSON when it parses, else its text. */
export function plainValue(node: Loose): unknown {
  if (node.kind === "array") return node.items.map(plainValue);
  if (node.kind === "object") return Object.fromEntries(node.entries.map(([key, member]) => [key, plainValue(member)]));
  if (node.quoted) return node.text;
  const value = parseJson(node.text);
  return value === undefined ? node.text : value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
