// Worker threads for both runtimes through node:worker_threads, which Node and Deno 2 both
// provide with all the sync bridge needs: workerData carrying a SharedArrayBuffer and a
// transferred MessagePort, receiveMessageOnPort, unref(), and in the worker, process 'exit'
// and 'uncaughtExceptionMonitor'. (Deno's web Worker has no unref and keeps the process alive.)
// node:worker_threads is loaded on first use (process.getBuiltinModule), not with the runtime
// module: a CLI run that starts no worker (`mcpwire version`) does not pay for it.

import process from "node:process";
import type { MessagePort as NodeMessagePort, TransferListItem } from "node:worker_threads";
import type { ChildGroups } from "./process-group.ts";
import type { WorkerExit, WorkerStart, WorkerThread } from "./types.ts";

/** Starts `entry` (a module URL, or code to eval that imports one) with `start.data` as its workerData. */
export function startWorkerThread(entry: URL | string, start: WorkerStart): WorkerThread {
  const worker = new (threads().Worker)(entry, {
    eval: typeof entry === "string",
    workerData: start.data,
    transferList: (start.transfer ?? []) as unknown as TransferListItem[],
  });
  let error: Error | undefined;
  // Without a listener an uncaught error in the worker would be rethrown here and end the host.
  worker.on("error", (cause: Error) => (error = cause));
  const exited = new Promise<WorkerExit>((resolve) => worker.once("exit", (code: number) => resolve({ code, error })));
  return {
    exited,
    terminate: () => worker.terminate().then(() => {}, () => {}),
    unref: () => worker.unref(),
  };
}

/** node:worker_threads, loaded when first asked for. */
function threads(): typeof import("node:worker_threads") {
  return process.getBuiltinModule("node:worker_threads");
}

export function workerData(): unknown {
  const { isMainThread, workerData: startData } = threads();
  return isMainThread ? undefined : startData;
}

export function receiveMessageSync(port: MessagePort): { message: unknown } | undefined {
  const received = threads().receiveMessageOnPort(port as unknown as NodeMessagePort);
  return received === undefined ? undefined : { message: received.message };
}

export function onWorkerEnd(groups: ChildGroups, fn: (error?: unknown) => void): void {
  let ended = false;
  const end = (error?: unknown) => {
    if (ended) return;
    ended = true;
    groups.killAll();
    fn(error);
  };
  // The monitor sees an uncaught error (and, since Node 15, an unhandled rejection) before the
  // worker dies of it, without changing whether it dies.
  process.on("uncaughtExceptionMonitor", (error: Error) => end(error));
  if (process.versions.bun !== undefined) {
    // Bun 1.4 calls the monitor for neither an unhandled rejection nor (under `bun test`) an
    // uncaught error in a worker; the worker's global "error" event sees both, before it dies.
    globalThis.addEventListener("error", (event) => end((event as ErrorEvent).error ?? new Error(String((event as ErrorEvent).message))));
  }
  process.on("exit", () => end());
}
