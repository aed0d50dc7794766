// The runner behind `npm run conformance`: the official MCP conformance suite
// (@modelcontextprotocol/conformance, client mode) against conformance/client.ts, scored
// against conformance/baseline.yml. See conformance/README.md and ../shared/CONFORMANCE.md.
//
//   npm run conformance                                  # every client scenario (--suite all)
//   npm run conformance -- --scenario sse-retry          # one scenario, its checks shown
//   npm run conformance -- --requirements 2025-11-25     # the MCP project's requirement sets
//   npm run conformance -- --requirements 2026-07-28
//
// Arguments other than ours (--runtime, --no-baseline, --help) go to the suite unchanged. The
// suite's CLI needs Node 22+; it runs here under the Deno binary from node_modules, and it
// launches our client as a child process. The suite scores checks only; this runner also
// requires every scenario's client to exit 0 (the client records its exit code in a log).

import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { runServerSide, type Target } from "./server-side.ts";
import { isFailing, listedUnder, oneLine, readBaseline, readResults } from "./suite-report.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SUITE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const DENO = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "deno.cmd" : "deno");
/** The build's compiler; compiles the client to JavaScript for `--runtime node`. */
const TSC = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "tsc.cmd" : "tsc");
/** tsconfig.build.json's settings (the npm package's), for conformance/client.ts and what it imports. */
const CLIENT_TSCONFIG = "conformance/tsconfig.client.json";
const BASELINE = "conformance/baseline.yml";
/** The 2026-07-28 wire changes which scenarios fail (tools_call runs stateless there). */
const BASELINE_BY_WIRE: Record<string, string> = {
  "2026-07-28": "conformance/baseline.2026-07-28.yml",
  draft: "conformance/baseline.2026-07-28.yml", // the suite's alias for 2026-07-28
};
/**
 * Per scenario; the suite's default is 30 s. The suite starts every scenario at once, so on two
 * cores a client can wait many seconds for its turn; 60 s keeps a timeout meaning "hung", not
 * "starved". It bounds the client process only: no check depends on it.
 */
const SUITE_TIMEOUT_MS = 60_000;
const RUN_LIMIT_MS = 15 * 60_000; // the whole run; the suite runs its scenarios in parallel

const HELP = `usage: npm run conformance [-- options]

Runs the official MCP conformance suite (client mode) against conformance/client.ts.

ours:
  --runtime R     the scenario client's runtime. node (default): conformance/client.ts and the
                  sources it imports compiled to JavaScript by tsc, as \`npm run build\` compiles
                  the package, run by Node. deno: client.ts run by Deno.
                  tsx: \`node --import tsx conformance/client.ts\`, which costs ~1 s of CPU per
                  scenario to load, too much for the full suite's 48 parallel clients on 2 cores
  --no-baseline   score without a baseline (every failure counts)
  --help          this text; the suite's own: node_modules/.bin/deno run -A ${relative(ROOT, SUITE)} client --help

the suite's (passed through): --scenario NAME | --suite all|core|auth|… | --requirements 2025-11-25|2026-07-28,
  --spec-version V, --timeout MS (per scenario; ours 60000, the suite's 30000), --expected-failures FILE, -o DIR, --verbose

Default: --suite all, --expected-failures ${BASELINE} (${BASELINE_BY_WIRE["2026-07-28"]} on the 2026-07-28 wire),
-o results/<time>/. Exit 1 on an unexpected failure, a stale baseline entry, or a client that did not exit 0.`;

interface ClientExit {
  scenario: string | null;
  exitCode: number;
  /** From the client module's start to its exit. */
  ms: number;
  /** Process start to module start: the runtime loading the client and mcpwire. */
  loadMs?: number;
}

function fail(message: string): never {
  process.stderr.write(`npm run conformance: ${message}\n`);
  process.exit(2);
}

