// Shared pieces of the benchmarks: the result row, timing helpers, and ratios where a figure
// above 1 always means mcpwire is better (throughput: ours / theirs; time or memory: theirs / ours).

import { Bench } from "tinybench";

export type Unit = "msg/s" | "MB/s" | "µs/call" | "calls/s" | "µs" | "ms" | "MB/conn";

export interface Row {
  bench: string;
  case: string;
  unit: Unit;
  mcpwire: number | null;
  sdk_v1: number | null;
  sdk_v2: number | null;
  floor: number | null;
  ratio_vs_sdk_v1: number | null;
  ratio_vs_floor: number | null;
  /** Why a comparator is absent, when one is. */
  note?: string;
}

const HIGHER_IS_BETTER: Record<Unit, boolean> = {
  "msg/s": true,
  "MB/s": true,
  "calls/s": true,
  "µs/call": false,
  "µs": false,
  "ms": false,
  "MB/conn": false,
};

/** How many times better ours is than theirs (> 1: ours is better), or null when either is absent. */
export function ratio(unit: Unit, ours: number | null, theirs: number | null): number | null {
  if (ours === null || theirs === null || ours === 0 || theirs === 0) return null;
  return HIGHER_IS_BETTER[unit] ? ours / theirs : theirs / ours;
}

export function row(
  bench: string,
  name: string,
  unit: Unit,
  figures: { mcpwire: number | null; sdk_v1?: number | null; sdk_v2?: number | null; floor?: number | null },
  note?: string,
): Row {
  const sdk_v1 = figures.sdk_v1 ?? null;
  const sdk_v2 = figures.sdk_v2 ?? null;
  const floor = figures.floor ?? null;
  const result: Row = {
    bench,
    case: name,
    unit,
    mcpwire: figures.mcpwire,
    sdk_v1,
    sdk_v2,
    floor,
    ratio_vs_sdk_v1: ratio(unit, figures.mcpwire, sdk_v1),
    ratio_vs_floor: ratio(unit, figures.mcpwire, floor),
  };
  if (note !== undefined) result.note = note;
  return result;
}

/** Mean time of one run of each task, in ms, measured side by side by tinybench. */
/**
 * Mean ms per run of each task, with tinybench. With `rounds` > 1 the time is split into that
 * many rounds, each in a rotated order (no task always runs first, with a colder JIT, or
 * always meets the same burst of load on a shared machine), and the rounds' means averaged.
 */
export async function meanMs(
  tasks: Record<string, () => unknown>,
  options: { time?: number; iterations?: number; rounds?: number } = {},
): Promise<Record<string, number>> {
  const rounds = options.rounds ?? 1;
  const names = Object.keys(tasks);
  const sums: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: (options.time ?? 1000) / rounds, iterations: options.iterations ?? 5, warmupTime: 100, warmupIterations: 1 });
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
    for (const name of order) bench.add(name, tasks[name]);
    await bench.run();
    for (const name of names) {
      const result = bench.getTask(name)?.result;
      if (result === undefined || !("latency" in result)) {
        const error = result !== undefined && "error" in result ? String(result.error) : "no result";
        throw new Error(`benchmark "${name}" did not complete: ${error}`);
      }
      sums[name] += result.latency.mean / rounds;
    }
  }
  return sums;
}

/** The q-quantile (0..1) of a list of numbers. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export function median(values: number[]): number {
  return quantile(values, 0.5);
}

/** Calls `call` one after another for `ms` after a warm-up; calls/s and per-call latencies in µs. */
export async function sequential(call: () => Promise<unknown>, ms: number, warmup = 200): Promise<{ perSecond: number; latenciesUs: number[] }> {
  for (let i = 0; i < warmup; i++) await call();
  const latenciesUs: number[] = [];
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    const before = now;
    await call();
    now = performance.now();
    latenciesUs.push((now - before) * 1000);
  }
  return { perSecond: latenciesUs.length / ((now - start) / 1000), latenciesUs };
}

/** Keeps `inFlight` calls outstanding for `ms`; completed calls/s. */
export async function pipelined(call: () => Promise<unknown>, inFlight: number, ms: number, warmup = 200): Promise<number> {
  await Promise.all(Array.from({ length: inFlight }, async () => {
    for (let i = 0; i < Math.ceil(warmup / inFlight); i++) await call();
  }));
  let done = 0;
  const start = performance.now();
  const deadline = start + ms;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (performance.now() < deadline) {
      await call();
      done++;
    }
  }));
  return done / ((performance.now() - start) / 1000);
}

export const CLIENT_INFO = { name: "mcpwire-bench", version: "0.1.0" };
