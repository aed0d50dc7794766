// `npm run test:node`, `npm run test:deno` and `npm run test:bun`: every test file under test/ and
// conformance/ (*.test.ts) under Node or Deno, the files of BUN_FILES under Bun; several files at a time. The tests mostly wait (for child
// processes, servers, timeouts), so on two cores four files at once take less than half the time of
// one at a time, which is what `node --test` (os.availableParallelism() - 1 files) and `deno
// test` (one) would do there. Each file has a process of its own, as before.
//   node test/suite.mjs node [node --test options…]   node --import tsx --test --test-concurrency=N <files>
//   node test/suite.mjs deno [deno test options…]     deno check <files>, then N `deno test -A --no-check`
//                                                     processes with a share of the files each
//   node test/suite.mjs deno --list                   the files of each Deno process, nothing run
//   node test/suite.mjs bun [bun test options…]       N `bun test` processes with a share of BUN_FILES each
//   node test/suite.mjs bun --list                    the files of each Bun process, nothing run
// Bun runs the same node:test files: `bun test` maps node:test's describe/test/before/after (and
// their skip and timeout options) onto its own runner and reports each test and an exit code.
// (`bun file.test.ts` does not run them: Bun's node:test refuses outside `bun test`.) Its
// default per-test timeout of 5 s is raised to Node's and Deno's none-to-speak-of (--timeout).
// N is TEST_JOBS, default twice os.availableParallelism(): the files mostly wait, so on two
// cores four at once keep both busy (Node suite: 270 s with two, 210 s with four, at ~94% CPU). Deno runs its
// share of files in processes of its own, not `deno test --parallel` (worker threads of one
// process): tests change process.env and start children. Exits non-zero when a step fails.

import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const JOBS = Math.max(1, Number.parseInt(process.env.TEST_JOBS ?? "", 10) || 2 * availableParallelism());
const [runtime, ...extra] = process.argv.slice(2);

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
 * The files in `jobs` groups of about equal expected time: heaviest first to the lightest group.
 * A file's weight is its size, four times over for the CLI tests (each test starts processes).
 */
function shards(files, jobs) {
  const weight = (file) => statSync(join(ROOT, file)).size * (file.startsWith("test/cli/") ? 4 : 1);
  const groups = Array.from({ length: jobs }, () => ({ files: [], weight: 0 }));
  for (const file of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(file);
    lightest.weight += weight(file);
  }
  return groups.map((group) => group.files.sort()).filter((group) => group.length > 0);
}

/** Runs `command args`; its output goes to ours, each line after `prefix`. Resolves its exit code. */
function run(command, args, prefix) {
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
 * The files `bun test` runs (issue 28: the root entry, the registry, the host, and the CLI's
 * version and inspect --stdio). Each passes under Bun, a test that meets a gap of Bun's skipped
 * there by its own `skip` naming the gap; a whole file that cannot would go in BUN_SKIPS.
 */
const BUN_FILES = [
  ...["test/jsonrpc", "test/transport", "test/client", "test/registry", "test/host"].flatMap(testFiles),
  "test/cli/bun-cli.test.ts",
];
/** Files of BUN_FILES not run under Bun, each with the gap of Bun's that stops it. */
const BUN_SKIPS = new Map([]);
/** Bun from the `bun` dev dependency, else from PATH. */
const BUN = existsSync(join(ROOT, "node_modules", ".bin", "bun")) ? join(ROOT, "node_modules", ".bin", "bun") : "bun";

/** Runs `runtime` over `groups` of files, one process each, or lists them with --list. Resolves the exit codes. */
async function sharded(name, groups, argsOf) {
  if (extra[0] === "--list") {
    for (const [index, group] of groups.entries()) process.stdout.write(`[${name} ${index + 1}] ${group.join(" ")}\n`);
    process.exit(0);
  }
  const tag = (index) => (groups.length > 1 ? `[${name} ${index + 1}] ` : "");
  return await Promise.all(groups.map((group, index) => run(name === "bun" ? BUN : name, argsOf(group), tag(index))));
}

const files = runtime === "bun"
  ? BUN_FILES.filter((file) => !BUN_SKIPS.has(file))
  : [...testFiles("test"), ...testFiles("conformance")];
const started = Date.now();
let codes;
if (runtime === "node") {
  codes = [await run(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${JOBS}`, ...extra, ...files], "")];
} else if (runtime === "deno") {
  const groups = shards(files, JOBS);
  if (extra[0] !== "--list") {
    const checked = await run("deno", ["check", ...files], "");
    if (checked !== 0) process.exit(checked);
  }
  codes = await sharded("deno", groups, (group) => ["test", "-A", "--no-check", ...extra, ...group]);
} else if (runtime === "bun") {
  for (const [file, why] of BUN_SKIPS) process.stdout.write(`suite: ${file} not run under Bun: ${why}\n`);
  // "./" makes each a path: a bare argument to bun test is a filter on the names of the files it finds.
  codes = await sharded("bun", shards(files, JOBS), (group) => ["test", "--isolate", "--timeout=120000", ...extra, ...group.map((file) => `./${file}`)]);
} else {
  process.stderr.write("usage: node test/suite.mjs node|deno|bun [options of node --test, deno test or bun test]\n");
  process.exit(2);
}
const failed = codes.find((code) => code !== 0);
process.stdout.write(
  `suite: ${files.length} files under ${runtime}, ${JOBS} at a time, ${((Date.now() - started) / 1000).toFixed(0)} s: ` +
    (failed === undefined ? "passed\n" : `failed (exit ${codes.join(", ")})\n`),
);
process.exit(failed ?? 0);
