// The public API of each entry (package.json `exports`, deno.json `exports`), read from the
// TypeScript sources: every exported name, its kind and the first sentence of its doc comment,
// following `export … from` and `export *` to the declaration. Writes `api/<entry>.api.md`;
// `test/api.test.ts` compares those files with what this computes, so an export cannot appear or
// disappear unnoticed. Run `npm run api` after changing an entry or a doc comment.
//
// Why not the compiler: the installed TypeScript 7 is the native compiler, whose JavaScript API
// is `unstable/*` and drives a child process; api-extractor needs TypeScript 5's API. Our entries
// are `export` lists and our declarations start at column 0 of a module, so a small lexer is
// enough, fast (a few milliseconds), and runs unchanged under Node and Deno: the architecture
// test's tokenizer (test/support/source-scan.ts), with doc comments kept.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Token, tokenize } from "../test/support/source-scan.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The entries: their import specifier, the source, and the report file. */
export const ENTRIES: readonly { specifier: string; source: string; report: string; limit: number }[] = [
  { specifier: "mcpwire", source: "src/mod.ts", report: "api/mcpwire.api.md", limit: 120 },
  { specifier: "mcpwire/registry", source: "src/registry/mod.ts", report: "api/registry.api.md", limit: 60 },
  { specifier: "mcpwire/host", source: "src/host/mod.ts", report: "api/host.api.md", limit: 60 },
  { specifier: "mcpwire/agent", source: "src/agent/mod.ts", report: "api/agent.api.md", limit: 60 },
  { specifier: "mcpwire/auth", source: "src/auth/mod.ts", report: "api/auth.api.md", limit: 60 },
  { specifier: "mcpwire/telemetry", source: "src/client/telemetry/mod.ts", report: "api/telemetry.api.md", limit: 60 },
  { specifier: "mcpwire/extensions", source: "src/client/extensions/mod.ts", report: "api/extensions.api.md", limit: 60 },
  { specifier: "mcpwire/check", source: "src/check/mod.ts", report: "api/check.api.md", limit: 60 },
  { specifier: "mcpwire/serve", source: "src/serve/mod.ts", report: "api/serve.api.md", limit: 60 },
];

/** One exported name of an entry. */
export interface ApiName {
  name: string;
  /** `class`, `function`, `const`, `interface`, `type`, … joined by ` + ` when a name is both a value and a type. */
  kind: string;
  /** Exported with `export type`: usable only as a type even when it names a value. */
  typeOnly: boolean;
  /** The first sentence of the declaration's `/** … *\/` comment, on one line; "" when it has none. */
  doc: string;
  /** The repository path of the declaration. */
  file: string;
}

// ---- modules -----------------------------------------------------------------------------

interface Declaration {
  kind: string;
  doc: string;
}

interface ModuleExports {
  /** Names declared here and exported (`export class X`, or `export { X }` of a local one). */
  local: Map<string, { declaration: Declaration; typeOnly: boolean }>;
  /** `export { a as b } from "./x.ts"`: exported name → (module, name there, type-only). */
  reexports: Map<string, { from: string; name: string; typeOnly: boolean }>;
  /** `export * from "./x.ts"` and `export type * from …`. */
  stars: { from: string; typeOnly: boolean }[];
}

const DECLARATION_KEYWORDS = new Set(["class", "function", "const", "let", "var", "type", "interface", "enum", "namespace"]);
const MODIFIERS = new Set(["declare", "abstract", "async", "default"]);

/** The first sentence of a `/** … *\/` comment, on one line (`@tags` and what follows them dropped). */
export function summaryOf(doc: string): string {
  const text = doc
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\*?\s?/, "").trimEnd());
  const paragraph: string[] = [];
  for (const line of text) {
    if (line.trim() === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    if (line.trimStart().startsWith("@")) break;
    if (paragraph.length > 0 && /^\s*[-*] /.test(line)) break; // a list after the summary
    paragraph.push(line.trim());
  }
  const joined = paragraph.join(" ");
  // a sentence ends at `.`, `!` or `?` before a space or the end, but not at "e.g." or "i.e."
  const end = joined.search(/(?<!\b(?:e\.g|i\.e))[.!?](?=\s|$)/);
  return (end === -1 ? joined : joined.slice(0, end + 1)).trim();
}

const cache = new Map<string, ModuleExports>();

