// Bundle sizes (issue 28, issue 38): what an embedder's bundler makes of mcpwire, beside SDK v2's
// client built the same way. esbuild (its JS API), minified ESM, one file per bundle, no
// externals (a user's bundler is told none: Node's own modules are left as imports by
// `platform: "node"` itself), gzip -9 by node:zlib. Each is the same as this command run in a
// project that installed mcpwire (docs/runtimes.md "Bundle sizes"):
//   echo 'export { Client, StreamableHttpTransport } from "mcpwire";' |
//     npx esbuild --bundle --minify --format=esm --platform=browser [--conditions=workerd,worker,browser] | gzip -9 | wc -c
//
//   browser  `import { Client, StreamableHttpTransport } from "mcpwire"`, platform browser
//   workerd  the same with Cloudflare's conditions (workerd, worker, browser), as wrangler builds it
//   node     `import { Client, StdioTransport } from "mcpwire"`, platform node: ajv included (the
//            default validator on Node), so no budget of issue 28's "ajv left out" applies
//   browser-tasks  the browser bundle with `tasksExtension` (ClientOptions.use): what tasks add (no budget)
//   browser-telemetry  the browser bundle with `openTelemetry` of mcpwire/telemetry: the layer and
//            @opentelemetry/api, which come with that import alone (no budget)
//   sdk-v2-* `@modelcontextprotocol/client`'s Client with its Streamable HTTP / stdio transport
//
// Built from the compiled package, not from src/: the runtime module and the JSON Schema
// validators are picked by package.json "imports" conditions on dist/ files (#runtime,
// #json-schema: src/runtime/mod.ts and src/client/schema/validators.ts say why), which is what a
// user's bundler meets. So the package is first built as `npm run build` builds it (tsc, then
// scripts/runtime-entry.ts) into a scratch node_modules/mcpwire, next to a copy of package.json,
// and bundled from there.
//
// Under the browser, workerd and worker conditions `#json-schema` gives the interpreting
// validator alone (src/client/schema/json-schema-interpreter.ts, our own code): a browser or Worker
// bundle holds no ajv. Under node (and deno, bun) it gives ajv, loaded on the first schema
// checked, and the interpreting validator as its fallback.
//
// Tasks are code a Client is given (`use: [tasksExtension]`, src/client/extensions.ts): a bundle
// that does not import tasksExtension holds none of src/client/tasks/ but the identifier (about
// 6 KB gzipped less); the browser-tasks row shows what a page that runs tasks carries.
//
//   node --import tsx scripts/bundle-sizes.ts [--json]     (also `npm run bench -- bundle`)

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { writeRuntimeEntry } from "./runtime-entry.ts";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The budgets of issues 28 and 38, gzipped bytes, for bundles made with no externals. */
export const BUDGETS: Readonly<Record<string, number>> = { browser: 45 * 1024, workerd: 45 * 1024 };

/** The bundles a test measures: those with a budget, and the Node one (ajv in it: the default there). */
export const MEASURED: readonly string[] = ["browser", "workerd", "node"];

/** What esbuild made of one entry. */
export interface BundleFigures {
  name: string;
  /** What the entry imports, as a user writes it. */
  what: string;
  raw: number;
  gzip: number;
  /** The node: modules the bundle imports (none may be left in a browser or Worker bundle). */
  nodeImports: string[];
  /** Runtime modules of ours in it (dist/runtime/node.js, deno.js, web.js). */
  runtimeModules: string[];
  /**
   * Members of the whole Runtime (files, listener, standard input, worker threads: the host's and
   * the CLI's) found in it; a bundle of the client takes the core alone (src/runtime/types.ts).
   */
  hostRuntimeMembers: string[];
  /** Whether the interpreting validator (json-schema-interpreter.js) is in it. */
  interpretingValidator: boolean;
  /** Whether the tasks extension's code (client/tasks/tool-task.js, the task handle and its polling) is in it. */
  tasks: boolean;
  /** Whether any of ajv's code is in it (bytes kept, not files read). */
  ajv: boolean;
  /** Whether any of @opentelemetry/api or mcpwire's telemetry layer is in it (bytes kept). */
  telemetry: boolean;
  /** The `import(…)` expressions of the output whose specifier is not a string literal (none may be: a bundler cannot follow them). */
  computedImports: string[];
  /** The biggest inputs, bytes in the output, largest first. */
  biggest: { path: string; bytes: number }[];
}

