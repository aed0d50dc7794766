// The "imports sorted" lint rule (issue 38), which deno lint does not have: the import
// declarations at the top of each .ts file are in order, and so are the names in their braces.
//
// The order:
// - By group: `node:` modules first, then the other non-relative specifiers (packages, `npm:`,
//   `jsr:`, `#runtime`-style package imports), then relative paths, those that climb more folders
//   first (`../../x`, then `../x`, then `./x`).
// - Within a group, by the specifier's path, folder by folder, the file name without its
//   extension (so `./http.ts` comes before `./http-provider.ts`, and `./config/load.ts` before
//   `./context.ts`); each part compared case-insensitively (lower-cased, then code unit by code
//   unit: no locale), ties by the exact text. `import type` sorts with the rest by its
//   specifier; for the same specifier it comes before the value import.
// - A side-effect import (`import "./x.ts";`) stays where it is: the imports above it and those
//   below it are sorted apart, since what it does may be what the others need.
// - In braces, the names sorted by the name the module exports (before `as`; a `type` modifier
//   ignored; a quoted name with its quote), compared the same way. That is the order deno fmt
//   itself gives the names (it sorts them, and leaves the declarations as written): the two agree.
//   Braces holding a comment are left as written.
// The block is the run of import declarations from the first one (before any other statement),
// with the comments between them; a comment on the lines just above an import (or after it on its
// line) moves with it. Comments above the first import stay at the top of the file.
//
// `--fix` rewrites what is out of order, and only that: a block already in order is not touched
// (so a second `--fix` changes nothing), a declaration keeps its text and its layout (a
// multi-line import stays multi-line, one name a line, as deno fmt writes it), and a re-sorted
// block keeps a blank line between groups if it had blank lines. Plain Node ESM, no dependency
// (it also runs under `deno run -A`).
//
//   node scripts/imports-sorted.mjs [--fix] [PATH…]   (default: src test bench scripts conformance)
//
// Exit 0: all sorted (or fixed); 1: something out of order (each named, with the expected order);
// 2: a bad argument.

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import process from "node:process";

const DEFAULT_ROOTS = ["src", "test", "bench", "scripts", "conformance"];

