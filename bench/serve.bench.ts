// `mcpwire serve` benchmark (issue 40, "Measured"): a tools/call through the bridge against the
// same call made directly, on the handshake era and on the 2026-07-28 wire, sequential and 64
// in flight, 100 B results. The backends are the raw floor servers (bench/raw-server.mjs over
// stdio, answering both eras; bench/raw-http-server.mjs over HTTP, one process per era), the
// client is always our Client, and the bridge is the compiled CLI as users run it
// (`node dist/cli/run.js serve …`; `--source`: src/ through tsx). Cases, each in its own fresh
// process per round (bench/run.ts, child.ts):
// - direct-stdio: Client + StdioTransport → raw-server.mjs
// - serve-stdio:  Client + StdioTransport → `mcpwire serve --stdio "node raw-server.mjs"` → raw-server.mjs
// - direct-http:  Client + StreamableHttpTransport → raw-http-server.mjs
// - serve-http-http:  Client + StreamableHttpTransport → `mcpwire serve --listen 127.0.0.1:0
//   --token-file F --http URL` → raw-http-server.mjs
// - serve-http-stdio: the same front, `--stdio "node raw-server.mjs"` behind it (no direct
//   counterpart speaks HTTP to a stdio server; it is set beside direct-stdio)
// Per round, the bridge's added latency per call is (through − direct) in µs per call (from
// calls/s: the mean, which the tail weighs on) and at p50; its throughput at 64 in flight the
// ratio through / direct. Beside the wall figures: the client's CPU per call and the bridge
// process's CPU per call (/proc/<pid>/stat, Linux; null elsewhere), which move far less with
// the load on a shared machine.

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  CLIENT_INFO,
  cpuSince,
  type Figures,
  type MeasureOptions,
  median,
  pipelined,
  quantile,
  type RoundBench,
  type Row,
  type Samples,
  sequential,
  spread,
  type Unit,
} from "./common.ts";
import { RAW_HTTP_SERVER } from "./http.bench.ts";
import { type Connection, RAW_SERVER } from "./stdio.bench.ts";
import { fromSource, mcpwire } from "./subject.ts";

const { Client, StdioTransport, StreamableHttpTransport } = mcpwire;

const SLICE_MS = 1000;
const IN_FLIGHT = 64;
/** Sequential calls (and calls in flight) made uncounted before either loop is measured: the bridge settles too. */
const WARMUP_CALLS = 3000;
const MESSAGE = "x".repeat(100);
/** How long the bridge may take to say where it listens (its backend started), on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

type Era = "legacy" | "modern";
const ERAS: readonly Era[] = ["legacy", "modern"];
const ERA_LABEL: Record<Era, string> = { legacy: "handshake era", modern: "2026-07-28 wire" };

const CASES = ["direct-stdio", "serve-stdio", "direct-http", "serve-http-http", "serve-http-stdio"] as const;
type Case = typeof CASES[number];

/** What a through case is set beside, and how its row names the path. */
const PATHS: readonly { through: Case; direct: Case; label: string }[] = [
  { through: "serve-stdio", direct: "direct-stdio", label: "stdio front → stdio backend, vs direct stdio" },
  { through: "serve-http-http", direct: "direct-http", label: "HTTP front → HTTP backend, vs direct HTTP" },
  { through: "serve-http-stdio", direct: "direct-stdio", label: "HTTP front → stdio backend, vs direct stdio" },
];

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** `mcpwire` as a command line: the compiled bin users run, or src/ through tsx with --source. */
const MCPWIRE: readonly string[] = fromSource
  ? [process.execPath, "--import", "tsx", path.join(ROOT, "src/cli/run.ts")]
  : [process.execPath, path.join(ROOT, "dist/cli/run.js")];

/** The raw stdio server as `--stdio`'s command line (split as a shell would: each part quoted). */
const RAW_SERVER_LINE = [process.execPath, RAW_SERVER, "--modern"].map((part) => JSON.stringify(part)).join(" ");