/** The value of `--name V` or `--name=V` in args, if given. */
function optionValue(args: string[], ...names: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    for (const name of names) {
      if (arg === name) return args[i + 1];
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return undefined;
}

function hasOption(args: string[], ...names: string[]): boolean {
  return args.some((arg) => names.some((name) => arg === name || arg.startsWith(`${name}=`)));
}

/** Takes our own options out of argv; the rest goes to the suite. */
type Runtime = "node" | "deno" | "tsx";

type Side = "client" | "server" | "both";

interface Parsed {
  runtime: Runtime;
  baseline: boolean;
  side: Side;
  targets: Target[];
  suiteArgs: string[];
}

function parseArgs(argv: string[]): Parsed {
  let runtime: Runtime = "node";
  let baseline = true;
  let side: Side | undefined;
  let targets: Target[] = ["fixture", "serve"];
  const suiteArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${HELP}\n`);
      process.exit(0);
    } else if (arg === "--side" || arg.startsWith("--side=")) {
      const value = arg === "--side" ? argv[++i] : arg.slice("--side=".length);
      if (value !== "client" && value !== "server" && value !== "both") fail(`--side takes client, server or both, not ${JSON.stringify(value)}`);
      side = value;
    } else if (arg === "--target" || arg.startsWith("--target=")) {
      const value = arg === "--target" ? argv[++i] : arg.slice("--target=".length);
      if (value !== "fixture" && value !== "serve" && value !== "both") fail(`--target takes fixture, serve or both, not ${JSON.stringify(value)}`);
      targets = value === "both" ? ["fixture", "serve"] : [value];
    } else if (arg === "--runtime" || arg.startsWith("--runtime=")) {
      const value = arg === "--runtime" ? argv[++i] : arg.slice("--runtime=".length);
      if (value !== "node" && value !== "deno" && value !== "tsx") fail(`--runtime takes node, deno or tsx, not ${JSON.stringify(value)}`);
      runtime = value;
    } else if (arg === "--no-baseline") {
      baseline = false;
    } else {
      suiteArgs.push(arg);
    }
  }
  // Without --side: both sides, unless an argument picks scenarios (--scenario, --suite,
  // --requirements, --spec-version) or the client's runtime, which name the client side as before.
  side ??= hasOption(suiteArgs, "--scenario", "--suite", "--requirements", "--spec-version") || hasOption(argv, "--runtime") ? "client" : "both";
  return { runtime, baseline, side, targets, suiteArgs };
}

/**
 * The command the suite runs per scenario, through a shell, with the server URL appended (it
 * splits the command on spaces). `exec` makes the client the shell's replacement, so the
 * suite's kill at its timeout reaches the client itself rather than only the shell.
 */
function clientCommand(runtime: Runtime, compiled: string | undefined): string {
  const exec = process.platform === "win32" ? "" : "exec ";
  if (runtime === "deno") return `${exec}${relative(ROOT, DENO)} run -A conformance/client.ts`;
  const node = process.execPath.includes(" ") ? "node" : process.execPath;
  if (runtime === "tsx" || compiled === undefined) return `${exec}${node} --import tsx conformance/client.ts`;
  return `${exec}${node} ${relative(ROOT, compiled)}`;
}

/**
 * conformance/client.ts and the sources it imports as JavaScript modules under `outDir` (inside
 * the checkout, so `ajv` resolves from its node_modules), compiled once by the package's own
 * compiler settings instead of by tsx in every scenario's process. Returns the client's path.
 */
function compileClient(outDir: string): string {
  if (!existsSync(TSC)) fail(`${relative(ROOT, TSC)} is missing; run \`npm install\` (typescript is a dev dependency), or use --runtime tsx`);
  const result = spawnSync(TSC, ["-p", CLIENT_TSCONFIG, "--outDir", outDir], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) {
    fail(`could not compile conformance/client.ts (${result.error?.message ?? `tsc exit ${result.status}`}):\n${result.stdout}${result.stderr}`);
  }
  return join(outDir, "conformance", "client.js");
}

function readExits(file: string): Map<string, ClientExit> {
  const exits = new Map<string, ClientExit>();
  if (!existsSync(file)) return exits;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const exit = JSON.parse(line) as ClientExit;
      if (exit.scenario !== null) exits.set(exit.scenario, exit);
    } catch {
      // a line cut by a killed client: that scenario then has no record and counts as not exiting 0
    }
  }
  return exits;
}

/** "client exited 0 in 812 ms", "client left no exit record (…)" */
function describeExit(exit: ClientExit | undefined): string {
  if (exit === undefined) return "client left no exit record (it crashed while loading, or was killed)";
  const load = exit.loadMs === undefined ? "" : ` (+${exit.loadMs} ms loading)`;
  if (exit.exitCode === 3) return `client gave up at its deadline (exit 3 after ${exit.ms} ms${load})`;
  return `client exited ${exit.exitCode} in ${exit.ms} ms${load}`;
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  if (!existsSync(SUITE)) fail(`${relative(ROOT, SUITE)} is missing; run \`npm install\` (it is a dev dependency)`);
  if (!existsSync(DENO)) fail(`${relative(ROOT, DENO)} is missing; run \`npm install\` (the deno package is a dev dependency)`);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  let code = 0;
  if (parsed.side !== "server") code = await runClientSide(parsed, stamp);
  if (parsed.side !== "client") {
    const outDir = resolve(ROOT, optionValue(parsed.suiteArgs, "-o", "--output-dir") ?? join("results", stamp));
    const suiteArgs = parsed.side === "both"
      ? []
      : parsed.suiteArgs.filter((arg, i, all) => !["-o", "--output-dir"].includes(arg) && !["-o", "--output-dir"].includes(all[i - 1] ?? ""));
    const serverCode = await runServerSide({ root: ROOT, deno: DENO, suite: SUITE, outDir, targets: parsed.targets, baseline: parsed.baseline, suiteArgs });
    code = Math.max(code, serverCode);
  }
  return code;
}