/** Case-insensitive, then exact; code units, no locale (the same on every machine). */
export function compareText(a, b) {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

/** 0: `node:` modules; 1: other non-relative specifiers; 2: relative (and absolute) paths. */
export function groupOf(specifier) {
  if (specifier.startsWith("node:")) return 0;
  if (specifier.startsWith(".") || specifier.startsWith("/")) return 2;
  return 1;
}

const isSpace = (ch) => ch === " " || ch === "\t" || ch === "\r" || ch === "\n";
const isIdent = (ch) => ch !== undefined && /[\w$]/.test(ch);

/** The index after the string literal that starts at `pos` (a quote). */
function skipString(text, pos) {
  const quote = text[pos];
  let i = pos + 1;
  while (i < text.length && text[i] !== quote && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** The index after the comment that starts at `pos`, or -1 when none starts there. */
function skipComment(text, pos) {
  if (text.startsWith("//", pos)) {
    const end = text.indexOf("\n", pos);
    return end === -1 ? text.length : end;
  }
  if (text.startsWith("/*", pos)) {
    const end = text.indexOf("*/", pos + 2);
    return end === -1 ? text.length : end + 2;
  }
  return -1;
}

/**
 * The import declaration starting at `pos` (at the keyword): its end (after the `;`, if any), its
 * specifier and where its braces are; undefined when what starts there is not one (`import(`,
 * `import.meta`, `import x = require(…)`).
 */
function readDeclaration(text, pos) {
  if (!text.startsWith("import", pos) || isIdent(text[pos + 6])) return undefined;
  const after = text.slice(pos + 6).trimStart()[0];
  if (after === "(" || after === ".") return undefined;
  let i = pos + 6;
  let braces;
  let specifier;
  while (i < text.length) {
    const ch = text[i];
    const comment = skipComment(text, i);
    if (comment !== -1) {
      i = comment;
    } else if (ch === "{") {
      const close = text.indexOf("}", i);
      if (close === -1) return undefined;
      braces = { open: i, close };
      i = close + 1;
    } else if (ch === '"' || ch === "'") {
      const end = skipString(text, i);
      specifier = { start: i, end, value: text.slice(i + 1, end - 1) };
      i = end;
      break;
    } else if (ch === ";" || ch === "(" || ch === "=") {
      return undefined;
    } else {
      i += 1;
    }
  }
  if (specifier === undefined) return undefined;
  const head = text.slice(pos, specifier.start);
  if (!/^import\s*$/.test(head) && !/\sfrom\s*$/.test(head)) return undefined;
  // import attributes: `with { type: "json" }`
  const rest = /^\s*(?:with|assert)\s*\{[^}]*\}/.exec(text.slice(i));
  if (rest !== null) i += rest[0].length;
  const semi = /^[ \t]*;/.exec(text.slice(i));
  if (semi !== null) i += semi[0].length;
  return {
    end: i,
    specifier: specifier.value,
    sideEffect: /^import\s*$/.test(head),
    typeOnly: /^import\s+type\s/.test(head),
    braces,
  };
}

/** The line (1-based) of `pos`. */
const lineAt = (text, pos) => text.slice(0, pos).split("\n").length;

/**
 * The import block at the top of `text`: its span (from the first declaration to the end of the
 * last one's line) and its declarations, each with the comments that move with it. Undefined when
 * the file does not open with imports.
 */
export function importBlock(text) {
  let pos = text.startsWith("#!") ? text.indexOf("\n") + 1 : 0;
  // The header: comments (and blank lines) before the first declaration stay where they are.
  for (;;) {
    while (isSpace(text[pos])) pos += 1;
    const comment = skipComment(text, pos);
    if (comment === -1) break;
    pos = comment;
  }
  const first = readDeclaration(text, pos);
  if (first === undefined) return undefined;
  // Line comments directly above the first declaration (no blank line between) are its own
  // (`// @ts-types=` …): they move with it, and the header ends at the blank line above them.
  let lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  while (lineStart > 0) {
    const above = text.lastIndexOf("\n", lineStart - 2) + 1;
    if (!/^[ \t]*\/\//.test(text.slice(above, lineStart - 1))) break;
    lineStart = above;
  }
  if (lineStart < pos && /^[ \t]*\/\//.test(text.slice(lineStart, pos))) pos = lineStart;
  const start = pos;
  const items = [];
  let blankLines = false;
  let pending = [];
  let end = start;
  /** A blank line since the last declaration: the block has one only if another declaration follows. */
  let blank = false;
  for (;;) {
    let newlines = 0;
    while (isSpace(text[pos])) newlines += text[pos++] === "\n" ? 1 : 0;
    if (items.length > 0 && newlines >= 2) blank = true;
    const comment = skipComment(text, pos);
    if (comment !== -1) {
      pending.push(text.slice(pos, comment));
      pos = comment;
      continue;
    }
    const declaration = readDeclaration(text, pos);
    if (declaration === undefined) break;
    if (blank) blankLines = true;
    blank = false;
    let lineEnd = declaration.end;
    let trailing = "";
    const tail = /^[ \t]*(\/\/[^\n]*|\/\*.*?\*\/)[ \t]*(?=\n|$)/.exec(text.slice(lineEnd));
    if (tail !== null) {
      trailing = tail[0];
      lineEnd += tail[0].length;
    }
    items.push({ lead: pending, text: text.slice(pos, declaration.end), trailing, line: lineAt(text, pos), ...declaration, offset: pos });
    pending = [];
    pos = lineEnd;
    end = lineEnd;
  }
  return { start, end, items, blankLines };
}

/** How many folders up a relative specifier starts (`../../x` 2, `./x` 0). */
const depthOf = (specifier) => /^(?:\.\.\/)*/.exec(specifier)[0].length / 3;

/** A specifier's path segments after its leading `./` or `../`s, the last without its extension. */
function segmentsOf(specifier) {
  const segments = specifier.replace(/^(?:\.\.\/)+|^\.\//, "").split("/");
  segments[segments.length - 1] = segments[segments.length - 1].replace(/\.(?:d\.)?[cm]?[jt]sx?$/, "");
  return segments;
}

/** The order of two specifiers (see the header). */
export function compareSpecifiers(a, b) {
  const group = groupOf(a) - groupOf(b);
  if (group !== 0) return group;
  if (groupOf(a) === 2 && depthOf(a) !== depthOf(b)) return depthOf(b) - depthOf(a);
  const as = segmentsOf(a);
  const bs = segmentsOf(b);
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const order = compareText(as[i], bs[i]);
    if (order !== 0) return order;
  }
  return as.length - bs.length || compareText(a, b);
}

/** The order of two declarations of one segment (see the header). */
function compareDeclarations(a, b) {
  return compareSpecifiers(a.specifier, b.specifier) || Number(b.typeOnly) - Number(a.typeOnly);
}

/** The names in braces, each as written (`type A`, `b as c`), or undefined when they hold a comment. */
function namesIn(inner) {
  if (inner.includes("//") || inner.includes("/*")) return undefined;
  return inner.split(",").map((name) => name.trim()).filter((name) => name !== "");
}

/** The name a module exports that a brace entry imports: `type A` → A, `b as c` → b. */
const exportedName = (entry) => entry.replace(/^type\s+/, "").split(/\s+as\s+/)[0];

/** The declaration's text with the names in its braces sorted (the same text when they are, or cannot be). */
export function sortNames(declaration) {
  const { text, braces, offset } = declaration;
  if (braces === undefined) return text;
  const open = braces.open - offset;
  const close = braces.close - offset;
  const inner = text.slice(open + 1, close);
  const names = namesIn(inner);
  if (names === undefined || names.length < 2) return text;
  const sorted = [...names].sort((a, b) => compareText(exportedName(a), exportedName(b)) || compareText(a, b));
  if (sorted.every((name, i) => name === names[i])) return text;
  let body;
  if (inner.includes("\n")) {
    const indent = /\n([ \t]*)\S/.exec(inner)?.[1] ?? "  ";
    const closeIndent = /\n([ \t]*)$/.exec(inner)?.[1] ?? "";
    body = `{\n${sorted.map((name) => `${indent}${name},\n`).join("")}${closeIndent}}`;
  } else {
    body = `{ ${sorted.join(", ")} }`;
  }
  return text.slice(0, open) + body + text.slice(close + 1);
}

/**
 * What is out of order in `text`: one problem per declaration whose names are not sorted, and one
 * per segment whose declarations are not, each with its line; and the text as --fix writes it.
 */
export function checkImports(text) {
  const block = importBlock(text);
  if (block === undefined) return { problems: [], fixed: text };
  const problems = [];
  const items = block.items.map((item) => {
    const sortedText = sortNames(item);
    if (sortedText !== item.text) {
      const expected = sortedText.slice(sortedText.indexOf("{"), sortedText.indexOf("}") + 1).replace(/\s+/g, " ").replace(/, }/, " }");
      problems.push({ line: item.line, message: `the names in the braces of the import of "${item.specifier}" are not sorted: ${expected}` });
    }
    return { ...item, text: sortedText };
  });
  // Segments between side-effect imports, each sorted on its own.
  const ordered = [];
  let reordered = false;
  let segment = [];
  const flush = () => {
    const sorted = [...segment].sort(compareDeclarations);
    const at = sorted.findIndex((item, i) => item !== segment[i]);
    if (at !== -1) {
      reordered = true;
      const misplaced = sorted[at];
      // the whole order when it is short enough to read on one line
      const expected = sorted.length <= 8 ? ` (expected: ${sorted.map((item) => item.specifier).join(", ")})` : "";
      problems.push({
        line: misplaced.line,
        message: `import of "${misplaced.specifier}" is out of order: it goes before "${segment[at].specifier}"${expected}`,
      });
    }
    ordered.push(...sorted);
    segment = [];
  };
  for (const item of items) {
    if (item.sideEffect) {
      flush();
      ordered.push(item);
    } else {
      segment.push(item);
    }
  }
  flush();
  problems.sort((a, b) => a.line - b.line);
  if (problems.length === 0) return { problems, fixed: text };
  let blockText;
  if (reordered) {
    const lines = [];
    let previous;
    for (const item of ordered) {
      const group = item.sideEffect ? undefined : groupOf(item.specifier);
      if (block.blankLines && previous !== undefined && group !== undefined && group !== previous.group && !previous.sideEffect) lines.push("");
      lines.push(...item.lead, item.text + item.trailing);
      previous = { group, sideEffect: item.sideEffect };
    }
    blockText = lines.join("\n");
  } else {
    // Only names: each declaration changed in place, everything between kept.
    blockText = "";
    let at = block.start;
    for (const item of items) {
      const original = block.items.find((found) => found.offset === item.offset);
      blockText += text.slice(at, item.offset) + item.text;
      at = item.offset + original.text.length;
    }
    blockText += text.slice(at, block.end);
  }
  return { problems, fixed: text.slice(0, block.start) + blockText + text.slice(block.end) };
}

/** The .ts files under each path (a file, or a folder walked; node_modules and dot folders skipped). */
export function tsFiles(paths) {
  const out = [];
  const walk = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (name === "node_modules" || name.startsWith(".")) continue;
        walk(join(path, name));
      }
    } else if (path.endsWith(".ts") && !path.endsWith(".d.ts")) {
      out.push(path);
    }
  };
  for (const path of paths) walk(path);
  return out;
}

