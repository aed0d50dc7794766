// The Node.js side of the runtime interface (see types.ts); Bun runs it too (its node: modules
// cover all of it).
//
// node:child_process and node:http are loaded where they are first used
// (process.getBuiltinModule, Node 20.16+ and Bun), not with this module: `mcpwire version` and
// `--help` start no process and serve nothing, and the two cost about a tenth of their start.

import { Buffer, isAscii } from "node:buffer";
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { chmod, lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import process from "node:process";
import { LineBuffer } from "../common/line-buffer.ts";
import { FileError, fileErrorCode, SpawnError, spawnErrorCode, strictUtf8, unreadableFile, UnsupportedRuntimeError } from "./errors.ts";
import { Interrupts } from "./interrupts.ts";
import { listenNodeHttp } from "./node-http-listener.ts";
import { OutputQueue } from "./output-queue.ts";
import { ChildGroups, OUTPUT_GRACE_MS, processGroup, type SyncFs } from "./process-group.ts";
import { openSpecialLog, writeSpecialFile, writeTargetOf } from "./special-file.ts";
import type {
  ChildProcess,
  CoreRuntime,
  ExitStatus,
  FileEntry,
  LineReader,
  LinkInfo,
  LinkPolicy,
  PrivateLog,
  Runtime,
  SpawnRequest,
  StreamName,
  TextFileOptions,
  WorkerStart,
  WorkerThread,
} from "./types.ts";
import { onWorkerEnd, receiveMessageSync, startWorkerThread, workerData } from "./worker-threads.ts";

const groups = new ChildGroups();
let exitHookInstalled = false;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const procFs: SyncFs = {
  readDir: (path) => readdirSync(path),
  readText: (path) => readFileSync(path, "utf8"),
};

/** Node hands out Buffers, whose slice() is a view; give the caller plain Uint8Arrays. */
function bytes(chunk: Buffer): Uint8Array {
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function spawn(request: SpawnRequest): Promise<ChildProcess> {
  if (request.cwd !== undefined && !isDirectory(request.cwd)) {
    return Promise.reject(new SpawnError(`working directory "${request.cwd}" does not exist`, "ENOCWD"));
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => groups.killAll());
  }
  return new Promise((resolve, reject) => {
    const child = process.getBuiltinModule("node:child_process").spawn(request.command, request.args, {
      env: request.env,
      cwd: request.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // setsid(): the child leads its own process group
      windowsHide: true,
    });
    // An EPIPE on a dead child's stdin must never become an uncaught exception.
    child.stdin.on("error", () => {});
    child.stdout.on("error", () => {});
    child.stderr.on("error", () => {});
    // bytes(chunk), inline: every answer's path.
    child.stdout.on("data", (chunk: Buffer) => request.onStdout(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    child.stderr.on("data", (chunk: Buffer) => request.onStderr(bytes(chunk)));

    const exited = new Promise<ExitStatus>((resolveExit) => {
      let status: ExitStatus | undefined;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        clearTimeout(grace);
        resolveExit(status ?? { code: child.exitCode, signal: child.signalCode });
      };
      child.once("exit", (code, signal) => {
        status = { code, signal };
        // A grandchild may hold our pipes open; do not wait for it forever.
        grace = setTimeout(finish, OUTPUT_GRACE_MS);
      });
      child.once("close", finish);
    });

    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(new SpawnError(error.message, spawnErrorCode(error.code)));
    });
    child.once("spawn", () => {
      const pid = child.pid!;
      // Descendants that leave the group (setsid) are noted while they are still below the child.
      const group = processGroup(pid, procFs, (target, signal) => process.kill(target, signal), (target) => process.kill(target, 0));
      const { descendants } = group;
      const handle: ChildProcess = {
        pid,
        write(data: string, done: (error?: Error) => void): void {
          if (child.stdin.destroyed || !child.stdin.writable) {
            queueMicrotask(() => done(new Error("stdin is closed")));
            return;
          }
          // The callback fires once the data is flushed (after 'drain' if the pipe was full),
          // or with an error when the pipe breaks or stdin is destroyed (Node destroys it
          // when the child exits), so it is never left uncalled.
          child.stdin.write(data, (error) => done(error ?? undefined));
        },
        closeStdin() {
          descendants.note();
          child.stdin.end();
        },
        exited,
        signalGroup: group.signalGroup,
        groupAlive: group.groupAlive,
        async dispose() {
          await descendants.end();
          const pipes = [child.stdin, child.stdout, child.stderr];
          const closed = pipes.map((pipe) => pipe.closed ? undefined : new Promise<void>((resolveClose) => pipe.once("close", () => resolveClose())));
          for (const pipe of pipes) pipe.destroy();
          return Promise.all(closed).then(() => {});
        },
      };
      groups.add(handle);
      exited.then(() => groups.delete(handle));
      resolve(handle);
    });
  });
}

