// The Deno side of the runtime interface (see types.ts). The few Deno APIs used are typed
// here by hand so that `tsc` (which knows no Deno) and `deno check` both accept the file.

import process from "node:process";

import { errorOf } from "../common/error-text.ts";
import { LineBuffer } from "../common/line-buffer.ts";
import { within } from "../common/timing.ts";
import { FileError, fileErrorCode, SpawnError, strictUtf8, unreadableFile } from "./errors.ts";
import { LISTENER_MAX_BODY_BYTES, OpenBodies, readBoundedBody, tooLarge } from "./http-listener.ts";
import { Interrupts } from "./interrupts.ts";
import { OutputQueue } from "./output-queue.ts";
import { ChildGroups, OUTPUT_GRACE_MS, processGroup, type SyncFs } from "./process-group.ts";
import { openSpecialLog, writeSpecialFile, writeTargetOf } from "./special-file.ts";
import type {
  ChildProcess,
  CoreRuntime,
  ExitStatus,
  FileEntry,
  HttpListener,
  HttpListenOptions,
  LineReader,
  LinkInfo,
  LinkPolicy,
  PrivateLog,
  Runtime,
  SpawnRequest,
  StreamName,
  TextFileOptions,
} from "./types.ts";
import { decodeUtf8, indexOfByte, lastIndexOfByte } from "./web.ts";
import { onWorkerEnd, receiveMessageSync, startWorkerThread, workerData } from "./worker-threads.ts";

interface DenoChild {
  pid: number;
  stdin: WritableStream<Uint8Array>;
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  status: Promise<{ code: number; signal: string | null }>;
  unref(): void;
}

/** A file opened with Deno.openSync (what openPrivateLog uses of it). */
interface DenoFile {
  writeSync(bytes: Uint8Array): number;
  close(): void;
}

interface DenoApi {
  Command: new (command: string, options: {
    args: string[];
    env: Record<string, string>;
    clearEnv: boolean;
    cwd?: string;
    stdin: "piped";
    stdout: "piped";
    stderr: "piped";
    detached: boolean;
  }) => { spawn(): DenoChild };
  kill(pid: number, signal: string): void;
  env: { toObject(): Record<string, string> };
  args: string[];
  stdin: { readable: ReadableStream<Uint8Array>; isTerminal(): boolean };
  stdout: { write(bytes: Uint8Array): Promise<number>; isTerminal(): boolean };
  stderr: { write(bytes: Uint8Array): Promise<number>; isTerminal(): boolean };
  statSync(path: string): { isDirectory: boolean };
  readDirSync(path: string): Iterable<{ name: string }>;
  readTextFileSync(path: string): string;
  readTextFile(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  mkdir(path: string, options: { recursive: boolean; mode: number }): Promise<void>;
  stat(path: string): Promise<{ mode: number | null; isDirectory: boolean; isFile: boolean; size: number }>;
  chmod(path: string, mode: number): Promise<void>;
  writeTextFile(path: string, text: string, options: { mode: number; createNew: boolean }): Promise<void>;
  writeFile(path: string, data: Uint8Array, options: { mode: number; createNew: boolean }): Promise<void>;
  readDir(path: string): AsyncIterable<{ name: string; isFile: boolean }>;
  lstat(
    path: string,
  ): Promise<{ isFile: boolean; isDirectory: boolean; isSymlink: boolean; mtime: Date | null; size: number; uid: number | null; mode: number | null }>;
  uid(): number | null;
  realPath(path: string): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  openSync(path: string, options: { append: boolean }): DenoFile;
  serve(
    options: { hostname: string; port: number; onListen?: () => void; signal?: AbortSignal },
    handler: (request: Request, info: { completed?: Promise<void> }) => Response | Promise<Response>,
  ): { addr: { port: number }; finished: Promise<void>; shutdown(): Promise<void> };
  cwd(): string;
  build: { os: string };
  exit(code: number): never;
  addSignalListener(signal: string, fn: () => void): void;
  refTimer(id: number): void;
  unrefTimer(id: number): void;
  errors: {
    NotFound: new () => Error;
    PermissionDenied: new () => Error;
    IsADirectory: new () => Error;
    AlreadyExists: new () => Error;
    BrokenPipe: new () => Error;
  };
}

const Deno = (globalThis as unknown as { Deno: DenoApi }).Deno;
const groups = new ChildGroups();
const encoder = new TextEncoder();

/** stdout and stderr: Deno's writes are async and may be partial, so they are queued per stream. */
const output = new OutputQueue(async (stream, text) => {
  const target = stream === "stdout" ? Deno.stdout : Deno.stderr;
  const bytes = encoder.encode(text);
  let offset = 0;
  try {
    while (offset < bytes.length) offset += await target.write(bytes.subarray(offset));
  } catch (error) {
    // The reader of the pipe is gone (EPIPE): stdout's goes to the interrupt handlers (interrupts.ts), stderr's is dropped.
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    if (stream === "stdout") interrupts.stdoutClosed((code) => Deno.exit(code));
  }
}, { serialize: true });
const interrupts = new Interrupts();
let exitHookInstalled = false;

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

const procFs: SyncFs = {
  readDir: (path) => Array.from(Deno.readDirSync(path), (entry) => entry.name),
  readText: (path) => Deno.readTextFileSync(path),
};

/**
 * Reads a stream to its end, handing each chunk on. `stop()` cancels the read (releasing
 * the pipe even while a grandchild holds its other end); `done` settles once it is released.
 * A throwing callback is not a broken pipe: reading goes on.
 */
function pump(stream: ReadableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => void) {
  const reader = stream.getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        try {
          onChunk(value);
        } catch (error) {
          queueMicrotask(() => {
            throw error; // report it as uncaught, as Node does for a throwing 'data' listener
          });
        }
      }
    } catch {
      // the pipe broke or we cancelled; the exit status tells the rest
    } finally {
      reader.releaseLock();
    }
  })();
  return { done, stop: () => reader.cancel().catch(() => {}) };
}