function main(argv) {
  const fix = argv.includes("--fix");
  const unknown = argv.filter((arg) => arg.startsWith("-") && arg !== "--fix");
  if (unknown.length > 0) {
    process.stderr.write(`imports-sorted: unknown option ${unknown[0]}; usage: node scripts/imports-sorted.mjs [--fix] [PATH…]\n`);
    return 2;
  }
  const given = argv.filter((arg) => !arg.startsWith("-"));
  const roots = given.length > 0 ? given : DEFAULT_ROOTS;
  let files;
  try {
    files = tsFiles(roots);
  } catch (error) {
    process.stderr.write(`imports-sorted: cannot read ${error.path ?? "a path"}: ${error.code ?? error.message}\n`);
    return 2;
  }
  let unsorted = 0;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const { problems, fixed } = checkImports(text);
    if (problems.length === 0) continue;
    unsorted += 1;
    const shown = relative(process.cwd(), file) || file;
    if (fix) {
      writeFileSync(file, fixed);
      process.stdout.write(`sorted ${shown}\n`);
    } else {
      for (const problem of problems) process.stdout.write(`${shown}:${problem.line}: ${problem.message}\n`);
    }
  }
  if (unsorted === 0) return 0;
  if (fix) {
    process.stdout.write(`imports-sorted: sorted the imports of ${unsorted} file${unsorted === 1 ? "" : "s"}\n`);
    return 0;
  }
  process.stdout.write(
    `imports-sorted: ${unsorted} file${unsorted === 1 ? "" : "s"} with imports out of order (of ${files.length}); ` +
      `\`node scripts/imports-sorted.mjs --fix\` sorts them\n`,
  );
  return 1;
}

if (import.meta.main ?? process.argv[1]?.endsWith("imports-sorted.mjs")) process.exitCode = main(process.argv.slice(2));
