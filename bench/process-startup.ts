// Process-level start-up (issue 15), every case measured side by side in rotating rounds of one
// run: `mcpwire version` and `--help` (the bin bundle from `npm run build`, issue 37) against
// `node -e 0` (the floor), `tools` against the docs' example server,
// `mcporter --version` (a compiled peer CLI) and the checkout's tsx launcher; `mcpwire inspect
// --stdio <server-everything> --json` against the same listing through each SDK
// (bench/sdk-inspect.mjs); and the time to import each entry in a fresh Node against the SDKs'
// stdio clients. mcporter is installed on first use into ~/.cache/mcpwire-test/mcporter
// (MCPWIRE_TEST_CACHE), outside the checkout.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { median, type Row, row } from "./common.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
/** The docs' example server (shipped in the package): `tools` against it is a verb's whole run with a small server. */
const ECHO_SERVER = join(ROOT, "examples", "servers", "echo-server.mjs");
const CACHE = process.env.MCPWIRE_TEST_CACHE ?? join(os.homedir(), ".cache", "mcpwire-test");
const RUNS = 11;
const ENTRIES = ["mcpwire", "mcpwire/registry", "mcpwire/host", "mcpwire/agent", "mcpwire/auth"] as const;
const SDK_V1_CLIENT = ["@modelcontextprotocol/sdk/client/index.js", "@modelcontextprotocol/sdk/client/stdio.js"];
const SDK_V2_CLIENT = ["@modelcontextprotocol/client", "@modelcontextprotocol/client/stdio"];

interface Case {
  command: string;
  args: string[];
  /** The process prints its own figure (an import's ms); otherwise the wall time of the whole process counts. */
  printsMs?: boolean;
}

function check(result: ReturnType<typeof spawnSync>, what: string): string {
  if (result.status !== 0) {
    throw new Error(`startup: ${what} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`);
  }
  return String(result.stdout);
}

/** mcporter's bin, installed into the cache on first use; undefined (with the reason) when it cannot be. */
function mcporter(): { bin?: string; version?: string; reason?: string } {
  const dir = join(CACHE, "mcporter");
  const bin = join(dir, "node_modules", ".bin", "mcporter");
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync("npm", ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "mcporter"], {
      encoding: "utf8",
      timeout: 300_000,
    });
    if (install.status !== 0 || !existsSync(bin)) {
      return { reason: `mcporter could not be installed into ${dir}: ${(install.stderr || install.error?.message || "").trim().split("\n").pop()}` };
    }
  }
  const manifest = JSON.parse(readFileSync(join(dir, "node_modules", "mcporter", "package.json"), "utf8")) as { version: string };
  return { bin, version: manifest.version };
}

function importScript(specifiers: readonly string[]): string {
  return `const t0 = performance.now(); ${specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(" ")} ` +
    `console.log(performance.now() - t0);`;
}

function importCase(specifiers: readonly string[]): Case {
  return { command: process.execPath, args: ["--input-type=module", "-e", importScript(specifiers)], printsMs: true };
}

