// The runtime this code runs on, picked once at start-up. The only module that asks.

import type { Runtime } from "./types.ts";

export type { ChildProcess, ExitStatus, Runtime, SpawnRequest, StreamName, WorkerExit, WorkerStart, WorkerThread } from "./types.ts";
export { SpawnError } from "./types.ts";

const isDeno = typeof (globalThis as { Deno?: { version?: unknown } }).Deno?.version === "object";

export const runtime: Runtime = isDeno
  ? (await import("./deno.ts")).denoRuntime
  : (await import("./node.ts")).nodeRuntime;
