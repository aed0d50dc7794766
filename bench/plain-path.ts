// How plain a plain tool call is: the distinct mcpwire functions (in src/) and files that run
// per `registry.dispatch` to string, both directions, against a raw stdio server
// (raw-server.mjs: no task, no outputSchema), on the handshake era and on the 2026-07-28 wire.
// Measured with V8 precise coverage (node:inspector, Profiler.startPreciseCoverage with call
// counts): warm up, take the coverage (which resets the counts), run the calls, take it again,
// and count the functions of src/ files that ran. Node only (node:inspector's Profiler).
//
//   node --import tsx bench/plain-path.ts          prints the figures and the functions by name
//   node --import tsx bench/plain-path.ts --json   one line "PLAIN-PATH {…}" per era (bench/run.ts reads it)
//   … --show                                       with each function's opening text
//   … --era legacy|modern                          one era only (each era in a fresh process measures alike)

import { Session } from "node:inspector";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "../src/client/client.ts";
import { registerMcpServer } from "../src/registry/mcp-server.ts";
import { ToolRegistry } from "../src/registry/tool-registry.ts";
import { StdioTransport } from "../src/transport/stdio.ts";

/** The wire of a measured call: the initialize handshake (2025-11-25) or 2026-07-28. */
export type PlainPathEra = "legacy" | "modern";

export interface PlainPathFigures {
  era: PlainPathEra;
  calls: number;
  /** Distinct functions of src/ that ran during the measured calls. */
  functions: number;
  /** Distinct src/ files those functions are in. */
  files: number;
  /** `file:function` for each, sorted: what to read when the figure moves. */
  list: string[];
}

/** The issue 25 target: at most this many functions in at most this many files per plain call. */
export const PLAIN_PATH_TARGET = { functions: 40, files: 14 } as const;

/**
 * What a plain call may run, per era (test/client/plain-path.test.ts keeps it from growing):
 * the issue 25 target. Before issue 25's work: 78 functions in 18 files (handshake era), 80 in
 * 21 (2026-07-28 wire); after it 38 in 13 and 40 in 14, each era in a fresh process.
 */
export const PLAIN_PATH_CEILING: Record<PlainPathEra, { functions: number; files: number }> = {
  legacy: PLAIN_PATH_TARGET,
  modern: PLAIN_PATH_TARGET,
};

const SRC = pathToFileURL(fileURLToPath(new URL("../src/", import.meta.url))).href;
const RAW_SERVER = fileURLToPath(new URL("./raw-server.mjs", import.meta.url));
const WARM_UP_CALLS = 200;

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (error, result) => (error === null ? resolve(result as T) : reject(error)));
  });
}

/** The src/ functions that ran since the last take, as `file:function@offset`; `sources` adds each one's opening text. */
function ranFunctions(scripts: ScriptCoverage[], sources?: Map<string, string>): Map<string, string> {
  const ran = new Map<string, string>();
  for (const script of scripts) {
    if (!script.url.startsWith(SRC)) continue;
    const file = script.url.slice(SRC.length).replace(/\?.*$/, "");
    for (const fn of script.functions) {
      const whole = fn.ranges[0];
      if (whole === undefined || whole.count === 0) continue;
      // tsx (esbuild keepNames) adds a __name() helper to each file: not ours.
      if (fn.functionName.startsWith("__")) continue;
      const text = sources?.get(script.url)?.slice(whole.startOffset, whole.startOffset + 70).replace(/\s+/g, " ");
      ran.set(`${file}@${whole.startOffset}`, `${file}:${fn.functionName || "(anonymous)"}${text === undefined ? "" : `  ${text}`}`);
    }
  }
  return ran;
}

/**
 * `calls` plain calls after a warm-up, measured: the distinct src/ functions and files that ran.
 * The warm-up's coverage is taken (and so reset) before the measured calls start.
 */
export async function measurePlainPath(era: PlainPathEra, calls = 200, options: { show?: boolean } = {}): Promise<PlainPathFigures> {
  const client = new Client({ name: "plain-path", version: "0.0.1" }, { name: "raw", protocol: era });
  const transport = new StdioTransport({ command: process.execPath, args: era === "modern" ? [RAW_SERVER, "--modern"] : [RAW_SERVER] });
  const session = new Session();
  session.connect();
  try {
    await client.connect(transport);
    const registry = new ToolRegistry();
    await registerMcpServer(registry, "raw", client);
    const expected = JSON.stringify({ result: "hello" });
    const call = async () => {
      const text = await registry.dispatch("mcp_raw_echo", { message: "hello" });
      if (text !== expected) throw new Error(`plain path: unexpected answer ${text}`);
    };
    await post(session, "Profiler.enable");
    if (options.show === true) await post(session, "Debugger.enable");
    await post(session, "Profiler.startPreciseCoverage", { callCount: true, detailed: true });
    for (let i = 0; i < WARM_UP_CALLS; i++) await call();
    await post(session, "Profiler.takePreciseCoverage"); // resets the counts: the warm-up is left out
    for (let i = 0; i < calls; i++) await call();
    const { result } = await post<{ result: ScriptCoverage[] }>(session, "Profiler.takePreciseCoverage");
    await post(session, "Profiler.stopPreciseCoverage");
    let sources: Map<string, string> | undefined;
    if (options.show === true) {
      sources = new Map();
      for (const script of result) {
        if (!script.url.startsWith(SRC)) continue;
        const id = (script as ScriptCoverage & { scriptId: string }).scriptId;
        sources.set(script.url, (await post<{ scriptSource: string }>(session, "Debugger.getScriptSource", { scriptId: id })).scriptSource);
      }
    }
    const ran = ranFunctions(result, sources);
    const list = [...ran.values()].sort();
    const files = new Set(list.map((entry) => entry.slice(0, entry.indexOf(":"))));
    return { era, calls, functions: ran.size, files: files.size, list };
  } finally {
    session.disconnect();
    await client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const at = process.argv.indexOf("--era");
  const only = at === -1 ? undefined : process.argv[at + 1];
  for (const era of ["legacy", "modern"] as const) {
    if (only !== undefined && only !== era) continue;
    const figures = await measurePlainPath(era, 200, { show: process.argv.includes("--show") });
    if (process.argv.includes("--json")) {
      console.log(`PLAIN-PATH ${JSON.stringify(figures)}`);
      continue;
    }
    console.log(`plain path, ${era === "legacy" ? "handshake era" : "2026-07-28 wire"}: ${figures.functions} functions in ${figures.files} files per call`);
    for (const entry of figures.list) console.log(`  ${entry}`);
  }
}
