// The benchmark entry: `npm run bench` runs every benchmark, `npm run bench -- framing` one (or
// several); `--rounds N` sets the rounds, `--quick` makes a short smoke run. framing, dispatch,
// stdio and bridge measure each comparator in its own fresh process per round, the rounds
// interleaved (A B C D, B C D A, …); startup runs as it did (its own fresh processes).
// mcpwire is measured as users run it, compiled (dist/, built first); `--source` measures src/.
// Prints a markdown table (medians, the ratios' min–max, CPU per call), then each target with
// its goal and whether the median meets it; overwrites bench/results.json with the same rows.

import { execFile, execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { Figures, MeasureOptions, RoundBench, Row, Samples, Spread } from "./common.ts";

const ROUND_BENCHES = ["framing", "dispatch", "stdio", "http", "bridge", "serve"] as const;
const BENCHES = [...ROUND_BENCHES, "startup", "call-startup", "plainpath", "bundle"] as const;
type BenchName = typeof BENCHES[number];
const DEFAULT_ROUNDS = 7;
const QUICK_ROUNDS = 3;
/** A child that takes longer than this is killed and its round counted as missing. */
const CHILD_TIMEOUT_MS = 180_000;

function isBench(name: string): name is BenchName {
  return (BENCHES as readonly string[]).includes(name);
}

function usage(message: string): never {
  console.error(`bench: ${message}\nusage: npm run bench -- [--rounds N] [--quick] [--source] [${BENCHES.join("|")} …]`);
  process.exit(2);
}

function parseArgs(argv: string[]): { chosen: BenchName[]; rounds: number; quick: boolean; source: boolean } {
  const names: BenchName[] = [];
  let rounds: number | undefined;
  let quick = false;
  let source = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--quick") quick = true;
    else if (arg === "--source") source = true;
    else if (arg === "--rounds" || arg.startsWith("--rounds=")) {
      const value = arg === "--rounds" ? argv[++i] : arg.slice("--rounds=".length);
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) usage(`--rounds takes a whole number ≥ 1, not "${value}"`);
      rounds = n;
    } else if (isBench(arg)) names.push(arg);
    else usage(`unknown argument "${arg}"`);
  }
  return { chosen: names.length === 0 ? [...BENCHES] : names, rounds: rounds ?? (quick ? QUICK_ROUNDS : DEFAULT_ROUNDS), quick, source };
}

function denoVersion(): string {
  try {
    const deno = fileURLToPath(new URL("../node_modules/.bin/deno", import.meta.url));
    return execFileSync(deno, ["--version"], { encoding: "utf8" }).split("\n")[0]!.trim();
  } catch {
    return "absent";
  }
}

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));

/** One comparator's figures, measured in a fresh process; null (and a line on stderr) if it failed. */
function measureInChild(bench: string, comparator: string, options: MeasureOptions): Promise<Figures | null> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", CHILD, bench, comparator, JSON.stringify(options)],
      { encoding: "utf8", timeout: CHILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const line = stdout.split("\n").find((text) => text.startsWith("BENCH-FIGURES "));
        if (error !== null || line === undefined) {
          console.error(`bench: ${bench} ${comparator} failed: ${error?.message ?? "no figures printed"}\n${stderr.slice(-2000)}`);
          resolve(null);
          return;
        }
        resolve(JSON.parse(line.slice("BENCH-FIGURES ".length)) as Figures);
      },
    );
  });
}

/** Every comparator once per round, each in a fresh process, the order rotated each round. */
async function runRounds(name: string, rounds: number, quick: boolean): Promise<Row[]> {
  const module: { bench: RoundBench } = await import(`./${name}.bench.ts`);
  const { comparators } = module.bench;
  const samples: Samples = {};
  for (let round = 0; round < rounds; round++) {
    const at = round % comparators.length;
    const order = [...comparators.slice(at), ...comparators.slice(0, at)];
    for (const comparator of order) {
      const figures = await measureInChild(name, comparator, { quick });
      const mine = samples[comparator] ??= {};
      // A failed round stays a hole (NaN): round i of one comparator is still paired with round i of another.
      const keys = figures === null ? Object.keys(mine) : Object.keys(figures);
      for (const key of keys) {
        const list = mine[key] ??= [];
        while (list.length < round) list.push(NaN);
        list.push(figures?.[key] ?? NaN);
      }
    }
    console.error(`bench: ${name} round ${round + 1}/${rounds} done`);
  }
  return module.bench.report(samples, rounds);
}

