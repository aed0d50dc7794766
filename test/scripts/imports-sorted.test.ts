// The "imports sorted" lint rule (scripts/imports-sorted.mjs, issue 38), run as `npm run check`
// runs it: a file with its imports out of order is reported, line by line; `--fix` writes them in
// order (comments and side-effect imports where they belong, a multi-line import kept so), a
// second `--fix` changes nothing, and deno fmt agrees with what it wrote. Fixtures are written to a
// temporary directory (a .ts file out of order in test/ would fail the rule itself).

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SCRIPT = join(ROOT, "scripts", "imports-sorted.mjs");
const DENO = join(ROOT, "node_modules", ".bin", "deno");
/** What follows process.execPath to run the script with this runtime (plain Node ESM; Deno runs it too). */
const scriptArgs = "Deno" in globalThis ? ["run", "-A", SCRIPT] : [SCRIPT];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string): Promise<Outcome> {
  return new Promise((done) => {
    execFile(command, args, { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
    });
  });
}

const sortImports = (args: string[], cwd: string) => run(process.execPath, [...scriptArgs, ...args], cwd);

const OUT_OF_ORDER = `// A fixture: its imports out of order.

import { z, type Y, a as b } from "./zeta.ts";
import { test } from "node:test";
import "./setup.ts"; // in place, on purpose: what it sets up, the imports below need
// the types of this package, and only those
import type { Thing } from "some-package";
import {
  gammaNamedLongEnoughToKeepTheImportOnManyLines,
  alphaNamedLongEnoughToKeepTheImportOnManyLines,
  betaNamedLongEnoughToKeepTheImportOnManyLines,
} from "../up.ts";
import assert from "node:assert/strict";
import { provider } from "./http-provider.ts";
import { http } from "./http.ts";
import { value } from "./value.ts";
import type { Value } from "./value.ts"; // the type beside it

// not an import: stays
const x: Thing | Value = value ?? http ?? provider ?? z ?? b;
test("x", () => assert.ok(x));
`;

const SORTED = `// A fixture: its imports out of order.

import { test } from "node:test";
import { a as b, type Y, z } from "./zeta.ts";
import "./setup.ts"; // in place, on purpose: what it sets up, the imports below need
import assert from "node:assert/strict";
// the types of this package, and only those
import type { Thing } from "some-package";
import {
  alphaNamedLongEnoughToKeepTheImportOnManyLines,
  betaNamedLongEnoughToKeepTheImportOnManyLines,
  gammaNamedLongEnoughToKeepTheImportOnManyLines,
} from "../up.ts";
import { http } from "./http.ts";
import { provider } from "./http-provider.ts";
import type { Value } from "./value.ts"; // the type beside it
import { value } from "./value.ts";

// not an import: stays
const x: Thing | Value = value ?? http ?? provider ?? z ?? b;
test("x", () => assert.ok(x));
`;

