// The npm package as a user meets it (issue 15): `npm pack` (prepack builds dist/), the tarball
// installed into a scratch project outside the checkout, then every entry imported on Node 20
// (this one), Node 22 (the `node@22` package, cached outside the checkout) and Deno,
// `require("mcpwire")`, the `mcpwire` bin, and a TypeScript consumer under nodenext and bundler;
// the root entry in Bun, in headless Chromium (bundled from the installed package by esbuild)
// and in workerd, each listing server-everything's tools over Streamable HTTP (issue 28). The bin
// is one bundle (scripts/cli-bundle.ts), run by Node 20, Node 22, Deno (`deno run -A npm:mcpwire`)
// and Bun; the example servers the docs use are packed, and the docs' commands that use them run
// against the installed package (issue 37). The README's install lines: clone.ts.
// Run by `npm test` (test:package) under Node only: `node --import tsx --test test/package/install.ts`.
// MCPWIRE_TEST_CACHE sets the cache folder (default ~/.cache/mcpwire-test).

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { STATIC_IMPORT } from "../../scripts/cli-bundle.ts";
import { bundleForBrowser, openInChromium, servePage } from "../support/browser-page.ts";
import { chromiumSkip } from "../support/chromium.ts";
import { docBlocks } from "../support/doc-blocks.ts";
import { freePort, startEverything, stop } from "../support/everything-http.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { linesMatch, normalised, transcriptSteps } from "../support/transcript.ts";
import { startWorkerd, workerdSkip } from "../support/workerd.ts";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
const ENTRIES: Readonly<Record<string, string>> = {
  "mcpwire": "src/mod.ts",
  "mcpwire/registry": "src/registry/mod.ts",
  "mcpwire/host": "src/host/mod.ts",
  "mcpwire/agent": "src/agent/mod.ts",
  "mcpwire/auth": "src/auth/mod.ts",
  "mcpwire/telemetry": "src/client/telemetry/mod.ts",
  "mcpwire/extensions": "src/client/extensions/mod.ts",
  "mcpwire/check": "src/check/mod.ts",
  "mcpwire/serve": "src/serve/mod.ts",
};
const CACHE = process.env.MCPWIRE_TEST_CACHE ?? join(os.homedir(), ".cache", "mcpwire-test");
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const DENO = join(ROOT, "node_modules", ".bin", "deno");
const BUN = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");
/** The Node running this test (20 on the machine this was written on): the bin runs on it through its shebang. */
const THIS_NODE = `Node ${process.versions.node.split(".")[0]}`;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; timeoutMs?: number; env?: NodeJS.ProcessEnv }): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        done({ code, stdout, stderr: error !== null && typeof error.code !== "number" ? `${stderr}\n${error.message}` : stderr });
      },
    );
  });
}

/** Asserts a zero exit, showing the command's own output when it is not. */
function succeeded(outcome: Outcome, what: string): string {
  assert.equal(outcome.code, 0, `${what} failed (exit ${outcome.code}):\n${outcome.stdout}\n${outcome.stderr}`);
  return outcome.stdout;
}

/** A node binary of major version 22, installed once from npm's `node@22` package into the cache. */
async function node22(): Promise<string> {
  const dir = join(CACHE, "node22");
  const binary = join(dir, "node_modules", ".bin", process.platform === "win32" ? "node.cmd" : "node");
  if (existsSync(binary)) {
    const version = await run(binary, ["--version"], { cwd: dir });
    if (version.code === 0 && version.stdout.startsWith("v22.")) return binary;
  }
  mkdirSync(dir, { recursive: true });
  succeeded(
    await run(NPM, ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "node@22"], { cwd: dir, timeoutMs: 180_000 }),
    "npm install node@22",
  );
  return binary;
}

/** Every entry's export names, as the runtime that runs this script sees them. */
const NAMES_SCRIPT = `const names = {};
for (const entry of ${JSON.stringify(Object.keys(ENTRIES))}) names[entry] = Object.keys(await import(entry)).sort();
console.log(JSON.stringify(names));
`;

/**
 * What each runtime below does with the installed root entry: its export names, and the tools of
 * server-everything listed over Streamable HTTP at `mcpUrl`.
 */
const ROOT_USE = `async function useRoot(mcpwire, mcpUrl) {
  const client = new mcpwire.Client({ name: "package-test", version: "1.0.0" });
  await client.connect(new mcpwire.StreamableHttpTransport({ url: mcpUrl }));
  try {
    return { names: Object.keys(mcpwire).sort(), tools: (await client.listTools()).map((tool) => tool.name) };
  } finally {
    await client.close();
  }
}
`;