function spawn(request: SpawnRequest): Promise<ChildProcess> {
  if (request.cwd !== undefined && !isDirectory(request.cwd)) {
    return Promise.reject(new SpawnError(`working directory "${request.cwd}" does not exist`, "ENOCWD"));
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    globalThis.addEventListener("unload", () => groups.killAll());
  }
  let child: DenoChild;
  try {
    child = new Deno.Command(request.command, {
      args: request.args,
      env: request.env,
      clearEnv: true, // the env given is the whole environment
      cwd: request.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true, // the child leads its own process group
    }).spawn();
  } catch (error) {
    const code = error instanceof Deno.errors.NotFound ? "ENOENT" : error instanceof Deno.errors.PermissionDenied ? "EACCES" : "EUNKNOWN";
    return Promise.reject(new SpawnError(`spawn ${request.command}: ${(error as Error).message}`, code));
  }
  const stdout = pump(child.stdout, request.onStdout);
  const stderr = pump(child.stderr, request.onStderr);
  const outputDone = Promise.all([stdout.done, stderr.done]);

  const writer = child.stdin.getWriter();
  writer.closed.catch(() => {}); // a broken pipe is reported by write()
  let stdinOpen = true;
  let stdinReleased: Promise<void> | undefined;
  /** Closes our end of stdin for good: pending and later writes reject, the resource is freed. */
  const releaseStdin = () => {
    stdinOpen = false;
    stdinReleased ??= writer.abort(new Error("the server process exited")).catch(() => {});
    return stdinReleased;
  };

  const exited: Promise<ExitStatus> = child.status.then(async (status) => {
    // The pipe's reader is gone: a write still waiting on a full pipe must not wait forever.
    void releaseStdin();
    let grace: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([outputDone, new Promise((resolve) => (grace = setTimeout(resolve, OUTPUT_GRACE_MS)))]);
    clearTimeout(grace);
    return { code: status.signal === null ? status.code : null, signal: status.signal };
  });
  const pid = child.pid;
  // Descendants that leave the group (setsid) are noted while they are still below the child.
  // Deno.kill knows no signal 0; node:process does, in Deno too.
  const group = processGroup(pid, procFs, (target, signal) => Deno.kill(target, signal), (target) => process.kill(target, 0));
  const { descendants } = group;
  const handle: ChildProcess = {
    pid,
    write(data: string, done: (error?: Error) => void) {
      if (!stdinOpen) {
        queueMicrotask(() => done(new Error("stdin is closed")));
        return;
      }
      writer.write(encoder.encode(data)).then(() => done(), (error: unknown) => done(errorOf(error)));
    },
    closeStdin() {
      descendants.note();
      if (!stdinOpen) return;
      stdinOpen = false;
      // close() waits for queued writes to flush; if it fails, abort frees the resource.
      stdinReleased = writer.close().catch(() => writer.abort().catch(() => {}));
    },
    exited,
    signalGroup: group.signalGroup,
    groupAlive: group.groupAlive,
    async dispose() {
      await descendants.end();
      await Promise.all([stdout.stop(), stderr.stop()]);
      await outputDone;
      // A write stuck on a pipe that a process outside the group holds and never reads
      // cannot be cancelled; do not let it hold up close() for longer than the grace.
      await within(releaseStdin(), OUTPUT_GRACE_MS);
    },
  };
  groups.add(handle);
  exited.then(() => groups.delete(handle));
  return Promise.resolve(handle);
}

