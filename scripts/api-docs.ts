// `npm run api-docs` (also run by `npm run api`): the API reference in docs/api/, one page per
// entry (index.md for `mcpwire`, registry.md, host.md, agent.md, auth.md, telemetry.md). Each exported name
// (the list scripts/api-report.ts pins in api/*.api.md) with its kind, its declaration and its
// whole doc comment (@param, @returns and @deprecated set apart), grouped by kind: classes with
// their public members, functions, interfaces with their members, types, constants.
//
// The signatures come from the TypeScript compiler: it emits the declaration files of src/
// (`tsc --emitDeclarationOnly --noCheck` into a temporary directory: the native compiler, about a
// second), so a signature is what a user of the package sees, inferred types written out, bodies
// and private members gone, doc comments kept. The .d.ts text is then read by the small scanner
// below (a declaration file is only declarations, each ending in `;` or its body's `}`). The
// compiler runs as a child process, so this runs unchanged under Node and Deno.
//
// `--check` exits 1 naming each stale page (test/docs/api-docs.test.ts compares them too);
// `--stdout` prints the pages instead of writing them. Deterministic: no dates, no absolute paths.

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { type ApiName, apiOf, ENTRIES, ROOT } from "./api-report.ts";

/** The page of each entry: docs/api/index.md for the root, docs/api/<subpath>.md for the others. */
export function pageOf(entry: (typeof ENTRIES)[number]): string {
  return `docs/api/${entry.specifier.split("/")[1] ?? "index"}.md`;
}

// ---- the compiler ------------------------------------------------------------------------

/** The declaration files the compiler emitted, by the repository path of their .ts. */
export interface Declarations {
  get(file: string): string | undefined;
}