// ---- CPU time of another process (Linux /proc), for the bridge's own cost per call ----

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the bench runs on (getconf CLK_TCK)

/** user + system CPU µs of process `pid` so far, or NaN where /proc is not there. */
function processCpuUs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** The pid of this process's child whose command line holds `serve` (the stdio front, spawned by StdioTransport). */
function serveChildPid(): number | undefined {
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (ppid !== process.pid) continue;
        if (readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes("serve")) return Number(entry);
      } catch {
        // the process ended while we looked
      }
    }
  } catch {
    // no /proc
  }
  return undefined;
}

// ---- the processes ----

/** A child that prints a line matching `pattern` (on `stream`) once ready; the first capture. */
function readyLine(child: ChildProcess, stream: "stdout" | "stderr", pattern: RegExp, what: string): Promise<string> {
  const lines = createInterface({ input: child[stream]! });
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: ${what} was not ready within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`bench: ${what} exited (${code}) before it was ready`));
    });
    lines.on("line", (line) => {
      const match = pattern.exec(line);
      if (match === null) return;
      clearTimeout(timer);
      lines.close();
      resolve(match[1]!);
    });
  });
}

/** Ends a child by closing its stdin (the raw servers and `serve` exit on it), then SIGTERM, then SIGKILL; bounded. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.stdin?.end();
    child.kill("SIGTERM");
  });
}

interface Running {
  url: string;
  pid: number | undefined;
  close(): Promise<void>;
}

/** raw-http-server.mjs of `era`: its URL. */
async function startRawHttp(era: Era): Promise<Running> {
  const child = spawn(process.execPath, era === "modern" ? [RAW_HTTP_SERVER, "--modern"] : [RAW_HTTP_SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  const port = await readyLine(child, "stdout", /^PORT (\d+)$/, "raw-http-server.mjs");
  return { url: `http://127.0.0.1:${port}/mcp`, pid: child.pid, close: () => stop(child) };
}

/** `mcpwire serve --listen 127.0.0.1:0 --token-file F <backend…>`: its URL once it serves. */
async function startServeHttp(backend: readonly string[], tokenFile: string): Promise<Running> {
  const [command, ...args] = MCPWIRE;
  const child = spawn(command!, [...args, "serve", "--listen", "127.0.0.1:0", "--token-file", tokenFile, ...backend], {
    cwd: os.tmpdir(), // no project config of the checkout is found, nor trusted
    stdio: ["pipe", "ignore", "pipe"],
  });
  const url = await readyLine(child, "stderr", /serving at (http:\S+);/, "mcpwire serve --listen");
  child.stderr!.resume(); // keep draining what it says later
  return { url, pid: child.pid, close: () => stop(child) };
}

// ---- the clients (always ours) ----

async function connectStdio(era: Era, command: readonly string[]): Promise<Connection> {
  const client = new Client(CLIENT_INFO, { protocol: era });
  await client.connect(new StdioTransport({ command: command[0]!, args: command.slice(1), cwd: os.tmpdir() }));
  await client.listTools();
  return { call: (message) => client.callTool("echo", { message }), close: () => client.close() };
}

async function connectHttp(era: Era, url: string, token?: string): Promise<Connection> {
  const client = new Client(CLIENT_INFO, { protocol: era });
  await client.connect(new StreamableHttpTransport(token === undefined ? { url } : { url, headers: { authorization: `Bearer ${token}` } }));
  await client.listTools();
  return { call: (message) => client.callTool("echo", { message }), close: () => client.close() };
}

/** One case's connection for `era`, the bridge's pid when there is one, and what to close after the client. */
async function open(which: Case, era: Era, tokenFile: string, token: string): Promise<{ connection: Connection; bridgePid?: number; after: Running[] }> {
  switch (which) {
    case "direct-stdio":
      return { connection: await connectStdio(era, [process.execPath, RAW_SERVER, "--modern"]), after: [] };
    case "serve-stdio": {
      const connection = await connectStdio(era, [...MCPWIRE, "serve", "--stdio", RAW_SERVER_LINE]);
      const pid = serveChildPid();
      return { connection, ...(pid === undefined ? {} : { bridgePid: pid }), after: [] };
    }
    case "direct-http": {
      const backend = await startRawHttp(era);
      return { connection: await connectHttp(era, backend.url), after: [backend] };
    }
    case "serve-http-http": {
      const backend = await startRawHttp(era);
      const bridge = await startServeHttp(["--http", backend.url], tokenFile);
      const connection = await connectHttp(era, bridge.url, token);
      return { connection, ...(bridge.pid === undefined ? {} : { bridgePid: bridge.pid }), after: [bridge, backend] };
    }
    case "serve-http-stdio": {
      const bridge = await startServeHttp(["--stdio", RAW_SERVER_LINE], tokenFile);
      const connection = await connectHttp(era, bridge.url, token);
      return { connection, ...(bridge.pid === undefined ? {} : { bridgePid: bridge.pid }), after: [bridge] };
    }
  }
}

/**
 * In a fresh process, for each era: the case's processes, one Client, both loops warmed up,
 * then sequential calls (calls/s, p50, CPU µs per call of the client and of the bridge) and
 * IN_FLIGHT calls in flight (calls/s, the same CPU figures).
 */
async function measure(name: string, options: MeasureOptions): Promise<Figures> {
  const which = name as Case;
  if (!CASES.includes(which)) throw new Error(`serve: unknown case ${name}`);
  const ms = options.quick ? 300 : SLICE_MS;
  const warmup = options.quick ? 300 : WARMUP_CALLS;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "mcpwire-servebench-"));
  const token = crypto.randomUUID();
  const tokenFile = path.join(scratch, "token");
  writeFileSync(tokenFile, token + "\n", { mode: 0o600 });
  const figures: Figures = {};
  try {
    for (const era of ERAS) {
      const { connection, bridgePid, after } = await open(which, era, tokenFile, token);
      try {
        const call = () => connection.call(MESSAGE);
        await sequential(call, 0, warmup);
        await pipelined(call, IN_FLIGHT, 0, Math.max(warmup, 10 * IN_FLIGHT));
        let cpu = process.cpuUsage();
        let bridgeCpu = processCpuUs(bridgePid);
        const seq = await sequential(call, ms, 0);
        figures[`seq ${era}`] = seq.perSecond;
        figures[`seq cpu ${era}`] = cpuSince(cpu) / seq.latenciesUs.length;
        figures[`seq bridge cpu ${era}`] = (processCpuUs(bridgePid) - bridgeCpu) / seq.latenciesUs.length;
        figures[`p50 ${era}`] = quantile(seq.latenciesUs, 0.5);
        cpu = process.cpuUsage();
        bridgeCpu = processCpuUs(bridgePid);
        const flight = await pipelined(call, IN_FLIGHT, ms, 0);
        figures[`flight ${era}`] = flight.perSecond;
        figures[`flight cpu ${era}`] = cpuSince(cpu) / Math.max(1, flight.calls);
        figures[`flight bridge cpu ${era}`] = (processCpuUs(bridgePid) - bridgeCpu) / Math.max(1, flight.calls);
      } finally {
        await connection.close();
        for (const running of after) await running.close();
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  // JSON has no NaN: a figure /proc could not give is left out (a hole in its round).
  for (const [key, value] of Object.entries(figures)) if (!Number.isFinite(value)) delete figures[key];
  return figures;
}

// ---- the rows ----

/** Round i's value of a figure, NaN where that round failed. */
function series(samples: Samples, which: Case, figure: string, rounds: number): number[] {
  const list = samples[which]?.[figure] ?? [];
  return Array.from({ length: rounds }, (_, i) => list[i] ?? NaN);
}

const finite = (values: number[]): number[] => values.filter(Number.isFinite);
const med = (values: number[]): number | null => (finite(values).length === 0 ? null : median(finite(values)));

/**
 * A row in the shared shape: the through figure in the mcpwire column, the direct one in the
 * floor column; `ratio` per round (paired, so a pair met the same load) with its min–max.
 */
function line(
  name: string,
  unit: Unit,
  through: number[],
  direct: number[] | null,
  ratio: ((through: number, direct: number) => number) | null,
  rounds: number,
  note: string,
  cpu?: { mcpwire: number[]; floor?: number[] },
): Row {
  const ratios = direct === null || ratio === null ? [] : finite(through.map((value, i) => ratio(value, direct[i]!)));
  const result: Row = {
    bench: "serve",
    case: name,
    unit,
    mcpwire: med(through),
    sdk_v1: null,
    sdk_v2: null,
    floor: direct === null ? null : med(direct),
    ratio_vs_sdk_v1: null,
    ratio_vs_floor: ratios.length === 0 ? null : median(ratios),
    ratio_vs_sdk_v1_spread: null,
    ratio_vs_floor_spread: spread(ratios),
    note,
    rounds,
    spread: {},
  };
  const ours = spread(finite(through));
  if (ours !== null) result.spread!.mcpwire = ours;
  const theirs = direct === null ? null : spread(finite(direct));
  if (theirs !== null) result.spread!.floor = theirs;
  if (cpu !== undefined) result.cpu_us = { mcpwire: med(cpu.mcpwire), floor: cpu.floor === undefined ? null : med(cpu.floor) };
  return result;
}

function report(samples: Samples, rounds: number): Row[] {
  const rows: Row[] = [];
  const get = (which: Case, figure: string) => series(samples, which, figure, rounds);
  const usPerCall = (perSecond: number[]) => perSecond.map((value) => 1e6 / value);
  const minus = (a: number[], b: number[]) => a.map((value, i) => value - b[i]!);
  for (const era of ERAS) {
    for (const { through, direct, label } of PATHS) {
      const where = `${label}, ${ERA_LABEL[era]}`;
      const seqThrough = usPerCall(get(through, `seq ${era}`));
      const seqDirect = usPerCall(get(direct, `seq ${era}`));
      const clientCpu = { mcpwire: get(through, `seq cpu ${era}`), floor: get(direct, `seq cpu ${era}`) };
      rows.push(
        line(`sequential µs per call, ${where}`, "µs/call", seqThrough, seqDirect, (a, b) => b / a, rounds, "through serve | direct; client CPU", clientCpu),
      );
      rows.push(
        line(
          `added latency per call, sequential, ${where}`,
          "µs",
          minus(seqThrough, seqDirect),
          null,
          null,
          rounds,
          "per round: through − direct (mean per call); CPU: the bridge process's per call",
          { mcpwire: get(through, `seq bridge cpu ${era}`) },
        ),
      );
      rows.push(
        line(
          `added latency at p50, sequential, ${where}`,
          "µs",
          minus(get(through, `p50 ${era}`), get(direct, `p50 ${era}`)),
          null,
          null,
          rounds,
          "per round: p50 through − p50 direct",
        ),
      );
      const flightThrough = get(through, `flight ${era}`);
      const flightDirect = get(direct, `flight ${era}`);
      rows.push(
        line(
          `${IN_FLIGHT} in flight, ${where}`,
          "calls/s",
          flightThrough,
          flightDirect,
          (a, b) => a / b,
          rounds,
          "through serve | direct; the ratio is through / direct; client CPU",
          { mcpwire: get(through, `flight cpu ${era}`), floor: get(direct, `flight cpu ${era}`) },
        ),
      );
      rows.push(
        line(
          `added time per call at ${IN_FLIGHT} in flight, ${where}`,
          "µs",
          minus(usPerCall(flightThrough), usPerCall(flightDirect)),
          null,
          null,
          rounds,
          "per round: 1/throughput through − direct; CPU: the bridge process's per call",
          { mcpwire: get(through, `flight bridge cpu ${era}`) },
        ),
      );
    }
  }
  return rows;
}

export const bench: RoundBench = { comparators: CASES, measure, report };
