// CONTRIBUTING.md and docs/architecture.md (the design document) say what the code is: every
// file they name exists, every constant they name is declared in src/, and the entry budgets
// they state are the ones test/api.test.ts enforces.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { ENTRIES } from "../../scripts/api-report.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PAGES = ["CONTRIBUTING.md", "docs/architecture.md"];
const text = (page: string) => readFileSync(join(ROOT, page), "utf8");

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.(ts|js|mjs)$/.test(entry.name)) out.push(path);
  }
  return out;
}
const SOURCE = sourcesUnder("src").map((path) => readFileSync(join(ROOT, path), "utf8")).join("\n");

/** Whether a path a page names (`src/host/sandbox*.ts`, `test/cli/trace-*.test.ts`) matches a file. */
function exists(path: string): boolean {
  if (!path.includes("*")) return existsSync(join(ROOT, path));
  const dir = dirname(path);
  if (!existsSync(join(ROOT, dir))) return false;
  const pattern = new RegExp(`^${path.slice(dir.length + 1).replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  return readdirSync(join(ROOT, dir)).some((name) => pattern.test(name));
}

describe("the contributor pages match the code", () => {
  for (const page of PAGES) {
    test(`${page}: every src/ and test/ path it names exists`, () => {
      // a pattern over folders (`test/**/*.test.ts`) names no one file
      const named = [...text(page).matchAll(/`((?:src|test)\/[\w./*-]+\.(?:ts|js|mjs))`/g)].map((match) => match[1]!).filter((path) => !path.includes("**"));
      assert.ok(named.length > 5, `${page} names only ${named.length} paths: the scan is broken`);
      assert.deepEqual(named.filter((path) => !exists(path)), [], `${page} names files that are not there`);
    });

    test(`${page}: every constant it names (\`VERBS\`, \`EXTENSIONS\`, …) is declared in src/`, () => {
      const constants = [...new Set([...text(page).matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})`/g)].map((match) => match[1]!))];
      const missing = constants.filter((name) => !new RegExp(`\\b(?:const|let|var)\\s+${name}\\b`).test(SOURCE));
      assert.deepEqual(missing, [], `${page} names constants src/ does not declare`);
    });

    test(`${page}: the entry budgets it states are the enforced ones (root 120 names, the others 60)`, () => {
      assert.match(text(page), /root (?:≤ )?120 names, (?:the )?others (?:≤ )?60\b/);
      for (const entry of ENTRIES) assert.equal(entry.limit, entry.specifier === "mcpwire" ? 120 : 60, entry.specifier);
    });
  }
});