/** Emits the declarations, reads each entry's ones, and removes the temporary directory. */
export async function withDeclarations<T>(read: (declarations: Declarations) => T): Promise<T> {
  const out = mkdtempSync(join(tmpdir(), "mcpwire-api-docs-"));
  try {
    await new Promise<void>((done, fail) => {
      execFile(
        join(ROOT, "node_modules", ".bin", "tsc"),
        ["-p", "tsconfig.build.json", "--emitDeclarationOnly", "--noCheck", "--declarationMap", "false", "--outDir", out],
        { cwd: ROOT, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? fail(new Error(`tsc failed: ${error.message}\n${stdout}${stderr}`)) : done()),
      );
    });
    const cache = new Map<string, string>();
    const declarations: Declarations = {
      get(file) {
        const known = cache.get(file);
        if (known !== undefined) return known;
        const path = join(out, file.replace(/^src\//, "").replace(/\.ts$/, ".d.ts"));
        if (!existsSync(path)) return undefined;
        const text = readFileSync(path, "utf8");
        cache.set(file, text);
        return text;
      },
    };
    return read(declarations);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ---- the declaration-file scanner --------------------------------------------------------

/** One statement of a declaration file, or one member of a class or interface body. */
export interface Piece {
  /** The `/** … *\/` comment right before it, or "". */
  doc: string;
  /** Its text as the compiler wrote it, with the doc comments inside it (a member's) but no other comment. */
  text: string;
}

const CONTAINER = /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:class|interface|enum|namespace|module|global)\b/;

/**
 * Splits declaration-file text into statements (or, given a class or interface body, members):
 * each ends at `;` outside brackets, or at the `}` closing a class, interface, enum or namespace.
 */
export function piecesOf(source: string): Piece[] {
  const pieces: Piece[] = [];
  let doc = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c) || c === ";") {
      i++;
      continue;
    }
    if (source.startsWith("//", i)) {
      i = source.indexOf("\n", i) === -1 ? source.length : source.indexOf("\n", i);
      continue;
    }
    if (source.startsWith("/*", i)) {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      if (source.startsWith("/**", i) && !source.startsWith("/**/", i)) doc = source.slice(i, stop);
      i = stop;
      continue;
    }
    let text = "";
    let depth = 0;
    const templates: number[] = []; // the depth at which each open template literal's `${` began
    let angle = 0; // `<` … `>` open at depth 0: a type parameter's `{` is no body
    let bodyOpened = false;
    while (i < source.length) {
      const d = source[i]!;
      if (source.startsWith("//", i)) {
        i = source.indexOf("\n", i) === -1 ? source.length : source.indexOf("\n", i);
        continue;
      }
      if (source.startsWith("/*", i)) {
        const end = source.indexOf("*/", i + 2);
        const stop = end === -1 ? source.length : end + 2;
        if (source.startsWith("/**", i) && !source.startsWith("/**/", i)) text += source.slice(i, stop); // a member's doc
        i = stop;
        continue;
      }
      if (d === "'" || d === '"') {
        let j = i + 1;
        while (j < source.length && source[j] !== d && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
        text += source.slice(i, j + 1);
        i = j + 1;
        continue;
      }
      if (d === "`" || (d === "}" && templates.at(-1) === depth)) {
        // a template literal type, from its start (or the `}` ending a `${`) to its end or next `${`
        if (d === "}") templates.pop();
        let j = i + 1;
        while (j < source.length && source[j] !== "`" && !source.startsWith("${", j)) j += source[j] === "\\" ? 2 : 1;
        if (source.startsWith("${", j)) {
          templates.push(depth);
          j += 2;
        } else j++;
        text += source.slice(i, j);
        i = j;
        continue;
      }
      text += d;
      i++;
      if (depth === 0 && d === "<") angle++;
      else if (depth === 0 && d === ">" && text.at(-2) !== "=") angle--;
      if (d === "{" || d === "(" || d === "[") {
        if (depth === 0) bodyOpened = d === "{" && angle === 0;
        depth++;
      } else if (d === "}" || d === ")" || d === "]") {
        depth--;
        if (depth === 0 && d === "}" && bodyOpened && CONTAINER.test(text)) break;
      } else if (d === ";" && depth === 0) {
        text = text.slice(0, -1);
        break;
      }
    }
    pieces.push({ doc, text: text.trim() });
    doc = "";
  }
  return pieces;
}

const DECLARATION =
  /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(class|interface|type|function|const\s+enum|const|let|var|enum|namespace)\s+([A-Za-z_$][\w$]*)/;

/** The name a statement declares and its keyword, when it declares one. */
export function declared(piece: Piece): { keyword: string; name: string } | undefined {
  const match = DECLARATION.exec(piece.text);
  return match === null ? undefined : { keyword: match[1]!.replace(/\s+/, " "), name: match[2]! };
}

/** A statement without `export` and `declare`, re-indented by two spaces a level. */
function cleanDeclaration(text: string): string {
  return text
    .replace(/^(?:export\s+)?(?:declare\s+)?/, "")
    .split("\n")
    .map((line) => line.replace(/^( {4})+/, (indent) => " ".repeat(indent.length / 2)))
    .join("\n");
}

/** A class's or interface's head (`class X<T> extends Y`) and its body's members. */
export function splitContainer(text: string): { head: string; members: Piece[] } {
  // the body is the last `{ … }`: a heritage clause's type arguments come before it
  let depth = 0;
  let open = -1;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === "}") depth++;
    else if (c === "{" && --depth === 0) {
      open = i;
      break;
    }
  }
  if (open === -1) return { head: text, members: [] };
  return { head: cleanDeclaration(withoutComments(text.slice(0, open)).trim()).replace(/\s+/g, " "), members: piecesOf(text.slice(open + 1, -1)) };
}

