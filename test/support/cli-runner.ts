// Test helper: running the mcpwire CLI as a child process with the same runtime as the test,
// capturing stdout, stderr and the exit code; a scratch directory for its config files. Under
// Node and Deno the CLI is src/ bundled to JavaScript once per content of src/ (compiled-cli.ts:
// the bin the package ships, which runs deno.ts under Deno as from source), since tsx would
// transpile the sources again in every run, and Deno, though it caches what it transpiled,
// still resolves and loads the ~200 modules of src/ in every run, and transpiles them all again
// when a test gives the CLI a scratch HOME (its cache is under $HOME/.cache/deno). `tools`
// against the echo fixture: 0.15 s of CPU from src/, 0.09 s from the bundle; `add` with a fresh
// HOME 0.41 s and 0.20 s. The ~740 CLI runs of `npm run test:deno` (the 52 files that use this
// helper: 254 s of CPU from src/, 182 s from the bundle). Under Bun it is src/cli/run.ts (`bun
// src/cli/run.ts`: Bun runs TypeScript itself, in a tenth of a second). MCPWIRE_TEST_CLI=source
// runs src/cli/run.ts (through tsx under Node) instead; source-bin.test.ts always does.

import "./test-env.ts"; // the era cache off (test-env.ts)
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";
import { compiledCli } from "./compiled-cli.ts";
import { EVERYTHING } from "./everything-path.ts";

/** The repository root, the CLI's working directory. */
export const root = fileURLToPath(new URL("../../", import.meta.url));
const runScript = fileURLToPath(new URL("../../src/cli/run.ts", import.meta.url));
const isDeno = "Deno" in globalThis;
/** The tests run under Bun (`node test/suite.mjs bun`): process.execPath is bun. */
export const isBun = process.versions.bun !== undefined;
/**
 * What follows process.execPath to run src/cli/run.ts with this runtime. The loader and the Deno
 * config are named absolutely, so that the CLI also runs from another working directory.
 */
export const sourceArgs = isDeno
  ? ["run", "-A", "--config", fileURLToPath(new URL("../../deno.json", import.meta.url)), runScript]
  : isBun
  ? [runScript]
  : ["--import", import.meta.resolve("tsx"), runScript];
/** What follows process.execPath to run the CLI in these tests: the compiled CLI under Node and Deno (see above). */
export const runtimeArgs = isBun || process.env.MCPWIRE_TEST_CLI === "source"
  ? sourceArgs
  : isDeno
  ? ["run", "-A", "--config", fileURLToPath(new URL("../../deno.json", import.meta.url)), compiledCli()]
  : [compiledCli()];

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to its stdin, which is then closed; without it stdin is a pipe left open. */
  input?: string;
  /** Its environment; default this process's. */
  env?: Record<string, string | undefined>;
  /** Killed after this long; default 90 s. */
  timeoutMs?: number;
  /** The most stdout or stderr kept before it is killed; default execFile's (1 MiB). */
  maxBuffer?: number;
  /** Its working directory; default the repository root. */
  cwd?: string;
}

/** Runs `mcpwire <args>` to its end; the exit code is -1 when it was killed. */
export function mcpwire(args: string[], options: RunOptions = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...runtimeArgs, ...args],
      {
        cwd: options.cwd ?? root,
        timeout: options.timeoutMs ?? 90_000,
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.maxBuffer === undefined ? {} : { maxBuffer: options.maxBuffer }),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        if (code === -1 && error !== null) {
          stderr = `${String(stderr)}\n[cli-runner: ended by ${error.signal ?? error.code ?? "?"}${error.killed ? " (killed)" : ""}]`;
        }
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** A CLI still running: its exit code once it ends, and its output so far. */
export interface RunningCli {
  child: ChildProcess;
  code: Promise<number>;
  stdout(): string;
  stderr(): string;
}

/** Starts `mcpwire <args>` (stdin closed, this process's env plus `env`), killed after `timeoutMs`. */
export function startMcpwire(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): RunningCli {
  const child = spawn(process.execPath, [...runtimeArgs, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Uint8Array) => (out += new TextDecoder().decode(chunk)));
  child.stderr.on("data", (chunk: Uint8Array) => (err += new TextDecoder().decode(chunk)));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return {
    child,
    code: new Promise((resolve) =>
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve(code ?? -1);
      })
    ),
    stdout: () => out,
    stderr: () => err,
  };
}

/**
 * For a test file: a scratch directory (`path`), made at once (so that every before hook can
 * use it, whatever order a runtime gives hooks) and removed after the file's tests.
 */
export function scratchDir(prefix: string): { readonly path: string } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  after(async () => {
    await rm(path, { recursive: true, force: true });
  });
  return { path };
}

/** Writes a config file of these YAML lines (and a final newline) as `dir/name`; returns its path. */
export async function writeConfig(dir: string, name: string, lines: string[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, [...lines, ""].join("\n"));
  return file;
}

/** YAML lines (under mcp_servers:) for server-everything over stdio, named "everything". */
export function everythingYaml(): string[] {
  return ["  everything:", "    command: node", `    args: [${JSON.stringify(EVERYTHING)}, "stdio"]`];
}

/**
 * A scratch folder (scratchDir) whose `mcpwire.yaml`, written before the file's tests, lists
 * server-everything offering only the tools `include`, then the servers `more(folder)` gives
 * (YAML lines under mcp_servers:). `path` is the folder, `config` the file.
 */
export function everythingConfig(
  prefix: string,
  include: readonly string[],
  more: (folder: string) => string[] = () => [],
): { readonly path: string; readonly config: string } {
  const scratch = scratchDir(prefix);
  const config = join(scratch.path, "mcpwire.yaml");
  before(async () => {
    const servers = ["mcp_servers:", ...everythingYaml(), "    tools:", `      include: ${JSON.stringify(include)}`, ...more(scratch.path)];
    await writeConfig(scratch.path, "mcpwire.yaml", servers);
  });
  return { path: scratch.path, config };
}