/** What a module exports, from its top-level statements. */
function moduleExports(file: string): ModuleExports {
  const known = cache.get(file);
  if (known !== undefined) return known;
  const tokens = tokenize(readFileSync(join(ROOT, file), "utf8"), { docs: true }); // with their depth and doc comments
  const declared = new Map<string, Declaration[]>();
  const imported = new Map<string, { from: string; name: string }>();
  const found: ModuleExports = { local: new Map(), reexports: new Map(), stars: [] };
  const localLists: { local: string; exported: string; typeOnly: boolean }[] = [];
  const exportedDeclarations: string[] = [];

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.depth !== 0 || token.kind !== "ident") continue;
    const previous = tokens[i - 1];
    // a statement starts after `;`, `}` or a doc comment at the top level, or at the start
    const startsStatement = previous === undefined || previous.kind === "doc" || (previous.depth === 0 && (previous.text === ";" || previous.text === "}"));
    if (!startsStatement) continue;
    const doc = previous?.kind === "doc" ? summaryOf(previous.text) : "";
    let j = i;
    const exported = token.text === "export";
    if (exported) j++;
    if (token.text === "import") {
      readImport(tokens, i, file, imported);
      continue;
    }
    if (
      exported &&
      (tokens[j]!.text === "{" || tokens[j]!.text === "*" || (tokens[j]!.text === "type" && (tokens[j + 1]!.text === "{" || tokens[j + 1]!.text === "*")))
    ) {
      readExportClause(tokens, j, file, found, localLists);
      continue;
    }
    while (MODIFIERS.has(tokens[j]?.text ?? "") && tokens[j]!.kind === "ident") j++;
    const keyword = tokens[j];
    if (keyword?.kind !== "ident" || !DECLARATION_KEYWORDS.has(keyword.text)) continue;
    let kind = keyword.text;
    let k = j + 1;
    if (kind === "const" && tokens[k]?.text === "enum") {
      kind = "enum";
      k++;
    }
    if (kind === "function" && tokens[k]?.text === "*") k++;
    const name = tokens[k];
    if (exported && tokens.slice(i, j).some((t) => t.text === "default")) {
      throw new Error(`${file}: \`export default\` is not read by scripts/api-report.ts (our modules export names)`);
    }
    if (name?.kind !== "ident") {
      if (exported) throw new Error(`${file}: an exported ${kind} without a plain name (destructuring is not read by scripts/api-report.ts)`);
      continue;
    }
    if (tokens.slice(i, j).some((t) => t.text === "abstract")) kind = "abstract class";
    if (kind === "let" || kind === "var") kind = "variable";
    const list = declared.get(name.text) ?? [];
    list.push({ kind, doc });
    declared.set(name.text, list);
    if (exported) exportedDeclarations.push(name.text);
  }

  const declarationOf = (name: string): Declaration | undefined => {
    const list = declared.get(name);
    if (list === undefined) return undefined;
    const kinds = [...new Set(list.map((d) => d.kind))];
    return { kind: kinds.join(" + "), doc: list.find((d) => d.doc !== "")?.doc ?? "" };
  };
  for (const name of exportedDeclarations) found.local.set(name, { declaration: declarationOf(name)!, typeOnly: false });
  for (const { local, exported, typeOnly } of localLists) {
    const declaration = declarationOf(local);
    if (declaration !== undefined) found.local.set(exported, { declaration, typeOnly });
    else if (imported.has(local)) found.reexports.set(exported, { ...imported.get(local)!, typeOnly });
    else throw new Error(`${file}: exports ${local}, which it neither declares nor imports`);
  }
  cache.set(file, found);
  return found;
}

/** The repository path of a relative specifier, resolved from `file`. */
function resolveSpecifier(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const path = relative(ROOT, resolve(ROOT, dirname(file), specifier)).split(sep).join("/");
  if (!existsSync(join(ROOT, path))) throw new Error(`${file}: "${specifier}" does not exist`);
  return path;
}

/** `import { a, b as c } from "./x.ts"`: remembers local name → (module, name there). */
function readImport(tokens: Token[], start: number, file: string, imported: Map<string, { from: string; name: string }>) {
  let j = start + 1;
  const names: [local: string, remote: string][] = [];
  for (; j < tokens.length && tokens[j]!.text !== ";" && !(tokens[j]!.text === "from" && tokens[j + 1]?.kind === "string"); j++) {
    if (tokens[j]!.text !== "{") continue;
    for (j++; tokens[j]!.text !== "}"; j++) {
      if (tokens[j]!.text === "," || tokens[j]!.text === "type") continue;
      const remote = tokens[j]!.text;
      let local = remote;
      if (tokens[j + 1]?.text === "as") {
        local = tokens[j + 2]!.text;
        j += 2;
      }
      names.push([local, remote]);
    }
  }
  const from = tokens[j]?.text === "from" ? resolveSpecifier(file, tokens[j + 1]!.text) : undefined;
  if (from === undefined) return;
  for (const [local, remote] of names) imported.set(local, { from, name: remote });
}

