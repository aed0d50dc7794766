// Sync-bridge benchmark, each case in its own fresh process per round (bench/run.ts):
// - dispatchSync: a worker thread running an McpManager, the caller blocked on Atomics.wait;
// - dispatch: async dispatch through an McpManager in the calling thread (the floor column),
//   both calling bench/raw-server.mjs over stdio;
// - ping-pong floors built the way src/registry/blocking-worker.ts is (SharedArrayBuffer
//   counters, Atomics.wait in the caller, Atomics.waitAsync in the worker, a reply slot), with
//   nothing behind them: "port" passes the call as a MessagePort message (the bridge's former
//   way), "slot" in shared memory (its way now), "slot-spin" as "slot" with the worker spinning
//   briefly after each reply. What they cost is the price of the two thread
//   wake-ups a blocking call needs, the least dispatchSync can add over dispatch.
// µs per call (wall) and CPU µs per call (the whole process, every thread; not the server's).

import process from "node:process";
import { MessageChannel, Worker } from "node:worker_threads";
import type { McpwireConfig, ServerConfig } from "../src/host/mod.ts";
import { mcpwireHost } from "./subject.ts";

const { createSyncBridge, McpManager } = mcpwireHost;
import { type Figures, type MeasureOptions, median, type RoundBench, type Row, type Samples, spread, timedBatches } from "./common.ts";
import { RAW_SERVER } from "./stdio.bench.ts";

const CALLS = 1000;
const ARGS = { message: "hello" };
const EXPECTED = JSON.stringify({ result: "hello" });

const server: ServerConfig = {
  name: "raw",
  transport: "stdio",
  command: process.execPath,
  args: [RAW_SERVER],
  env: {},
  headers: {},
  tools: {},
  enabled: true,
  timeoutMs: 30_000,
  connectTimeoutMs: 20_000,
};
const config: McpwireConfig = { servers: [server], warnings: [] };

type Case = "dispatchSync" | "dispatch" | "pingpong-port" | "pingpong-slot" | "pingpong-slot-spin";
const CASES: readonly Case[] = ["dispatchSync", "dispatch", "pingpong-port", "pingpong-slot", "pingpong-slot-spin"];

/**
 * Warms up uncounted with WARMUP_CALLS calls, then runs `batch` until the time is spent: wall
 * and CPU µs per call. Both dispatch and dispatchSync settle slowly: measured in windows of
 * 10,000 calls, dispatch in the calling thread goes 118 → 82 → 77 → 71–90 µs, and inside
 * dispatchSync's worker the service's call goes 140 → 114 → 76 → 68–72 µs. A host makes its
 * calls over hours; both are measured settled, after the same number of calls.
 */
const WARMUP_CALLS = 20_000;
function timed(batch: () => unknown, options: MeasureOptions): Promise<Figures> {
  return timedBatches(batch, CALLS, options.quick ? 1 : Math.ceil(WARMUP_CALLS / CALLS), options);
}

async function measureDispatch(options: MeasureOptions): Promise<Figures> {
  const manager = new McpManager(config);
  await manager.start();
  try {
    return await timed(async () => {
      for (let i = 0; i < CALLS; i++) {
        const text = await manager.registry.dispatch("mcp_raw_echo", ARGS);
        if (text !== EXPECTED) throw new Error(`bridge: dispatch answered ${text}`);
      }
    }, options);
  } finally {
    await manager.close();
  }
}

async function measureSync(options: MeasureOptions): Promise<Figures> {
  const bridge = createSyncBridge({ config });
  try {
    return await timed(() => {
      for (let i = 0; i < CALLS; i++) {
        const text = bridge.dispatchSync("mcp_raw_echo", ARGS);
        if (text !== EXPECTED) throw new Error(`bridge: dispatchSync answered ${text}`);
      }
    }, options);
  } finally {
    bridge.close();
  }
}