async function runOld(name: "startup" | "call-startup"): Promise<Row[]> {
  const module: { run: () => Promise<Row[]> } = await import(`./${name}.bench.ts`);
  return module.run();
}

/**
 * Functions per plain call (issue 25): the distinct src/ functions and files one
 * registry.dispatch runs, by V8 precise coverage (plain-path.ts), in a fresh process. A count,
 * not a time: it does not move with load, so one run is enough.
 */
function runPlainPath(): Row[] {
  const rows: Row[] = [];
  const lines = ["legacy", "modern"].flatMap((era) =>
    execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./plain-path.ts", import.meta.url)), "--json", "--era", era], {
      encoding: "utf8",
      timeout: CHILD_TIMEOUT_MS,
    }).split("\n")
  );
  for (const line of lines) {
    if (!line.startsWith("PLAIN-PATH ")) continue;
    const figures = JSON.parse(line.slice("PLAIN-PATH ".length)) as { era: string; calls: number; functions: number; files: number };
    const wire = figures.era === "legacy" ? "handshake era" : "2026-07-28 wire";
    const base = {
      bench: "plainpath",
      sdk_v1: null,
      sdk_v2: null,
      floor: null,
      ratio_vs_sdk_v1: null,
      ratio_vs_floor: null,
      note: `src/ by V8 coverage over ${figures.calls} calls`,
    };
    rows.push({ ...base, case: `functions per plain call, ${wire}`, unit: "functions", mcpwire: figures.functions });
    rows.push({ ...base, case: `files per plain call, ${wire}`, unit: "files", mcpwire: figures.files });
  }
  return rows;
}

/**
 * Bundle sizes (issues 28, 38): esbuild bundles of the root entry for a browser, for Workers and
 * for Node, no externals, beside SDK v2's client built the same way (scripts/bundle-sizes.ts, in
 * a fresh process). Sizes, not times: one run is enough.
 */
function runBundle(): Row[] {
  const output = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../scripts/bundle-sizes.ts", import.meta.url)), "--json"], {
    encoding: "utf8",
    timeout: CHILD_TIMEOUT_MS,
  });
  const line = output.split("\n").find((text) => text.startsWith("BUNDLE-FIGURES "));
  if (line === undefined) throw new Error("bench: scripts/bundle-sizes.ts printed no figures");
  const figures = JSON.parse(line.slice("BUNDLE-FIGURES ".length)) as {
    name: string;
    what: string;
    raw: number;
    gzip: number;
    interpretingValidator: boolean;
    ajv: boolean;
  }[];
  const kb = (bytes: number | undefined) => bytes === undefined ? null : Math.round(bytes / 102.4) / 10;
  const rows: Row[] = [];
  // browser-tasks: the browser bundle with tasksExtension, beside SDK v2's client, which always holds its tasks.
  const pairs = [["browser", "sdk-v2-browser"], ["browser-tasks", "sdk-v2-browser"], ["browser-telemetry", "sdk-v2-browser"], ["workerd", "sdk-v2-browser"], [
    "node",
    "sdk-v2-node",
  ]] as const;
  for (const [name, sdk] of pairs) {
    const ours = figures.find((figure) => figure.name === name);
    const theirs = figures.find((figure) => figure.name === sdk);
    if (ours === undefined) continue;
    const validator = `; no externals; ajv ${ours.ajv ? "included" : "none"}; interpreting validator ${ours.interpretingValidator ? "included" : "left out"}`;
    for (const kind of ["gzip", "raw"] as const) {
      rows.push({
        bench: "bundle",
        case: `${name} ${kind}, ${ours.what.replace(/^mcpwire: /, "")}`,
        unit: "KB",
        mcpwire: kb(ours[kind]),
        sdk_v1: null,
        sdk_v2: kb(theirs?.[kind]),
        floor: null,
        ratio_vs_sdk_v1: null,
        ratio_vs_floor: null,
        note: `esbuild --minify, gzip -9${validator}`,
      });
    }
  }
  return rows;
}