/** One bundle to make: an entry's text, bundled for a platform. */
export interface BundleCase {
  name: string;
  what: string;
  contents: string;
  platform: "browser" | "node";
  conditions?: string[];
}

/** Runtime members of the host and the CLI, as a minified bundle still spells them (object keys are not renamed). */
const HOST_RUNTIME_MEMBERS = ["readTextFile", "writePrivateFile", "openPrivateLog", "serveLoopback", "stdinLines", "startWorker", "receiveMessageSync"];

/** The bundles measured: mcpwire's (bundled from the built package) and SDK v2's. */
export function bundleCases(): BundleCase[] {
  const browser = `export { Client, StreamableHttpTransport } from "mcpwire";`;
  const sdkBrowser = `export { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";`;
  return [
    { name: "browser", what: "mcpwire: Client + StreamableHttpTransport", contents: browser, platform: "browser" },
    {
      name: "workerd",
      what: "mcpwire: Client + StreamableHttpTransport",
      contents: browser,
      platform: "browser",
      conditions: ["workerd", "worker", "browser"],
    },
    {
      name: "browser-tasks",
      what: "mcpwire: Client + StreamableHttpTransport + tasksExtension",
      contents: `export { Client, StreamableHttpTransport, tasksExtension } from "mcpwire";`,
      platform: "browser",
    },
    {
      name: "browser-telemetry",
      what: "mcpwire: Client + StreamableHttpTransport + openTelemetry (mcpwire/telemetry)",
      contents: `export { Client, StreamableHttpTransport } from "mcpwire";\nexport { openTelemetry } from "mcpwire/telemetry";`,
      platform: "browser",
    },
    {
      name: "node",
      what: "mcpwire: Client + StdioTransport (ajv in it)",
      contents: `export { Client, StdioTransport } from "mcpwire";`,
      platform: "node",
    },
    { name: "sdk-v2-browser", what: "SDK v2: Client + StreamableHTTPClientTransport", contents: sdkBrowser, platform: "browser" },
    {
      name: "sdk-v2-node",
      what: "SDK v2: Client + StdioClientTransport",
      contents: `export { Client } from "@modelcontextprotocol/client";\nexport { StdioClientTransport } from "@modelcontextprotocol/client/stdio";`,
      platform: "node",
    },
  ];
}

/**
 * Builds the npm package as `npm run build` does into `<scratch>/node_modules/mcpwire` (dist/ and
 * package.json: what the tarball holds for a bundler). Returns `scratch`, the directory to
 * bundle from. Its dependencies resolve from the checkout's node_modules.
 */
export function buildPackage(scratch: string): string {
  const pkg = join(scratch, "node_modules", "mcpwire");
  mkdirSync(pkg, { recursive: true });
  cpSync(join(ROOT, "package.json"), join(pkg, "package.json"));
  // Its dependencies, for a runtime that loads it from here (a bundler finds them by nodePaths).
  const dependencies = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies?: object }).dependencies ?? {});
  for (const name of dependencies) {
    mkdirSync(dirname(join(scratch, "node_modules", name)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(scratch, "node_modules", name), "dir");
  }
  const tsc = join(ROOT, "node_modules", ".bin", "tsc");
  // No source maps or declarations: a bundler reads neither.
  const args = [
    "-p",
    join(ROOT, "tsconfig.build.json"),
    "--outDir",
    join(pkg, "dist"),
    "--sourceMap",
    "false",
    "--inlineSources",
    "false",
    "--declaration",
    "false",
  ];
  try {
    execFileSync(tsc, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], timeout: 300_000, encoding: "utf8" });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`bundle-sizes: tsc ${args.join(" ")} failed:\n${stdout ?? ""}${stderr ?? ""}`, { cause: error });
  }
  writeRuntimeEntry(join(pkg, "dist"));
  return scratch;
}

