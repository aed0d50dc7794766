// docs/api/ (made by scripts/api-docs.ts, `npm run api-docs`, also run by `npm run api`): the
// committed pages are what the generator makes now from the compiler's declarations and the doc
// comments, so a changed signature or doc comment without a regenerated page fails here; each page
// has a section for every name its entry exports, and its contents link to real headings. The
// generator runs tsc (node_modules/.bin/tsc) as a child process, the same under Node and Deno.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { type Declarations, declared, pageOf, piecesOf, readDoc, renderName, renderPage, splitContainer, withDeclarations } from "../../scripts/api-docs.ts";
import { apiOf, ENTRIES, ROOT } from "../../scripts/api-report.ts";
import { behaviour } from "../support/behaviour.ts";

behaviour("npm run api-docs: every page in docs/api/ is what the generator makes now, and a changed doc comment or signature changes it", async () => {
  await withDeclarations((declarations) => {
    for (const entry of ENTRIES) {
      const page = pageOf(entry);
      const committed = readFileSync(join(ROOT, page), "utf8").split("\n");
      const made = renderPage(entry, declarations).split("\n");
      const line = made.findIndex((text, i) => committed[i] !== text);
      if (line !== -1 || committed.length !== made.length) {
        const at = line === -1 ? made.length : line;
        assert.fail(
          `${page} is stale at line ${at + 1}: it has ${JSON.stringify(committed[at])}, the generator makes ${
            JSON.stringify(made[at])
          }; run \`npm run api-docs\` and commit docs/api/`,
        );
      }
    }
    // so the comparison above can fail: the Client's section after an edit of its declaration file
    const client = apiOf("src/mod.ts").find((name) => name.name === "Client")!;
    const edited = (from: string, to: string): Declarations => ({
      get: (file) => {
        const text = declarations.get(file) ?? "";
        assert.ok(text.includes(from), `${file}'s declarations have ${from}`);
        return text.replace(from, to);
      },
    });
    const before = renderName(client, declarations).join("\n");
    assert.match(before, /- `notify\(method: string, params\?: Params\): Promise<void>`\n\n {2}Sends any notification\./);
    assert.notEqual(renderName(client, edited("Sends any notification.", "Sends a notification.")).join("\n"), before);
    assert.notEqual(renderName(client, edited("notify(method: string", "notify(name: string")).join("\n"), before);
  });
});

test("one page per entry, named by the entry", () => {
  assert.deepEqual(ENTRIES.map(pageOf), [
    "docs/api/index.md",
    "docs/api/registry.md",
    "docs/api/host.md",
    "docs/api/agent.md",
    "docs/api/auth.md",
    "docs/api/telemetry.md",
    "docs/api/extensions.md",
    "docs/api/check.md",
    "docs/api/serve.md",
  ]);
});

test("each page has one section per exported name and its contents link to its headings", () => {
  for (const entry of ENTRIES) {
    const page = readFileSync(join(ROOT, pageOf(entry)), "utf8");
    const headings = [...page.matchAll(/^### `([^`]+)`$/gm)].map((match) => match[1]!);
    assert.deepEqual(headings.toSorted(), apiOf(entry.source).map((name) => name.name).toSorted(), `${pageOf(entry)}: one section per name`);
    const anchors = new Set<string>();
    const seen = new Map<string, number>();
    for (const match of page.matchAll(/^#+ (.+)$/gm)) {
      const base = match[1]!.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    const links = [...page.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1]!);
    assert.ok(links.length >= headings.length);
    assert.deepEqual(links.filter((link) => !anchors.has(link)), [], `${pageOf(entry)}: contents links without a heading`);
  }
});

test("the declaration-file reader: statements, members (public ones), doc comments and their tags", () => {
  const source = [
    'import type { X } from "./x.ts";',
    "/** A class. */",
    "export declare class A<T extends { a: string; }> extends B<T> {",
    "    #private;",
    "    /** The name. */",
    '    readonly name = "A";',
    "    private secret;",
    "    protected hook(): void;",
    "    /**",
    "     * Runs it.",
    "     * @param input what to run",
    "     * @returns what came out",
    "     */",
    "    run(input: { text: string; }): `${string}-done`;",
    "}",
    "/** @deprecated Use A. */",
    "export type C = `a;${number}` | { b: number; };",
    "export declare function f(x: number): void;",
  ].join("\n");
  const pieces = piecesOf(source);
  assert.deepEqual(pieces.map((piece) => declared(piece)?.name), [undefined, "A", "C", "f"]);
  assert.equal(pieces[1]!.doc, "/** A class. */");
  assert.equal(pieces[2]!.text, "export type C = `a;${number}` | { b: number; }");
  const { head, members } = splitContainer(pieces[1]!.text);
  assert.equal(head, "class A<T extends { a: string; }> extends B<T>");
  assert.deepEqual(members.map((member) => member.text.replace(/\s+/g, " ")), [
    "#private",
    'readonly name = "A"',
    "private secret",
    "protected hook(): void",
    "run(input: { text: string; }): `${string}-done`",
  ]);
  const run = readDoc(members[4]!.doc);
  assert.deepEqual(run, { text: "Runs it.", params: [{ name: "input", text: "what to run" }], returns: "what came out", deprecated: undefined, other: [] });
  assert.equal(readDoc(pieces[2]!.doc).deprecated, "Use A.");
});
