// The test files of `node test/suite.mjs node` bundled to JavaScript before they run: one esbuild
// build of every file (each an entry point, the modules they share split into chunks), which Node
// then runs as ES modules instead of loading each test's ~50-250 TypeScript modules through the
// hooks of ts-hooks.mjs. Node 20 runs those hooks on a thread of their own, and every module's
// resolve and load crosses to it and back: importing the root and host entries took 0.43 s of
// CPU through the hooks, 0.15 s from a bundle; the 34 files of test/client 48 s of CPU, 38 s
// bundled, every test passing either way. What is not bundled still runs as before: the packages
// (imports of node_modules), what a test imports by a computed path or starts as a child or a
// worker (through ts-loader.mjs, which each test process still loads).
//
// A bundle keeps each module's meaning: its code in the same order; `import.meta.url` the module's
// own file (replaced in each module before bundling, as a define, not as text); nothing dropped
// (no tree shaking, so package.json's "sideEffects", which is for the library's users, drops no
// test's side-effect import); the same options of tsconfig.json ts-hooks.mjs gives esbuild; a
// source map beside each output file, so stack traces name the .ts lines.
//
// TEST_NODE_FROM=source runs the .ts files through ts-loader.mjs instead (as `node --import
// ./test/support/ts-loader.mjs --test FILE` does for one file).

import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

/** What ts-hooks.mjs gives esbuild: the options of tsconfig.json that change the output. */
const TSCONFIG = { compilerOptions: { target: "ES2022", verbatimModuleSyntax: true, useDefineForClassFields: true } };
/** A build left by a suite that did not end (killed) is removed by the next one after this long. */
const STALE_MS = 3_600_000;

/**
 * Bundles `files` (paths relative to `root`) into a folder of its own under `root`/.test-build/
 * (inside the checkout, so that the bundles resolve its node_modules). Resolves the bundles'
 * paths, in the order of `files`, and a function that removes the folder.
 */
export async function buildNodeSuite(root, files) {
  const builds = join(root, ".test-build");
  for (const name of safeList(builds)) {
    const path = join(builds, name);
    if (name.startsWith("node-suite-") && Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > STALE_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
  const outdir = join(builds, `node-suite-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  const esbuild = await import("esbuild");
  /** Each module's `import.meta.url` its own file's URL, not the bundle's. */
  const ownUrl = {
    name: "own-import-meta-url",
    setup(build) {
      build.onLoad({ filter: /\.(?:[cm]?ts|[cm]?js)$/ }, async (args) => {
        if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
        const source = readFileSync(args.path, "utf8");
        const loader = /\.[cm]?ts$/.test(args.path) ? "ts" : "js";
        if (!source.includes("import.meta")) return { contents: source, loader };
        const { code } = await esbuild.transform(source, {
          loader,
          format: "esm",
          target: "es2022",
          sourcefile: args.path,
          sourcemap: "inline",
          tsconfigRaw: TSCONFIG,
          define: { "import.meta.url": JSON.stringify(pathToFileURL(args.path).href) },
        });
        return { contents: code, loader: "js" };
      });
    },
  };
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: files,
    outdir,
    outbase: root,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    packages: "external",
    target: "node20",
    sourcemap: "linked",
    entryNames: "[dir]/[name]",
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    tsconfigRaw: TSCONFIG,
    ignoreAnnotations: true,
    treeShaking: false,
    plugins: [ownUrl],
    logLevel: "warning",
  });
  return {
    bundles: files.map((file) => join(outdir, file.replace(/\.ts$/, ".mjs"))),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

function safeList(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
