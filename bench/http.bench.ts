// Streamable HTTP round-trip benchmark (issue 41) against bench/raw-http-server.mjs (its own
// process per era, per measuring process): sequential tools/call (calls/s, p50, CPU µs per
// call) and 64 calls in flight (calls/s, CPU µs per call), 100 B results, on the handshake era
// (a session, `application/json` answers, keep-alive) and on the 2026-07-28 wire (stateless:
// server/discover, `_meta` and Mcp-Method on each request). Comparators: our Client +
// StreamableHttpTransport, SDK v1 and v2 (v2 also pinned to 2026-07-28; v1 speaks only the
// handshake era), a raw `fetch` client as the floor, and our Client given an agent-backed
// fetch (bench/agent-fetch.ts: what a Node user may pass in). Each comparator measures in its
// own fresh process per round (bench/run.ts, child.ts), with the client's CPU time per call.

import { spawn } from "node:child_process";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { agentFetch } from "./agent-fetch.ts";
import {
  CLIENT_INFO,
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
import type { Connection } from "./stdio.bench.ts";
import { mcpwire } from "./subject.ts";

const { Client, StreamableHttpTransport } = mcpwire;

export const RAW_HTTP_SERVER = fileURLToPath(new URL("./raw-http-server.mjs", import.meta.url));
const SLICE_MS = 1000;
const IN_FLIGHT = 64;
/** Sequential calls (and calls in flight) each comparator makes uncounted before either loop is measured. */
const WARMUP_CALLS = 2000;
const MESSAGE = "x".repeat(100);
const MODERN_VERSION = "2026-07-28";

/** The wires measured: the handshake era (sessions) and the 2026-07-28 stateless wire. */
export type HttpEra = "legacy" | "modern";
const ERAS: readonly HttpEra[] = ["legacy", "modern"];
const ERA_LABEL: Record<HttpEra, string> = { legacy: "handshake era", modern: "2026-07-28 wire" };

/** Our Client given an agent-backed fetch: a comparator of its own, reported as rows of its own. */
const AGENT = "mcpwire_agent";
const COMPARATORS = ["mcpwire", "sdk_v1", "sdk_v2", "floor", AGENT] as const;
type HttpComparator = typeof COMPARATORS[number];

/** A raw-http-server.mjs process and its URL; close() ends it. */
async function startServer(era: HttpEra): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, era === "modern" ? [RAW_HTTP_SERVER, "--modern"] : [RAW_HTTP_SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("bench: raw-http-server.mjs printed no port within 10 s")), 10_000);
    child.once("exit", (code) => reject(new Error(`bench: raw-http-server.mjs exited (${code}) before it listened`)));
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line.replace(/^PORT /, ""));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin!.end();
      }),
  };
}

async function connectOurs(url: string, era: HttpEra, fetch?: typeof globalThis.fetch): Promise<Connection> {
  const client = new Client(CLIENT_INFO, { protocol: era });
  await client.connect(new StreamableHttpTransport(fetch === undefined ? { url } : { url, fetch }));
  await client.listTools();
  return { call: (message) => client.callTool("echo", { message }), close: () => client.close() };
}

async function connectSdkV1(url: string): Promise<Connection> {
  const client = new ClientV1(CLIENT_INFO);
  await client.connect(new HttpV1(new URL(url)));
  await client.listTools();
  return { call: (message) => client.callTool({ name: "echo", arguments: { message } }), close: () => client.close() };
}

async function connectSdkV2(url: string, era: HttpEra): Promise<Connection> {
  const client = new ClientV2(CLIENT_INFO, era === "modern" ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {});
  await client.connect(new HttpV2(new URL(url)));
  await client.listTools();
  return { call: (message) => client.callTool({ name: "echo", arguments: { message } }), close: () => client.close() };
}

/**
 * The floor: `fetch` a POST per request and `response.json()` its answer, no checks. The
 * handshake era: initialize, its session id on every later POST, notifications/initialized,
 * tools/list. The 2026-07-28 wire: server/discover, then each request with its `_meta` and its
 * MCP-Protocol-Version, Mcp-Method (and Mcp-Name) headers.
 */
async function connectFloor(url: string, era: HttpEra): Promise<Connection> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  let nextId = 0;
  const post = async (body: unknown, extra?: Record<string, string>): Promise<{ result?: unknown }> => {
    const response = await fetch(url, { method: "POST", headers: extra === undefined ? headers : { ...headers, ...extra }, body: JSON.stringify(body) });
    if (response.status === 202) {
      await response.body?.cancel();
      return {};
    }
    return await response.json() as { result?: unknown };
  };
  let request: (method: string, params: Record<string, unknown>, name?: string) => Promise<unknown>;
  if (era === "modern") {
    headers["mcp-protocol-version"] = MODERN_VERSION;
    request = async (method, params, name) => {
      const extra: Record<string, string> = name === undefined ? { "mcp-method": method } : { "mcp-method": method, "mcp-name": name };
      return (await post({ jsonrpc: "2.0", id: ++nextId, method, params: { ...params, _meta: meta } }, extra)).result;
    };
    await request("server/discover", {});
  } else {
    request = async (method, params) => (await post({ jsonrpc: "2.0", id: ++nextId, method, params })).result;
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: ++nextId,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    });
    headers["mcp-session-id"] = response.headers.get("mcp-session-id") ?? "";
    headers["mcp-protocol-version"] = "2025-11-25";
    await response.json();
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  await request("tools/list", {});
  return {
    call: (message) => request("tools/call", { name: "echo", arguments: { message } }, "echo"),
    close: async () => {
      if (era === "legacy") await (await fetch(url, { method: "DELETE", headers })).body?.cancel();
    },
  };
}

