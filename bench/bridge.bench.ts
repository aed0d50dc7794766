// Sync-bridge benchmark: µs per call of dispatchSync (a worker thread running an McpManager,
// the caller blocked on Atomics.wait) against async dispatch through an McpManager in this
// thread, both calling bench/raw-server.mjs over stdio. The floor column is async dispatch.

import process from "node:process";
import { createSyncBridge, McpManager, type McpwireConfig, type ServerConfig } from "../src/host/mod.ts";
import { type Row, row } from "./common.ts";
import { RAW_SERVER } from "./stdio.bench.ts";

const CALLS = 3000;
const WARMUP = 300;
const ROUNDS = 4;
const ARGS = { message: "hello" };

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

export async function run(): Promise<Row[]> {
  const manager = new McpManager(config);
  await manager.start();
  const bridge = createSyncBridge({ config });
  const expected = JSON.stringify({ result: "hello" });
  const asyncCalls = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const text = await manager.registry.dispatch("mcp_raw_echo", ARGS);
      if (text !== expected) throw new Error(`bridge: dispatch answered ${text}`);
    }
  };
  const syncCalls = (count: number) => {
    for (let i = 0; i < count; i++) {
      const text = bridge.dispatchSync("mcp_raw_echo", ARGS);
      if (text !== expected) throw new Error(`bridge: dispatchSync answered ${text}`);
    }
  };
  // Interleaved in ROUNDS slices, alternating which goes first, so both meet the same load.
  let asyncMs = 0;
  let syncMs = 0;
  try {
    await asyncCalls(WARMUP);
    syncCalls(WARMUP);
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 === 0 ? ["async", "sync"] : ["sync", "async"]) {
        const start = performance.now();
        if (kind === "async") await asyncCalls(CALLS / ROUNDS);
        else syncCalls(CALLS / ROUNDS);
        if (kind === "async") asyncMs += performance.now() - start;
        else syncMs += performance.now() - start;
      }
    }
  } finally {
    bridge.close();
    await manager.close();
  }
  const asyncUs = (asyncMs * 1000) / CALLS;
  const syncUs = (syncMs * 1000) / CALLS;
  return [
    row("bridge", "dispatchSync (mcpwire) vs dispatch (floor), stdio raw server", "µs/call", { mcpwire: syncUs, floor: asyncUs }, "SDKs have no sync bridge"),
    row("bridge", "dispatchSync overhead over dispatch (target < 30)", "µs/call", { mcpwire: syncUs - asyncUs }, "SDKs have no sync bridge"),
  ];
}
