// The runtime this code runs on, picked once when this module loads. The only module that asks.
// Both implementations are imported statically (no top-level await, so Node can require() the
// package); each touches its runtime's globals only when one of its functions is called.

import { denoRuntime } from "./deno.ts";
import { nodeRuntime } from "./node.ts";
import type { Runtime } from "./types.ts";

export type {
  ChildProcess,
  ExitStatus,
  FileEntry,
  PrivateLog,
  Runtime,
  SpawnErrorCode,
  SpawnRequest,
  StreamName,
  WorkerExit,
  WorkerStart,
  WorkerThread,
} from "./types.ts";
export { SpawnError } from "./errors.ts";

const isDeno = typeof (globalThis as { Deno?: { version?: unknown } }).Deno?.version === "object";

export const runtime: Runtime = isDeno ? denoRuntime : nodeRuntime;
