// Test helper: Cloudflare's workerd (the `workerd` npm package) serving one Worker module on a
// free loopback port. The config (Cap'n Proto text) is written next to the module; the Worker's
// outbound fetch goes through a `network` service that allows local and private addresses
// (workerd's implicit "internet" service allows public ones only), so it reaches a loopback
// server. workerd prints nothing when it listens: readiness is a poll of a path the Worker
// answers at once. One process, killed and waited for by stop().

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, killed } from "./fixture-process.ts";

/** node_modules/.bin/workerd of the checkout. */
export const WORKERD = fileURLToPath(new URL("../../node_modules/.bin/workerd", import.meta.url));

/** A test option `skip`: the reason when workerd cannot run here (no binary for this platform, an old glibc), else false. */
export function workerdSkip(): string | false {
  try {
    execFileSync(WORKERD, ["--version"], { stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
    return false;
  } catch (error) {
    const reason = String((error as Error).message).split("\n")[0];
    return `workerd cannot run on this machine (${reason}); the workerd npm package ships binaries for linux-64, linux-arm64, darwin and windows`;
  }
}

/** The config of one Worker module `module` (in the same directory), with text bindings. */
export function workerdConfig(module: string, bindings: Readonly<Record<string, string>>): string {
  const texts = Object.entries(bindings).map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`);
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The Worker's fetch() to 127.0.0.1: the implicit "internet" service allows public addresses only.
    (name = "loopback", network = (allow = ["local", "private"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = ${JSON.stringify(module)}, esModule = embed ${JSON.stringify(module)})],
  compatibilityDate = "2025-09-01",
  bindings = [${texts.join(", ")}],
  globalOutbound = "loopback",
);
`;
}

export interface RunningWorkerd {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** workerd's last output (stdout and stderr), for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Writes `config.capnp` (workerdConfig) into `dir`, which holds `module`, starts `workerd serve`
 * on a free loopback port and resolves once `GET <readyPath>` answers 200 (within limitMs).
 */
export async function startWorkerd(
  dir: string,
  module: string,
  bindings: Readonly<Record<string, string>>,
  options: { readyPath?: string; limitMs?: number } = {},
): Promise<RunningWorkerd> {
  writeFileSync(join(dir, "config.capnp"), workerdConfig(module, bindings));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(WORKERD, ["serve", "config.capnp", "--socket-addr", `http=127.0.0.1:${port}`], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Uint8Array) => (output = (output + new TextDecoder().decode(chunk)).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const running: RunningWorkerd = { origin, output: () => output, stop: () => killed(child) };
  try {
    await ready(`${origin}${options.readyPath ?? "/ready"}`, child, () => output, options.limitMs ?? 30_000);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

async function ready(url: string, child: ChildProcess, output: () => string, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs;
  let started = true;
  child.once("error", () => (started = false));
  while (performance.now() < deadline) {
    if (!started || child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`workerd exited (${child.exitCode ?? child.signalCode ?? "did not start"}) before it answered:\n${output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`workerd did not answer ${url} within ${limitMs} ms:\n${output()}`);
}