describe("scripts/imports-sorted.mjs", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-imports-sorted-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("a file with its imports out of order is reported, each place with its line and the order expected; exit 1", async () => {
    writeFileSync(join(dir, "unsorted.ts"), OUT_OF_ORDER);
    const outcome = await sortImports(["unsorted.ts"], dir);
    assert.equal(outcome.code, 1, outcome.stderr);
    const lines = outcome.stdout.trim().split("\n");
    assert.deepEqual(lines.slice(0, 4), [
      'unsorted.ts:3: the names in the braces of the import of "./zeta.ts" are not sorted: { a as b, type Y, z }',
      'unsorted.ts:4: import of "node:test" is out of order: it goes before "./zeta.ts" (expected: node:test, ./zeta.ts)',
      'unsorted.ts:8: the names in the braces of the import of "../up.ts" are not sorted: ' +
      "{ alphaNamedLongEnoughToKeepTheImportOnManyLines, betaNamedLongEnoughToKeepTheImportOnManyLines, gammaNamedLongEnoughToKeepTheImportOnManyLines }",
      'unsorted.ts:13: import of "node:assert/strict" is out of order: it goes before "some-package" ' +
      "(expected: node:assert/strict, some-package, ../up.ts, ./http.ts, ./http-provider.ts, ./value.ts, ./value.ts)",
    ]);
    assert.match(outcome.stdout, /1 file with imports out of order \(of 1\)/);
    assert.equal(readFileSync(join(dir, "unsorted.ts"), "utf8"), OUT_OF_ORDER, "the check alone writes nothing");
  });

  test("--fix writes them in order: comments moved with their import, a side-effect import kept in place, multi-line kept; a second --fix changes nothing", async () => {
    writeFileSync(join(dir, "fixed.ts"), OUT_OF_ORDER);
    const fixed = await sortImports(["--fix", "fixed.ts"], dir);
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.match(fixed.stdout, /^sorted fixed\.ts$/m);
    assert.equal(readFileSync(join(dir, "fixed.ts"), "utf8"), SORTED);
    const again = await sortImports(["--fix", "fixed.ts"], dir);
    assert.deepEqual({ code: again.code, stdout: again.stdout }, { code: 0, stdout: "" });
    assert.equal(readFileSync(join(dir, "fixed.ts"), "utf8"), SORTED, "--fix of a sorted file is a no-op");
    const check = await sortImports(["fixed.ts"], dir);
    assert.deepEqual({ code: check.code, stdout: check.stdout }, { code: 0, stdout: "" });
  });

  test("a comment directly above the first import is that import's, not the header's: it moves with it", async () => {
    const header = "// A header, then a blank line.\n\n";
    const given = header + '// @ts-types="./z.d.ts"\nimport { z } from "./z.ts";\nimport { a } from "./a.ts";\n';
    writeFileSync(join(dir, "first.ts"), given);
    const fixed = await sortImports(["--fix", "first.ts"], dir);
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.equal(readFileSync(join(dir, "first.ts"), "utf8"), header + 'import { a } from "./a.ts";\n// @ts-types="./z.d.ts"\nimport { z } from "./z.ts";\n');
  });

  test("only unsorted names: the braces are sorted in place and the rest of the block (a blank line, a comment) kept", async () => {
    const text = `import { b, a } from "node:fs";\n\n// kept\nimport { c } from "./c.ts";\n\nexport const d = 1;\n`;
    writeFileSync(join(dir, "names.ts"), text);
    assert.equal((await sortImports(["--fix", "names.ts"], dir)).code, 0);
    assert.equal(readFileSync(join(dir, "names.ts"), "utf8"), text.replace("{ b, a }", "{ a, b }"));
  });

  test("deno fmt agrees with the order: --fix of a formatted file is still formatted, and its names in braces are as deno fmt sorts them", async () => {
    // deno fmt sorts the names in braces itself (in the order the script checks): only the declarations out of order here
    const unsortedDeclarations = OUT_OF_ORDER.replace("{ z, type Y, a as b }", "{ a as b, type Y, z }").replace(
      /gamma(\w+),\n {2}alpha(\w+),\n {2}beta(\w+),/,
      "alpha$2,\n  beta$3,\n  gamma$1,",
    );
    assert.notEqual(unsortedDeclarations, OUT_OF_ORDER);
    writeFileSync(join(dir, "formatted.ts"), unsortedDeclarations);
    const before = await run(DENO, ["fmt", "--check", "--line-width=160", "formatted.ts"], dir);
    assert.equal(before.code, 0, `the fixture as deno fmt writes it: ${before.stdout}${before.stderr}`);
    assert.equal((await sortImports(["--fix", "formatted.ts"], dir)).code, 0);
    const fmt = await run(DENO, ["fmt", "--check", "--line-width=160", "formatted.ts"], dir);
    assert.equal(fmt.code, 0, fmt.stdout + fmt.stderr);
    assert.equal(readFileSync(join(dir, "formatted.ts"), "utf8"), SORTED);
    // names deno fmt has sorted, the edge cases included (quotes, `$`, `_`, case, digits, `type`, `as`), pass the check as they are
    const names = `import { "str-name" as q, $dollar, _under, a1, A2, Ab, aB, ab, b10, b9, DEFAULT_X, defaultEra, z as y, type Zed } from "./x.ts";\n`;
    writeFileSync(join(dir, "names-fmt.ts"), names);
    assert.equal((await run(DENO, ["fmt", "--check", "--line-width=160", "names-fmt.ts"], dir)).code, 0, "deno fmt's own order");
    assert.deepEqual((await sortImports(["names-fmt.ts"], dir)).stdout, "");
  });
});
