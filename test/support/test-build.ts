// Test helper: a build the tests run instead of TypeScript through tsx (the CLI, compiled-cli.ts;
// the TypeScript fixtures, compiled-fixtures.ts), made once per content of what it reads into
// `.test-build/<kind>-<digest>/` in the checkout (ignored by git), so that the built files
// resolve the checkout's node_modules. Test files run in parallel processes: one builds (holding
// a lock directory) while the others wait for its ready marker. Builds of the same kind for
// other contents, older than an hour, are removed by the next build (and the unprefixed builds
// of src/ that compiled-cli.ts made before kinds).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUILDS = join(ROOT, ".test-build");
const READY = "ready";
/** A build takes about a second; a lock older than this was left by a process that died. */
const STALE_LOCK_MS = 120_000;
/** A build of another content older than this is removed. */
const PRUNE_AFTER_MS = 3_600_000;
/** How long a test waits for another process's build. */
const WAIT_MS = 180_000;

/** Every file under `path` (a file or a directory relative to ROOT), sorted, as paths relative to ROOT. */
function filesUnder(path: string): string[] {
  if (!statSync(join(ROOT, path)).isDirectory()) return [path];
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, path), { withFileTypes: true })) {
    const inner = `${path}/${entry.name}`;
    if (entry.isDirectory()) found.push(...filesUnder(inner));
    else if (entry.isFile()) found.push(inner);
  }
  return found.sort();
}

/** A digest of the files under `inputs` and of `args`. */
function digest(inputs: string[], args: string[]): string {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap(filesUnder)) hash.update(`${file}\0`).update(readFileSync(join(ROOT, file))).update("\0");
  hash.update(args.join("\0"));
  return hash.digest("hex").slice(0, 16);
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs esbuild with `args` and `--outdir=out` in the repository root. */
function esbuild(args: string[], out: string, what: string): void {
  try {
    execFileSync(join(ROOT, "node_modules", "esbuild", "bin", "esbuild"), [...args, `--outdir=${out}`], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: WAIT_MS,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Uint8Array; stderr?: Uint8Array };
    const output = new TextDecoder().decode(stdout ?? new Uint8Array()) + new TextDecoder().decode(stderr ?? new Uint8Array());
    throw new Error(`test-build: esbuild could not build ${what}:\n${output}`, { cause: error });
  }
}

/** Removes the builds of `kind` (and the unprefixed ones) made over an hour ago, but `keep`. */
function pruneExcept(kind: string, keep: string): void {
  for (const name of readdirSync(BUILDS)) {
    if (name === keep || name === `${keep}.lock`) continue;
    if (!name.startsWith(`${kind}-`) && !/^[0-9a-f]{16}(\.lock)?$/.test(name)) continue;
    const path = join(BUILDS, name);
    const since = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > PRUNE_AFTER_MS) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The directory of esbuild's output for `args` (entry points and options, relative to the
 * repository root), built first if no build of the current content of `inputs` (files or
 * directories relative to the root) with these arguments exists; `finish` is given the output
 * before it is marked ready. `what` names it in errors.
 */
export function testBuild(kind: string, inputs: string[], args: string[], what: string, finish?: (out: string) => void): string {
  const name = `${kind}-${digest(inputs, args)}`;
  const dir = join(BUILDS, name);
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
          esbuild(args, scratch, what);
          finish?.(scratch);
          writeFileSync(join(scratch, READY), `${new Date().toISOString()}\n`);
          renameSync(scratch, dir);
          pruneExcept(kind, name);
        }
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`test-build: no build of ${what} in ${dir} after ${WAIT_MS / 1000} s; remove ${lock} if no test run is building it`);
    }
    sleepSync(100);
  }
  return dir;
}
