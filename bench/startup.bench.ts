// Start-up and memory benchmark: spawn + initialize + tools/list against server-everything
// (median of 10, ms), and this process's RSS per connection holding 50 stdio connections to
// bench/raw-server.mjs (each implementation measured in a fresh child process of its own); then
// whole processes (process-startup.ts): the CLI, inspect, and importing each entry.

import { execFileSync } from "node:child_process";
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
import { CLIENT_INFO, median, type Row, row } from "./common.ts";
import { processRows } from "./process-startup.ts";
import { CONNECT, connectFloor, type Connection, type Implementation } from "./stdio.bench.ts";

const EVERYTHING = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
const RUNS = 10;
const CONNECTIONS = 50;
const IMPLEMENTATIONS: Implementation[] = ["mcpwire", "sdk_v1", "sdk_v2", "floor"];

/** Spawns server-everything, initializes, lists its tools; resolves to a close function. */
const START: Record<Implementation, () => Promise<() => Promise<void>>> = {
  mcpwire: async () => {
    const client = new Client(CLIENT_INFO);
    await client.connect(new StdioTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], onStderr: () => {} }));
    if ((await client.listTools()).length === 0) throw new Error("startup: no tools");
    return () => client.close();
  },
  sdk_v1: async () => {
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(new StdioV1({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
    if ((await client.listTools()).tools.length === 0) throw new Error("startup: no tools");
    return () => client.close();
  },
  sdk_v2: async () => {
    const client = new ClientV2(CLIENT_INFO);
    await client.connect(new StdioV2({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
    if ((await client.listTools()).tools.length === 0) throw new Error("startup: no tools");
    return () => client.close();
  },
  floor: async () => {
    const connection = await connectFloor(process.execPath, [EVERYTHING, "stdio"]);
    return () => connection.close();
  },
};

async function startupMs(name: Implementation): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const close = await START[name]();
    times.push(performance.now() - start);
    await close();
  }
  return median(times);
}

/** In a child process: RSS growth per connection, in MB, after opening CONNECTIONS connections. */
async function probe(name: Implementation): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const settle = async () => {
    for (let i = 0; i < 10; i++) {
      gc?.();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  // The baseline is taken before the first connection (a first connection's garbage, freed
  // but kept by the allocator, would make the growth noise or even negative).
  await settle();
  const heap = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.external;
  };
  const before = process.memoryUsage.rss();
  const heapBefore = heap();
  const connections: Connection[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const connection = await CONNECT[name]();
    await connection.call("hello");
    connections.push(connection);
  }
  await settle();
  const after = process.memoryUsage.rss();
  const heapAfter = heap();
  await Promise.all(connections.map((connection) => connection.close()));
  process.stdout.write(
    JSON.stringify({
      perConnectionMb: (after - before) / CONNECTIONS / (1024 * 1024),
      heapPerConnectionMb: (heapAfter - heapBefore) / CONNECTIONS / (1024 * 1024),
    }) + "\n",
  );
}

function memoryPerConnection(name: Implementation): { rss: number; heap: number } {
  const self = fileURLToPath(import.meta.url);
  const output = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", self, "--rss", name], { encoding: "utf8", timeout: 60_000 });
  const result = JSON.parse(output.trim().split("\n").pop() ?? "{}") as { perConnectionMb?: number; heapPerConnectionMb?: number };
  if (typeof result.perConnectionMb !== "number" || typeof result.heapPerConnectionMb !== "number") {
    throw new Error(`startup: the memory probe for ${name} printed ${output}`);
  }
  return { rss: result.perConnectionMb, heap: result.heapPerConnectionMb };
}

export async function run(): Promise<Row[]> {
  const startup = {} as Record<Implementation, number>;
  for (const name of IMPLEMENTATIONS) startup[name] = await startupMs(name);
  const rss = {} as Record<Implementation, number>;
  const heap = {} as Record<Implementation, number>;
  for (const name of IMPLEMENTATIONS) ({ rss: rss[name], heap: heap[name] } = memoryPerConnection(name));
  return [
    row("startup", `spawn + initialize + tools/list, server-everything (median of ${RUNS})`, "ms", startup),
    row(
      "startup",
      `client RSS per connection, ${CONNECTIONS} stdio connections to the raw server`,
      "MB/conn",
      rss,
      "RSS growth is noisy at this size; see the heap row",
    ),
    row("startup", `client JS heap + external per connection, ${CONNECTIONS} stdio connections`, "MB/conn", heap),
    ...processRows(),
  ];
}

if (process.argv[2] === "--rss") {
  const name = process.argv[3];
  if (!IMPLEMENTATIONS.includes(name as Implementation)) throw new Error(`startup: unknown implementation ${name}`);
  await probe(name as Implementation);
  process.exit(0);
}