/** The ping-pong floor: the caller's half, as SyncWorker.call does it. */
async function measurePingPong(mode: "port" | "slot" | "slot-spin", options: MeasureOptions): Promise<Figures> {
  const CONTROL_BYTES = 8 * 4;
  const SLOT_BYTES = 64 * 1024;
  const SIGNAL = 0;
  const REQUEST = 3;
  const REPLY_SEQ = 5;
  const REPLY_BYTES = 6;
  const CALL_BYTES = 7;
  const buffer = new SharedArrayBuffer(CONTROL_BYTES + 2 * SLOT_BYTES);
  const control = new Int32Array(buffer, 0, 8);
  const replySlot = new Uint8Array(buffer, CONTROL_BYTES, SLOT_BYTES);
  const callSlot = new Uint8Array(buffer, CONTROL_BYTES + SLOT_BYTES, SLOT_BYTES);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL("./pingpong-worker.mjs", import.meta.url), {
    workerData: { control: buffer, port: port2, mode, controlBytes: CONTROL_BYTES, slotBytes: SLOT_BYTES },
    transferList: [port2],
  });
  const utf8 = new TextEncoder();
  const text = new TextDecoder();
  let seq = 0;
  const call = (): string => {
    seq++;
    const body = { op: "dispatch", name: "mcp_raw_echo", args: ARGS };
    if (mode === "port") port1.postMessage({ type: "call", seq, body });
    else Atomics.store(control, CALL_BYTES, utf8.encodeInto(JSON.stringify(body), callSlot).written);
    Atomics.add(control, REQUEST, 1);
    Atomics.notify(control, REQUEST);
    for (;;) {
      const signal = Atomics.load(control, SIGNAL);
      if (Atomics.load(control, REPLY_SEQ) === seq) {
        const bytes = replySlot.slice(0, Atomics.load(control, REPLY_BYTES));
        return text.decode(bytes);
      }
      Atomics.wait(control, SIGNAL, signal, 100);
    }
  };
  try {
    // The worker's first wait is armed once it has loaded; the first calls wait for that.
    return await timed(() => {
      for (let i = 0; i < CALLS; i++) {
        if (call() !== EXPECTED) throw new Error("bridge: ping-pong answered wrong");
      }
    }, options);
  } finally {
    if (mode === "port") port1.postMessage({ type: "close" });
    await worker.terminate();
    port1.close();
  }
}

function measure(name: string, options: MeasureOptions): Promise<Figures> {
  switch (name as Case) {
    case "dispatchSync":
      return measureSync(options);
    case "dispatch":
      return measureDispatch(options);
    case "pingpong-port":
      return measurePingPong("port", options);
    case "pingpong-slot":
      return measurePingPong("slot", options);
    case "pingpong-slot-spin":
      return measurePingPong("slot-spin", options);
  }
  throw new Error(`bridge: unknown case ${name}`);
}

function report(samples: Samples, rounds: number): Row[] {
  const get = (name: Case, figure: string) => samples[name]?.[figure] ?? [];
  const med = (values: number[]) => (values.length === 0 ? null : median(values));
  const line = (name: string, unit: "µs/call", mcpwire: number[], floor: number[] | null, note: string, cpu?: { mcpwire: number[]; floor?: number[] }): Row => {
    const ratios: number[] = [];
    if (floor !== null) { for (let i = 0; i < Math.min(mcpwire.length, floor.length); i++) ratios.push(floor[i]! / mcpwire[i]!); }
    const s = spread(ratios);
    const result: Row = {
      bench: "bridge",
      case: name,
      unit,
      mcpwire: med(mcpwire),
      sdk_v1: null,
      sdk_v2: null,
      floor: floor === null ? null : med(floor),
      ratio_vs_sdk_v1: null,
      ratio_vs_floor: ratios.length === 0 ? null : median(ratios),
      ratio_vs_sdk_v1_spread: null,
      ratio_vs_floor_spread: s,
      note,
      rounds,
      spread: {},
    };
    const ms = spread(mcpwire);
    if (ms !== null) result.spread!.mcpwire = ms;
    const fs = floor === null ? null : spread(floor);
    if (fs !== null) result.spread!.floor = fs;
    if (cpu !== undefined) result.cpu_us = { mcpwire: med(cpu.mcpwire), floor: cpu.floor === undefined ? null : med(cpu.floor) };
    return result;
  };
  const sync = get("dispatchSync", "us");
  const async = get("dispatch", "us");
  const overhead = sync.map((value, i) => value - (async[i] ?? NaN)).filter(Number.isFinite);
  const overheadCpu = get("dispatchSync", "cpu").map((value, i) => value - (get("dispatch", "cpu")[i] ?? NaN)).filter(Number.isFinite);
  return [
    line("dispatchSync (mcpwire) vs dispatch (floor), stdio raw server", "µs/call", sync, async, "SDKs have no sync bridge", {
      mcpwire: get("dispatchSync", "cpu"),
      floor: get("dispatch", "cpu"),
    }),
    line("dispatchSync overhead over dispatch (target ≤ 50)", "µs/call", overhead, null, "per round: dispatchSync − dispatch", { mcpwire: overheadCpu }),
    line(
      "thread ping-pong floor, call as a port message (the bridge's former way)",
      "µs/call",
      get("pingpong-port", "us"),
      null,
      "two wake-ups, nothing behind",
      { mcpwire: get("pingpong-port", "cpu") },
    ),
    line(
      "thread ping-pong floor, call in shared memory (the bridge's way: no port message)",
      "µs/call",
      get("pingpong-slot", "us"),
      null,
      "two wake-ups, nothing behind",
      { mcpwire: get("pingpong-slot", "cpu") },
    ),
    line(
      "thread ping-pong, call in shared memory, worker spinning 50 µs after each reply",
      "µs/call",
      get("pingpong-slot-spin", "us"),
      null,
      "one wake-up when the next call comes within the spin",
      { mcpwire: get("pingpong-slot-spin", "cpu") },
    ),
  ];
}

export const bench: RoundBench = { comparators: CASES, measure, report };
