// `npm run test:node` and `npm run test:deno`: every test file under test/ and conformance/
// (*.test.ts) under one runtime, several files at a time; `npm run test:bun`: BUN_FILES under
// Bun (see below). The tests mostly wait (for child processes, servers, timeouts), so on two
// cores four files at once take less than half the time of one at a time, which is what `node
// --test` (os.availableParallelism() - 1 files) and `deno test` (one) would do there. Each file
// has a process of its own, as before.
//   node test/suite.mjs node [node --test options…]   node --import ./test/support/ts-loader.mjs --test --test-concurrency=N <files>
//   node test/suite.mjs deno [deno test options…]     `deno test -A --no-check FILE` for each file, N at a time,
//                                                     heaviest first
//   node test/suite.mjs deno --list                   the files in the order they are handed out, nothing run
//   node test/suite.mjs bun [bun test options…]       bun test --parallel=N <BUN_FILES>
//   node test/suite.mjs bun --list                    the files Bun runs and those it does not, nothing run
//   node test/suite.mjs package [node --test options…]  node --import tsx --test test/package/install.ts test/package/clone.ts
//   node test/suite.mjs deno+bun+package              those suites at once (any of node, deno, bun, package
//                                                     joined by +), each `node test/suite.mjs PART`, its
//                                                     lines after [PART] (Deno's have [deno N] already)
// N is TEST_JOBS, by default twice os.availableParallelism() for Node and Bun, three times for
// Deno. Under Node the files spend most of their time on CPU (loading TypeScript, the CLI runs):
// on two cores four at once keep both busy (Node suite: 270 s with two, 210 s with four, at ~94%
// CPU, when it had fewer files). Under Deno a file costs half the CPU (335 s for all, one at a
// time, against 676 s under Node) and waits as long, so four at once left a core idle a third
// of the time: six at once.
// Deno runs each file in a process of its own, not `deno test --parallel` (worker threads of one
// process): tests change process.env and start children. A process per file costs Deno about
// 0.1 s of CPU, and the next file goes to whichever process is free, heaviest first: four fixed
// shares of the files (as before) ended up to a minute apart. The suite type-checks nothing:
// `npm run check` (which CI runs before `npm test`) runs tsc and `deno check` over test/ and
// conformance/ among the rest, and the suite's own `deno check` of its files repeated it (16 s
// of CPU). Node's runner sorts the files it is given and hands them out in that order. `npm
// test` runs the Node suite, then Deno's, Bun's and the package test at once.
// Where the time goes (263 files, two cores, 7 December 2026; `/usr/bin/time` around each step,
// vmstat, each process's CPU with its children's read from /proc). `npm test` is CPU-bound
// throughout, so running the steps in another order or overlap would win at most the ~27 s of
// CPU left idle in the Node step (about 13 s). With tsx it took 591-609 s: the Node suite 297 s
// with 519 s of CPU (2.6% idle); the rest 311 s with 572 s of CPU (0.7% idle): Deno's files
// about 400 s, Bun's 67 s (49 s alone), the package test 70 s (87 s alone, 278 s beside Deno: its
// steps run one after another, mostly on CPU: npm ci 14 s, four builds of 2-3 s each, deno
// publish's check 10 s, browsers; not the critical path). tsx cost each Node file's process about
// 0.3 s of CPU (an empty test 0.32 s, 0.11 s through test/support/ts-loader.mjs; importing the
// root and host entries 0.73 s against 0.44 s): with the loader the Node suite takes 250 s with
// 435 s of CPU, `npm test` 552 s. What is left: the compiled CLI about 0.15-0.4 s of CPU a run
// under Node (70 s seen), the reference servers about 0.27 s a start (80 s), Deno's CLI from src/
// about 0.2 s a run (126 s seen). The heaviest files, each under 15 s of CPU, are CLI tests
// (resources-prompts, run-verb, hostile-server, call-forms, export, config-edit) and
// docs/examples: no one file is worth a change of its own.
// Later the same day (TEST_CPU_LOG; the machine shared with other work, so A/B runs of the same
// files one after the other, two rounds each, rather than wall times): Deno's CLI runs use the
// bundle (cli-runner.ts), nine heavy CLI files 74.5 -> 51.5 s of CPU, about 75 s over the suite;
// the suite's `deno check` dropped (16 s); the Node suite's files run bundled
// (test/support/node-suite-build.mjs), test/client 48 -> 38 s, test/host 36.5 -> 32.4 s, about
// 40 s over the suite. Whole runs under that load: 1,106 s of CPU before, 944 s after. What is
// left: each CLI run under Node costs about 0.07 s of CPU more than under Deno (no code cache on
// Node 20), the fixture server or server-everything each CLI run starts (0.07 s, 0.27 s: a CLI
// test over stdio needs its own), a `deno test` process 0.07 s (mostly system time: 22,000 page
// faults at start, against 2,600 for `deno run`).
//
// Bun runs the same node:test files with `bun test`, which maps node:test's describe, test,
// before/after and their skip and timeout options onto its own runner and reports every test and
// an exit code (`bun file.test.ts` does not: Bun's node:test refuses to run outside `bun test`).
// `--parallel=N` runs the files in N processes, each file with a fresh global and module registry
// (as each file has under Node and Deno), handing the next file to whichever process is free;
// `--timeout` lifts Bun's 5 s default for a test to 120 s (Node and Deno have none).

