// A small TypeScript tokenizer for the architecture test: the imports of a module (static,
// re-exports, dynamic; type-only ones marked), its top-level awaits, and its uses of runtime
// globals. Enough of the language to read our own sources; no type information.
// scripts/api-report.ts reads the public API with the same tokenizer (with doc comments kept).

export interface Token {
  /** "doc": a `/** … *\/` comment, kept only when tokenize() is asked for them. */
  kind: "ident" | "string" | "punct" | "number" | "regex" | "doc";
  /** For a string: its contents between the quotes; otherwise the token's text. */
  text: string;
  line: number;
  /** Bracket depth before the token (`{`, `(`, `[` and a template's `${`): 0 is a module's top level. */
  depth: number;
}

/** What tokenize() keeps beyond the code: doc comments (scripts/api-report.ts reads them). */
export interface TokenizeOptions {
  docs?: boolean;
}

export interface ImportRecord {
  specifier: string;
  /** `import type …` / `export type …`: erased from the JavaScript, so never loaded. */
  typeOnly: boolean;
  dynamic: boolean;
  line: number;
}

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);
const PUNCTUATORS = ["...", "=>", "?."];
const IDENT_START = /[A-Za-z_$#\u0080-\uffff]/;
const IDENT_PART = /[\w$\u0080-\uffff]/;

/**
 * The tokens of `source`; a template literal's `${…}` comes out as parentheses around its tokens.
 * Comments are dropped, except `/** … *\/` ones as "doc" tokens when `options.docs` is set.
 */
export function tokenize(source: string, options: TokenizeOptions = {}): Token[] {
  const tokens: Token[] = [];
  // What each open bracket was, so a `}` knows whether it resumes a template literal.
  const open: ("{" | "(" | "[" | "${")[] = [];
  let i = 0;
  let line = 1;
  /** The last token that is not a doc comment (what a `/` follows). */
  let previous: Token | undefined;
  const push = (kind: Token["kind"], text: string) => {
    const token = { kind, text, line, depth: open.length };
    tokens.push(token);
    if (kind !== "doc") previous = token;
  };

  const readTemplate = () => {
    // at the character after "`" or after the "}" that closed a "${"
    while (i < source.length) {
      const c = source[i];
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "\n") line++;
      if (c === "`") {
        i++;
        push("string", "`");
        return;
      }
      if (c === "$" && source[i + 1] === "{") {
        i += 2;
        push("punct", "(");
        open.push("${");
        return;
      }
      i++;
    }
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      if (options.docs && source[i + 2] === "*" && source[i + 3] !== "/") push("doc", source.slice(i, stop));
      for (let k = i; k < stop; k++) if (source[k] === "\n") line++;
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      push("string", source.slice(i + 1, j));
      i = j + 1;
    } else if (c === "`") {
      i++;
      readTemplate();
    } else if (c === "/" && regexMayStart(previous)) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n") {
        const d = source[j];
        if (d === "\\") j++;
        else if (d === "[") inClass = true;
        else if (d === "]") inClass = false;
        else if (d === "/" && !inClass) break;
        j++;
      }
      j++;
      while (j < source.length && IDENT_PART.test(source[j]!)) j++;
      push("regex", source.slice(i, j));
      i = j;
    } else if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < source.length && IDENT_PART.test(source[j]!)) j++;
      push("ident", source.slice(i, j));
      i = j;
    } else if (/\d/.test(c) || (c === "." && /\d/.test(source[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < source.length && /[\w.]/.test(source[j]!)) j++;
      push("number", source.slice(i, j));
      i = j;
    } else if (c === "{" || c === "(" || c === "[") {
      push("punct", c);
      open.push(c);
      i++;
    } else if (c === "}" || c === ")" || c === "]") {
      i++;
      if (open.pop() === "${") {
        push("punct", ")");
        readTemplate();
      } else {
        push("punct", c);
      }
    } else {
      const long = PUNCTUATORS.find((p) => source.startsWith(p, i));
      push("punct", long ?? c);
      i += long?.length ?? 1;
    }
  }
  return tokens;
}

function regexMayStart(previous: Token | undefined): boolean {
  if (previous === undefined) return true;
  if (previous.kind === "punct") return previous.text !== ")" && previous.text !== "]" && previous.text !== "}";
  if (previous.kind === "ident") return KEYWORDS_BEFORE_EXPRESSION.has(previous.text);
  return false;
}