const BUN_SCRIPT = `import * as mcpwire from "mcpwire";
${ROOT_USE}
console.log(JSON.stringify({ bun: typeof Bun === "object", ...(await useRoot(mcpwire, process.env.MCP_URL)) }));
`;

/** The page's script: it imports the bundle (next to it) and posts its report to /result/package. */
const PAGE_SCRIPT = `${ROOT_USE}
let report;
try {
  report = await useRoot(await import("./mcpwire.js"), new URLSearchParams(location.search).get("mcp"));
} catch (error) {
  report = { failed: String(error?.stack ?? error) };
}
await fetch("/result/package", { method: "POST", body: JSON.stringify(report) });
`;

const WORKER_SCRIPT = `import * as mcpwire from "mcpwire";
${ROOT_USE}
export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === "/ready") return new Response("ready");
    try {
      return Response.json(await useRoot(mcpwire, env.MCP_URL));
    } catch (error) {
      return Response.json({ failed: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
`;

const CONSUMER = `// A TypeScript user of every entry: the types must resolve (not any) and only entries resolve.
import { Client, type ClientOptions, type Implementation, StdioTransport, type Tool } from "mcpwire";
import { type LlmToolSchema, registerMcpServer, ToolRegistry } from "mcpwire/registry";
import { createSyncBridge, loadConfig, McpManager, type McpwireConfig } from "mcpwire/host";
import { createProvider, type Provider, Runner, type RunnerOptions } from "mcpwire/agent";
import { createOAuthFetch, MemoryTokenStore, type TokenStore } from "mcpwire/auth";
// @ts-expect-error not an entry: the exports map is the whole surface
import type {} from "mcpwire/src/mod.ts";
// @ts-expect-error not an entry: compiled files are reached through the entries only
import type {} from "mcpwire/dist/mod.js";

const info: Implementation = { name: "consumer", version: "1.0.0" };
const options: ClientOptions = {};
export const client: Client = new Client(info, options);
export const transport: StdioTransport = new StdioTransport({ command: "node", args: [] });
const registry = new ToolRegistry();
// @ts-expect-error ToolRegistry has no such method (a type that resolved to any would allow it)
registry.noSuchMethod();
export const listed: LlmToolSchema[] = registry.list();
export const load: (options?: { path?: string }) => Promise<McpwireConfig> = loadConfig;
export const store: TokenStore = new MemoryTokenStore();
export type Chosen = [Tool, Provider, RunnerOptions, typeof McpManager, typeof createSyncBridge, typeof registerMcpServer];
export const factories = [createProvider, createOAuthFetch, Runner] as const;
`;

function tsconfig(resolution: "nodenext" | "bundler"): string {
  return JSON.stringify({
    compilerOptions: {
      module: resolution === "nodenext" ? "nodenext" : "esnext",
      moduleResolution: resolution,
      target: "es2022",
      lib: ["es2023", "dom"],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    },
    files: ["consumer.ts"],
  });
}

// Node's require() of an ES module (unflagged from 20.19 and 22.12) is what `require("mcpwire")`
// needs: engines must not promise it to an older Node (20.18 fails with ERR_REQUIRE_ESM).
test("package.json engines asks for a Node that can require() the package (^20.19.0 || >=22.12.0)", () => {
  const engines = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines?: { node?: string } }).engines;
  assert.equal(engines?.node, "^20.19.0 || >=22.12.0");
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const allowed = (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22;
  // The require() test below relies on this: a Node that engines allows has require(esm).
  if (allowed) assert.equal((process.features as { require_module?: boolean }).require_module, true, process.version);
});