/** The client scenarios against conformance/client.ts (what `npm run conformance` always ran). */
async function runClientSide({ runtime, baseline, suiteArgs }: Parsed, stamp: string): Promise<number> {
  if (!existsSync(SUITE)) fail(`${relative(ROOT, SUITE)} is missing; run \`npm install\` (it is a dev dependency)`);
  if (!existsSync(DENO)) fail(`${relative(ROOT, DENO)} is missing; run \`npm install\` (the deno package is a dev dependency)`);

  const args = ["run", "-A", SUITE, "client"];
  const single = hasOption(suiteArgs, "--scenario");
  if (!single && !hasOption(suiteArgs, "--suite", "--requirements")) args.push("--suite", "all");

  const wire = optionValue(suiteArgs, "--requirements", "--spec-version");
  let baselineFile = optionValue(suiteArgs, "--expected-failures");
  if (baselineFile === undefined && baseline) {
    const byWire = wire === undefined ? undefined : BASELINE_BY_WIRE[wire];
    baselineFile = byWire !== undefined && existsSync(join(ROOT, byWire)) ? byWire : BASELINE;
    args.push("--expected-failures", baselineFile);
  }

  let outDir = optionValue(suiteArgs, "-o", "--output-dir");
  if (outDir === undefined) {
    outDir = join("results", stamp);
    args.push("-o", outDir);
  }
  const outPath = resolve(ROOT, outDir);
  mkdirSync(outPath, { recursive: true });
  let compiled: string | undefined;
  if (!hasOption(suiteArgs, "--command")) {
    if (runtime === "node") compiled = compileClient(join(outPath, `client-${stamp}`));
    args.push("--command", clientCommand(runtime, compiled));
  }
  const exitLog = join(outPath, `client-exits-${stamp}.jsonl`);
  const suiteLog = join(outPath, `suite-${stamp}.log`);
  const givenTimeout = optionValue(suiteArgs, "--timeout");
  if (givenTimeout === undefined) args.push("--timeout", String(SUITE_TIMEOUT_MS));
  const timeoutMs = Number(givenTimeout ?? SUITE_TIMEOUT_MS);
  args.push(...suiteArgs);

  const display = args.map((arg) => (arg === SUITE ? relative(ROOT, SUITE) : arg.includes(" ") ? JSON.stringify(arg) : arg));
  process.stdout.write(`$ ${relative(ROOT, DENO)} ${display.join(" ")}\n`);
  const runtimeNote = compiled !== undefined ? `node, conformance/client.ts compiled to ${relative(ROOT, compiled)}` : runtime;
  process.stdout.write(`scenario client: ${runtimeNote}; results: ${relative(ROOT, outPath)}/ (the suite's stderr: ${relative(ROOT, suiteLog)})\n\n`);

  const started = performance.now();
  const child = spawn(DENO, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      MCPWIRE_CONFORMANCE_EXIT_LOG: exitLog,
      // The client gives up a little before the suite kills it, so its reason reaches stderr.txt.
      MCPWIRE_CONFORMANCE_DEADLINE_MS: String(Math.max(5_000, (Number.isFinite(timeoutMs) ? timeoutMs : SUITE_TIMEOUT_MS) - 4_000)),
      DENO_NO_UPDATE_CHECK: "1",
    },
  });
  const log = createWriteStream(suiteLog);
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    process.stdout.write(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    log.write(chunk);
    // One scenario: its checks and verdict are on stderr, so show them. A suite: per-scenario chatter; kept in the log.
    if (single) process.stderr.write(chunk);
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  const limit = setTimeout(() => {
    process.stderr.write(`npm run conformance: the suite is still running after ${RUN_LIMIT_MS / 60_000} minutes; stopping it\n`);
    child.kill("SIGKILL");
  }, RUN_LIMIT_MS);
  const suiteExit = await new Promise<number>((resolveExit) => {
    child.on("error", (error) => {
      process.stderr.write(`npm run conformance: could not start ${DENO}: ${error.message}\n`);
      resolveExit(2);
    });
    child.on("close", (code, signal) => resolveExit(code ?? (signal ? 1 : 0)));
  });
  clearTimeout(limit);
  await new Promise<void>((done) => log.end(done));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  // --- our report: every scenario's checks and its client's exit --------------------------
  const results = readResults(outPath);
  const exits = readExits(exitLog);
  const baselined = baselineFile === undefined ? undefined : readBaseline(resolve(ROOT, baselineFile));
  const expected = baselined?.scenarios ?? new Set<string>();
  const expectedChecks = baselined?.checks ?? new Set<string>();
  const clientFailed = new Set<string>();
  // A --command of one's own that is not conformance/client.ts records no exits: then only checks count.
  const checkExits = !hasOption(suiteArgs, "--command") || exits.size > 0;
  if (!checkExits) process.stdout.write(`\nnote: the --command given recorded no exit codes (${relative(ROOT, exitLog)}), so only checks are scored\n`);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const lines: string[] = [];
  for (const result of results) {
    const exit = exits.get(result.scenario);
    // A failing check listed as `scenario:check-id` is expected, as the suite counts it.
    const failing = result.checks.filter((check) => isFailing(check) && !expectedChecks.has(`${result.scenario}:${check.id}`));
    const exitBad = checkExits && (exit === undefined || exit.exitCode !== 0);
    if (exitBad) clientFailed.add(result.scenario);
    const ok = failing.length === 0 && !exitBad;
    const inBaseline = expected.has(result.scenario);
    const counted = result.checks.filter((check) => check.status === "SUCCESS" || check.status === "FAILURE");
    const successes = counted.filter((check) => check.status === "SUCCESS").length;
    // Every check SKIPPED (the scenario tests a feature the client never used): the suite's pass,
    // with nothing measured. Counted with the skipped, not the passed.
    const vacuous = ok && !inBaseline && counted.length === 0 && result.checks.some((check) => check.status === "SKIPPED");
    const mark = vacuous ? "- vacuous" : ok ? (inBaseline ? "! stale  " : "✓ pass   ") : inBaseline ? "~ expected" : "✗ FAIL   ";
    if (vacuous) skipped++;
    else if (ok && !inBaseline) passed++;
    else if (!ok && inBaseline) skipped++;
    else failed++;
    let line = `${mark.padEnd(10)} ${result.scenario.padEnd(44)} checks ${String(successes).padStart(2)}/${String(counted.length).padEnd(2)}  ${
      checkExits ? describeExit(exit) : "client exit not recorded"
    }`;
    if (vacuous) line += `\n           every check SKIPPED: ${oneLine(result.checks[0]?.errorMessage ?? "", 120)}`;
    const why = failing[0];
    if (why !== undefined) {
      line += `\n           ${why.status} ${why.id}: ${oneLine(why.errorMessage ?? why.description ?? "")}`;
      if (failing.length > 1) line += ` (+${failing.length - 1} more)`;
    }
    lines.push(line);
  }
  process.stdout.write(`\n=== mcpwire: checks and client exits (${results.length} scenarios, ${seconds} s) ===\n`);
  if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
  process.stdout.write(`details: ${relative(ROOT, outPath)}/<scenario>-<time>/checks.json, stdout.txt, stderr.txt\n`);

  // --- the verdict: the suite's baseline report, plus client exits the suite does not score --
  const suiteStale = listedUnder(stdout, "Stale baseline entries");
  const suiteUnexpected = listedUnder(stdout, "Unexpected failures (not in baseline)");
  const unexpected = new Set(suiteUnexpected);
  for (const scenario of clientFailed) if (!expected.has(scenario)) unexpected.add(scenario);
  // Listed, checks passing, but its client still fails: not stale, whatever the suite says.
  const stale = suiteStale.filter((entry) => !clientFailed.has(entry));
  const notStale = suiteStale.filter((entry) => clientFailed.has(entry));
  for (const entry of notStale) process.stdout.write(`note: ${entry}: the suite calls this entry stale, but its client did not exit 0; keep it\n`);
  for (const scenario of unexpected) {
    if (!suiteUnexpected.includes(scenario)) {
      process.stdout.write(`unexpected: ${scenario}: its checks pass, but the ${describeExit(exits.get(scenario))}; see its stderr.txt\n`);
    }
  }

  let code: number;
  if (unexpected.size > 0 || stale.length > 0) {
    code = 1;
  } else if (suiteExit !== 0 && suiteStale.length === 0 && suiteUnexpected.length === 0) {
    process.stderr.write(`npm run conformance: the suite exited ${suiteExit}; see ${relative(ROOT, suiteLog)}\n`);
    code = suiteExit;
  } else {
    code = 0;
  }
  if (results.length === 0 && code === 0 && !single) {
    process.stderr.write(`npm run conformance: no scenario results under ${relative(ROOT, outPath)}; nothing was scored\n`);
    code = 1;
  }
  process.stdout.write(
    `\n${code === 0 ? "PASSED" : "FAILED"} in ${seconds} s` +
      `; skipped = ${baselineFile !== undefined ? `failing as ${baselineFile} expects, or ` : ""}every check SKIPPED` + "\n" +
      `conformance: ${passed} passed, ${failed} failed, ${skipped} skipped\n`,
  );
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`npm run conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
