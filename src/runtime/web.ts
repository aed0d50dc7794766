// The web platform side of the runtime interface (see types.ts): browsers, Cloudflare workerd,
// web workers. Only web standards: fetch, streams, Web Crypto, timers, TextDecoder. There are no
// processes, files, worker threads with a blocking wait, listeners or terminal here: each of
// those throws (or rejects with) an UnsupportedRuntimeError when asked for, never on import.
// Picked by package.json "imports" (#runtime: browser, workerd, worker, default; see mod.ts).

import { UnsupportedRuntimeError } from "./errors.ts";
import type {
  ChildProcess,
  CoreRuntime,
  FileEntry,
  HttpListener,
  LineReader,
  LinkInfo,
  LoopbackListener,
  PrivateLog,
  Runtime,
  RuntimeCapability,
  SpawnRequest,
  WorkerThread,
} from "./types.ts";

/** Where this code runs, for a message: what the page, Worker or worker is called by its users. */
function here(): string {
  const scope = globalThis as { navigator?: { userAgent?: unknown }; document?: unknown; WorkerGlobalScope?: unknown };
  if (scope.navigator?.userAgent === "Cloudflare-Workers") return "Cloudflare Workers";
  if (scope.document !== undefined) return "a browser page";
  if (scope.WorkerGlobalScope !== undefined) return "a web worker";
  return "this runtime (mcpwire's web build: no processes or files)";
}

/** Why each capability is missing here, and what to use instead. */
const ADVICE: Readonly<Record<RuntimeCapability, string>> = {
  processes: "starting a server process (stdio) needs Node, Deno or Bun; in a browser or a Worker reach the server over HTTP with StreamableHttpTransport",
  files: "files need Node, Deno or Bun; in a browser or a Worker keep the data in memory (MemoryTokenStore, MemoryEraCache) or in a store of your own",
  workers:
    "the blocking bridge (createSyncBridge, dispatchSync) needs worker threads that may block: Node, Deno or Bun; in a browser or a Worker call the async API (client.callTool, registry.dispatch)",
  listeners: "listening on a loopback port needs Node, Deno or Bun",
  terminal: "standard input, exit and signals need a process: Node, Deno or Bun",
};

function unsupported(capability: RuntimeCapability, what: string): UnsupportedRuntimeError {
  const runtime = here();
  return new UnsupportedRuntimeError(`${what}: not available in ${runtime}: ${ADVICE[capability]}`, { capability, runtime });
}

/** Non-streaming; ignoreBOM keeps a U+FEFF as text, as Node's Buffer decode does. */
const utf8Text = new TextDecoder("utf-8", { ignoreBOM: true });

// The byte operations of the framer's hot path, in web standards only (deno.ts uses them too).
export const decodeUtf8 = (bytes: Uint8Array, start: number, end: number): string => utf8Text.decode(bytes.subarray(start, end));
export const indexOfByte = (bytes: Uint8Array, value: number, from: number): number => bytes.indexOf(value, from);
export const lastIndexOfByte = (bytes: Uint8Array, value: number): number => bytes.lastIndexOf(value);

function ensure(capability: RuntimeCapability, what: string): void {
  throw unsupported(capability, what);
}

function spawn(request: SpawnRequest): Promise<ChildProcess> {
  return Promise.reject(unsupported("processes", `cannot start "${request.command}"`));
}

/** No environment: a page or Worker gets its settings from its embedder. */
const env = (): Record<string, string> => ({});

/** No working directory; only a name for keys (eraCacheKey): every file operation throws. */
const cwd = (): string => "/";

function timerKeepsAlive(timer: ReturnType<typeof setTimeout>, keepAlive: boolean): void {
  // A web timer is a number and keeps nothing alive; a runtime whose timers are objects with
  // ref()/unref() (one that took the "default" condition) is told, as Node is.
  const handle = timer as unknown as { ref?: () => void; unref?: () => void };
  if (typeof handle !== "object" || handle === null) return;
  if (keepAlive) handle.ref?.();
  else handle.unref?.();
}

/** The core (types.ts): what the client and its transports use. */
export const webCoreRuntime: CoreRuntime = { name: "web", ensure, spawn, env, os: "unknown", cwd, decodeUtf8, indexOfByte, lastIndexOfByte, timerKeepsAlive };

export const webRuntime: Runtime = {
  // The core's members, named again rather than spread from webCoreRuntime (node.ts says why).
  name: "web",
  ensure,
  spawn,
  env,
  os: "unknown",
  cwd,
  decodeUtf8,
  indexOfByte,
  lastIndexOfByte,
  timerKeepsAlive,
  readTextFile: (path) => Promise.reject(unsupported("files", `cannot read ${path}`)),
  writePrivateFile: (path) => Promise.reject(unsupported("files", `cannot write ${path}`)),
  openPrivateLog: (path): Promise<PrivateLog> => Promise.reject(unsupported("files", `cannot open ${path}`)),
  makePrivateDirectory: (path) => Promise.reject(unsupported("files", `cannot make directory ${path}`)),
  linkInfo: (path): Promise<LinkInfo | undefined> => Promise.reject(unsupported("files", `cannot look at ${path}`)),
  realPath: (path): Promise<string | undefined> => Promise.reject(unsupported("files", `cannot resolve ${path}`)),
  userId: () => undefined,
  removeFile: (path) => Promise.reject(unsupported("files", `cannot remove ${path}`)),
  createExclusive: (path) => Promise.reject(unsupported("files", `cannot create ${path}`)),
  listFiles: (path): Promise<FileEntry[]> => Promise.reject(unsupported("files", `cannot list ${path}`)),
  serveLoopback: (port): Promise<LoopbackListener> => Promise.reject(unsupported("listeners", `cannot listen on 127.0.0.1:${port}`)),
  listenHttp: (options): Promise<HttpListener> =>
    Promise.reject(unsupported("listeners", `cannot listen on ${options.hostname ?? "127.0.0.1"}:${options.port}`)),
  args: () => [],
  // stdout and stderr are the console: each write is one console line (its final newline dropped).
  write(stream, text) {
    const line = text.endsWith("\n") ? text.slice(0, -1) : text;
    if (stream === "stdout") console.log(line);
    else console.error(line);
    return Promise.resolve();
  },
  flush: () => Promise.resolve(),
  isTerminal: () => false,
  stdinLines(): LineReader {
    throw unsupported("terminal", "cannot read standard input");
  },
  exit(code): never {
    throw unsupported("terminal", `cannot exit with code ${code}`);
  },
  // No child process or worker to end when the page goes, and no signal ever arrives.
  onExit() {},
  onInterrupt() {},
  startWorker(start): WorkerThread {
    throw unsupported("workers", `cannot start worker ${start.url.href}`);
  },
  workerData: () => undefined,
  receiveMessageSync() {
    throw unsupported("workers", "cannot take a message synchronously");
  },
  onWorkerEnd() {
    throw unsupported("workers", "no worker thread to watch");
  },
};

/** This runtime, under the names each runtime module exports for package.json "imports" (#runtime). */
export const runtime: Runtime = webRuntime;
export const coreRuntime: CoreRuntime = webCoreRuntime;
