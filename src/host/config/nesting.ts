// How deeply a config text nests, found by one linear scan before any parser sees it: the yaml
// package (our position lookup, also for JSON) recurses per level and runs out of stack or, on
// Node, aborts the process ("RegExpCompiler Allocation failed") on a file ~900 levels deep.

/** The deepest nesting a config file may have; real configs use fewer than 10 levels. */
export const MAX_CONFIG_NESTING = 100;

/** Which quoting and comment rules the scan follows. */
export type NestingSyntax = "json" | "yaml" | "toml";

/**
 * The offset of the first `[` / `{` (or, in YAML, the first indented line or `- ` entry) that
 * opens a level beyond `limit`, or undefined when the text stays within it. Brackets inside
 * strings and comments do not count. Linear in the text.
 */
export function nestingBeyond(text: string, syntax: NestingSyntax, limit = MAX_CONFIG_NESTING): number | undefined {
  let flow = 0;
  /** YAML: the indentation of each enclosing block level. */
  const blocks: number[] = [];
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    if (lineStart && syntax === "yaml" && flow === 0) {
      lineStart = false;
      const found = yamlBlockLine(text, i, blocks, limit);
      if (found.beyond !== undefined) return found.beyond;
      i = found.next;
      if (i >= text.length) break;
    }
    const char = text[i];
    if (char === "\n") {
      lineStart = true;
    } else if (char === "[" || char === "{") {
      if (++flow + blocks.length > limit) return i;
    } else if (char === "]" || char === "}") {
      if (flow > 0) flow--;
    } else if (char === "#" && syntax !== "json" && (i === 0 || /\s/.test(text.charAt(i - 1)))) {
      const end = text.indexOf("\n", i);
      if (end === -1) break;
      i = end - 1;
    } else if (char === '"' || char === "'") {
      // YAML: a quote opens a string only where a value starts (`it's` is plain text). JSON has no `'` strings.
      if (syntax === "json" && char === "'") continue;
      if (syntax === "yaml" && i > 0 && !/[\s[{,:]/.test(text.charAt(i - 1))) continue;
      i = stringEnd(text, i, syntax) - 1;
    }
  }
  return undefined;
}

/** The offset just past the string that starts at `start` (the text's end when it never closes). */
function stringEnd(text: string, start: number, syntax: NestingSyntax): number {
  const quote = text.charAt(start);
  if (syntax === "toml" && text.startsWith(quote.repeat(3), start)) {
    const end = text.indexOf(quote.repeat(3), start + 3);
    return end === -1 ? text.length : end + 3;
  }
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === "\\" && quote === '"') {
      i++;
    } else if (char === quote) {
      if (syntax === "yaml" && quote === "'" && text[i + 1] === "'") i++; // YAML: '' is one '
      else return i + 1;
    } else if (char === "\n" && syntax !== "yaml") {
      return i; // JSON and TOML strings end at the line (a syntax error the parser reports)
    }
  }
  return text.length;
}

/**
 * YAML block nesting at a line's start: its indentation closes deeper levels and opens one, and
 * each `- ` (or `? `) entry marker on it opens one more. Blank and comment lines do not count.
 */
function yamlBlockLine(text: string, start: number, blocks: number[], limit: number): { next: number; beyond?: number } {
  let i = start;
  while (text[i] === " ") i++;
  if (i >= text.length || text[i] === "\n" || text[i] === "\r" || text[i] === "#") return { next: i };
  const indent = i - start;
  while (blocks.length > 0 && blocks[blocks.length - 1]! >= indent) blocks.pop();
  blocks.push(indent);
  if (blocks.length > limit) return { next: i, beyond: i };
  while ((text[i] === "-" || text[i] === "?") && (text[i + 1] === " " || text[i + 1] === "\t")) {
    const marker = i;
    i += 2;
    while (text[i] === " " || text[i] === "\t") i++;
    blocks.push(i - start); // the entry's content column
    if (blocks.length > limit) return { next: i, beyond: marker };
  }
  return { next: i };
}

/** The message for a text nested beyond the limit. */
export function nestingMessage(limit = MAX_CONFIG_NESTING): string {
  return `nested more than ${limit} levels deep here; mcpwire reads config files up to ${limit} levels of nesting (a real config needs a handful): flatten it or remove what nests`;
}
