// Shared pieces of the benchmarks: the result row, timing helpers, and ratios where a figure
// above 1 always means mcpwire is better (throughput: ours / theirs; time or memory: theirs / ours).

import process from "node:process";

export type Unit = "msg/s" | "MB/s" | "µs/call" | "calls/s" | "µs" | "ms" | "MB/conn" | "functions" | "files" | "KB";

/** Which column a figure belongs to. */
export type Comparator = "mcpwire" | "sdk_v1" | "sdk_v2" | "floor";
export const COMPARATORS: readonly Comparator[] = ["mcpwire", "sdk_v1", "sdk_v2", "floor"];

/** [min, max] over the rounds. */
export type Spread = [number, number];

/** What one fresh process measured for one comparator in one round: named figures. */
export type Figures = Record<string, number>;

/** Per comparator (or case), per figure name, one value per round (index = round). */
export type Samples = Record<string, Record<string, number[]> | undefined>;

/** How long and how hard a child measures; `quick` is the smoke run. */
export interface MeasureOptions {
  quick: boolean;
}

/**
 * A benchmark measured by rounds of fresh processes: `measure` runs in a child process for one
 * comparator (no JIT, heap or GC debt shared with another); `report` turns every round's
 * figures into rows.
 */
export interface RoundBench {
  /** What is measured, each in its own process per round (the comparators, or a bench's own cases). */
  comparators: readonly string[];
  measure(comparator: string, options: MeasureOptions): Promise<Figures>;
  report(samples: Samples, rounds: number): Row[];
}

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
  /** Rounds behind the medians (each comparator in its own fresh process per round). */
  rounds?: number;
  /** Each comparator's figure, min–max over the rounds. */
  spread?: Partial<Record<Comparator, Spread>>;
  /** The ratios' min–max over the rounds (the ratio of round i's figures, for each i). */
  ratio_vs_sdk_v1_spread?: Spread | null;
  ratio_vs_floor_spread?: Spread | null;
  /** CPU time (user + system) of the measuring process per call or message, µs, median over rounds. */
  cpu_us?: Partial<Record<Comparator, number | null>>;
}

const HIGHER_IS_BETTER: Record<Unit, boolean> = {
  "msg/s": true,
  "MB/s": true,
  "calls/s": true,
  "µs/call": false,
  "µs": false,
  "ms": false,
  "MB/conn": false,
  "functions": false,
  "files": false,
  "KB": false,
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

/** min–max of a list (null for an empty one). */
export function spread(values: number[]): Spread | null {
  if (values.length === 0) return null;
  return [Math.min(...values), Math.max(...values)];
}

/**
 * A row from rounds: each comparator's median figure and spread, the ratios as the median of
 * the per-round ratios (round i of ours against round i of theirs: rounds are interleaved, so
 * a pair met the same moment of load) with their min–max, and the CPU medians when `cpu`
 * names a figure.
 */
export function roundsRow(
  bench: string,
  name: string,
  unit: Unit,
  samples: Samples,
  figure: string,
  options: { cpu?: string; note?: string; rounds: number },
): Row {
  const values = (comparator: Comparator, key: string): number[] => samples[comparator]?.[key]?.filter(Number.isFinite) ?? [];
  const med = (comparator: Comparator, key: string): number | null => {
    const list = values(comparator, key);
    return list.length === 0 ? null : median(list);
  };
  const paired = (theirs: Comparator): { median: number | null; spread: Spread | null } => {
    const a = samples.mcpwire?.[figure] ?? [];
    const b = samples[theirs]?.[figure] ?? [];
    const ratios: number[] = [];
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const r = ratio(unit, a[i]!, b[i]!);
      if (r !== null && Number.isFinite(r)) ratios.push(r);
    }
    return ratios.length === 0 ? { median: null, spread: null } : { median: median(ratios), spread: spread(ratios) };
  };
  const result = row(bench, name, unit, {
    mcpwire: med("mcpwire", figure),
    sdk_v1: med("sdk_v1", figure),
    sdk_v2: med("sdk_v2", figure),
    floor: med("floor", figure),
  }, options.note);
  const vsV1 = paired("sdk_v1");
  const vsFloor = paired("floor");
  result.ratio_vs_sdk_v1 = vsV1.median;
  result.ratio_vs_sdk_v1_spread = vsV1.spread;
  result.ratio_vs_floor = vsFloor.median;
  result.ratio_vs_floor_spread = vsFloor.spread;
  result.rounds = options.rounds;
  result.spread = {};
  for (const comparator of COMPARATORS) {
    const s = spread(values(comparator, figure));
    if (s !== null) result.spread[comparator] = s;
  }
  if (options.cpu !== undefined) {
    result.cpu_us = {};
    for (const comparator of COMPARATORS) result.cpu_us[comparator] = med(comparator, options.cpu);
  }
  return result;
}

/** CPU time (user + system) this process used since `since`, in µs. */
export function cpuSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

/**
 * Runs `batch` (`calls` calls each) `warmupBatches` times uncounted, then until the slice is
 * spent (1.5 s, `--quick` 0.3 s; at least 3 batches): wall and CPU µs per call.
 */
export async function timedBatches(batch: () => unknown, calls: number, warmupBatches: number, options: MeasureOptions): Promise<{ us: number; cpu: number }> {
  for (let i = 0; i < warmupBatches; i++) await batch();
  const budget = options.quick ? 300 : 1500;
  let done = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (done < 3 * calls || performance.now() - start < budget) {
    await batch();
    done += calls;
  }
  return { us: ((performance.now() - start) * 1000) / done, cpu: cpuSince(cpu) / done };
}

/** The q-quantile (0..1) of a list of numbers. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** The median; for an even count, the mean of the two middle values. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
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

/** Keeps `inFlight` calls outstanding for `ms`; completed calls/s and how many completed. */
export async function pipelined(call: () => Promise<unknown>, inFlight: number, ms: number, warmup = 200): Promise<{ perSecond: number; calls: number }> {
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
  return { perSecond: done / ((performance.now() - start) / 1000), calls: done };
}

export const CLIENT_INFO = { name: "mcpwire-bench", version: "0.1.0" };