const isMemberAccess = (token: Token | undefined) => token?.kind === "punct" && (token.text === "." || token.text === "?.");
const is = (token: Token | undefined, kind: Token["kind"], text?: string) =>
  token !== undefined && token.kind === kind && (text === undefined || token.text === text);

/**
 * The lines of each `import(…)` whose specifier is not one string literal (a variable, a
 * template with a substitution, a call): neither a bundler nor deno publish can follow it.
 */
export function computedImports(source: string): number[] {
  const tokens = tokenize(source);
  const lines: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== "ident" || token.text !== "import" || isMemberAccess(tokens[i - 1]) || !is(tokens[i + 1], "punct", "(")) continue;
    const literal = is(tokens[i + 2], "string") && (is(tokens[i + 3], "punct", ")") || is(tokens[i + 3], "punct", ","));
    if (!literal) lines.push(token.line);
  }
  return lines;
}

/** Every import of a module: `import … from`, `import "…"`, `export … from`, `import("…")`. */
export function importsOf(source: string): ImportRecord[] {
  const tokens = tokenize(source);
  const found: ImportRecord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== "ident" || isMemberAccess(tokens[i - 1])) continue;
    if (token.text === "import") {
      const next = tokens[i + 1];
      if (is(next, "punct", "(")) {
        if (is(tokens[i + 2], "string")) found.push({ specifier: tokens[i + 2]!.text, typeOnly: false, dynamic: true, line: token.line });
        continue;
      }
      if (is(next, "punct", ".")) continue; // import.meta
      if (is(next, "string")) {
        found.push({ specifier: next!.text, typeOnly: false, dynamic: false, line: token.line });
        continue;
      }
      const typeOnly = is(next, "ident", "type") && !is(tokens[i + 2], "ident", "from") && !is(tokens[i + 2], "punct", ",");
      const from = fromClause(tokens, i + 1);
      if (from !== undefined) found.push({ specifier: from, typeOnly, dynamic: false, line: token.line });
    } else if (token.text === "export") {
      let j = i + 1;
      const typeOnly = is(tokens[j], "ident", "type");
      if (typeOnly) j++;
      if (is(tokens[j], "punct", "{")) {
        let depth = 0;
        for (; j < tokens.length; j++) {
          if (is(tokens[j], "punct", "{")) depth++;
          if (is(tokens[j], "punct", "}") && --depth === 0) break;
        }
        if (is(tokens[j + 1], "ident", "from") && is(tokens[j + 2], "string")) {
          found.push({ specifier: tokens[j + 2]!.text, typeOnly, dynamic: false, line: token.line });
        }
      } else if (is(tokens[j], "punct", "*")) {
        const from = fromClause(tokens, j);
        if (from !== undefined) found.push({ specifier: from, typeOnly, dynamic: false, line: token.line });
      }
    }
  }
  return found;
}

/** The string after `from` in the declaration starting at `start`, before its `;`. */
function fromClause(tokens: Token[], start: number): string | undefined {
  for (let j = start; j < tokens.length - 1; j++) {
    if (is(tokens[j], "punct", ";")) return undefined;
    if (is(tokens[j], "ident", "from") && is(tokens[j + 1], "string")) return tokens[j + 1]!.text;
  }
  return undefined;
}

const CONTROL_KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "with"]);
const BLOCK_KEYWORDS = new Set(["else", "try", "finally", "do"]);

interface Frame {
  /** Inside a function body, a class or an object literal: an await here is not top-level. */
  opaque: boolean;
  /** An arrow function's expression body runs on this level until its `,` or `;`. */
  arrowBody: boolean;
  opener: number;
}

/** Lines of `await` expressions at a module's top level (`for await` included). */
export function topLevelAwaits(source: string): number[] {
  const tokens = tokenize(source);
  const root: Frame = { opaque: false, arrowBody: false, opener: -1 };
  const frames: Frame[] = [root];
  const lines: number[] = [];
  let lastClosedParen = -1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const top = frames[frames.length - 1]!;
    if (token.kind === "punct") {
      switch (token.text) {
        case "(":
        case "[":
          frames.push({ opaque: false, arrowBody: false, opener: i });
          break;
        case "{":
          frames.push({ opaque: !opensStatementBlock(tokens, i, lastClosedParen), arrowBody: false, opener: i });
          break;
        case ")":
        case "]":
        case "}":
          if (frames.length > 1) {
            const closed = frames.pop()!;
            if (token.text === ")") lastClosedParen = closed.opener;
          }
          break;
        case "=>":
          if (!is(tokens[i + 1], "punct", "{")) top.arrowBody = true;
          break;
        case ",":
        case ";":
          top.arrowBody = false;
          break;
      }
    } else if (is(token, "ident", "await") && !isMemberAccess(tokens[i - 1])) {
      if (frames.every((frame) => !frame.opaque && !frame.arrowBody)) lines.push(token.line);
    }
  }
  return lines;
}