describe("the npm package, packed and installed", () => {
  const scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-package-"));
  const project = join(scratch, "project");
  const bin = join(project, "node_modules", ".bin", process.platform === "win32" ? "mcpwire.cmd" : "mcpwire");
  let tarballFiles: string[] = [];
  const expectedNames: Record<string, string[]> = {};
  let node22Binary = "";

  before(async () => {
    // prepack runs `npm run build`; its failure (a type error) is the compiler's message here
    const [packed, node22Path] = await Promise.all([
      run(NPM, ["pack", "--json", "--pack-destination", scratch], { cwd: ROOT, timeoutMs: 120_000 }),
      node22(),
    ]);
    node22Binary = node22Path;
    const [pack] = JSON.parse(succeeded(packed, "npm pack (prepack: npm run build)")) as { filename: string; files: { path: string }[] }[];
    assert.ok(pack, "npm pack --json lists the tarball");
    tarballFiles = pack.files.map((file) => file.path);
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
    const install = ["install", "--no-audit", "--no-fund", "--prefer-offline", join(scratch, pack.filename)];
    succeeded(await run(NPM, install, { cwd: project, timeoutMs: 120_000 }), "npm install of the tarball");
    writeFileSync(join(project, "names.mjs"), NAMES_SCRIPT);
    for (const [entry, source] of Object.entries(ENTRIES)) expectedNames[entry] = Object.keys(await import(join(ROOT, source))).sort();
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test("the tarball holds dist/, the example servers, the config schema, README.md, LICENSE and package.json: no sources, tests, benchmarks or fixtures", () => {
    const stray = tarballFiles.filter((path) =>
      !path.startsWith("dist/") && !/^examples\/servers\/[\w-]+\.mjs$/.test(path) &&
      !["package.json", "README.md", "LICENSE", "schema/mcpwire.schema.json"].includes(path)
    );
    assert.ok(tarballFiles.includes("schema/mcpwire.schema.json"), "the config schema is packed (editors point a config at it)");
    assert.deepEqual(stray, []);
    const unwanted = tarballFiles.filter((path) =>
      /(^|\/)(test|tests|bench|fixtures|conformance|\.ci)(\/|$)|\.test\.|\.ts$/.test(path) && !path.endsWith(".d.ts")
    );
    assert.deepEqual(unwanted, []);
    for (const source of Object.values(ENTRIES)) {
      const base = source.replace(/^src\//, "dist/").replace(/\.ts$/, "");
      assert.ok(tarballFiles.includes(`${base}.js`) && tarballFiles.includes(`${base}.d.ts`), `${base}.js and .d.ts are packed`);
    }
    assert.ok(tarballFiles.includes("dist/cli/run.js"));
  });

  test("the example servers the docs run are packed (examples/servers/), each one the docs name", () => {
    const named = new Set(
      docBlocks().flatMap((block) => [...block.body.matchAll(/examples\/servers\/[\w-]+\.mjs/g)].map((found) => found[0])),
    );
    assert.ok(named.has("examples/servers/echo-server.mjs"), `the docs name ${[...named].join(", ") || "no example server"}`);
    for (const path of named) assert.ok(tarballFiles.includes(path), `${path}, which the docs run, is packed`);
    const fixtures = docBlocks().filter((block) => /test\/fixtures\/[\w-]+\.mjs/.test(block.body)).map((block) => `${block.file}:${block.line}`);
    assert.deepEqual(fixtures, [], "a doc example runs a test fixture, which the package does not ship: use examples/servers/");
  });

  // The bin is one esbuild bundle (scripts/cli-bundle.ts): run.js holds what it needs before a
  // verb runs, the verbs and what they share are chunks (the telemetry layer among them: imported,
  // not found by a computed name); not tsc's file per module of src/cli/ (main.js, output.js, …),
  // which loaded the library's files one by one.
  test("the bin is a bundle: dist/cli/ holds run.js and chunks; run.js loads no other file before a verb runs", () => {
    const cli = tarballFiles.filter((path) => path.startsWith("dist/cli/")).map((path) => path.slice("dist/cli/".length));
    const perModule = readdirSync(join(ROOT, "src", "cli"))
      .filter((name) => name.endsWith(".ts") && name !== "run.ts")
      .map((name) => name.replace(/\.ts$/, ".js"))
      .filter((name) => cli.includes(name));
    assert.deepEqual(perModule, [], "dist/cli/ holds a module per source file (tsc's build of the CLI), not the bundle");
    const shapes = cli.filter((name) => !/^run\.js$|^[\w-]+-[A-Z0-9]{8}\.js$/.test(name));
    assert.deepEqual(shapes, [], "dist/cli/ holds only the entry and chunks (no .d.ts, no source maps)");
    const read = (name: string) => readFileSync(join(project, "node_modules", "mcpwire", "dist", "cli", name), "utf8");
    const run = read("run.js");
    const statics = [...run.matchAll(STATIC_IMPORT)].map((found) => found[1]!);
    assert.deepEqual(statics, [], "run.js imports no module statically: `mcpwire version` reads one file");
    const verbs = [...run.matchAll(/\bimport\s*\(\s*["'](\.\/[^"']+)["']\s*\)/g)].map((found) => found[1]!.slice(2));
    assert.ok(verbs.length >= 20, `run.js loads each verb's chunk when it runs: ${verbs.join(" ")}`);
    assert.deepEqual(verbs.filter((name) => !cli.includes(name)), [], "every chunk run.js loads is packed");
    // None of the library's files either: the bin never loads dist/<layer>/*.js (a second McpwireError).
    const outside = cli.flatMap((name) => [...read(name).matchAll(/["'](\.\.\/[^"']+)["']/g)].map((found) => `${name}: ${found[1]}`));
    assert.deepEqual(outside, []);
  });

  test("the installed package depends on ajv, yaml and smol-toml only", () => {
    const installed = JSON.parse(readFileSync(join(project, "node_modules", "mcpwire", "package.json"), "utf8"));
    // smol-toml: Codex's config.toml for config imports, loaded only when a TOML file is read.
    assert.deepEqual(Object.keys(installed.dependencies ?? {}).sort(), ["ajv", "smol-toml", "yaml"]);
    // npm publish drops a bin path written "./dist/…" (npm 11: "script name … was invalid and removed"); .ci/release --dry-run shows it
    assert.equal(installed.bin?.mcpwire, "dist/cli/run.js");
    assert.match(readFileSync(join(project, "node_modules", "mcpwire", "dist", "cli", "run.js"), "utf8"), /^#!\/usr\/bin\/env node\n/);
  });

  for (const which of [THIS_NODE, "Node 22"] as const) {
    describe(which, () => {
      const node = () => (which === "Node 22" ? node22Binary : process.execPath);

      test("runs the expected major version", async () => {
        const version = succeeded(await run(node(), ["--version"], { cwd: project }), "node --version");
        if (which === "Node 22") assert.match(version, /^v22\./);
        else assert.ok(Number(version.slice(1).split(".")[0]) >= 20, `package.json engines asks for Node 20.19 or later, this is ${version}`);
      });

      test("imports every entry, each with the names its source exports", async () => {
        const names = JSON.parse(succeeded(await run(node(), ["names.mjs"], { cwd: project }), "importing the entries"));
        assert.deepEqual(names, expectedNames);
        assert.ok(names["mcpwire"]!.includes("Client") && !names["mcpwire"]!.includes("loadConfig"));
      });

      test('require("mcpwire") loads the root entry (no top-level await on its path)', async (context) => {
        const supported = which === "Node 22" || (process.features as { require_module?: boolean }).require_module === true;
        if (!supported) return context.skip(`${process.version} cannot require() an ES module`);
        const script = 'const m = require("mcpwire"); console.log(JSON.stringify(Object.keys(m).sort()))';
        const names = JSON.parse(succeeded(await run(node(), ["--no-warnings", "-e", script], { cwd: project }), 'require("mcpwire")'));
        assert.deepEqual(names, expectedNames["mcpwire"]);
      });

      test("a path outside the exports map is not exported", async () => {
        for (const path of ["mcpwire/src/mod.ts", "mcpwire/dist/mod.js", "mcpwire/dist/cli/main.js"]) {
          const outcome = await run(node(), ["-e", `import(${JSON.stringify(path)}).then(() => console.log("loaded"), (e) => console.log(e.code))`], {
            cwd: project,
          });
          assert.equal(outcome.stdout.trim(), "ERR_PACKAGE_PATH_NOT_EXPORTED", `${path}: ${outcome.stdout}${outcome.stderr}`);
        }
      });

      test("the mcpwire bin reports its version and inspects server-everything over stdio", async () => {
        // This Node runs the bin as a user's shell does (its shebang); Node 22 is named explicitly.
        const launch = (args: string[]) => (which === THIS_NODE ? run(bin, args, { cwd: project }) : run(node(), [bin, ...args], { cwd: project }));
        assert.equal(succeeded(await launch(["version"]), "mcpwire version").trim(), `mcpwire ${PACKAGE.version}`);
        const inspected = JSON.parse(succeeded(await launch(["inspect", "--stdio", `${node()} ${EVERYTHING} stdio`, "--json"]), "mcpwire inspect"));
        assert.equal(inspected.serverInfo.name, "mcp-servers/everything");
        assert.ok(inspected.tools.some((tool: { name: string }) => tool.name === "echo"), JSON.stringify(inspected.tools));
      });
    });
  }

  test(`${THIS_NODE}: the host entry's sync bridge starts its compiled worker and answers dispatchSync`, async () => {
    writeFileSync(
      join(project, "mcpwire.yaml"),
      `mcp_servers:\n  everything:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
    );
    const script = `import { createSyncBridge } from "mcpwire/host";
const bridge = createSyncBridge({ configPath: "mcpwire.yaml" });
try { console.log(bridge.dispatchSync("mcp_everything_echo", { message: "from the tarball" })); } finally { bridge.close(); }`;
    writeFileSync(join(project, "bridge.mjs"), script);
    const reply = succeeded(await run(process.execPath, ["bridge.mjs"], { cwd: project }), "the sync bridge");
    assert.equal(reply.trim(), JSON.stringify({ result: "Echo: from the tarball" }));
  });

  /** What the bin runs with: mcpwire's caches off, so that no run depends on another's. */
  const binEnv = (): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: "1", MCPWIRE_ERA_CACHE: "off", MCPWIRE_TOOL_CACHE: "off", MCPWIRE_LOCK_FILE: "off" });
  /** The installed package's folder: the docs' examples run from a clone's root, and examples/servers/ is in both. */
  const installed = () => join(project, "node_modules", "mcpwire");
  const ECHO_SERVER = "node examples/servers/echo-server.mjs";

  test(`${THIS_NODE}: the docs' commands that run an example server print what the docs show, run by the installed bin in the installed package`, async () => {
    const steps = docBlocks()
      .filter((block) => block.lang === "console" && block.flags.includes("run") && block.body.includes("examples/servers/"))
      .flatMap((block) => transcriptSteps(block.body, block.line).map((step) => ({ ...step, where: `${block.file}:${step.line}` })));
    assert.ok(steps.length >= 2, `docs/cli.md's tour runs the example server: ${steps.map((step) => step.where).join(", ")}`);
    for (const step of steps) {
      const outcome = await run(bin, step.args, { cwd: installed(), env: binEnv() });
      assert.equal(outcome.code, step.exit, `${step.where}: \`${step.command}\` exited ${outcome.code}:\n${outcome.stdout}${outcome.stderr}`);
      const paths = { paths: [[installed(), "<root>"]] satisfies [string, string][] };
      const actual = normalised(step.exit === 0 ? outcome.stdout : outcome.stdout + outcome.stderr, paths);
      assert.ok(linesMatch(actual, normalised(step.expected.join("\n"), paths)), `${step.where}: the installed bin printed\n${actual.join("\n")}`);
    }
  });

  test("Deno runs the installed bin as `deno run -A npm:mcpwire`: its version, and a call to the example server", async () => {
    assert.equal(
      succeeded(await run(DENO, ["run", "-A", "npm:mcpwire", "version"], { cwd: project, env: binEnv() }), "deno run npm:mcpwire").trim(),
      `mcpwire ${PACKAGE.version}`,
    );
    const call = await run(DENO, ["run", "-A", "npm:mcpwire", "call", "--stdio", ECHO_SERVER, "echo", "text=from Deno"], { cwd: installed(), env: binEnv() });
    assert.equal(succeeded(call, "deno run npm:mcpwire call"), "from Deno\n");
  });

  test("Bun runs the installed bin: its version, and a call to the example server", { skip: existsSync(BUN) ? false : `no ${BUN}` }, async () => {
    const mcpwireJs = join(installed(), "dist", "cli", "run.js");
    assert.equal(succeeded(await run(BUN, [mcpwireJs, "version"], { cwd: project, env: binEnv() }), "bun run.js version").trim(), `mcpwire ${PACKAGE.version}`);
    const call = await run(BUN, [mcpwireJs, "call", "--stdio", ECHO_SERVER, "echo", "text=from Bun"], { cwd: installed(), env: binEnv() });
    assert.equal(succeeded(call, "bun run.js call"), "from Bun\n");
  });

  test("Deno imports every installed entry with the same names", async () => {
    writeFileSync(join(project, "names.ts"), NAMES_SCRIPT);
    const names = JSON.parse(succeeded(await run(DENO, ["run", "-A", "names.ts"], { cwd: project }), "deno run"));
    assert.deepEqual(names, expectedNames);
  });

  describe("the root entry in Bun, in Chromium (bundled from the installed package by esbuild) and in workerd", () => {
    let everything: ChildProcess | undefined;
    let mcpUrl = "";
    before(async () => {
      const port = await freePort();
      everything = await startEverything(port);
      mcpUrl = `http://127.0.0.1:${port}/mcp`;
    });
    after(async () => {
      if (everything) await stop(everything);
    });

    /** The root entry's names, and server-everything's tools listed through it. */
    function assertUsed(report: { names?: string[]; tools?: string[]; failed?: string }, where: string): void {
      assert.equal(report.failed, undefined, `${where}: ${report.failed}`);
      assert.deepEqual(report.names, expectedNames["mcpwire"], `${where}: the root entry's names`);
      assert.ok(report.tools?.includes("echo"), `${where}: ${JSON.stringify(report.tools)}`);
    }

    test("Bun imports the root entry (its bun condition) and lists tools over Streamable HTTP", { skip: existsSync(BUN) ? false : `no ${BUN}` }, async () => {
      writeFileSync(join(project, "bun-root.mjs"), BUN_SCRIPT);
      const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? scratch, MCPWIRE_ERA_CACHE: "off", MCP_URL: mcpUrl };
      const report = JSON.parse(succeeded(await run(BUN, ["bun-root.mjs"], { cwd: project, env }), "bun bun-root.mjs"));
      assert.equal(report.bun, true);
      assertUsed(report, "Bun");
    });

    test("Chromium loads the installed root entry bundled for the browser and lists tools", { skip: chromiumSkip() }, async () => {
      const site = join(scratch, "site");
      // Only the project's node_modules: the installed package and its installed dependencies.
      await bundleForBrowser({ resolveDir: project, outdir: site });
      await esbuild.stop();
      writeFileSync(join(site, "index.html"), `<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>\n`);
      writeFileSync(join(site, "page.js"), PAGE_SCRIPT);
      const pages = await servePage({ dir: site });
      try {
        const report = await openInChromium(`${pages.origin}/?mcp=${encodeURIComponent(mcpUrl)}`, pages.result("package", 90_000), 100_000);
        assertUsed(report as { names?: string[] }, "Chromium");
      } finally {
        await pages.close();
      }
    });

    test(
      "workerd runs a Worker bundled from the installed package (workerd, worker, browser conditions) that lists tools",
      { skip: workerdSkip() },
      async () => {
        const dir = join(scratch, "worker");
        await bundleForBrowser({ resolveDir: project, outdir: dir, source: WORKER_SCRIPT, name: "worker", conditions: ["workerd", "worker", "browser"] });
        await esbuild.stop();
        const workerd = await startWorkerd(dir, "worker.js", { MCP_URL: mcpUrl });
        try {
          const response = await fetch(`${workerd.origin}/`, { signal: AbortSignal.timeout(60_000) });
          const report = (await response.json()) as { failed?: string };
          assertUsed(report, `workerd (${response.status})\n${workerd.output()}`);
        } finally {
          await workerd.stop();
        }
      },
    );
  });

  for (const resolution of ["nodenext", "bundler"] as const) {
    test(`a TypeScript consumer of every entry type-checks under moduleResolution ${resolution}`, async () => {
      writeFileSync(join(project, "consumer.ts"), CONSUMER);
      writeFileSync(join(project, `tsconfig.${resolution}.json`), tsconfig(resolution));
      succeeded(await run(TSC, ["-p", `tsconfig.${resolution}.json`], { cwd: project }), `tsc (${resolution})`);
    });
  }
});

describe("the build", () => {
  test("a type error fails npm pack with the compiler's message, and leaves no dist/ and no tarball", async () => {
    const copy = mkdtempSync(join(os.tmpdir(), "mcpwire-broken-"));
    try {
      cpSync(join(ROOT, "src"), join(copy, "src"), { recursive: true });
      for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json", "README.md", "LICENSE"]) cpSync(join(ROOT, file), join(copy, file));
      symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
      writeFileSync(join(copy, "src", "mod.ts"), `${readFileSync(join(ROOT, "src", "mod.ts"), "utf8")}\nexport const broken: number = "not a number";\n`);
      const outcome = await run(NPM, ["pack", "--json"], { cwd: copy, timeoutMs: 120_000 });
      assert.notEqual(outcome.code, 0);
      assert.match(`${outcome.stdout}${outcome.stderr}`, /src\/mod\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
      assert.ok(!existsSync(join(copy, "dist")), "no dist/ from a failed build");
      assert.deepEqual(readdirSync(copy).filter((name) => name.endsWith(".tgz")), []);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
