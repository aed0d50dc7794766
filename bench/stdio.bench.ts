// Stdio round-trip benchmark against bench/raw-server.mjs (a child process): sequential
// tools/call (calls/s, p50, p99) and 64 calls in flight (calls/s), 100 B and 100 KB payloads —
// our Client + StdioTransport, SDK v1 and v2 clients, and a raw floor client (no validation).
// Each comparator measures in its own fresh process per round (bench/run.ts, child.ts), with
// its client's CPU time per call beside the wall figures.

import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mcpwire } from "./subject.ts";

const { Client, StdioTransport } = mcpwire;
import {
  CLIENT_INFO,
  type Comparator,
  COMPARATORS,
  cpuSince,
  type Figures,
  type MeasureOptions,
  pipelined,
  quantile,
  type RoundBench,
  roundsRow,
  type Row,
  type Samples,
  sequential,
} from "./common.ts";

export const RAW_SERVER = fileURLToPath(new URL("./raw-server.mjs", import.meta.url));
const SEQUENTIAL_MS = 1000;
const PIPELINED_MS = 1000;
const IN_FLIGHT = 64;

export interface Connection {
  call(message: string): Promise<unknown>;
  close(): Promise<void>;
}

export type Implementation = Comparator;

export async function connectOurs(): Promise<Connection> {
  const client = new Client(CLIENT_INFO);
  await client.connect(new StdioTransport({ command: process.execPath, args: [RAW_SERVER] }));
  await client.listTools();
  return { call: (message) => client.callTool("echo", { message }), close: () => client.close() };
}

export async function connectSdkV1(): Promise<Connection> {
  const client = new ClientV1(CLIENT_INFO);
  await client.connect(new StdioV1({ command: process.execPath, args: [RAW_SERVER] }));
  await client.listTools();
  return { call: (message) => client.callTool({ name: "echo", arguments: { message } }), close: () => client.close() };
}

export async function connectSdkV2(): Promise<Connection> {
  const client = new ClientV2(CLIENT_INFO);
  await client.connect(new StdioV2({ command: process.execPath, args: [RAW_SERVER] }));
  await client.listTools();
  return { call: (message) => client.callTool({ name: "echo", arguments: { message } }), close: () => client.close() };
}

interface RawAnswer {
  id: number;
  result?: unknown;
  error?: unknown;
}

/** The floor: spawn, write lines, split lines, JSON.parse, correlate by id in a Map; no checks. */
export async function connectFloor(
  command: string = process.execPath,
  args: string[] = [RAW_SERVER],
): Promise<Connection & { request(method: string, params: unknown): Promise<unknown> }> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map<number, (answer: RawAnswer) => void>();
  let nextId = 0;
  let buffer = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    let start = 0;
    let newline: number;
    while ((newline = buffer.indexOf("\n", start)) !== -1) {
      const answer = JSON.parse(buffer.slice(start, newline)) as RawAnswer;
      start = newline + 1;
      const resolve = pending.get(answer.id);
      if (resolve !== undefined) {
        pending.delete(answer.id);
        resolve(answer);
      }
    }
    buffer = buffer.slice(start);
  });
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      pending.set(id, (answer) => resolve(answer.result));
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO });
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  await request("tools/list", {});
  return {
    request,
    call: (message) => request("tools/call", { name: "echo", arguments: { message } }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.stdin.end();
      }),
  };
}

export const CONNECT: Record<Implementation, () => Promise<Connection>> = {
  mcpwire: connectOurs,
  sdk_v1: connectSdkV1,
  sdk_v2: connectSdkV2,
  floor: () => connectFloor(),
};

/**
 * Each comparator in its own fresh process per round (bench/run.ts); the payloads, and the
 * uncounted warm-up calls of each loop, the same for every comparator. A client settles over
 * thousands of calls (its JIT and heap), as a host's does over a session: 100 B calls are
 * measured after 5,000 of each kind; 100 KB calls, which the payload's copying dominates, after 300.
 */
const PAYLOADS = [["100 B", 100, 5000], ["100 KB", 100 * 1024, 300]] as const;

/**
 * In a fresh process: connect one client of `comparator` to its own raw server, then for each
 * payload sequential calls (calls/s, p50, p99, CPU µs per call) and IN_FLIGHT calls in flight
 * (calls/s, CPU µs per call). CPU is this process's (the client's), user + system.
 */
async function measure(name: string, options: MeasureOptions): Promise<Figures> {
  const comparator = name as Comparator;
  const ms = options.quick ? 300 : SEQUENTIAL_MS;
  const connection = await CONNECT[comparator]();
  const figures: Figures = {};
  try {
    for (const [label, bytes, warmup] of PAYLOADS) {
      const message = "x".repeat(bytes);
      const call = () => connection.call(message);
      // Warm-up for both loops before either is measured.
      await sequential(call, 0, options.quick ? 300 : warmup);
      await pipelined(call, IN_FLIGHT, 0, options.quick ? 10 * IN_FLIGHT : Math.max(warmup, 10 * IN_FLIGHT));
      let cpu = process.cpuUsage();
      const seq = await sequential(call, ms, 0);
      figures[`seq ${label}`] = seq.perSecond;
      figures[`seq cpu ${label}`] = cpuSince(cpu) / seq.latenciesUs.length;
      figures[`p50 ${label}`] = quantile(seq.latenciesUs, 0.5);
      figures[`p99 ${label}`] = quantile(seq.latenciesUs, 0.99);
      cpu = process.cpuUsage();
      const flight = await pipelined(call, IN_FLIGHT, options.quick ? 300 : PIPELINED_MS, 0);
      figures[`flight ${label}`] = flight.perSecond;
      figures[`flight cpu ${label}`] = cpuSince(cpu) / Math.max(1, flight.calls);
    }
  } finally {
    await connection.close();
  }
  return figures;
}

function report(samples: Samples, rounds: number): Row[] {
  const rows: Row[] = [];
  for (const [label] of PAYLOADS) {
    rows.push(roundsRow("stdio", `sequential, ${label}`, "calls/s", samples, `seq ${label}`, { cpu: `seq cpu ${label}`, rounds }));
    rows.push(roundsRow("stdio", `sequential p50, ${label}`, "µs", samples, `p50 ${label}`, { rounds }));
    rows.push(roundsRow("stdio", `sequential p99, ${label}`, "µs", samples, `p99 ${label}`, { rounds }));
    rows.push(roundsRow("stdio", `${IN_FLIGHT} in flight, ${label}`, "calls/s", samples, `flight ${label}`, { cpu: `flight cpu ${label}`, rounds }));
  }
  return rows;
}

export const bench: RoundBench = { comparators: COMPARATORS, measure, report };