/** One bundle, minified, in memory, with its figures. */
export async function bundle(entry: BundleCase, resolveDir: string): Promise<BundleFigures> {
  const result = await esbuild.build({
    stdin: { contents: entry.contents, resolveDir, loader: "js", sourcefile: `${entry.name}-entry.js` },
    bundle: true,
    minify: true,
    format: "esm",
    platform: entry.platform,
    ...(entry.conditions === undefined ? {} : { conditions: entry.conditions }),
    nodePaths: [join(ROOT, "node_modules")],
    write: false,
    outfile: `${entry.name}.js`,
    metafile: true,
    logLevel: "silent",
  });
  const output = result.outputFiles[0]!.contents;
  const text = result.outputFiles[0]!.text;
  const inputs = Object.keys(result.metafile.inputs);
  const { inputs: produced, imports } = Object.values(result.metafile.outputs)[0]!;
  // What the output imports, not what its inputs do: an import no code that was kept uses is dropped.
  const nodeImports = new Set(imports.map((imported) => imported.path).filter((path) => path.startsWith("node:")));
  const shortPath = (path: string) => path.replace(/^.*node_modules\/mcpwire\//, "").replace(/^.*node_modules\//, "");
  return {
    name: entry.name,
    what: entry.what,
    raw: output.length,
    gzip: gzipSync(output, { level: 9 }).length,
    nodeImports: [...nodeImports].sort(),
    hostRuntimeMembers: HOST_RUNTIME_MEMBERS.filter((name) => new RegExp(`\\b${name}\\b`).test(text)),
    runtimeModules: inputs.filter((path) => /node_modules\/mcpwire\/dist\/runtime\/(node|deno|web)\.js$/.test(path)).map(shortPath).sort(),
    interpretingValidator: inputs.some((path) => path.endsWith("dist/client/schema/json-schema-interpreter.js")),
    // Kept bytes, not inputs: esbuild lists a module it read even when nothing of it was kept.
    tasks: Object.entries(produced).some(([path, { bytesInOutput }]) => path.endsWith("dist/client/tasks/tool-task.js") && bytesInOutput > 0),
    ajv: Object.entries(produced).some(([path, { bytesInOutput }]) => /node_modules\/ajv\//.test(path) && bytesInOutput > 0),
    telemetry: Object.entries(produced).some(([path, { bytesInOutput }]) =>
      (/node_modules\/@opentelemetry\//.test(path) || path.endsWith("dist/client/telemetry-layer.js")) && bytesInOutput > 0
    ),
    computedImports: [...text.matchAll(/\bimport\(\s*(?!["'][^"'`]*["']\s*\))[^)]{0,40}/g)].map((match) => match[0]),
    biggest: Object.entries(produced)
      .map(([path, { bytesInOutput }]) => ({ path: shortPath(path), bytes: bytesInOutput }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 12),
  };
}

/** Builds the package into a scratch directory and bundles the cases named (default all). */
export async function measureBundles(names?: readonly string[]): Promise<BundleFigures[]> {
  const scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-bundle-"));
  try {
    buildPackage(scratch);
    const figures: BundleFigures[] = [];
    for (const entry of bundleCases()) {
      if (names !== undefined && !names.includes(entry.name)) continue;
      figures.push(await bundle(entry, entry.name.startsWith("sdk-") ? ROOT : scratch));
    }
    return figures;
  } finally {
    await esbuild.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The figures as a markdown table, SDK v2's beside ours, then the biggest inputs of the browser bundle. */
export function table(figures: readonly BundleFigures[]): string {
  const lines = [
    "| bundle | what | raw | gzip | budget (gzip) | met? | ajv | interpreting validator | tasks | node: imports | runtime modules |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const figure of figures) {
    const budget = BUDGETS[figure.name];
    const met = budget === undefined ? "—" : figure.gzip <= budget ? "met" : "not met";
    lines.push(
      `| ${figure.name} | ${figure.what} | ${kb(figure.raw)} | ${kb(figure.gzip)} | ${budget === undefined ? "—" : kb(budget)} | ${met} | ${
        figure.ajv ? "included" : "none"
      } | ${figure.name.startsWith("sdk-") ? "—" : figure.interpretingValidator ? "included" : "left out"} | ${
        figure.name.startsWith("sdk-") ? "—" : figure.tasks ? "included" : "left out"
      } | ${figure.nodeImports.length === 0 ? "none" : figure.nodeImports.join(" ")} | ${figure.runtimeModules.join(" ") || "—"} |`,
    );
  }
  const browser = figures.find((figure) => figure.name === "browser");
  if (browser !== undefined) {
    lines.push("", "biggest inputs of the browser bundle (minified bytes):", "");
    for (const input of browser.biggest) lines.push(`- ${input.path}: ${input.bytes}`);
  }
  return lines.join("\n");
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const figures = await measureBundles();
  if (process.argv.includes("--json")) console.log(`BUNDLE-FIGURES ${JSON.stringify(figures)}`);
  else console.log(table(figures));
}
