// Test helper: headless Chromium (Debian's `chromium` package; .ci/run installs it) loading a
// page from disk: the DOM after the page's scripts ran (--dump-dom), or a screenshot. Each run
// has its own profile directory, is the leader of its own process group (Chromium starts a
// zygote and renderers) and is killed as a group after a bounded time, so nothing outlives it.

import "./test-env.ts"; // the era cache off (test-env.ts)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

/** The chromium executable on PATH (`chromium`, else `chromium-browser`), or undefined. */
export function findChromium(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    for (const name of ["chromium", "chromium-browser"]) {
      const path = join(dir, name);
      if (dir !== "" && existsSync(path)) return path;
    }
  }
  return undefined;
}

/**
 * A test option `skip`: the reason when there is no chromium and this is not CI (on CI the test
 * runs, and fails if chromium is missing: .ci/run installs it); false otherwise.
 */
export function chromiumSkip(): string | false {
  if (findChromium() !== undefined || process.env.CI) return false;
  return "chromium is not installed (apt-get install --no-install-recommends chromium); .ci/run installs it, and on CI this test runs";
}

export interface ChromiumRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the run, for a diagnostic (never asserted). */
  ms: number;
}

/** The file:// URL of `path`, with `#fragment` when given. */
export function fileUrl(path: string, fragment?: string): string {
  return pathToFileURL(path).href + (fragment === undefined ? "" : `#${fragment}`);
}

/**
 * Runs headless chromium on `url` with `args` (e.g. `--dump-dom`, `--screenshot=F`) and resolves
 * with its output once it exits; after `timeoutMs` its whole process group is killed (code -1).
 */
export async function runChromium(url: string, args: string[], timeoutMs = 60_000): Promise<ChromiumRun> {
  const executable = findChromium() ?? "chromium";
  const profile = mkdtempSync(join(tmpdir(), "mcpwire-chromium-"));
  const started = performance.now();
  try {
    return await new Promise<ChromiumRun>((resolve, reject) => {
      const child = spawn(
        executable,
        ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage", `--user-data-dir=${profile}`, ...args, url],
        { stdio: ["ignore", "pipe", "pipe"], detached: true },
      );
      const out: Uint8Array[] = [];
      let err = "";
      let killed = false;
      const killGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL"); // no group to kill (gone already, or a runtime without process groups)
        }
      };
      const timer = setTimeout(() => {
        killed = true;
        killGroup();
      }, timeoutMs);
      child.stdout!.on("data", (chunk: Uint8Array) => out.push(chunk));
      child.stderr!.on("data", (chunk: Uint8Array) => (err += new TextDecoder().decode(chunk)).length > 1_000_000 && (err = err.slice(-100_000)));
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start ${executable}: ${error.message}; install Debian's chromium package`));
      });
      child.once("close", (code) => {
        clearTimeout(timer);
        killGroup(); // a renderer left behind, if any
        const stdout = new TextDecoder().decode(concat(out));
        resolve({ code: killed ? -1 : code ?? -1, stdout, stderr: err, ms: Math.round(performance.now() - started) });
      });
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}