/** Whether the `{` at `index` opens a statement block (if/for/try/…, or a bare block), not a body or a literal. */
function opensStatementBlock(tokens: Token[], index: number, lastClosedParen: number): boolean {
  const previous = tokens[index - 1];
  if (previous === undefined) return true;
  if (previous.kind === "punct" && (previous.text === ";" || previous.text === "}" || previous.text === "{")) return true;
  if (previous.kind === "ident" && BLOCK_KEYWORDS.has(previous.text) && !isMemberAccess(tokens[index - 2])) return true;
  if (is(previous, "punct", ")") && lastClosedParen > 0) {
    const before = tokens[lastClosedParen - 1];
    if (before?.kind === "ident" && CONTROL_KEYWORDS.has(before.text)) return true;
    if (is(before, "ident", "await") && is(tokens[lastClosedParen - 2], "ident", "for")) return true;
  }
  return false;
}

export interface GlobalUse {
  name: string;
  line: number;
}

/** Reads of the given globals: a bare name, `globalThis.name`, `(globalThis as …).name`, `globalThis["name"]`. */
export function globalUses(source: string, names: ReadonlySet<string>): GlobalUse[] {
  const tokens = tokenize(source);
  const uses: GlobalUse[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const previous = tokens[i - 1];
    if (token.kind === "ident" && names.has(token.text)) {
      if (isMemberAccess(previous)) {
        const owner = tokens[i - 2];
        if (is(owner, "ident", "globalThis") || is(owner, "punct", ")")) uses.push({ name: token.text, line: token.line });
        continue;
      }
      // an object literal's key or an interface member, `{ process: … }`, names no global
      const key = (is(previous, "punct", "{") || is(previous, "punct", ",") || is(previous, "punct", ";")) &&
        (is(tokens[i + 1], "punct", ":") || (is(tokens[i + 1], "punct", "?") && is(tokens[i + 2], "punct", ":")));
      if (!key) uses.push({ name: token.text, line: token.line });
    } else if (token.kind === "string" && names.has(token.text) && is(previous, "punct", "[") && is(tokens[i - 2], "ident", "globalThis")) {
      uses.push({ name: token.text, line: token.line });
    }
  }
  return uses;
}

export interface ThrownClass {
  /** The class constructed: `Error`, `TypeError`, `ConfigError`, … */
  name: string;
  line: number;
}

/**
 * The classes a module throws or rejects with where it constructs them: each `new X(` in a
 * `throw` statement (`throw new X(…)`, `throw a ?? new X(…)`) or in the argument of a
 * `reject(…)` / `Promise.reject(…)`, the value itself (an error made as its `cause` is not). Only names that can be errors count: `Error`, a name
 * ending in `Error`, or one of `classNames` (the module's own classes); `new URL(…)` in a
 * message does not. An error made elsewhere and thrown by name is not seen.
 */
export function thrownClasses(source: string, classNames: ReadonlySet<string> = new Set()): ThrownClass[] {
  const tokens = tokenize(source);
  const found: ThrownClass[] = [];
  const errorLike = (name: string) => name === "Error" || name.endsWith("Error") || classNames.has(name);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== "ident") continue;
    let end = i;
    if (token.text === "throw" && !isMemberAccess(tokens[i - 1])) {
      // to the statement's `;`, or the end of the block it sits in
      while (end + 1 < tokens.length && !is(tokens[end + 1], "punct", ";") && tokens[end + 1]!.depth >= token.depth) end++;
    } else if (token.text === "reject" && is(tokens[i + 1], "punct", "(")) {
      end = i + 2;
      while (end < tokens.length && !(is(tokens[end], "punct", ")") && tokens[end]!.depth === token.depth)) end++;
    } else {
      continue;
    }
    // the value thrown, not an error made inside it (a `cause`, a message's `new URL(…)`): `new` at the expression's own depth
    const depth = tokens[i + (token.text === "throw" ? 1 : 2)]?.depth;
    for (let j = i + 1; j < end; j++) {
      const next = tokens[j + 1];
      if (is(tokens[j], "ident", "new") && tokens[j]!.depth === depth && next?.kind === "ident" && errorLike(next.text)) {
        found.push({ name: next.text, line: next.line });
      }
    }
    i = end;
  }
  return found;
}
