// The `mcpwire` bin as the package ships it (issue 37): one esbuild bundle of src/cli/run.ts in
// dist/cli/, the last step of `npm run build`, where tsc's build of the library (dist/, a file
// per module) leaves src/cli/ out. The CLI tests run the same bundle (test/support/compiled-cli.ts).
//
// Why a bundle: tsc's build of the CLI was 53 files of the ~200 it loads at most; `mcpwire
// version` loaded 19 of them, each resolved, read and compiled in turn, and started in 1.4–1.5×
// the time of `node -e 0`. The bundle is `run.js` with the verbs as chunks (`--splitting`: each
// verb's module, which main.ts imports when the verb runs, is a chunk of its own, loaded as lazily
// as before) and the code they share in a few more. Two steps after esbuild's (finishCliBundle):
// - what run.js needs before it runs goes into run.js itself (mergeIntoEntry): `mcpwire version`
//   and `--help` read one file;
// - its imports of Node's built-in modules become process.getBuiltinModule() calls
//   (builtinsByGetter), which spares Node building an ES facade of each.
//
// - Packages (ajv, yaml, smol-toml, the OpenTelemetry ones) stay imports of node_modules: a split
//   bundle's dynamic import of a CommonJS package (yaml, ajv) gives only its default export,
//   where Node gives the named ones too.
// - The runtime module: the bundle holds src/runtime/mod.ts as written, which imports node.ts and
//   deno.ts and picks one when it loads (`globalThis.Deno`): Node and Bun run node.ts, Deno
//   (`deno run -A npm:mcpwire`, or the installed bin) deno.ts, as from source. The library's
//   `#runtime` import (package.json "imports", scripts/runtime-entry.ts) is for bundlers and
//   browsers; the bin is never loaded in a browser. Resolving `#runtime` from the bin instead
//   would load dist/runtime/*.js beside the bundle's own copy of src/common/: two McpwireError
//   classes, and `instanceof` false for the runtime's errors.
// - Class and function names are kept (`--keep-names`: error names reach the output), syntax is
//   tsconfig.json's ES2022 target, whitespace and syntax minified (identifiers kept, so a
//   `--debug` stack still names functions), no type checking (tsc's build of the library does it
//   first).
// - Every import is one esbuild can follow (the telemetry layer is imported by the host, not
//   found by a computed name: issue 38). One module is found by a path the code makes:
//   host/bridge/sync-bridge.ts starts "./bridge-worker.js" beside itself, a side-effect entry of the
//   library (package.json "sideEffects"). The CLI does not start the sync bridge; if it ever
//   does, finishCliBundle() fails the build until bridge-worker.ts is an entry here too.
//
//   node --import tsx scripts/cli-bundle.ts [DIST]     (default: dist; replaces DIST/cli/)

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** esbuild's arguments besides the output directory (see the header), relative to the repository root. */
export const CLI_BUNDLE_ARGS: readonly string[] = [
  "src/cli/run.ts",
  "--bundle",
  "--splitting",
  "--format=esm",
  "--platform=node",
  "--packages=external",
  "--target=es2022",
  "--keep-names",
  "--minify-whitespace",
  "--minify-syntax",
  "--entry-names=[name]",
  "--log-level=warning",
];

/** What host/bridge/sync-bridge.ts starts as its worker, beside itself. */
const BRIDGE_WORKER = "bridge-worker.js";