/** Text without its doc comments (the only comments piecesOf() keeps). */
function withoutComments(text: string): string {
  return text.replace(/\/\*\*[\s\S]*?\*\//g, " ");
}

/** Whether a class member is part of the public API: not `#private`, `private` or `protected`. */
function isPublicMember(member: Piece): boolean {
  return !/^(?:#|(?:static\s+)?(?:private|protected)\b)/.test(member.text);
}

// ---- doc comments ------------------------------------------------------------------------

/** A doc comment read: its text (Markdown) and its block tags. */
export interface DocComment {
  text: string;
  params: { name: string; text: string }[];
  returns: string;
  deprecated: string | undefined;
  /** Any other tag, as `@tag text`. */
  other: string[];
}

/** Reads a `/** … *\/` comment: the text with the ` * ` margin gone, and the tags set apart. */
export function readDoc(comment: string): DocComment {
  const lines = comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, "").trimEnd());
  const doc: DocComment = { text: "", params: [], returns: "", deprecated: undefined, other: [] };
  const text: string[] = [];
  let tag: string[] | undefined;
  const tags: string[][] = [];
  for (const line of lines) {
    if (/^\s*@\w+/.test(line)) {
      tag = [line.trim()];
      tags.push(tag);
    } else if (tag !== undefined) tag.push(line.trim());
    else text.push(line);
  }
  doc.text = text.join("\n").trim();
  for (const lines of tags) {
    const joined = lines.join(" ").trim();
    const [, name = "", rest = ""] = /^@(\w+)\s*([\s\S]*)$/.exec(joined) ?? [];
    if (name === "param") {
      const [, parameter = "", description = ""] = /^(?:\{[^}]*\}\s*)?\[?([\w$.]+)\]?\s*(?:-\s*)?([\s\S]*)$/.exec(rest) ?? [];
      doc.params.push({ name: parameter, text: description });
    } else if (name === "returns" || name === "return") doc.returns = rest;
    else if (name === "deprecated") doc.deprecated = rest;
    else doc.other.push(joined);
  }
  return doc;
}

/** Markdown of a doc comment: its text, then Deprecated, Parameters and Returns. `indent` prefixes each line. */
function renderDoc(comment: string, indent = ""): string[] {
  if (comment === "") return [];
  const doc = readDoc(comment);
  const out: string[] = [];
  if (doc.deprecated !== undefined) out.push(`**Deprecated.** ${escapeHtml(doc.deprecated)}`.trimEnd(), "");
  if (doc.text !== "") out.push(...escapeHtml(doc.text).split("\n"), "");
  if (doc.params.length > 0) {
    out.push("Parameters:", "");
    for (const param of doc.params) out.push(`- ${code(param.name)}${param.text === "" ? "" : ` — ${escapeHtml(param.text)}`}`);
    out.push("");
  }
  if (doc.returns !== "") out.push(`Returns: ${escapeHtml(doc.returns)}`, "");
  for (const other of doc.other) out.push(escapeHtml(other), "");
  while (out.at(-1) === "") out.pop();
  return out.map((line) => (line === "" ? "" : indent + line));
}

