// `npm run test:node` and `npm run test:deno`: every test file under test/ and conformance/
// (*.test.ts) under one runtime, several files at a time. The tests mostly wait (for child
// processes, servers, timeouts), so on two cores four files at once take less than half the time of
// one at a time, which is what `node --test` (os.availableParallelism() - 1 files) and `deno
// test` (one) would do there. Each file has a process of its own, as before.
//   node test/suite.mjs node [node --test options…]   node --import tsx --test --test-concurrency=N <files>
//   node test/suite.mjs deno [deno test options…]     deno check <files>, then N `deno test -A --no-check`
//                                                     processes with a share of the files each
//   node test/suite.mjs deno --list                   the files of each Deno process, nothing run
// N is TEST_JOBS, default twice os.availableParallelism(): the files mostly wait, so on two
// cores four at once keep both busy (Node suite: 270 s with two, 210 s with four, at ~94% CPU). Deno runs its
// share of files in processes of its own, not `deno test --parallel` (worker threads of one
// process): tests change process.env and start children. Exits non-zero when a step fails.

import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
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

const files = [...testFiles("test"), ...testFiles("conformance")];
const started = Date.now();
let codes;
if (runtime === "node") {
  codes = [await run(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${JOBS}`, ...extra, ...files], "")];
} else if (runtime === "deno") {
  const groups = shards(files, JOBS);
  if (extra[0] === "--list") {
    for (const [index, group] of groups.entries()) process.stdout.write(`[deno ${index + 1}] ${group.join(" ")}\n`);
    process.exit(0);
  }
  const checked = await run("deno", ["check", ...files], "");
  if (checked !== 0) process.exit(checked);
  const tag = (index) => (groups.length > 1 ? `[deno ${index + 1}] ` : "");
  codes = await Promise.all(groups.map((group, index) => run("deno", ["test", "-A", "--no-check", ...extra, ...group], tag(index))));
} else {
  process.stderr.write("usage: node test/suite.mjs node|deno [options of node --test or deno test]\n");
  process.exit(2);
}
const failed = codes.find((code) => code !== 0);
process.stdout.write(
  `suite: ${files.length} files under ${runtime}, ${JOBS} at a time, ${((Date.now() - started) / 1000).toFixed(0)} s: ` +
    (failed === undefined ? "passed\n" : `failed (exit ${codes.join(", ")})\n`),
);
process.exit(failed ?? 0);
