// The benchmark entry: `npm run bench` runs every benchmark, `npm run bench -- framing` one (or
// several); prints a markdown table and overwrites bench/results.json with the same rows.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { Row } from "./common.ts";

const BENCHES = ["framing", "dispatch", "stdio", "bridge", "startup"] as const;
type BenchName = typeof BENCHES[number];

function isBench(name: string): name is BenchName {
  return (BENCHES as readonly string[]).includes(name);
}

async function load(name: BenchName): Promise<() => Promise<Row[]>> {
  const module: { run: () => Promise<Row[]> } = await import(`./${name}.bench.ts`);
  return module.run;
}

function denoVersion(): string {
  try {
    const deno = fileURLToPath(new URL("../node_modules/.bin/deno", import.meta.url));
    return execFileSync(deno, ["--version"], { encoding: "utf8" }).split("\n")[0].trim();
  } catch {
    return "absent";
  }
}

function figure(value: number | null): string {
  if (value === null) return "—";
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function ratioText(value: number | null): string {
  return value === null ? "—" : `${value.toFixed(2)}×`;
}

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!isBench(name)) {
    console.error(`bench: unknown benchmark "${name}"; choose from ${BENCHES.join(", ")}`);
    process.exit(2);
  }
}
const chosen: BenchName[] = wanted.length === 0 ? [...BENCHES] : wanted.filter(isBench);
const cpus = os.cpus();
const machine = `${cpus[0]?.model ?? "unknown cpu"} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
const rows: Row[] = [];
const started = performance.now();
for (const name of chosen) {
  const t0 = performance.now();
  console.error(`bench: ${name}…`);
  rows.push(...await (await load(name))());
  console.error(`bench: ${name} took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
const results = { machine, node: process.version, deno: denoVersion(), rows };
writeFileSync(new URL("./results.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");

console.log(`machine: ${machine}; node ${process.version}; ${results.deno}; total ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log("ratios: > 1 means mcpwire is better (throughput ours/theirs; time and memory theirs/ours)\n");
console.log("| bench | case | unit | mcpwire | sdk v1 | sdk v2 | floor | vs sdk v1 | vs floor |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.bench} | ${r.case}${r.note === undefined ? "" : ` (${r.note})`} | ${r.unit} | ${figure(r.mcpwire)} | ${figure(r.sdk_v1)} | ${figure(r.sdk_v2)} | ${figure(r.floor)} | ${ratioText(r.ratio_vs_sdk_v1)} | ${ratioText(r.ratio_vs_floor)} |`);
}
process.exit(0);
