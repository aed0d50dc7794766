// Test helper: the hand-written servers of test/fixtures/ as real child processes — a
// fixture's path, a free loopback port, and a server that prints `PORT <n>` once it listens,
// started, waited for and stopped.

import "./test-env.ts"; // the era cache off (test-env.ts)
import { type ChildProcess, spawn, type StdioOptions } from "node:child_process";
import { createServer } from "node:net";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The absolute path of a file under test/fixtures/. */
export function fixturePath(file: string): string {
  return fileURLToPath(new URL(`../fixtures/${file}`, import.meta.url));
}

/** A port that was free a moment ago (the server binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
  });
}

/** Kills the child with SIGKILL and resolves once it has exited. */
export function killed(child: ChildProcess): Promise<void> {
  const gone = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  return gone;
}

export interface PortFixture {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  child: ChildProcess;
  /** Ends the process as asked (`stopWith`) and resolves once it has exited. */
  stop(): Promise<void>;
}

export interface PortFixtureOptions {
  /** Arguments after the fixture's path. */
  args?: string[];
  /** The child's environment; default PATH and HOME only. */
  env?: Record<string, string | undefined>;
  /** How to end it: SIGKILL (default), SIGTERM, or closing its stdin (stdin is then a pipe). */
  stopWith?: "SIGKILL" | "SIGTERM" | "stdin";
  /** How long it may take to print its port; default 10 s. */
  startLimitMs?: number;
}

/**
 * Spawns `node test/fixtures/<file>` and resolves once it printed `PORT <n>` on stdout
 * (stderr is inherited, so its complaints show in the test output).
 */
export async function startPortFixture(file: string, options: PortFixtureOptions = {}): Promise<PortFixture> {
  const { stopWith = "SIGKILL", startLimitMs = 10_000 } = options;
  const stdio: StdioOptions = [stopWith === "stdin" ? "pipe" : "ignore", "pipe", "inherit"];
  const child = spawn("node", [fixturePath(file), ...(options.args ?? [])], {
    env: options.env ?? { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stdio,
  });
  const gone = exited(child);
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the fixture ${file} printed no port within ${startLimitMs} ms: ${text}`));
    }, startLimitMs);
    child.stdout!.on("data", (chunk: Uint8Array) => {
      text += new TextDecoder().decode(chunk);
      const match = /PORT (\d+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        child.stdout!.destroy(); // it prints nothing more; a pipe left reading would outlive a Deno test's op sanitizer
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the fixture ${file} exited with code ${code} before it listened`));
    });
  });
  const stop = async () => {
    if (stopWith === "stdin") child.stdin!.end();
    else if (child.exitCode === null && child.signalCode === null) child.kill(stopWith);
    await gone;
  };
  return { origin: `http://127.0.0.1:${port}`, port, child, stop };
}