function figure(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  if (Number.isInteger(value) && Math.abs(value) < 100) return String(value); // counts (functions, files)
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function ratioText(value: number | null, range?: Spread | null): string {
  if (value === null) return "—";
  return range === undefined || range === null ? `${value.toFixed(2)}×` : `${value.toFixed(2)}× (${range[0].toFixed(2)}–${range[1].toFixed(2)})`;
}

function cpuText(r: Row): string {
  if (r.cpu_us === undefined) return "";
  return [r.cpu_us.mcpwire, r.cpu_us.sdk_v1, r.cpu_us.sdk_v2, r.cpu_us.floor].map(figure).join(" · ");
}

// ---- targets (issue 19): judged on the median; the spread is printed beside it ----

interface Target {
  name: string;
  goal: string;
  bench: string;
  /** The row's case, from its start. */
  case: string;
  /** What is judged: a ratio column, or the row's own mcpwire figure. */
  field: "ratio_vs_floor" | "ratio_vs_sdk_v1" | "value";
  atLeast?: number;
  atMost?: number;
  /**
   * Other figures shown beside it (the cost in the way, measured in the same run): the row's
   * case start and which of its figures.
   */
  also?: { label: string; case: string; pick: (row: Row) => number | null | undefined }[];
}

/** Beside a stdio target: the client's CPU per call, ours and the floor's (what a call costs us). */
const CLIENT_CPU = (rowCase: string): NonNullable<Target["also"]> => [
  { label: "client CPU µs/call ours", case: rowCase, pick: (r) => r.cpu_us?.mcpwire },
  { label: "floor", case: rowCase, pick: (r) => r.cpu_us?.floor },
];

const TARGETS: Target[] = [
  {
    name: "stdio 64 in flight, 100 B vs floor",
    goal: "≥ 0.90×",
    bench: "stdio",
    case: "64 in flight, 100 B",
    field: "ratio_vs_floor",
    atLeast: 0.9,
    also: CLIENT_CPU("64 in flight, 100 B"),
  },
  { name: "stdio 64 in flight, 100 B vs SDK v1", goal: "≥ 1.80×", bench: "stdio", case: "64 in flight, 100 B", field: "ratio_vs_sdk_v1", atLeast: 1.8 },
  {
    name: "stdio sequential, 100 B vs floor",
    goal: "≥ 0.95×",
    bench: "stdio",
    case: "sequential, 100 B",
    field: "ratio_vs_floor",
    atLeast: 0.95,
    also: [
      { label: "p99 µs ours", case: "sequential p99, 100 B", pick: (r) => r.mcpwire },
      { label: "p99 µs floor", case: "sequential p99, 100 B", pick: (r) => r.floor },
      ...CLIENT_CPU("sequential, 100 B"),
    ],
  },
  {
    name: "framing 100 KB vs SDK v1",
    goal: "≥ 1.50×",
    bench: "framing",
    case: "100 KB payloads",
    field: "ratio_vs_sdk_v1",
    atLeast: 1.5,
    also: [
      { label: "CPU µs/msg ours", case: "100 KB payloads", pick: (r) => r.cpu_us?.mcpwire },
      { label: "SDK v1", case: "100 KB payloads", pick: (r) => r.cpu_us?.sdk_v1 },
      { label: "JSON.parse alone", case: "100 KB: JSON.parse alone", pick: (r) => r.mcpwire },
    ],
  },
  {
    name: "dispatchSync overhead over dispatch",
    goal: "≤ 50 µs",
    bench: "bridge",
    case: "dispatchSync overhead",
    field: "value",
    atMost: 50,
    also: [
      { label: "ping-pong floor µs (port)", case: "thread ping-pong floor, call as a port", pick: (r) => r.mcpwire },
      { label: "ping-pong floor µs (shared memory)", case: "thread ping-pong floor, call in shared", pick: (r) => r.mcpwire },
      { label: "CPU µs/call dispatchSync", case: "dispatchSync (mcpwire)", pick: (r) => r.cpu_us?.mcpwire },
      { label: "dispatch", case: "dispatchSync (mcpwire)", pick: (r) => r.cpu_us?.floor },
    ],
  },
  // issue 37: the bin's start (bench/process-startup.ts): `mcpwire version` within 1.2× `node -e 0`.
  {
    name: "`mcpwire version` vs `node -e 0` (time: the floor's / version's)",
    goal: "≥ 0.83× (≤ 1.2× the floor's time)",
    bench: "startup",
    case: "process: `mcpwire version`",
    field: "ratio_vs_floor",
    atLeast: 0.83,
    also: [{ label: "`--help` ms", case: "process: `mcpwire --help`", pick: (r) => r.mcpwire }],
  },
  // issue 27: `call` starts only the server that owns the tool (bench/call-startup.bench.ts).
  {
    name: "call with a slow and a broken extra server vs its server alone",
    goal: "≥ 0.90×",
    bench: "call-startup",
    case: "process: `call mcp_everything_echo`",
    field: "ratio_vs_floor",
    atLeast: 0.9,
    also: [{ label: "`servers` (starts all) ms", case: "process: `servers`", pick: (r) => r.mcpwire }],
  },
  // issue 41: Streamable HTTP round trips (bench/http.bench.ts), on each wire, against the raw fetch floor and both SDKs.
  ...(["handshake era", "2026-07-28 wire"] as const).flatMap((wire): Target[] => [
    {
      name: `http sequential, ${wire}, vs floor`,
      goal: "≥ 0.90×",
      bench: "http",
      case: `sequential, 100 B, ${wire}`,
      field: "ratio_vs_floor",
      atLeast: 0.9,
      also: CLIENT_CPU(`sequential, 100 B, ${wire}`),
    },
    {
      name: `http 64 in flight, ${wire}, vs floor`,
      goal: "≥ 0.80×",
      bench: "http",
      case: `64 in flight, 100 B, ${wire}`,
      field: "ratio_vs_floor",
      atLeast: 0.8,
      also: CLIENT_CPU(`64 in flight, 100 B, ${wire}`),
    },
    ...(wire === "handshake era"
      ? [
        { name: `http sequential, ${wire}, vs SDK v1`, goal: "> 1×", bench: "http", case: `sequential, 100 B, ${wire}`, field: "ratio_vs_sdk_v1", atLeast: 1 },
        {
          name: `http 64 in flight, ${wire}, vs SDK v1`,
          goal: "> 1×",
          bench: "http",
          case: `64 in flight, 100 B, ${wire}`,
          field: "ratio_vs_sdk_v1",
          atLeast: 1,
        },
      ] satisfies Target[]
      : []),
    {
      name: `http sequential, ${wire}, vs SDK v2`,
      goal: "> 1×",
      bench: "http",
      case: `sequential, 100 B, ${wire}: mcpwire vs SDK v2`,
      field: "ratio_vs_sdk_v1",
      atLeast: 1,
    },
    {
      name: `http 64 in flight, ${wire}, vs SDK v2`,
      goal: "> 1×",
      bench: "http",
      case: `64 in flight, 100 B, ${wire}: mcpwire vs SDK v2`,
      field: "ratio_vs_sdk_v1",
      atLeast: 1,
    },
  ]),
  // issue 40: a call through `mcpwire serve` against the same call made directly (bench/serve.bench.ts; bench/README.md says why these goals).
  ...(["handshake era", "2026-07-28 wire"] as const).flatMap((wire): Target[] => {
    const stdio = `stdio front → stdio backend, vs direct stdio, ${wire}`;
    const http = `HTTP front → HTTP backend, vs direct HTTP, ${wire}`;
    const bridgeCpu = (rowCase: string) => ({ label: "bridge CPU µs/call", case: rowCase, pick: (r: Row) => r.cpu_us?.mcpwire });
    return [
      {
        name: `serve: added latency, sequential, stdio → stdio, ${wire}`,
        goal: "≤ 150 µs",
        bench: "serve",
        case: `added latency per call, sequential, ${stdio}`,
        field: "value",
        atMost: 150,
        also: [bridgeCpu(`added latency per call, sequential, ${stdio}`), {
          label: "direct µs/call",
          case: `sequential µs per call, ${stdio}`,
          pick: (r) => r.floor,
        }],
      },
      {
        name: `serve: 64 in flight, stdio → stdio, ${wire}, through / direct`,
        goal: "≥ 0.50×",
        bench: "serve",
        case: `64 in flight, ${stdio}`,
        field: "ratio_vs_floor",
        atLeast: 0.5,
        also: [bridgeCpu(`added time per call at 64 in flight, ${stdio}`), {
          label: "client CPU µs/call direct",
          case: `64 in flight, ${stdio}`,
          pick: (r) => r.cpu_us?.floor,
        }],
      },
      {
        name: `serve: sequential, HTTP → HTTP, ${wire}, direct / through (time)`,
        goal: "≥ 0.50× (adds ≤ one direct call)",
        bench: "serve",
        case: `sequential µs per call, ${http}`,
        field: "ratio_vs_floor",
        atLeast: 0.5,
        also: [
          { label: "added µs", case: `added latency per call, sequential, ${http}`, pick: (r) => r.mcpwire },
          bridgeCpu(`added latency per call, sequential, ${http}`),
          { label: "client CPU µs/call direct", case: `sequential µs per call, ${http}`, pick: (r) => r.cpu_us?.floor },
        ],
      },
      {
        name: `serve: 64 in flight, HTTP → HTTP, ${wire}, through / direct`,
        goal: "≥ 0.50×",
        bench: "serve",
        case: `64 in flight, ${http}`,
        field: "ratio_vs_floor",
        atLeast: 0.5,
        also: [bridgeCpu(`added time per call at 64 in flight, ${http}`)],
      },
    ];
  }),
  { name: "in-process dispatch vs SDK v1", goal: "≥ 5× (keep)", bench: "dispatch", case: "in-process tools/call", field: "ratio_vs_sdk_v1", atLeast: 5 },
  // issue 25: a plain tool call runs few of our functions (bench/plain-path.ts).
  {
    name: "functions per plain call, handshake era",
    goal: "≤ 40",
    bench: "plainpath",
    case: "functions per plain call, handshake",
    field: "value",
    atMost: 40,
  },
  { name: "files per plain call, handshake era", goal: "≤ 14", bench: "plainpath", case: "files per plain call, handshake", field: "value", atMost: 14 },
  {
    name: "functions per plain call, 2026-07-28 wire",
    goal: "≤ 40",
    bench: "plainpath",
    case: "functions per plain call, 2026-07-28",
    field: "value",
    atMost: 40,
  },
  { name: "files per plain call, 2026-07-28 wire", goal: "≤ 14", bench: "plainpath", case: "files per plain call, 2026-07-28", field: "value", atMost: 14 },
  // issues 28 and 38: the bundles an embedder ships, no externals (scripts/bundle-sizes.ts; test/bundle.test.ts guards them).
  { name: "browser bundle, gzip KB", goal: "≤ 45", bench: "bundle", case: "browser gzip", field: "value", atMost: 45 },
  { name: "Worker bundle (workerd conditions), gzip KB", goal: "≤ 45", bench: "bundle", case: "workerd gzip", field: "value", atMost: 45 },
];

function judge(rows: Row[]): string[] {
  const lines = ["| target | goal | median | min–max over rounds | met? | beside it |", "|---|---|---|---|---|---|"];
  for (const target of TARGETS) {
    const found = rows.find((r) => r.bench === target.bench && r.case.startsWith(target.case));
    if (found === undefined) continue;
    const value = target.field === "value" ? found.mcpwire : found[target.field];
    const range = target.field === "value"
      ? found.spread?.mcpwire
      : target.field === "ratio_vs_floor"
      ? found.ratio_vs_floor_spread
      : found.ratio_vs_sdk_v1_spread;
    const unit = target.field === "value" ? "" : "×";
    const met = value === null ? "—" : (target.atLeast !== undefined ? value >= target.atLeast : value <= target.atMost!) ? "met" : "not met";
    const beside = (target.also ?? []).map((also) => {
      const other = rows.find((r) => r.bench === target.bench && r.case.startsWith(also.case));
      return `${also.label} ${figure((other === undefined ? undefined : also.pick(other)) ?? null)}`;
    }).join("; ");
    const rangeText = range === undefined || range === null ? "—" : `${figure(range[0])}${unit}–${figure(range[1])}${unit}`;
    lines.push(`| ${target.name} | ${target.goal} | ${figure(value)}${value === null ? "" : unit} | ${rangeText} | ${met} | ${beside} |`);
  }
  return lines;
}

const { chosen, rounds, quick, source } = parseArgs(process.argv.slice(2));
// What is measured: the compiled package (bench/subject.ts), built now, unless --source.
if (source) process.env.MCPWIRE_BENCH_SOURCE = "1";
else {
  console.error("bench: npm run build (the benchmarks measure dist/, what users run; --source measures src/ through tsx)");
  execFileSync("npm", ["run", "build"], { cwd: fileURLToPath(new URL("..", import.meta.url)), stdio: ["ignore", "ignore", "inherit"], timeout: 300_000 });
}
const cpus = os.cpus();
const machine = `${cpus[0]?.model ?? "unknown cpu"} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
const load = () => os.loadavg()[0]!.toFixed(1);
const loadAtStart = load();
const rows: Row[] = [];
const started = performance.now();
for (const name of chosen) {
  const t0 = performance.now();
  console.error(`bench: ${name}…`);
  rows.push(
    ...(name === "startup" || name === "call-startup"
      ? await runOld(name)
      : name === "plainpath"
      ? runPlainPath()
      : name === "bundle"
      ? runBundle()
      : await runRounds(name, rounds, quick)),
  );
  console.error(`bench: ${name} took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const results = {
  machine,
  node: process.version,
  deno: denoVersion(),
  measured: source ? "src through tsx" : "dist (npm run build)",
  rounds,
  quick,
  load_average: { start: Number(loadAtStart), end: Number(load()) },
  rows,
};
writeFileSync(new URL("./results.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");

console.log(
  `machine: ${machine}; node ${process.version}; ${results.deno}; total ${
    ((performance.now() - started) / 1000).toFixed(0)
  } s; load average ${loadAtStart} at the start, ${load()} at the end`,
);
console.log(
  `${rounds} rounds${
    quick ? " (quick: short slices, a smoke run)" : ""
  }; mcpwire measured from ${results.measured}; framing, dispatch, stdio and bridge: each comparator in its own fresh process per round, rounds interleaved; figures are medians over the rounds`,
);
console.log(
  "ratios: > 1 means mcpwire is better (throughput ours/theirs; time and memory theirs/ours); the median of the per-round ratios, min–max over the rounds in brackets\n",
);
console.log(
  "| bench | case | unit | mcpwire | sdk v1 | sdk v2 | floor | vs sdk v1 (min–max) | vs floor (min–max) | CPU µs per call: mcpwire · v1 · v2 · floor |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.bench} | ${r.case}${r.note === undefined ? "" : ` (${r.note})`} | ${r.unit} | ${figure(r.mcpwire)} | ${figure(r.sdk_v1)} | ${figure(r.sdk_v2)} | ${
      figure(r.floor)
    } | ${ratioText(r.ratio_vs_sdk_v1, r.ratio_vs_sdk_v1_spread)} | ${ratioText(r.ratio_vs_floor, r.ratio_vs_floor_spread)} | ${cpuText(r)} |`,
  );
}
const judged = judge(rows);
if (judged.length > 2) {
  console.log("\ntargets (issues 19, 25, 28, 40 and 41), judged on the median:\n");
  for (const line of judged) console.log(line);
}
process.exit(0);
