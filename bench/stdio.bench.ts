// Stdio round-trip benchmark against bench/raw-server.mjs (a child process): sequential
// tools/call (calls/s, p50, p99) and 64 calls in flight (calls/s), 100 B and 100 KB payloads —
// our Client + StdioTransport, SDK v1 and v2 clients, and a raw floor client (no validation).

import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client, StdioTransport } from "../src/mod.ts";
import { CLIENT_INFO, pipelined, quantile, type Row, row, sequential } from "./common.ts";

export const RAW_SERVER = fileURLToPath(new URL("./raw-server.mjs", import.meta.url));
const SEQUENTIAL_MS = 1000;
const PIPELINED_MS = 1000;
const IN_FLIGHT = 64;

export interface Connection {
  call(message: string): Promise<unknown>;
  close(): Promise<void>;
}

export type Implementation = "mcpwire" | "sdk_v1" | "sdk_v2" | "floor";

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
export async function connectFloor(command: string = process.execPath, args: string[] = [RAW_SERVER]): Promise<Connection & { request(method: string, params: unknown): Promise<unknown> }> {
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

const IMPLEMENTATIONS: Implementation[] = ["mcpwire", "sdk_v1", "sdk_v2", "floor"];
/** Each measurement is taken in this many slices, interleaved with the other implementations'. */
const ROUNDS = 4;

/** The list started at position `round` (mod its length). */
function rotated<T>(list: T[], round: number): T[] {
  const at = round % list.length;
  return [...list.slice(at), ...list.slice(0, at)];
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  const connections = {} as Record<Implementation, Connection>;
  for (const name of IMPLEMENTATIONS) connections[name] = await CONNECT[name]();
  for (const [label, bytes] of [["100 B", 100], ["100 KB", 100 * 1024]] as const) {
    const message = "x".repeat(bytes);
    const perSecond = {} as Record<Implementation, number>;
    const p50 = {} as Record<Implementation, number>;
    const p99 = {} as Record<Implementation, number>;
    const flight = {} as Record<Implementation, number>;
    // In ROUNDS slices, each round in a rotated order: no implementation always runs first
    // (colder JIT, children still settling) or always meets the same burst of load.
    const latencies = Object.fromEntries(IMPLEMENTATIONS.map((name) => [name, [] as number[]])) as Record<Implementation, number[]>;
    const seconds = Object.fromEntries(IMPLEMENTATIONS.map((name) => [name, 0])) as Record<Implementation, number>;
    const completed = { ...seconds };
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of rotated(IMPLEMENTATIONS, round)) {
        const result = await sequential(() => connections[name].call(message), SEQUENTIAL_MS / ROUNDS, round === 0 ? 200 : 20);
        latencies[name].push(...result.latenciesUs);
        seconds[name] += result.latenciesUs.length / result.perSecond;
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of rotated(IMPLEMENTATIONS, round)) {
        const perSecondNow = await pipelined(() => connections[name].call(message), IN_FLIGHT, PIPELINED_MS / ROUNDS, round === 0 ? 200 : IN_FLIGHT);
        completed[name] += perSecondNow * (PIPELINED_MS / ROUNDS / 1000);
      }
    }
    for (const name of IMPLEMENTATIONS) {
      perSecond[name] = latencies[name].length / seconds[name];
      p50[name] = quantile(latencies[name], 0.5);
      p99[name] = quantile(latencies[name], 0.99);
      flight[name] = completed[name] / (PIPELINED_MS / 1000);
    }
    rows.push(row("stdio", `sequential, ${label}`, "calls/s", { mcpwire: perSecond.mcpwire, sdk_v1: perSecond.sdk_v1, sdk_v2: perSecond.sdk_v2, floor: perSecond.floor }));
    rows.push(row("stdio", `sequential p50, ${label}`, "µs", { mcpwire: p50.mcpwire, sdk_v1: p50.sdk_v1, sdk_v2: p50.sdk_v2, floor: p50.floor }));
    rows.push(row("stdio", `sequential p99, ${label}`, "µs", { mcpwire: p99.mcpwire, sdk_v1: p99.sdk_v1, sdk_v2: p99.sdk_v2, floor: p99.floor }));
    rows.push(row("stdio", `${IN_FLIGHT} in flight, ${label}`, "calls/s", { mcpwire: flight.mcpwire, sdk_v1: flight.sdk_v1, sdk_v2: flight.sdk_v2, floor: flight.floor }));
  }
  await Promise.all(IMPLEMENTATIONS.map((name) => connections[name].close()));
  return rows;
}