import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { buildNodeSuite } from "./support/node-suite-build.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const [runtime, ...extra] = process.argv.slice(2);
const JOBS = Math.max(1, Number.parseInt(process.env.TEST_JOBS ?? "", 10) || (runtime === "deno" ? 3 : 2) * availableParallelism());

/** The *.test.ts files under `dir`, sorted. */
function testFiles(dir) {
  const found = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith(".test.ts")) found.push(path);
  }
  return found.sort();
}

/**
 * The files, heaviest first by their expected time: a file's size, four times over for the CLI
 * tests (each test starts processes).
 */
function heaviestFirst(files) {
  const weight = (file) => statSync(join(ROOT, file)).size * (file.startsWith("test/cli/") ? 4 : 1);
  return [...files].sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1));
}

/** Runs `task(item, worker)` for each of `items`, in order, at most `jobs` at a time; resolves their results. */
async function queue(items, jobs, task) {
  const results = [];
  let next = 0;
  const worker = async (index) => {
    while (next < items.length) {
      const at = next++;
      results[at] = await task(items[at], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, (_, index) => worker(index)));
  return results;
}

/**
 * TEST_CPU_LOG=FILE (Linux): the CPU each test file's process and its children used, appended
 * to FILE a line each, `USER SYS WALL RUNTIME FILE` (seconds): Deno's through /usr/bin/time,
 * Node's by ts-loader.mjs at the process's exit; each part of a `deno+bun+package` run as
 * `PART name`. How the figures above were measured.
 */
const CPU_LOG = process.env.TEST_CPU_LOG;

/** Runs `command args`; its output goes to ours, each line after `prefix`. Resolves its exit code. `label` names it in CPU_LOG. */
function run(command, args, prefix, label) {
  if (CPU_LOG && label !== undefined) [command, args] = ["/usr/bin/time", ["-a", "-o", CPU_LOG, "-f", `%U %S %e ${label}`, command, ...args]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" && command === "deno" });
    for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      let partial = "";
      from.setEncoding("utf8");
      from.on("data", (text) => {
        const lines = (partial + text).split("\n");
        partial = lines.pop();
        if (lines.length > 0) to.write(lines.map((line) => prefix + line + "\n").join(""));
      });
      from.on("end", () => partial !== "" && to.write(prefix + partial + "\n"));
    }
    child.on("error", (error) => {
      process.stderr.write(`${prefix}suite: cannot start ${command}: ${error.message}\n`);
      resolve(127);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * What `bun test` runs (issue 28): the files of the root entry (jsonrpc, transport, client), the
 * registry and the host, and the CLI's version and inspect --stdio, the HTTP front of serve
 * (its listener is runtime code: node.ts's node:http under Bun), and the runtime's own (but
 * bun.test.ts, which starts Bun from Node and Deno); not those of BUN_SKIPS and BUN_DROPPED. A
 * test that meets a gap of Bun's is skipped there by its own `skip` naming it.
 */
const BUN_FILES = [
  ...["test/jsonrpc", "test/transport", "test/client", "test/registry", "test/host", "test/runtime"].flatMap(testFiles),
  "test/cli/bun-cli.test.ts",
  "test/server/http-front.test.ts",
].filter((file) => file !== "test/runtime/bun.test.ts");
/** Files that cannot run under Bun, each with the gap of Bun's that stops it (none today). */
const BUN_SKIPS = new Map([]);
/**
 * Files left out to keep `npm test` short (about 60 of the 200 s of tests under Bun): the task
 * suites, long waits on the tasks' poll intervals, whose runtime-dependent parts (stdio, HTTP,
 * timers) the transport, client and manager files run too; tasks-modern stays for tasks.
 */
const BUN_DROPPED = new Map([
  ["test/client/tasks-everything.test.ts", "24 s of waiting on server-everything's tasks"],
  ["test/client/tasks-hostile.test.ts", "13 s of poll storms timed against the clock"],
  ["test/client/task-receiver-everything.test.ts", "9 s of waiting on server-everything's tasks"],
  ["test/host/task-host.test.ts", "12 s of tasks kept by the host"],
]);
/** Bun from the `bun` dev dependency, else from PATH. */
const BUN = existsSync(join(ROOT, "node_modules", ".bin", "bun")) ? join(ROOT, "node_modules", ".bin", "bun") : "bun";

/** Where `node test/suite.mjs` is. */
const SELF = fileURLToPath(import.meta.url);
const PARTS = ["node", "deno", "bun", "package"];

if (runtime?.includes("+")) {
  const parts = runtime.split("+");
  if (extra.length > 0 || parts.some((part) => !PARTS.includes(part)) || new Set(parts).size !== parts.length) {
    process.stderr.write(`usage: node test/suite.mjs ${PARTS.join("|")}[+…] (suites joined by + take no options)\n`);
    process.exit(2);
  }
  const began = Date.now();
  const results = await Promise.all(parts.map((part) => run(process.execPath, [SELF, part], part === "deno" ? "" : `[${part}] `, `PART ${part}`)));
  const bad = results.some((code) => code !== 0);
  process.stdout.write(
    `suite: ${parts.join(", ")} at once, ${((Date.now() - began) / 1000).toFixed(0)} s: ` +
      (bad ? `failed (${parts.map((part, index) => `${part} exit ${results[index]}`).join(", ")})\n` : "passed\n"),
  );
  process.exit(bad ? 1 : 0);
}

const files = runtime === "package"
  ? ["test/package/install.ts", "test/package/clone.ts"]
  : runtime === "bun"
  ? BUN_FILES.filter((file) => !BUN_SKIPS.has(file) && !BUN_DROPPED.has(file))
  : [...testFiles("test"), ...testFiles("conformance")];
const started = Date.now();
let codes;
if (runtime === "node") {
  // Each file's process loads TypeScript through ts-loader.mjs, not tsx: 0.3 s of CPU less a file.
  // The files run bundled (test/support/node-suite-build.mjs): their modules not each through its hooks.
  const loader = join(ROOT, "test", "support", "ts-loader.mjs");
  const build = process.env.TEST_NODE_FROM === "source" ? undefined : await buildNodeSuite(ROOT, files);
  try {
    codes = [await run(process.execPath, ["--import", loader, "--test", `--test-concurrency=${JOBS}`, ...extra, ...(build?.bundles ?? files)], "")];
  } finally {
    build?.remove();
  }
} else if (runtime === "deno") {
  const ordered = heaviestFirst(files);
  if (extra[0] === "--list") {
    process.stdout.write(`[deno] ${ordered.join(" ")}\n`);
    process.exit(0);
  }
  const tag = (index) => (JOBS > 1 ? `[deno ${index + 1}] ` : "");
  codes = await queue(ordered, JOBS, (file, index) => run("deno", ["test", "-A", "--no-check", ...extra, file], tag(index), `deno ${file}`));
} else if (runtime === "bun") {
  const left = [
    ...[...BUN_SKIPS].map(([file, why]) => `${file} (a gap of Bun's: ${why})`),
    ...[...BUN_DROPPED].map(([file, why]) => `${file} (dropped: ${why})`),
  ];
  if (extra[0] === "--list") {
    process.stdout.write(`[bun] ${files.join(" ")}\n${left.map((line) => `[not run] ${line}\n`).join("")}`);
    process.exit(0);
  }
  for (const line of left) process.stdout.write(`suite: not run under Bun: ${line}\n`);
  // "./" makes each a path: a bare argument to bun test is a filter on the names of the files it finds.
  codes = [await run(BUN, ["test", `--parallel=${JOBS}`, "--timeout=120000", ...extra, ...files.map((file) => `./${file}`)], "")];
} else if (runtime === "package") {
  codes = [await run(process.execPath, ["--import", "tsx", "--test", ...extra, ...files], "")];
} else {
  process.stderr.write("usage: node test/suite.mjs node|deno|bun|package [options of node --test, deno test or bun test], or deno+bun+package\n");
  process.exit(2);
}
const failed = codes.find((code) => code !== 0);
process.stdout.write(
  `suite: ${files.length} files under ${runtime}${runtime === "package" ? "" : `, ${JOBS} at a time`}, ${((Date.now() - started) / 1000).toFixed(0)} s: ` +
    (failed === undefined ? "passed\n" : `failed (exit ${codes.join(", ")})\n`),
);
process.exit(failed ?? 0);