/**
 * A worker inherits `--import tsx`, but tsx registers itself only on the main thread of a
 * Node that cannot share loader hooks with workers (Node 20): there a .ts entry is started
 * through a two-line bootstrap that registers tsx in the worker first. A Node that strips
 * types itself loads the entry as it is.
 */
function startWorker(start: WorkerStart): WorkerThread {
  const typescript = /\.[cm]?ts$/.test(start.url.pathname);
  if (!typescript || (process.features as { typescript?: unknown }).typescript) return startWorkerThread(start.url, start);
  let tsx: string;
  try {
    tsx = import.meta.resolve("tsx/esm/api");
  } catch {
    throw new UnsupportedRuntimeError(
      `cannot start worker ${start.url.href}: Node ${process.version} loads TypeScript in a worker only with tsx; ` +
        "install it (npm install --save-dev tsx) or use a Node that strips types (22.18 or later)",
      { capability: "workers", runtime: `Node ${process.version} without tsx` },
    );
  }
  const bootstrap = `import(${JSON.stringify(tsx)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(start.url.href)}); });`;
  return startWorkerThread(bootstrap, start);
}

/** A FileError for `path` from the error Node threw, its system code kept. */
function fileError(error: unknown, path: string): FileError {
  const { code, message } = error as NodeJS.ErrnoException;
  return new FileError(message, fileErrorCode(code), { path, cause: error });
}

/**
 * `mkdir -p`, a level at a time. Node 20's `mkdir(path, { recursive: true })` never settles for
 * a path under /proc (procfs refuses the new directory and Node tries again forever), so a
 * `--trace-file /proc/x/t.jsonl` hung; this fails with the OS's reason instead.
 */
async function makeDirectories(path: string, mode: number): Promise<void> {
  try {
    await mkdir(path, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      if ((await stat(path)).isDirectory()) return;
      throw error;
    }
    const parent = dirname(path);
    if (code !== "ENOENT" || parent === path) throw error;
    await makeDirectories(parent, mode);
    await mkdir(path, { mode }).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== "EEXIST") throw again;
    });
  }
}

/** Node and Bun have every capability. */
function ensure(): void {}

function cwd(): string {
  return process.cwd();
}

function env(): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) copy[key] = value;
  return copy;
}

const os = process.platform === "win32" ? "windows" : process.platform;

// A Buffer over the same memory (no copy): its indexOf runs in native code. (bufferView, inline: every chunk's path.)
const indexOfByte = (bytes: Uint8Array, value: number, from: number) =>
  (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).indexOf(value, from);
const lastIndexOfByte = (bytes: Uint8Array, value: number) => bufferView(bytes).lastIndexOf(value);

function timerKeepsAlive(timer: ReturnType<typeof setTimeout>, keepAlive: boolean): void {
  const timeout = timer as unknown as { ref(): void; unref(): void };
  if (keepAlive) timeout.ref();
  else timeout.unref();
}

/** The core (types.ts): what the client and its transports use. */
export const nodeCoreRuntime: CoreRuntime = {
  name: "node",
  ensure,
  spawn,
  env,
  os,
  cwd,
  decodeUtf8,
  indexOfByte,
  lastIndexOfByte,
  timerKeepsAlive,
};