/** `<` outside code spans written as `&lt;` when it would start an HTML tag. */
function escapeHtml(text: string): string {
  return text.split(/(`[^`\n]*`)/).map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!])/g, "&lt;"))).join("");
}

/** An inline code span that holds any text (a longer fence when the text has backquotes). */
function code(text: string): string {
  if (!text.includes("`")) return `\`${text}\``;
  const longest = Math.max(...(text.match(/`+/g) ?? [""]).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}

// ---- the pages ---------------------------------------------------------------------------

const GROUPS = [
  { title: "Classes", has: /\bclass\b/ },
  { title: "Functions", has: /\bfunction\b/ },
  { title: "Constants", has: /\b(?:const|variable|enum|namespace)\b/ },
  { title: "Interfaces", has: /\binterface\b/ },
  { title: "Types", has: /\btype\b/ },
] as const;

/** The group of a name's kind: the first of GROUPS that matches (a value before a type). */
function groupOf(name: ApiName): (typeof GROUPS)[number]["title"] {
  return GROUPS.find((group) => group.has.test(name.kind))!.title;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, a repeat numbered. */
function anchorMaker(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

/** The Markdown of one name: its declarations from the compiler, its doc comment, its members. */
export function renderName(name: ApiName, declarations: Declarations): string[] {
  const source = declarations.get(name.file);
  if (source === undefined) throw new Error(`${name.file}: the compiler emitted no declarations for it (needed for ${name.name})`);
  const pieces = piecesOf(source).filter((piece) => declared(piece)?.name === name.name);
  if (pieces.length === 0) throw new Error(`${name.file}: no declaration of ${name.name} in its emitted .d.ts`);
  const kind = name.typeOnly && !/^(type|interface)$/.test(name.kind) ? `${name.kind}, exported as a type only` : name.kind;
  const out = [`${kind} · [${name.file}](../../${name.file})`, ""];
  const container = pieces.find((piece) => /^(class|interface)$/.test(declared(piece)!.keyword));
  const others = pieces.filter((piece) => piece !== container);
  const signatures = [
    ...(container === undefined ? [] : [splitContainer(container.text).head]),
    ...others.map((piece) => cleanDeclaration(piece.text) + ";"),
  ];
  out.push("```ts", ...signatures, "```", "");
  const doc = pieces.find((piece) => piece.doc !== "")?.doc ?? "";
  const rendered = renderDoc(doc);
  if (rendered.length > 0) out.push(...rendered, "");
  for (const piece of others) {
    // an overload's or a second declaration's own comment, when it differs
    if (piece.doc !== "" && piece.doc !== doc) out.push(...renderDoc(piece.doc), "");
  }
  if (container !== undefined) {
    const members = splitContainer(container.text).members.filter(isPublicMember);
    if (members.length > 0) {
      out.push("Members:", "");
      for (const member of members) {
        out.push(`- ${code(withoutComments(member.text).replace(/\s+/g, " ").replace(/\{ \}/g, "{}"))}`);
        const memberDoc = renderDoc(member.doc, "  ");
        if (memberDoc.length > 0) out.push("", ...memberDoc, "");
      }
      if (out.at(-1) !== "") out.push("");
    }
  }
  return out;
}

/** The page of an entry. */
export function renderPage(entry: (typeof ENTRIES)[number], declarations: Declarations): string {
  const names = apiOf(entry.source);
  const anchor = anchorMaker();
  const title = `API reference: \`${entry.specifier}\``;
  anchor(title);
  anchor("Contents");
  const groups = GROUPS.map((group) => ({ title: group.title, names: names.filter((name) => groupOf(name) === group.title) })).filter((group) =>
    group.names.length > 0
  );
  const body: string[] = [];
  const contents: string[] = [];
  for (const group of groups) {
    const groupAnchor = anchor(group.title);
    const links: string[] = [];
    body.push(`## ${group.title}`, "");
    for (const name of group.names) {
      const heading = `\`${name.name}\``;
      links.push(`[${heading}](#${anchor(name.name)})`);
      body.push(`### ${heading}`, "", ...renderName(name, declarations));
    }
    contents.push(`- [${group.title}](#${groupAnchor}) (${group.names.length}): ${links.join(" · ")}`);
  }
  const lines = [
    `# ${title}`,
    "",
    `\`import { … } from "${entry.specifier}"\` — ${names.length} names, from ${entry.source}. The other entries: ${
      ENTRIES.filter((other) => other !== entry).map((other) => `[\`${other.specifier}\`](${pageOf(other).replace("docs/api/", "")})`).join(", ")
    }.`,
    "",
    "Generated by `npm run api-docs` (scripts/api-docs.ts) from the declarations the TypeScript compiler emits and their doc",
    "comments; test/docs/api-docs.test.ts fails when this page is stale. Do not edit it: edit the doc comment and regenerate.",
    "",
    "## Contents",
    "",
    ...contents,
    "",
    ...body,
  ];
  while (lines.at(-1) === "") lines.pop();
  return lines.join("\n") + "\n";
}

/** Every page, by repository path. */
export async function renderPages(): Promise<Map<string, string>> {
  return await withDeclarations((declarations) => new Map(ENTRIES.map((entry) => [pageOf(entry), renderPage(entry, declarations)])));
}

async function main(args: string[]): Promise<number> {
  const pages = await renderPages();
  if (args.includes("--stdout")) {
    for (const text of pages.values()) process.stdout.write(text);
    return 0;
  }
  let stale = 0;
  for (const [page, text] of pages) {
    const path = join(ROOT, page);
    if ((existsSync(path) ? readFileSync(path, "utf8") : "") === text) continue;
    stale++;
    if (args.includes("--check")) console.error(`${page} is out of date: run \`npm run api-docs\``);
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      console.log(`wrote ${page}`);
    }
  }
  if (stale === 0) console.log("the API reference (docs/api/) is up to date");
  return args.includes("--check") && stale > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
