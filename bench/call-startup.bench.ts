// `mcpwire call` starts only the server that owns the tool (issue 27): whole processes of the
// compiled CLI (src/ through tsx with --source), every case once per round in a rotating order,
// after one uncounted warm-up, medians with min–max:
//   alone   `call mcp_everything_echo message=hi` with server-everything the only server;
//   extras  the same call with two more servers configured before it: one that sleeps 6 s
//           before it reads (and answers initialize), one whose command exits 1 at once;
//   servers `mcpwire servers` with those extras: a verb that starts every server and so waits
//           for the slowest (what `call` paid before issue 27).
// Caches (era, tool lists) live in a scratch XDG_CACHE_HOME, removed after.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { median, type Row, row, type Spread } from "./common.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EVERYTHING = join(ROOT, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
const TOOLBOX = join(ROOT, "test", "fixtures", "toolbox-server.mjs");
const RUNS = 7;
/** How long the slow extra server sleeps before it answers initialize. */
const SLOW_MS = 6000;

type Case = "alone" | "extras" | "servers";
const CASES: readonly Case[] = ["alone", "extras", "servers"];

function cliArgs(): string[] {
  return process.env.MCPWIRE_BENCH_SOURCE === "1" ? ["--import", "tsx", join(ROOT, "src", "cli", "run.ts")] : [join(ROOT, "dist", "cli", "run.js")];
}

function yaml(servers: Record<string, { command: string; args: string[] }>): string {
  const lines = ["mcp_servers:"];
  for (const [name, server] of Object.entries(servers)) {
    lines.push(`  ${name}:`, `    command: ${JSON.stringify(server.command)}`, `    args: ${JSON.stringify(server.args)}`);
  }
  return lines.join("\n") + "\n";
}

function measure(dir: string, which: Case): number {
  const config = join(dir, which === "alone" ? "alone.yaml" : "extras.yaml");
  const verb = which === "servers" ? ["servers"] : ["call", "mcp_everything_echo", "message=hi"];
  const start = performance.now();
  const result = spawnSync(process.execPath, [...cliArgs(), ...verb, "--config", config], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, XDG_CACHE_HOME: join(dir, "cache") },
  });
  const wall = performance.now() - start;
  // servers exits 0 with a parked server in its table; call must have answered.
  if (result.status !== 0 || (which !== "servers" && !result.stdout.includes("hi"))) {
    throw new Error(`call-startup: ${which} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`);
  }
  return wall;
}

const spreadOf = (values: number[]): Spread => [Math.min(...values), Math.max(...values)];
const msText = ([min, max]: Spread) => `${min.toFixed(0)}–${max.toFixed(0)}`;

export function run(): Promise<Row[]> {
  const dir = mkdtempSync(join(os.tmpdir(), "mcpwire-bench-call-"));
  try {
    const everything = { command: process.execPath, args: [EVERYTHING, "stdio"] };
    const slow = { command: process.execPath, args: [TOOLBOX, "slow", "echo", "--sleep", String(SLOW_MS)] };
    const broken = { command: process.execPath, args: ["-e", "process.exit(1)"] };
    writeFileSync(join(dir, "alone.yaml"), yaml({ everything }));
    writeFileSync(join(dir, "extras.yaml"), yaml({ slow, broken, everything }));
    const times: Record<Case, number[]> = { alone: [], extras: [], servers: [] };
    for (const which of CASES) measure(dir, which); // warm the file cache and the caches; not counted
    for (let round = 0; round < RUNS; round++) {
      for (let k = 0; k < CASES.length; k++) {
        const which = CASES[(round + k) % CASES.length]!;
        times[which].push(measure(dir, which));
      }
      console.error(`bench: call-startup round ${round + 1}/${RUNS} done`);
    }
    // Per round: alone / extras (time: theirs / ours, so 1 means "no slower than alone").
    const ratios = times.alone.map((alone, i) => alone / times.extras[i]!);
    const extrasRow = row(
      "call-startup",
      `process: \`call mcp_everything_echo\` with a slow (${SLOW_MS / 1000} s) and a broken extra server vs its server alone (floor) (median of ${RUNS})`,
      "ms",
      { mcpwire: median(times.extras), floor: median(times.alone) },
      `min–max: with extras ${msText(spreadOf(times.extras))}, alone ${msText(spreadOf(times.alone))}`,
    );
    extrasRow.ratio_vs_floor = median(ratios);
    extrasRow.ratio_vs_floor_spread = spreadOf(ratios);
    extrasRow.rounds = RUNS;
    extrasRow.spread = { mcpwire: spreadOf(times.extras), floor: spreadOf(times.alone) };
    const serversRow = row(
      "call-startup",
      `process: \`servers\` (starts every server, waits for the slowest) with the same extras vs the call alone (floor) (median of ${RUNS})`,
      "ms",
      { mcpwire: median(times.servers), floor: median(times.alone) },
      `min–max: servers ${msText(spreadOf(times.servers))}`,
    );
    serversRow.rounds = RUNS;
    serversRow.spread = { mcpwire: spreadOf(times.servers), floor: spreadOf(times.alone) };
    return Promise.resolve([extrasRow, serversRow]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