export const nodeRuntime: Runtime = {
  // The core's members, named again rather than spread from nodeCoreRuntime: a bundler cannot
  // drop part of an object, and a spread would keep all of this in a bundle of the client.
  name: "node",
  ensure,
  spawn,
  env,
  os,
  cwd,
  decodeUtf8,
  indexOfByte,
  lastIndexOfByte,
  timerKeepsAlive,
  async readTextFile(path: string, options: TextFileOptions = {}) {
    let stats;
    try {
      stats = await stat(path);
    } catch (error) {
      throw fileError(error, path);
    }
    // Refused before it is opened: opening a FIFO blocks until a writer comes (types.ts).
    const refused = unreadableFile(path, { isFile: stats.isFile(), isDirectory: stats.isDirectory(), size: stats.size });
    if (refused !== undefined) throw refused;
    let bytes: Buffer;
    try {
      if (!options.strict) return await readFile(path, "utf8");
      bytes = await readFile(path);
    } catch (error) {
      throw fileError(error, path);
    }
    return strictUtf8(path, bytes);
  },
  async writePrivateFile(given: string, data: string | Uint8Array, mode?: number, links?: LinkPolicy) {
    // A FIFO or a device is written as it is, a link through to its target unless replaced (special-file.ts).
    const { path, special } = await writeTargetOf(given, links);
    if (special) return writeSpecialFile(path, data);
    const temp = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      await makeDirectories(dirname(path), 0o700);
      await writeFile(temp, data, { mode: 0o600, flag: "wx" });
      // Set after writing: the mode given at creation is narrowed by the umask.
      if (mode !== undefined) await chmod(temp, mode);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {});
      throw fileError(error, path);
    }
  },
  async openPrivateLog(given: string): Promise<PrivateLog> {
    const { path, special } = await writeTargetOf(given);
    if (special) return openSpecialLog(path);
    await nodeRuntime.writePrivateFile(path, "");
    let fd: number | undefined = openSync(path, "a");
    return {
      append(text: string) {
        if (fd === undefined) return;
        const bytes = Buffer.from(text, "utf8");
        for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
      },
      close() {
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
      },
    };
  },
  async makePrivateDirectory(path: string) {
    try {
      await makeDirectories(path, 0o700);
      if (process.platform === "win32") return;
      const { mode } = await stat(path);
      // An existing directory keeps its mode through mkdir: a 0755 one would stay readable by all.
      if ((mode & 0o777) !== 0o700) await chmod(path, 0o700);
    } catch (error) {
      throw fileError(error, path);
    }
  },
  serveLoopback(port: number, handler: (request: Request) => Response | Promise<Response>) {
    return listenNodeHttp({ port }, handler);
  },
  listenHttp: listenNodeHttp,
  async linkInfo(path: string): Promise<LinkInfo | undefined> {
    try {
      const info = await lstat(path);
      const kind = info.isSymbolicLink() ? "symlink" : info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
      const posix = process.platform !== "win32";
      return { kind, uid: posix ? info.uid : null, mode: posix ? info.mode & 0o777 : null, mtimeMs: info.mtimeMs };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw fileError(error, path);
    }
  },
  async realPath(path: string): Promise<string | undefined> {
    try {
      return await realpath(path);
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw new FileError(message, fileErrorCode(code), { path, cause: error });
    }
  },
  userId() {
    return process.getuid?.();
  },
  async removeFile(path: string) {
    try {
      await rm(path, { force: true });
    } catch (error) {
      throw fileError(error, path);
    }
  },
  async createExclusive(path: string, text: string) {
    try {
      await makeDirectories(dirname(path), 0o700); // only the missing ones: an existing directory keeps its mode
      await writeFile(path, text, { mode: 0o600, flag: "wx" });
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") return false;
      throw fileError(error, path);
    }
  },
  async listFiles(path: string) {
    try {
      const names = await readdir(path);
      const files: FileEntry[] = [];
      for (const name of names) {
        try {
          const info = await lstat(`${path}/${name}`);
          if (info.isFile()) files.push({ name, mtimeMs: info.mtimeMs, size: info.size });
        } catch {
          // removed while we looked
        }
      }
      return files;
    } catch (error) {
      throw fileError(error, path);
    }
  },
  args() {
    return process.argv.slice(2);
  },
  write(stream: StreamName, text: string) {
    return output.write(stream, text);
  },
  flush(timeoutMs?: number) {
    return output.flush(timeoutMs);
  },
  isTerminal(stream: StreamName) {
    return (stream === "stdout" ? process.stdout : process.stderr).isTTY === true;
  },
  stdinLines() {
    return (stdinReader ??= nodeStdinLines());
  },
  exit(code: number): never {
    process.exit(code);
  },
  onExit(fn) {
    process.on("exit", fn);
  },
  onInterrupt(fn) {
    interrupts.add(fn);
    process.on("SIGINT", () => fn("SIGINT"));
    process.on("SIGTERM", () => fn("SIGTERM"));
  },
  startWorker,
  workerData,
  receiveMessageSync,
  onWorkerEnd: (fn) => onWorkerEnd(groups, fn),
};