/** `export [type] { a, type b, c as d } [from "…"]` or `export [type] * [as ns] from "…"`. */
function readExportClause(
  tokens: Token[],
  start: number,
  file: string,
  found: ModuleExports,
  localLists: { local: string; exported: string; typeOnly: boolean }[],
) {
  let j = start;
  const clauseTypeOnly = tokens[j]!.text === "type";
  if (clauseTypeOnly) j++;
  if (tokens[j]!.text === "*") {
    if (tokens[j + 1]!.text === "as") throw new Error(`${file}: \`export * as\` is not read by scripts/api-report.ts`);
    const from = resolveSpecifier(file, tokens[j + 2]!.text);
    if (from !== undefined) found.stars.push({ from, typeOnly: clauseTypeOnly });
    return;
  }
  const names: { local: string; exported: string; typeOnly: boolean }[] = [];
  for (j++; tokens[j]!.text !== "}"; j++) {
    if (tokens[j]!.text === ",") continue;
    let typeOnly = clauseTypeOnly;
    if (tokens[j]!.text === "type" && tokens[j + 1]!.kind === "ident" && tokens[j + 1]!.text !== "as") {
      typeOnly = true;
      j++;
    }
    const local = tokens[j]!.text;
    let exported = local;
    if (tokens[j + 1]?.text === "as") {
      exported = tokens[j + 2]!.text;
      j += 2;
    }
    names.push({ local, exported, typeOnly });
  }
  if (tokens[j + 1]?.text === "from") {
    const from = resolveSpecifier(file, tokens[j + 2]!.text);
    if (from === undefined) throw new Error(`${file}: re-exports a package's names (${tokens[j + 2]!.text})`);
    for (const { local, exported, typeOnly } of names) found.reexports.set(exported, { from, name: local, typeOnly });
  } else {
    localLists.push(...names);
  }
}

/** Where `name` exported by `file` is declared, or undefined when `file` does not export it. */
function resolveName(file: string, name: string, seen = new Set<string>()): Omit<ApiName, "name"> | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const exports = moduleExports(file);
  const local = exports.local.get(name);
  if (local !== undefined) return { kind: local.declaration.kind, doc: local.declaration.doc, typeOnly: local.typeOnly, file };
  const re = exports.reexports.get(name);
  if (re !== undefined) {
    const target = resolveName(re.from, re.name, seen);
    if (target === undefined) throw new Error(`${file}: re-exports ${re.name} from ${re.from}, which does not export it`);
    return { ...target, typeOnly: target.typeOnly || re.typeOnly };
  }
  for (const star of exports.stars) {
    const target = resolveName(star.from, name, seen);
    if (target !== undefined) return { ...target, typeOnly: target.typeOnly || star.typeOnly };
  }
  return undefined;
}

/** Every name a module exports (its own, re-exported, and through `export *`). */
function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const exports = moduleExports(file);
  for (const name of exports.local.keys()) names.add(name);
  for (const name of exports.reexports.keys()) names.add(name);
  for (const star of exports.stars) for (const name of exportedNames(star.from, seen)) if (name !== "default") names.add(name);
  return names;
}

/** Case-insensitive, then by code unit: the same order on every runtime (no locale). */
function byName(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** The public names of an entry, sorted, each with its kind, doc summary and declaring file. */
export function apiOf(entry: string): ApiName[] {
  cache.clear();
  return [...exportedNames(entry)]
    .sort(byName)
    .map((name) => ({ name, ...resolveName(entry, name)! }));
}

/** The Markdown report of an entry: a header and one line per name. */
export function reportOf(entry: (typeof ENTRIES)[number]): string {
  const names = apiOf(entry.source);
  const lines = [
    `# API of \`${entry.specifier}\` (${entry.source})`,
    "",
    `${names.length} names. Generated by \`npm run api\` (scripts/api-report.ts); checked by test/api.test.ts.`,
    "One line per name: `name` — kind — the first sentence of its doc comment.",
    "",
    ...names.map((n) =>
      `- \`${n.name}\` — ${n.typeOnly && !/^(type|interface)$/.test(n.kind) ? `type of ${n.kind}` : n.kind} — ${n.doc || "(no doc comment)"}`
    ),
    "",
  ];
  return lines.join("\n");
}

function main(args: string[]) {
  const check = args.includes("--check");
  let stale = 0;
  for (const entry of ENTRIES) {
    const text = reportOf(entry);
    const path = join(ROOT, entry.report);
    const old = existsSync(path) ? readFileSync(path, "utf8") : "";
    if (old === text) continue;
    stale++;
    if (check) console.error(`${entry.report} is out of date: run \`npm run api\``);
    else {
      writeFileSync(path, text);
      console.log(`wrote ${entry.report} (${text.split("\n").filter((l) => l.startsWith("- ")).length} names)`);
    }
  }
  if (check && stale > 0) return 1;
  if (stale === 0) console.log("the API reports are up to date");
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