/** Deno has every capability. */
function ensure(): void {}

function env(): Record<string, string> {
  return Deno.env.toObject();
}

function cwd(): string {
  return Deno.cwd();
}

function timerKeepsAlive(timer: ReturnType<typeof setTimeout>, keepAlive: boolean): void {
  if (keepAlive) Deno.refTimer(timer as unknown as number);
  else Deno.unrefTimer(timer as unknown as number);
}

/** A Deno file error as a FileError naming `path`: its system code (or `code`, read from the error's class), its message. */
/**
 * Runtime.listenHttp on Deno: Deno.serve, with the request body bounded before the handler sees
 * it, a signal that aborts when the client goes away, and streamed bodies that close() ends
 * (Deno.serve's shutdown waits for open responses, an SSE stream among them).
 */
function listenDenoHttp(
  options: HttpListenOptions,
  handler: (request: Request) => Response | Promise<Response>,
  watchDisconnect = true,
): Promise<HttpListener> {
  const hostname = options.hostname ?? "127.0.0.1";
  const maxBodyBytes = options.maxBodyBytes ?? LISTENER_MAX_BODY_BYTES;
  const bodies = new OpenBodies();
  const answer = async (incoming: Request, info: { completed?: Promise<void> }): Promise<Response> => {
    let body: Uint8Array<ArrayBuffer> | undefined;
    if (incoming.method !== "GET" && incoming.method !== "HEAD" && incoming.body !== null) {
      body = await readBoundedBody(incoming.body, incoming.headers.get("content-length"), maxBodyBytes);
      if (body === undefined) return tooLarge(maxBodyBytes);
    }
    const aborter = new AbortController();
    let answered = false;
    const gone = () => {
      if (!answered) aborter.abort(new DOMException("the client went away", "AbortError"));
    };
    // While the handler works, only the request's own signal says the client went away (after,
    // it would also abort on a good answer: Deno's legacy behaviour, which `answered` hides; a
    // streamed body says it by being cancelled). Reading that signal makes Deno print, once, a
    // notice about that behaviour (unless run with --unstable-no-legacy-abort): serveLoopback,
    // whose callers never look at the signal, does not read it.
    if (watchDisconnect) incoming.signal.addEventListener("abort", gone, { once: true });
    info.completed?.then(() => void (answered = true), gone);
    const request = new Request(incoming.url, {
      method: incoming.method,
      headers: incoming.headers,
      signal: aborter.signal,
      ...(body === undefined ? {} : { body }),
    });
    let response: Response;
    try {
      response = await handler(request);
    } catch {
      response = new Response(null, { status: 500 });
    }
    if (watchDisconnect) incoming.signal.removeEventListener("abort", gone);
    if (response.body === null) {
      answered = true;
      return response;
    }
    if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      // Not an event stream: whole, so Deno.serve sends it with its Content-Length, not chunked.
      const bytes = await response.arrayBuffer();
      answered = true;
      return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
    const streamed = bodies.pass(response.body, () => {
      gone();
      answered = true;
    });
    return new Response(streamed, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  try {
    const server = Deno.serve({ hostname, port: options.port, onListen: () => {} }, answer);
    return Promise.resolve({
      hostname,
      port: server.addr.port,
      close: () => {
        bodies.stopAll();
        return server.shutdown();
      },
    });
  } catch (error) {
    return Promise.reject(fileError(error, `${hostname}:${options.port}`));
  }
}

function fileError(error: unknown, path: string, code: string | undefined = (error as { code?: string }).code): FileError {
  return new FileError((error as Error).message, fileErrorCode(code), { path, cause: error });
}

/** The core (types.ts): what the client and its transports use. */
export const denoCoreRuntime: CoreRuntime = {
  name: "deno",
  ensure,
  spawn,
  env,
  get os() {
    return Deno.build.os;
  }, // read when asked: this module is also loaded (unused) on Node
  cwd,
  decodeUtf8,
  indexOfByte,
  lastIndexOfByte,
  timerKeepsAlive,
};

export const denoRuntime: Runtime = {
  // The core's members, named again rather than spread from denoCoreRuntime (node.ts says why).
  name: "deno",
  ensure,
  spawn,
  env,
  get os() {
    return Deno.build.os;
  },
  cwd,
  decodeUtf8,
  indexOfByte,
  lastIndexOfByte,
  timerKeepsAlive,
  async readTextFile(path: string, options: TextFileOptions = {}) {
    try {
      // Refused before it is opened: opening a FIFO blocks until a writer comes (types.ts).
      const stats = await Deno.stat(path);
      const refused = unreadableFile(path, { isFile: stats.isFile, isDirectory: stats.isDirectory, size: stats.size });
      if (refused !== undefined) throw refused;
      return options.strict ? strictUtf8(path, await Deno.readFile(path)) : await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof FileError) throw error;
      const code = (error as { code?: string }).code ??
        (error instanceof Deno.errors.NotFound
          ? "ENOENT"
          : error instanceof Deno.errors.PermissionDenied
          ? "EACCES"
          : error instanceof Deno.errors.IsADirectory
          ? "EISDIR"
          : "EUNKNOWN");
      throw fileError(error, path, code);
    }
  },
  async openPrivateLog(given: string): Promise<PrivateLog> {
    const { path, special } = await writeTargetOf(given);
    if (special) return openSpecialLog(path);
    await denoRuntime.writePrivateFile(path, "");
    let file: DenoFile | undefined = Deno.openSync(path, { append: true });
    const encoder = new TextEncoder();
    return {
      append(text: string) {
        if (file === undefined) return;
        const bytes = encoder.encode(text);
        for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
      },
      close() {
        file?.close();
        file = undefined;
      },
    };
  },
  async writePrivateFile(given: string, data: string | Uint8Array, mode?: number, links?: LinkPolicy) {
    // A FIFO or a device is written as it is, a link through to its target unless replaced (special-file.ts).
    const { path, special } = await writeTargetOf(given, links);
    if (special) return writeSpecialFile(path, data);
    const temp = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.mkdir(path.replace(/[\\/][^\\/]*$/, "") || "/", { recursive: true, mode: 0o700 });
      if (typeof data === "string") await Deno.writeTextFile(temp, data, { mode: 0o600, createNew: true });
      else await Deno.writeFile(temp, data, { mode: 0o600, createNew: true });
      // Set after writing: the mode given at creation is narrowed by the umask (no modes on Windows).
      if (mode !== undefined && Deno.build.os !== "windows") await Deno.chmod(temp, mode);
      await Deno.rename(temp, path);
    } catch (error) {
      await Deno.remove(temp).catch(() => {});
      throw fileError(error, path);
    }
  },
  async makePrivateDirectory(path: string) {
    try {
      await Deno.mkdir(path, { recursive: true, mode: 0o700 });
      const { mode } = await Deno.stat(path);
      // An existing directory keeps its mode through mkdir: a 0755 one would stay readable by all.
      if (mode !== null && (mode & 0o777) !== 0o700) await Deno.chmod(path, 0o700);
    } catch (error) {
      throw fileError(error, path);
    }
  },
  serveLoopback(port: number, handler: (request: Request) => Response | Promise<Response>) {
    return listenDenoHttp({ port }, handler, false);
  },
  listenHttp: (options: HttpListenOptions, handler: (request: Request) => Response | Promise<Response>) => listenDenoHttp(options, handler),
  async linkInfo(path: string): Promise<LinkInfo | undefined> {
    try {
      const info = await Deno.lstat(path);
      const kind = info.isSymlink ? "symlink" : info.isDirectory ? "directory" : info.isFile ? "file" : "other";
      return { kind, uid: info.uid, mode: info.mode === null ? null : info.mode & 0o777, mtimeMs: info.mtime?.getTime() ?? null };
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw fileError(error, path);
    }
  },
  async realPath(path: string): Promise<string | undefined> {
    try {
      return await Deno.realPath(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw fileError(error, path);
    }
  },
  userId() {
    try {
      return Deno.uid() ?? undefined;
    } catch {
      return undefined; // without --allow-sys=uid: unknown, as on Windows
    }
  },
  async removeFile(path: string) {
    try {
      await Deno.remove(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw fileError(error, path);
    }
  },
  async createExclusive(path: string, text: string) {
    try {
      // Only the missing directories are made (0700): an existing one keeps its mode.
      await Deno.mkdir(path.replace(/[\\/][^\\/]*$/, "") || "/", { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(path, text, { mode: 0o600, createNew: true });
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) return false;
      throw fileError(error, path);
    }
  },
  async listFiles(path: string) {
    const files: FileEntry[] = [];
    try {
      for await (const entry of Deno.readDir(path)) {
        if (!entry.isFile) continue;
        try {
          const info = await Deno.lstat(`${path}/${entry.name}`);
          files.push({ name: entry.name, mtimeMs: info.mtime?.getTime() ?? 0, size: info.size });
        } catch {
          // removed while we looked
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error instanceof Deno.errors.NotFound ? "ENOENT" : "EUNKNOWN");
      throw fileError(error, path, code);
    }
    return files;
  },
  args() {
    return [...Deno.args];
  },
  write(stream: StreamName, text: string) {
    return output.write(stream, text);
  },
  flush(timeoutMs?: number) {
    return output.flush(timeoutMs);
  },
  isTerminal(stream: StreamName) {
    return (stream === "stdout" ? Deno.stdout : Deno.stderr).isTerminal();
  },
  stdinLines() {
    return (stdinReader ??= denoStdinLines());
  },
  exit(code: number): never {
    return Deno.exit(code);
  },
  onExit(fn) {
    globalThis.addEventListener("unload", fn);
  },
  onInterrupt(fn) {
    interrupts.add(fn);
    Deno.addSignalListener("SIGINT", () => fn("SIGINT"));
    Deno.addSignalListener("SIGTERM", () => fn("SIGTERM"));
  },
  // Deno loads a .ts entry itself; node:worker_threads rather than the web Worker, for unref().
  startWorker: (start) => startWorkerThread(start.url, start),
  workerData,
  receiveMessageSync,
  onWorkerEnd: (fn) => onWorkerEnd(groups, fn),
};

/** This runtime, under the names each runtime module exports for package.json "imports" (#runtime). */
export const runtime: Runtime = denoRuntime;
export const coreRuntime: CoreRuntime = denoCoreRuntime;

let stdinReader: LineReader | undefined;

/** Deno.stdin read only while input is awaited, so input is not read ahead of the prompt. */
function denoStdinLines(): LineReader {
  const buffer = new LineBuffer();
  const decoder = new TextDecoder();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Reads until `ready()`. */
  const readUntil = async (ready: () => boolean) => {
    while (!ready()) {
      reader ??= Deno.stdin.readable.getReader();
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) {
        buffer.push(decoder.decode());
        buffer.end();
      } else {
        buffer.push(decoder.decode(value, { stream: true }));
      }
    }
  };
  return {
    isTerminal: Deno.stdin.isTerminal(),
    async readLine() {
      await readUntil(() => buffer.settled);
      return buffer.take();
    },
    takeReadyLine: () => buffer.take(),
    async readText() {
      await readUntil(() => buffer.holdsText || buffer.ended);
      return buffer.holdsText ? buffer.takeText() : undefined;
    },
  };
}