function connect(comparator: HttpComparator, url: string, era: HttpEra): Promise<Connection> | undefined {
  switch (comparator) {
    case "mcpwire":
      return connectOurs(url, era);
    case AGENT:
      return connectOurs(url, era, agentFetch());
    case "sdk_v1":
      return era === "legacy" ? connectSdkV1(url) : undefined; // SDK v1 speaks only the handshake era
    case "sdk_v2":
      return connectSdkV2(url, era);
    case "floor":
      return connectFloor(url, era);
  }
}

/**
 * In a fresh process, for each era: start a server, connect one client of `comparator`, warm up
 * both loops, then sequential calls (calls/s, p50, CPU µs per call) and IN_FLIGHT calls in
 * flight (calls/s, CPU µs per call). CPU is this process's (the client's), user + system.
 */
async function measure(name: string, options: MeasureOptions): Promise<Figures> {
  const comparator = name as HttpComparator;
  const ms = options.quick ? 300 : SLICE_MS;
  const warmup = options.quick ? 300 : WARMUP_CALLS;
  const figures: Figures = {};
  for (const era of ERAS) {
    const server = await startServer(era);
    try {
      const connecting = connect(comparator, server.url, era);
      if (connecting === undefined) continue;
      const connection = await connecting;
      try {
        const call = () => connection.call(MESSAGE);
        await sequential(call, 0, warmup);
        await pipelined(call, IN_FLIGHT, 0, Math.max(warmup, 10 * IN_FLIGHT));
        let cpu = process.cpuUsage();
        const seq = await sequential(call, ms, 0);
        figures[`seq ${era}`] = seq.perSecond;
        figures[`seq cpu ${era}`] = cpuSince(cpu) / seq.latenciesUs.length;
        figures[`p50 ${era}`] = quantile(seq.latenciesUs, 0.5);
        cpu = process.cpuUsage();
        const flight = await pipelined(call, IN_FLIGHT, ms, 0);
        figures[`flight ${era}`] = flight.perSecond;
        figures[`flight cpu ${era}`] = cpuSince(cpu) / Math.max(1, flight.calls);
      } finally {
        await connection.close();
      }
    } finally {
      await server.close();
    }
  }
  return figures;
}

function report(samples: Samples, rounds: number): Row[] {
  const rows: Row[] = [];
  // The agent-backed fetch beside the global fetch's floor: its own rows, in the mcpwire column.
  const agent: Samples = { mcpwire: samples[AGENT], floor: samples.floor };
  for (const era of ERAS) {
    const label = ERA_LABEL[era];
    const note = era === "modern" ? "SDK v1 speaks only the handshake era" : undefined;
    const options = (cpu?: string) => ({ rounds, ...(cpu === undefined ? {} : { cpu }), ...(note === undefined ? {} : { note }) });
    rows.push(roundsRow("http", `sequential, 100 B, ${label}`, "calls/s", samples, `seq ${era}`, options(`seq cpu ${era}`)));
    rows.push(roundsRow("http", `sequential p50, 100 B, ${label}`, "µs", samples, `p50 ${era}`, options()));
    rows.push(roundsRow("http", `${IN_FLIGHT} in flight, 100 B, ${label}`, "calls/s", samples, `flight ${era}`, options(`flight cpu ${era}`)));
    const agentNote = { rounds, note: "mcpwire given an agent-backed fetch (bench/agent-fetch.ts) vs the global fetch's floor" };
    rows.push(roundsRow("http", `agent-backed fetch, sequential, 100 B, ${label}`, "calls/s", agent, `seq ${era}`, { ...agentNote, cpu: `seq cpu ${era}` }));
    rows.push(
      roundsRow("http", `agent-backed fetch, ${IN_FLIGHT} in flight, 100 B, ${label}`, "calls/s", agent, `flight ${era}`, {
        ...agentNote,
        cpu: `flight cpu ${era}`,
      }),
    );
  }
  // Ratios against SDK v2 (the row's ratio columns are against SDK v1 and the floor): the targets' third comparison.
  for (const era of ERAS) {
    for (const [loop, key] of [["sequential", "seq"], [`${IN_FLIGHT} in flight`, "flight"]] as const) {
      const vsV2: Samples = { mcpwire: samples.mcpwire, sdk_v1: samples.sdk_v2 };
      const versus = roundsRow("http", `${loop}, 100 B, ${ERA_LABEL[era]}: mcpwire vs SDK v2`, "calls/s", vsV2, `${key} ${era}`, { rounds });
      rows.push({ ...versus, sdk_v1: null, sdk_v2: versus.sdk_v1, note: "the 'vs sdk v1' column is vs SDK v2 in this row" });
    }
  }
  return rows;
}

export const bench: RoundBench = { comparators: COMPARATORS, measure, report };