function measure(one: Case, name: string): number {
  const start = performance.now();
  const result = spawnSync(one.command, one.args, { cwd: ROOT, encoding: "utf8", timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  const wall = performance.now() - start;
  const output = check(result, name);
  return one.printsMs ? Number(output.trim().split("\n").pop()) : wall;
}

interface Stats {
  median: number;
  min: number;
  max: number;
}

const spread = (stats: Stats) => `${stats.min.toFixed(0)}–${stats.max.toFixed(0)}`;
const spreadFine = (stats: Stats) => `${stats.min.toFixed(1)}–${stats.max.toFixed(1)}`;

export function processRows(): Row[] {
  // the package's compiled JavaScript, as `npm pack` builds it
  check(spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 }), "npm run build");
  const cli = join(ROOT, "dist", "cli", "run.js");
  const peer = mcporter();
  const node = process.execPath;
  const cases: Record<string, Case> = {
    version: { command: node, args: [cli, "version"] },
    help: { command: node, args: [cli, "--help"] },
    toolsEcho: { command: node, args: [cli, "tools", "--stdio", `${node} ${ECHO_SERVER}`] },
    floor: { command: node, args: ["-e", "0"] },
    tsxLauncher: { command: node, args: [join(ROOT, "src", "cli", "bin.js"), "version"] },
    inspect: { command: node, args: [cli, "inspect", "--stdio", `${node} ${EVERYTHING} stdio`, "--json"] },
    inspectV1: { command: node, args: [join(ROOT, "bench", "sdk-inspect.mjs"), "v1", node, EVERYTHING, "stdio"] },
    inspectV2: { command: node, args: [join(ROOT, "bench", "sdk-inspect.mjs"), "v2", node, EVERYTHING, "stdio"] },
    importSdkV1: importCase(SDK_V1_CLIENT),
    importSdkV2: importCase(SDK_V2_CLIENT),
  };
  if (peer.bin !== undefined) cases.mcporter = { command: peer.bin, args: ["--version"] };
  // The package imports itself by name: the exports map resolves `mcpwire/…` to dist/.
  for (const entry of ENTRIES) cases[entry] = importCase([entry]);

  const names = Object.keys(cases);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) measure(cases[name]!, name); // warm the file cache; not counted
  for (let round = 0; round < RUNS; round++) {
    // rotating order: no case always runs first, right after another's exit
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]!;
      times[name]!.push(measure(cases[name]!, name));
    }
  }
  const stats = (name: string): Stats => ({ median: median(times[name]!), min: Math.min(...times[name]!), max: Math.max(...times[name]!) });
  // the cases named above, measured; mcporter only when it is installed
  type Measured =
    | "version"
    | "help"
    | "toolsEcho"
    | "floor"
    | "tsxLauncher"
    | "inspect"
    | "inspectV1"
    | "inspectV2"
    | "importSdkV1"
    | "importSdkV2"
    | (typeof ENTRIES)[number];
  const s = Object.fromEntries(names.map((name) => [name, stats(name)])) as Record<Measured, Stats> & { mcporter?: Stats };

  const peerText = s.mcporter !== undefined
    ? `mcporter ${peer.version} --version ${s.mcporter.median.toFixed(0)} (${spread(s.mcporter)})`
    : `no mcporter figure: ${peer.reason}`;
  const rows: Row[] = [
    row(
      "startup",
      `process: \`mcpwire version\` (compiled CLI) vs \`node -e 0\` as the floor (median of ${RUNS})`,
      "ms",
      { mcpwire: s.version.median, floor: s.floor.median },
      `min–max: mcpwire ${spread(s.version)}, floor ${spread(s.floor)}; ${peerText}; ` +
        `the checkout's tsx launcher (src/cli/bin.js) ${s.tsxLauncher.median.toFixed(0)} (${spread(s.tsxLauncher)})`,
    ),
    row(
      "startup",
      `process: \`mcpwire --help\` (compiled CLI) vs \`node -e 0\` as the floor (median of ${RUNS})`,
      "ms",
      { mcpwire: s.help.median, floor: s.floor.median },
      `min–max: mcpwire ${spread(s.help)}, floor ${spread(s.floor)}`,
    ),
    row(
      "startup",
      `process: \`mcpwire tools --stdio <examples/servers/echo-server.mjs>\` (compiled CLI; median of ${RUNS})`,
      "ms",
      { mcpwire: s.toolsEcho.median },
      `min–max ${spread(s.toolsEcho)}: the bin, a verb's chunk, the client and a small server's start`,
    ),
    row(
      "startup",
      `process: \`mcpwire inspect --stdio server-everything --json\` vs the same listing through each SDK (median of ${RUNS})`,
      "ms",
      { mcpwire: s.inspect.median, sdk_v1: s.inspectV1.median, sdk_v2: s.inspectV2.median },
      `min–max: mcpwire ${spread(s.inspect)}, sdk v1 ${spread(s.inspectV1)}, sdk v2 ${spread(s.inspectV2)}`,
    ),
    row(
      "startup",
      `import \`mcpwire\` in a fresh Node vs each SDK's client + stdio transport (median of ${RUNS})`,
      "ms",
      { mcpwire: s.mcpwire.median, sdk_v1: s.importSdkV1.median, sdk_v2: s.importSdkV2.median },
      `min–max: mcpwire ${spreadFine(s.mcpwire)}, sdk v1 ${spreadFine(s.importSdkV1)}, sdk v2 ${spreadFine(s.importSdkV2)}`,
    ),
  ];
  for (const entry of ENTRIES.slice(1)) {
    rows.push(
      row("startup", `import \`${entry}\` in a fresh Node (median of ${RUNS})`, "ms", { mcpwire: s[entry]!.median }, `min–max ${spreadFine(s[entry]!)}`),
    );
  }
  return rows;
}