/** A static import statement as esbuild writes one (at a statement's start): `import{a}from"./x.js"`, `import"./x.js"`. */
export const STATIC_IMPORT = /(?:^|[;\n])\s*import\s*(?:[\w$*{][^;"']*?\bfrom\s*)?["']([^"']+)["']/g;

/** The files `file` (in `out`) imports statically from beside it: `import … from "./x.js"`, `import "./x.js"`. */
function staticImports(out: string, file: string): string[] {
  const text = readFileSync(join(out, file), "utf8");
  return [...text.matchAll(STATIC_IMPORT)].map((found) => found[1]!).filter((path) => /^\.\/[\w.-]+\.js$/.test(path)).map((path) => path.slice(2));
}

/**
 * run.js and the chunks it loads before it runs (its static imports, and theirs) made one file:
 * esbuild splits what the entry and the verbs share by which of them reach it, into eight chunks
 * on the way to `mcpwire version` alone, and Node resolves, reads and compiles each in turn
 * (about 7 % of the start of `version` on Node 20, against one file). The new run.js re-exports
 * what each merged chunk exported (their names are unique across the bundle, which this checks),
 * and every other file that imported one of them imports run.js instead: one instance of each
 * module, as before. That is why src/cli/run.ts has no top-level await: a verb chunk importing
 * run.js while it still awaited would wait for it, and it for the verb.
 */
function mergeIntoEntry(out: string): void {
  const merged = new Set<string>();
  const queue = staticImports(out, "run.js");
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (merged.has(file)) continue;
    merged.add(file);
    queue.push(...staticImports(out, file));
  }
  if (merged.size === 0) return;
  const exported = new Map<string, string>();
  for (const file of merged) {
    const text = readFileSync(join(out, file), "utf8");
    for (const [, list] of text.matchAll(/\bexport\s*\{([^}]*)\}/g)) {
      for (const item of list!.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
        const name = item.split(/\s+as\s+/).pop()!;
        const other = exported.get(name);
        if (other !== undefined) throw new Error(`cli-bundle: ${other} and ${file} both export "${name}"; run.js cannot re-export both`);
        exported.set(name, file);
      }
    }
  }
  renameSync(join(out, "run.js"), join(out, "entry.js"));
  const others = readdirSync(out).filter((file) => file.endsWith(".js") && file !== "entry.js" && !merged.has(file));
  const bundled = esbuild.buildSync({
    stdin: {
      contents: [...[...merged].map((file) => `export * from "./${file}";`), `import "./entry.js";`].join("\n"),
      resolveDir: out,
      sourcefile: "run.js",
    },
    banner: { js: "#!/usr/bin/env node" },
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    external: others.map((file) => `./${file}`),
    target: "es2022",
    // A top-level await in run.js fails the build here ("not available in the configured target").
    supported: { "top-level-await": false },
    // The chunks sit under the package's dist/, which package.json "sideEffects" lists only in
    // part: without this, esbuild would drop `import "./entry.js"` (run.js's own code) as pure.
    ignoreAnnotations: true,
    minifyWhitespace: true,
    minifySyntax: true,
    write: false,
    logLevel: "warning",
  });
  writeFileSync(join(out, "run.js"), bundled.outputFiles[0]!.text, { mode: 0o755 });
  for (const file of [...merged, "entry.js"]) rmSync(join(out, file));
  for (const file of others) {
    const text = readFileSync(join(out, file), "utf8");
    const pointed = text.replace(
      /(["'])\.\/([\w.-]+\.js)\1/g,
      (specifier, quote: string, name: string) => merged.has(name) ? `${quote}./run.js${quote}` : specifier,
    );
    if (pointed !== text) writeFileSync(join(out, file), pointed);
  }
}

/** An import of a built-in module as esbuild writes it: `import a,{b as c}from"node:x";`, `import*as n from"node:x";`. */
const BUILTIN_IMPORT = /\bimport\s*(?:([\w$]+)\s*,\s*)?(?:\{([^}]*)\}|\*\s*as\s+([\w$]+)|([\w$]+))\s*from\s*["'](node:[\w/]+)["'];?/g;

/**
 * `text` with each `import … from "node:x"` made `const … = globalThis.process.getBuiltinModule("node:x")`
 * (Node 20.16+, Bun and Deno 2 have it), the constants first in the file: an import statement
 * makes Node build the module's ES facade (every export of node:fs copied, for each of the five
 * modules the bin's entry names), about 2 % of the start of `mcpwire version`; the getter hands
 * over the module object. (esbuild leaves the imports where each merged module's code starts;
 * an import is hoisted, a constant is not, so they go to the top, before any code runs.) Throws
 * on an import of a built-in in a shape this does not know.
 */
export function builtinsByGetter(text: string, file: string): string {
  const constants: string[] = [];
  const rest = text.replace(BUILTIN_IMPORT, (_statement, first?: string, named?: string, namespace?: string, only?: string, id?: string) => {
    const module = `globalThis.process.getBuiltinModule(${JSON.stringify(id)})`;
    const whole = first ?? namespace ?? only;
    const members: string[] = [];
    for (const item of (named ?? "").split(",").map((part) => part.trim()).filter((part) => part !== "")) {
      const [name, local = name] = item.split(/\s+as\s+/) as [string, string?];
      if (name === "default") constants.push(`const ${local}=${module};`);
      else members.push(name === local ? name : `${name}:${local}`);
    }
    if (whole !== undefined) constants.push(`const ${whole}=${module};`);
    if (members.length > 0) constants.push(`const{${members.join(",")}}=${module};`);
    return "";
  });
  const left = /\b(?:from|import)\s*["']node:[^"']*["']/.exec(rest);
  if (left !== null) throw new Error(`cli-bundle: ${file} imports a built-in module in a shape builtinsByGetter does not know: ${left[0]}`);
  if (constants.length === 0) return text;
  const hashbang = /^#![^\n]*\n/.exec(rest)?.[0] ?? "";
  return `${hashbang}${constants.join("")}\n${rest.slice(hashbang.length)}`;
}

/**
 * The steps after esbuild's on its output in `out` (see the header): what run.js loads first merged
 * into it, built-ins by getter, and the modules found by a made name named as the bundle holds
 * them; fails where one is missing.
 */
export function finishCliBundle(out: string): void {
  mergeIntoEntry(out);
  for (const name of readdirSync(out).filter((file) => file.endsWith(".js"))) {
    const text = readFileSync(join(out, name), "utf8");
    const rewritten = builtinsByGetter(text, name);
    if (rewritten !== text) writeFileSync(join(out, name), rewritten);
  }
  for (const name of readdirSync(out).filter((file) => file.endsWith(".js"))) {
    const text = readFileSync(join(out, name), "utf8");
    if (text.includes(BRIDGE_WORKER) && !existsSync(join(out, BRIDGE_WORKER))) {
      throw new Error(`cli-bundle: ${name} starts ./${BRIDGE_WORKER}, which the bundle lacks: add src/host/bridge/bridge-worker.ts to CLI_BUNDLE_ARGS`);
    }
  }
}

/** Builds the bin into `<dist>/cli/` (what was there is replaced); resolves the files written. */
export function buildCliBundle(dist: string): string[] {
  const cli = join(dist, "cli");
  const scratch = join(dist, ".cli-bundle");
  rmSync(scratch, { recursive: true, force: true });
  try {
    execFileSync(join(ROOT, "node_modules", "esbuild", "bin", "esbuild"), [...CLI_BUNDLE_ARGS, `--outdir=${scratch}`], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      timeout: 120_000,
    });
    finishCliBundle(scratch);
    rmSync(cli, { recursive: true, force: true });
    renameSync(scratch, cli);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return readdirSync(cli).sort();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Silent on success, as tsc is: `npm pack --json` (prepack builds) prints its JSON on the same stdout.
  buildCliBundle(resolve(process.argv[2] ?? "dist"));
}
