// Test helper: the mcpwire CLI compiled from src/ to JavaScript, for the CLI tests under Node.
// Starting `node --import tsx src/cli/run.ts` costs about a second of CPU per run (tsx
// transpiles the sources again in every process); `node <build>/cli/run.js` starts in a fifth
// of that and is still a real process (signals, TTY, stdin EOF, exit codes). The build is
// `tsc -p tsconfig.build.json` without type checking (what tsx does too), into
// `.test-build/<hash of src/ and the tsconfigs>/` in the checkout, so that the compiled files
// resolve the checkout's node_modules. It is made once per content of src/: test files run in
// parallel processes, so one builds (holding a lock directory) while the others wait for its
// ready marker. Builds of other contents older than an hour are removed by the next build.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUILDS = join(ROOT, ".test-build");
const READY = "ready";
/** A build takes about 1 s; a lock older than this was left by a process that died. */
const STALE_LOCK_MS = 120_000;
/** A build of another content of src/ older than this is removed. */
const PRUNE_AFTER_MS = 3_600_000;
/** How long a test waits for another process's build. */
const WAIT_MS = 180_000;

/** Every file under `dir`, sorted, as paths relative to ROOT. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...filesUnder(path));
    else if (entry.isFile()) found.push(path);
  }
  return found.sort();
}

/** A digest of what the build reads: src/ and the two tsconfig files. */
function sourceDigest(): string {
  const hash = createHash("sha256");
  for (const file of [...filesUnder("src"), "tsconfig.json", "tsconfig.build.json"]) {
    hash.update(`${file}\0`).update(readFileSync(join(ROOT, file))).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Compiles src/ into `out` (JavaScript only: no declarations, maps or type check). */
function compile(out: string): void {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [
      tsc,
      "-p",
      join(ROOT, "tsconfig.build.json"),
      "--outDir",
      out,
      "--noCheck",
      "--noEmitOnError",
      "false",
      "--declaration",
      "false",
      "--sourceMap",
      "false",
      "--inlineSources",
      "false",
    ], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], timeout: WAIT_MS });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Uint8Array; stderr?: Uint8Array };
    const output = new TextDecoder().decode(stdout ?? new Uint8Array()) + new TextDecoder().decode(stderr ?? new Uint8Array());
    throw new Error(`compiled-cli: tsc could not compile src/ for the CLI tests (MCPWIRE_TEST_CLI=source runs the sources through tsx):\n${output}`, {
      cause: error,
    });
  }
}

/** Removes the builds of other contents of src/ made over an hour ago (no run still uses them), keeping `keep`. */
function pruneExcept(keep: string): void {
  for (const name of readdirSync(BUILDS)) {
    if (name === keep || name === `${keep}.lock`) continue;
    const path = join(BUILDS, name);
    const since = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > PRUNE_AFTER_MS) rmSync(path, { recursive: true, force: true });
  }
}

let built: string | undefined;

/** The path of `cli/run.js` compiled from the current src/, built first if need be. */
export function compiledCli(): string {
  if (built !== undefined) return built;
  const key = sourceDigest();
  const dir = join(BUILDS, key);
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT_MS;
  mkdirSync(BUILDS, { recursive: true });
  while (!existsSync(join(dir, READY))) {
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    }
    if (mine) {
      try {
        if (!existsSync(join(dir, READY))) {
          rmSync(dir, { recursive: true, force: true });
          const scratch = join(lock, "out");
          compile(scratch);
          writeFileSync(join(scratch, READY), `${new Date().toISOString()}\n`);
          renameSync(scratch, dir);
          pruneExcept(key);
        }
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`compiled-cli: no build of src/ in ${dir} after ${WAIT_MS / 1000} s; remove ${lock} if no test run is building it`);
    }
    sleepSync(100);
  }
  built = join(dir, "cli", "run.js");
  return built;
}
