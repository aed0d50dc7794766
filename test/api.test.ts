// The public API, pinned: each entry's names are those its committed report (api/*.api.md)
// lists, within its budget (root 120, the others 60), each with a doc comment, and no entry
// re-exports another's. After changing an entry or a doc comment on what it exports, run
// `npm run api` and commit the report with the change.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { type ApiName, apiOf, ENTRIES, reportOf, ROOT, summaryOf } from "../scripts/api-report.ts";

/** The names a report lists, from its `- \`name\` — …` lines. */
function namesIn(report: string): string[] {
  return [...report.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]!);
}

/** Types a signature of two entries needs, allowed in both (prefer `import type` from the owner in user code). */
const SHARED_TYPES: ReadonlySet<string> = new Set<string>();

const apis = new Map<string, ApiName[]>(ENTRIES.map((entry) => [entry.specifier, apiOf(entry.source)]));

describe("the API report reader (so the checks below can fail)", () => {
  const fixture = apiOf("test/fixtures/api/entry.ts");
  const byName = new Map(fixture.map((name) => [name.name, name]));

  test("reads export lists, renames, type-only exports, `export *` and `export type *`; nothing else", () => {
    assert.deepEqual(fixture.map((name) => name.name), ["Alpha", "Both", "Delta", "EPSILON", "Eta", "Gamma", "local", "renamed", "undocumented", "Zeta"]);
  });

  test("each name has its declaration's kind and whether it is a type only", () => {
    const kinds = Object.fromEntries(fixture.map((name) => [name.name, `${name.kind}${name.typeOnly ? " (type only)" : ""}`]));
    assert.deepEqual(kinds, {
      Alpha: "class",
      Both: "const + type",
      Delta: "interface (type only)",
      EPSILON: "const",
      Eta: "type (type only)",
      Gamma: "class (type only)",
      local: "function",
      renamed: "function",
      undocumented: "const",
      Zeta: "abstract class",
    });
    assert.equal(byName.get("Zeta")?.file, "test/fixtures/api/star.ts");
  });

  test("the doc is the first sentence of the declaration's doc comment, on one line", () => {
    assert.equal(byName.get("Alpha")?.doc, "A class.");
    assert.equal(byName.get("Gamma")?.doc, "A class exported as a type only, e.g. for a signature.");
    assert.equal(byName.get("undocumented")?.doc, "");
    assert.equal(summaryOf("/**\n * Why it failed:\n * - `a`: one;\n * - `b`: two.\n */"), "Why it failed:");
  });
});

/** What `deno doc --json` says each entry exports: name → its kinds (`class`, `typeAlias`, …) and whether one has a doc. */
async function denoDoc(): Promise<Map<string, Map<string, { kinds: string[]; doc: boolean }>>> {
  const denoDir = mkdtempSync(join(tmpdir(), "mcpwire-api-deno-")); // deno doc writes analysis caches there
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        join(ROOT, "node_modules", ".bin", "deno"),
        ["doc", "--json", ...ENTRIES.map((entry) => entry.source)],
        { cwd: ROOT, env: { ...process.env, DENO_DIR: denoDir, NO_COLOR: "1" }, maxBuffer: 256 * 1024 * 1024, timeout: 60_000 },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    type Symbol = { name: string; declarations: { kind: string; jsDoc?: { doc?: string } }[] };
    const nodes = (JSON.parse(stdout) as { nodes: Record<string, { symbols: Symbol[] }> }).nodes;
    const out = new Map<string, Map<string, { kinds: string[]; doc: boolean }>>();
    for (const entry of ENTRIES) {
      const symbols = nodes[pathToFileURL(join(ROOT, entry.source)).href]?.symbols ?? [];
      out.set(
        entry.specifier,
        new Map(symbols.map((symbol) => [symbol.name, {
          kinds: [...new Set(symbol.declarations.map((d) => d.kind))].sort(),
          doc: symbol.declarations.some((d) => (d.jsDoc?.doc ?? "").trim() !== ""),
        }])),
      );
    }
    return out;
  } finally {
    rmSync(denoDir, { recursive: true, force: true });
  }
}

/** Our kinds in `deno doc`'s words. */
const DENO_KIND: Readonly<Record<string, string>> = {
  class: "class",
  "abstract class": "class",
  function: "function",
  const: "variable",
  variable: "variable",
  type: "typeAlias",
  interface: "interface",
  enum: "enum",
  namespace: "namespace",
};

describe("the public API of each entry", () => {
  test("the reader agrees with `deno doc` (Deno's TypeScript parser) on every name, its kind and whether it has a doc", async () => {
    const theirs = await denoDoc();
    for (const entry of ENTRIES) {
      const ours = new Map(apis.get(entry.specifier)!.map((name) => [name.name, {
        kinds: [...new Set(name.kind.split(" + ").map((kind) => DENO_KIND[kind] ?? kind))].sort(),
        doc: name.doc !== "",
      }]));
      assert.deepEqual(ours, theirs.get(entry.specifier), `${entry.source}: scripts/api-report.ts reads it differently from deno doc`);
    }
  });

  for (const entry of ENTRIES) {
    const names = apis.get(entry.specifier)!;

    test(`${entry.specifier}: ${entry.report} lists exactly what ${entry.source} exports`, () => {
      const path = join(ROOT, entry.report);
      assert.ok(existsSync(path), `${entry.report} is missing: run \`npm run api\``);
      const committed = readFileSync(path, "utf8");
      const listed = new Set(namesIn(committed));
      const exported = new Set(names.map((name) => name.name));
      const added = [...exported].filter((name) => !listed.has(name));
      const removed = [...listed].filter((name) => !exported.has(name));
      assert.deepEqual(
        { added, removed },
        { added: [], removed: [] },
        `${entry.source} exports names its report does not list, or no longer exports names it lists: ` +
          "if that is meant, run `npm run api` and commit the report (and CHANGELOG.md's Removed list for a removal)",
      );
      assert.equal(committed, reportOf(entry), `${entry.report} is out of date (a kind or a doc comment changed): run \`npm run api\``);
    });

    // The budget is stated here, not read from the report script: docs/architecture.md and CONTRIBUTING.md give the same.
    const budget = entry.specifier === "mcpwire" ? 120 : 60;
    test(`${entry.specifier}: at most ${budget} names`, () => {
      assert.equal(entry.limit, budget, `scripts/api-report.ts gives ${entry.specifier} a limit of ${entry.limit}, not its budget ${budget}`);
      assert.ok(names.length <= budget, `${entry.specifier} exports ${names.length} names, over its ${budget}: move helpers and internals out`);
    });

    test(`${entry.specifier}: every name has a doc comment saying what it is`, () => {
      const undocumented = names.filter((name) => name.doc === "").map((name) => `${name.name} (${name.file})`);
      assert.deepEqual(undocumented, [], "add a one-line /** … */ on each declaration");
    });

    test(`${entry.specifier}: the values it exports at run time are the report's values`, async () => {
      const loaded = Object.keys(await import(pathToFileURL(join(ROOT, entry.source)).href)).sort();
      const values = names.filter((name) => !name.typeOnly && !/^(type|interface)$/.test(name.kind)).map((name) => name.name).sort();
      assert.deepEqual(loaded, values);
    });
  }

  test("no entry re-exports another entry's name (import it from the entry that owns it)", () => {
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const [specifier, names] of apis) {
      for (const { name } of names) {
        const first = owner.get(name);
        if (first === undefined || SHARED_TYPES.has(name)) owner.set(name, specifier);
        else twice.push(`${name}: ${first} and ${specifier}`);
      }
    }
    assert.deepEqual(twice, []);
  });
});