/** This runtime, under the names each runtime module exports for package.json "imports" (#runtime). */
export const runtime: Runtime = nodeRuntime;
export const coreRuntime: CoreRuntime = nodeCoreRuntime;

/** The bytes as a Buffer sharing their memory (a view, not a copy). */
function bufferView(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

let stdinReader: LineReader | undefined;

/**
 * stdout and stderr: Node queues a write when the pipe is full, and process.exit() drops the
 * queue; each write is handed over at once (Node keeps their order), flush() waits for the last.
 * Marked pure (its constructor only keeps the function): a bundle of the client, which never
 * writes to stdout, leaves it out.
 */
const output = /* @__PURE__ */ new OutputQueue((stream, text) => {
  guardOutput();
  const target = stream === "stdout" ? process.stdout : process.stderr;
  return new Promise((resolve) => target.write(text, () => resolve()));
}, { serialize: false });

const interrupts = /* @__PURE__ */ new Interrupts();
let outputGuarded = false;

/**
 * A write to a pipe whose reader is gone is an 'error' event on the stream, which would end the
 * process with a stack trace: stdout's EPIPE goes to the interrupt handlers (interrupts.ts),
 * stderr's is dropped (there is nowhere left to say it).
 */
function guardOutput(): void {
  if (outputGuarded) return;
  outputGuarded = true;
  process.stdout.on("error", (error: { code?: string }) => {
    if (error.code === "EPIPE") interrupts.stdoutClosed((code) => process.exit(code));
  });
  process.stderr.on("error", () => {});
}

/** process.stdin resumed only while input is awaited, so input is not read ahead of the prompt. */
function nodeStdinLines(): LineReader {
  const stdin = process.stdin;
  const buffer = new LineBuffer();
  const decoder = new TextDecoder();
  let wake: (() => void) | undefined;
  let listening = false;
  const settle = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const listen = () => {
    if (listening) return;
    listening = true;
    stdin.on("data", (chunk: Buffer | string) => {
      buffer.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
      settle();
    });
    const end = () => {
      buffer.push(decoder.decode());
      buffer.end();
      settle();
    };
    stdin.on("end", end);
    stdin.on("error", end);
  };
  /** Reads until `ready()` (stdin paused again before returning). */
  const readUntil = async (ready: () => boolean) => {
    listen();
    while (!ready()) {
      stdin.resume();
      await new Promise<void>((resolve) => (wake = resolve));
    }
    stdin.pause();
  };
  return {
    isTerminal: stdin.isTTY === true,
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

/** Below this many bytes, Node's UTF-8 decoding is as fast as the ASCII check it would save. */
const ASCII_CHECK_BYTES = 1024;

/**
 * bytes[start, end) as text. A long run that is all ASCII (the usual JSON) is copied as Latin-1,
 * which gives the same string (ASCII is the common part of both) at about half the cost of
 * Node's UTF-8 decoder; anything else decodes as UTF-8 (U+FFFD for invalid sequences).
 */
function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength); // bufferView, inline
  if (end - start >= ASCII_CHECK_BYTES && isAscii(view.subarray(start, end))) return view.toString("latin1", start, end);
  return view.toString("utf8", start, end);
}
