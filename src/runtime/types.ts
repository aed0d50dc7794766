// The small interface behind which Node and Deno differ: child processes, environment,
// standard streams, exit. Everything outside src/runtime/ uses only this and web standards.

import { CodedError } from "../common/coded-error.ts";
import { sleep, within } from "../common/timing.ts";

export interface ExitStatus {
  /** Exit code, or null when a signal ended the process. */
  code: number | null;
  signal: string | null;
}

export interface SpawnRequest {
  command: string;
  args: string[];
  /** The child's whole environment; nothing of ours is merged in. */
  env: Record<string, string>;
  cwd?: string;
  onStdout: (chunk: Uint8Array) => void;
  onStderr: (chunk: Uint8Array) => void;
}

/**
 * Why a spawn failed: "ENOENT" (no such command), "EACCES" (not executable), "ENOCWD" (no such
 * cwd), "EUNKNOWN" (the runtime gave no code), or another of the system's error names ("E…").
 */
export type SpawnErrorCode = "ENOENT" | "EACCES" | "ENOCWD" | "EUNKNOWN" | `E${Uppercase<string>}`;

/** A system error name as a SpawnErrorCode: "EUNKNOWN" when there is none (or it is not an "E…" name). */
export function spawnErrorCode(code: string | undefined): SpawnErrorCode {
  return code !== undefined && /^E[A-Z0-9_]+$/.test(code) ? (code as SpawnErrorCode) : "EUNKNOWN";
}

/** Why a spawn failed, with a code a caller can branch on. */
export class SpawnError extends CodedError<SpawnErrorCode> {
  override readonly name = "SpawnError";
}

/** Why a file could not be read, with a code a caller can branch on. */
export class FileError extends CodedError<string> {
  override readonly name = "FileError";
  /** `code`: "ENOENT" (no such file), "EACCES" (permission denied), "EISDIR" (a directory), or another. */
  constructor(message: string, code: string, readonly path: string) {
    super(message, code);
  }
}

export interface ChildProcess {
  readonly pid: number;
  /**
   * Writes to stdin; calls `done` once the bytes are handed to the OS (waiting while the pipe
   * is full), with an error on a dead or closed pipe; always later, never from inside write(),
   * and never left uncalled after the child exited. (A callback, not a promise: the stdio
   * transport writes a batch of lines per call and settles their shared promise itself.)
   */
  write(data: string, done: (error?: Error) => void): void;
  /**
   * Closes stdin (end of input for the child). First notes the child's descendants (Linux), so
   * that those that left its process group can still be ended by dispose().
   */
  closeStdin(): void;
  /**
   * Resolves once the process exited and its output has ended (or OUTPUT_GRACE_MS after
   * exit, when a grandchild still holds the pipes). Never rejects.
   */
  readonly exited: Promise<ExitStatus>;
  /**
   * Sends a signal to the child's whole process group (it was started as a group leader), and
   * to its descendants that left the group (a grandchild that called setsid): on Linux they are
   * found in /proc before the group is signalled, while they are still the child's descendants.
   */
  signalGroup(signal: "SIGTERM" | "SIGKILL"): void;
  /** True while any process of the child's group is alive (zombies do not count). */
  groupAlive(): boolean;
  /**
   * Ends the descendants noted by closeStdin() and signalGroup() that outlived the group
   * (SIGTERM, then SIGKILL after DESCENDANT_GRACE_MS), stops reading the child's output and
   * releases its pipes, even if a process outside the group still holds them. Call after the
   * group is gone; resolves once all is released.
   */
  dispose(): Promise<void>;
}

export type StreamName = "stdout" | "stderr";

/** This process's standard input, read line by line (interactive prompts) or as it comes (`--args-file -`). */
export interface LineReader {
  /** Whether stdin is a terminal (a user typing), not a pipe or a file. */
  readonly isTerminal: boolean;
  /** The next line, without its line ending; undefined at the end of input. Reads only while asked. */
  readLine(): Promise<string | undefined>;
  /**
   * The input that has arrived and not been read yet, exactly as it came (what readLine left
   * buffered first), waiting for more when there is none; undefined at the end of input. Reads
   * only while asked: a caller that stops asking (a size limit reached) stops the reading.
   */
  readText(): Promise<string | undefined>;
}

/**
 * Decoded text split into lines (`\n` or `\r\n`), or handed back as it came (takeText). Each
 * character is scanned once: a chunk without a line end is kept as one more piece of the
 * partial line, never joined to it and searched again, so the work is linear in the input
 * however it is cut.
 */
export class LineBuffer {
  /** Whole lines as they came (a `\r` before the `\n` still on), from #next on not yet taken. */
  #lines: string[] = [];
  #next = 0;
  /** The partial line, in the pieces it arrived in. */
  #pieces: string[] = [];
  #ended = false;
  push(text: string): void {
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      const end = text.slice(start, newline);
      if (this.#pieces.length === 0) this.#lines.push(end);
      else {
        this.#pieces.push(end);
        this.#lines.push(this.#pieces.join(""));
        this.#pieces = [];
      }
      start = newline + 1;
    }
    if (start < text.length) this.#pieces.push(start === 0 ? text : text.slice(start));
  }
  end(): void {
    this.#ended = true;
  }
  /** True when a line is ready or the input has ended. */
  get settled(): boolean {
    return this.#next < this.#lines.length || this.#ended;
  }
  /** True when text has arrived that was not taken yet, a line or part of one. */
  get holdsText(): boolean {
    return this.#next < this.#lines.length || this.#pieces.length > 0;
  }
  /** True once the input has ended (text may still wait to be taken). */
  get ended(): boolean {
    return this.#ended;
  }
  /** The next line without its line ending; at the end of input, the last one without a newline. */
  take(): string | undefined {
    if (this.#next < this.#lines.length) {
      const line = this.#lines[this.#next++];
      if (this.#next === this.#lines.length) this.#clearLines();
      return line.endsWith("\r") ? line.slice(0, -1) : line;
    }
    if (!this.#ended || this.#pieces.length === 0) return undefined;
    const last = this.#pieces.join("");
    this.#pieces = [];
    return last;
  }
  /** All the text not taken yet, as it came (line endings included); "" when there is none. */
  takeText(): string {
    let text = "";
    if (this.#next < this.#lines.length) text = this.#lines.slice(this.#next).join("\n") + "\n";
    this.#clearLines();
    if (this.#pieces.length > 0) text += this.#pieces.join("");
    this.#pieces = [];
    return text;
  }
  #clearLines(): void {
    this.#lines = [];
    this.#next = 0;
  }
}

export interface Runtime {
  readonly name: "node" | "deno";
  /** Starts a child as the leader of a new process group, with piped stdio. */
  spawn(request: SpawnRequest): Promise<ChildProcess>;
  /** A copy of this process's environment. */
  env(): Record<string, string>;
  /** The operating system, in Deno's spelling: "linux", "darwin", "windows", … */
  readonly os: string;
  /** This process's working directory (absolute). */
  cwd(): string;
  /** Reads a whole file as UTF-8; rejects with a FileError carrying the OS reason. */
  readTextFile(path: string): Promise<string>;
  /**
   * Writes a file only its owner may read or write (mode 0600), atomically: a temporary file in
   * the same directory renamed into place. Missing parent directories are made owner-only (0700).
   * Rejects with a FileError carrying the OS reason. `data` is UTF-8 text or raw bytes.
   */
  writePrivateFile(path: string, data: string | Uint8Array): Promise<void>;
  /**
   * Makes `path` a directory only its owner may enter (mode 0700): creates it (missing parents
   * too, 0700) or, when it already exists with another mode, tightens it to 0700 (a no-op where
   * there are no POSIX modes). Rejects with a FileError carrying the OS reason.
   */
  makePrivateDirectory(path: string): Promise<void>;
  /**
   * What is at `path` itself, a link not followed (lstat): its kind, owner and permission bits
   * (null where the OS has none, Windows). Undefined when nothing is there; rejects with a
   * FileError for any other failure.
   */
  linkInfo(path: string): Promise<LinkInfo | undefined>;
  /** The user id this process runs as; undefined where there are none (Windows) or it may not be read (Deno without --allow-sys). */
  userId(): number | undefined;
  /** Deletes a file; one that is not there is not an error. Rejects with a FileError. */
  removeFile(path: string): Promise<void>;
  /**
   * The regular files directly in a directory, with their last change time (ms since the
   * epoch) and size in bytes; subdirectories and links are left out. Rejects with a FileError.
   */
  listFiles(path: string): Promise<FileEntry[]>;
  /**
   * An HTTP listener on 127.0.0.1 only (port 0: any free one), answering each request with
   * `handler` — the OAuth redirect listener of `mcpwire auth login` (RFC 8252 7.3).
   */
  serveLoopback(port: number, handler: (request: Request) => Response | Promise<Response>): Promise<LoopbackListener>;
  /** The command-line arguments after the script name. */
  args(): string[];
  /**
   * Writes text to stdout or stderr, after the writes before it (never interleaved with them);
   * resolves once the OS took it.
   */
  write(stream: StreamName, text: string): Promise<void>;
  /**
   * Resolves once every write so far was taken by the OS, or after `timeoutMs` (default 2 s) when
   * a reader stopped reading. Call before exit(): the process ending drops output not yet taken.
   */
  flush(timeoutMs?: number): Promise<void>;
  isTerminal(stream: StreamName): boolean;
  /** Standard input as lines; every call returns the same reader. */
  stdinLines(): LineReader;
  /** Ends the process at once; output not yet flushed may be lost (see flush). */
  exit(code: number): never;
  /** Runs fn synchronously when this process exits (to kill child process groups). */
  onExit(fn: () => void): void;
  /** Runs fn on SIGINT / SIGTERM instead of dying at once. */
  onInterrupt(fn: (signal: string) => void): void;
  /**
   * Starts a worker thread running the module at `url` (a .ts module loads on both runtimes;
   * on a Node without type stripping it needs tsx installed). A crash of the worker never
   * reaches this thread as an exception: `exited` reports it.
   */
  startWorker(start: WorkerStart): WorkerThread;
  /** In a worker started by startWorker: the `data` it was started with. Undefined on the main thread. */
  workerData(): unknown;
  /** Takes one message already queued on `port`, synchronously; never waits. Undefined when none is queued. */
  receiveMessageSync(port: MessagePort): { message: unknown } | undefined;
  /**
   * In a worker: runs fn synchronously, once, as the worker ends — with the uncaught error or
   * unhandled rejection that is ending it, or with nothing when it exits. The worker's child
   * process groups are killed first, so no server outlives a crashed worker. (A worker
   * terminated from outside runs nothing.)
   */
  onWorkerEnd(fn: (error?: unknown) => void): void;
  /**
   * The UTF-8 text of bytes[start, end): invalid sequences become U+FFFD (as TextDecoder does),
   * a BOM is kept as U+FEFF. The byte framer's hot path: Node decodes the bytes in place with
   * Buffer's UTF-8 slice (about 5× TextDecoder on Node 20), Deno with TextDecoder.
   */
  decodeUtf8(bytes: Uint8Array, start: number, end: number): string;
  /** The index of the first byte equal to `value` at or after `from`, or -1 (memchr on Node). */
  indexOfByte(bytes: Uint8Array, value: number, from: number): number;
  /** The index of the last byte equal to `value`, or -1. */
  lastIndexOfByte(bytes: Uint8Array, value: number): number;
  /**
   * Whether a pending setTimeout timer keeps this process alive (the default) or not: the
   * Peer's one shared deadline timer stays armed between requests without holding the process.
   */
  timerKeepsAlive(timer: ReturnType<typeof setTimeout>, keepAlive: boolean): void;
}

/** One file from Runtime.listFiles. */
export interface FileEntry {
  name: string;
  mtimeMs: number;
  size: number;
}

/** What Runtime.linkInfo found at a path, the path itself (a symbolic link is not followed). */
export interface LinkInfo {
  kind: "file" | "directory" | "symlink" | "other";
  /** The owner's user id; null where the OS has none. */
  uid: number | null;
  /** The permission bits (mode & 0o777); null where the OS has none. */
  mode: number | null;
}

/** A listener from serveLoopback. */
export interface LoopbackListener {
  readonly port: number;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

export interface WorkerStart {
  /** The worker's entry module. */
  url: URL;
  /** Structured-cloneable; MessagePorts in it must also be listed in `transfer`. */
  data: unknown;
  transfer?: MessagePort[];
}

/** How a worker thread ended. */
export interface WorkerExit {
  code: number;
  /** The uncaught error that ended it, if one did. */
  error?: Error;
}

/** A worker thread, as the thread that started it sees it. */
export interface WorkerThread {
  /** Settles once the worker has ended, by any cause; never rejects. */
  readonly exited: Promise<WorkerExit>;
  /** Stops the worker's JavaScript at once (no hooks run in it); resolves once it is gone. */
  terminate(): Promise<void>;
  /** Lets this process exit while the worker still runs. */
  unref(): void;
}

/** How long `exited` waits for the output to end after the process itself exited. */
export const OUTPUT_GRACE_MS = 200;

/** How long dispose() gives descendants outside the group to go after SIGTERM before SIGKILL. */
export const DESCENDANT_GRACE_MS = 1000;

/** Reads a directory's entry names and a file's text, synchronously; throw when they cannot. */
export interface SyncFs {
  readDir(path: string): string[];
  readText(path: string): string;
}

/** The part of a ChildProcess that acts on its process group, the same on every runtime. */
export interface ProcessGroup extends Pick<ChildProcess, "signalGroup" | "groupAlive"> {
  /** The child's descendants, noted while they are still below it (so those that leave the group can be ended). */
  readonly descendants: Descendants;
}

/**
 * The process group led by child `pid`: `kill` sends a signal to a pid (negative: a group),
 * `probe` is `kill(pid, 0)` (which throws when there is no such process, EPERM when it is not ours).
 */
export function processGroup(
  pid: number,
  fs: SyncFs,
  kill: (target: number, signal: "SIGTERM" | "SIGKILL") => void,
  probe: (target: number) => void,
): ProcessGroup {
  const descendants = new Descendants(pid, fs, kill);
  return {
    descendants,
    signalGroup(signal) {
      descendants.note(); // before the group is signalled: its members' children are still theirs
      try {
        kill(-pid, signal);
      } catch {
        // the group is gone
      }
      descendants.signal(signal);
    },
    groupAlive() {
      try {
        probe(-pid);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "EPERM") return false;
      }
      return groupHasLiveMember(pid, fs);
    },
  };
}

/**
 * Whether process group `pgid` has a live member, for a caller to whom `kill(-pgid, 0)` said
 * yes. That probe also counts zombies, and a zombie whose parent died is never reaped where
 * PID 1 does not reap (many containers): so on Linux we look in /proc for a member that is
 * not a zombie. Where /proc cannot be read (macOS, no permission) the probe's yes stands.
 */
export function groupHasLiveMember(pgid: number, fs: SyncFs): boolean {
  let pids: string[];
  try {
    pids = fs.readDir("/proc");
  } catch {
    return true;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readText(`/proc/${pid}/stat`);
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

/** The fields of /proc/<pid>/stat after "pid (comm) ": state, ppid, pgrp, …; undefined once it is gone. */
function statFields(pid: number, fs: SyncFs): string[] | undefined {
  let stat: string;
  try {
    stat = fs.readText(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  // comm may hold spaces and parentheses: the fields start after the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Index of starttime (field 22 of proc(5)) among statFields. */
const START_TIME = 19;

/**
 * The descendants of one process, noted while they are its descendants (Linux /proc). A
 * grandchild that calls setsid leaves the group, so a group signal misses it, and once its
 * parent exits it is re-parented and no longer found under it: so they are noted early (at
 * closeStdin, before each group signal) and remembered with their start time, which tells
 * them from a later process given the same pid. Where /proc cannot be read it notes nothing.
 */
export class Descendants {
  readonly #root: number;
  readonly #fs: SyncFs;
  readonly #kill: (pid: number, signal: "SIGTERM" | "SIGKILL") => void;
  /** pid → start time, as noted. */
  readonly #known = new Map<number, string>();

  constructor(root: number, fs: SyncFs, kill: (pid: number, signal: "SIGTERM" | "SIGKILL") => void) {
    this.#root = root;
    this.#fs = fs;
    this.#kill = kill;
  }

  /** Notes every process now below the root: children, their children, and so on. */
  note(): void {
    const queue = [this.#root];
    const seen = new Set(queue);
    let ppids: Map<number, number[]> | undefined;
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      let children: number[] | undefined = this.#childrenFromTasks(next);
      if (children === undefined) children = (ppids ??= this.#parentMap()).get(next) ?? [];
      for (const child of children) {
        if (seen.has(child)) continue;
        seen.add(child);
        queue.push(child);
        const fields = statFields(child, this.#fs);
        if (fields !== undefined && fields[0] !== "Z" && fields[0] !== "X") this.#known.set(child, fields[START_TIME]);
      }
    }
  }

  /** How many noted descendants are still running (zombies do not count). */
  alive(): number {
    let count = 0;
    for (const pid of this.#known.keys()) if (this.#live(pid)) count++;
    return count;
  }

  /** Signals each noted descendant that still runs and is still the process noted. */
  signal(signal: "SIGTERM" | "SIGKILL"): void {
    for (const pid of this.#known.keys()) {
      if (!this.#live(pid)) continue;
      try {
        this.#kill(pid, signal);
      } catch {
        // gone meanwhile, or not ours to signal
      }
    }
  }

  /** Ends the noted descendants still running: SIGTERM, then SIGKILL after graceMs. */
  async end(graceMs: number = DESCENDANT_GRACE_MS): Promise<void> {
    if (this.alive() === 0) return;
    this.signal("SIGTERM");
    for (let waited = 0; waited < graceMs && this.alive() > 0; waited += 25) await sleep(25);
    if (this.alive() > 0) this.signal("SIGKILL");
    for (let waited = 0; waited < graceMs && this.alive() > 0; waited += 25) await sleep(25);
  }

  #live(pid: number): boolean {
    const fields = statFields(pid, this.#fs);
    if (fields === undefined || fields[0] === "Z" || fields[0] === "X") return false;
    if (fields[START_TIME] !== this.#known.get(pid)) {
      this.#known.delete(pid); // the pid now names another process
      return false;
    }
    return true;
  }

  /** Children through /proc/<pid>/task/<tid>/children; undefined when the kernel offers no such file. */
  #childrenFromTasks(pid: number): number[] | undefined {
    let tasks: string[];
    try {
      tasks = this.#fs.readDir(`/proc/${pid}/task`);
    } catch {
      return []; // gone, or no /proc
    }
    const children: number[] = [];
    for (const task of tasks) {
      let text: string;
      try {
        text = this.#fs.readText(`/proc/${pid}/task/${task}/children`);
      } catch {
        if (tasks.length > 0 && statFields(pid, this.#fs) !== undefined) return undefined; // no children files: scan instead
        continue;
      }
      for (const word of text.split(/\s+/)) if (/^\d+$/.test(word)) children.push(Number(word));
    }
    return children;
  }

  /** Every process's children, from the ppid field of each /proc/<pid>/stat. */
  #parentMap(): Map<number, number[]> {
    const map = new Map<number, number[]>();
    let pids: string[];
    try {
      pids = this.#fs.readDir("/proc");
    } catch {
      return map;
    }
    for (const name of pids) {
      if (!/^\d+$/.test(name)) continue;
      const fields = statFields(Number(name), this.#fs);
      if (fields === undefined) continue;
      const ppid = Number(fields[1]);
      const list = map.get(ppid);
      if (list === undefined) map.set(ppid, [Number(name)]);
      else list.push(Number(name));
    }
    return map;
  }
}

/** Kill every live child group when the host exits, so no server outlives us. */
export class ChildGroups {
  readonly #live = new Set<ChildProcess>();
  add(child: ChildProcess): void {
    this.#live.add(child);
  }
  delete(child: ChildProcess): void {
    this.#live.delete(child);
  }
  killAll(): void {
    for (const child of this.#live) {
      try {
        child.signalGroup("SIGKILL");
      } catch {
        // already gone
      }
    }
    this.#live.clear();
  }
}

/** The default bound of Runtime.flush(). */
export const DEFAULT_FLUSH_TIMEOUT_MS = 2000;

/**
 * The writes to stdout and stderr, so that flush() can wait for the last of them, bounded. With
 * `serialize`, each stream's writes run one after another (a runtime whose async write can be
 * cut into partial writes, which must not interleave with the next); without, each is handed
 * over at once (a runtime that keeps the order itself).
 */
export class OutputQueue {
  readonly #tails: Record<StreamName, Promise<void>> = { stdout: Promise.resolve(), stderr: Promise.resolve() };
  readonly #writeNow: (stream: StreamName, text: string) => Promise<void>;
  readonly #serialize: boolean;

  constructor(writeNow: (stream: StreamName, text: string) => Promise<void>, options: { serialize: boolean }) {
    this.#writeNow = writeNow;
    this.#serialize = options.serialize;
  }

  write(stream: StreamName, text: string): Promise<void> {
    const written = this.#serialize ? this.#tails[stream].then(() => this.#writeNow(stream, text)) : this.#writeNow(stream, text);
    // A failed write (a closed pipe) fails its caller, not the writes after it.
    this.#tails[stream] = written.catch(() => {});
    return written;
  }

  flush(timeoutMs: number = DEFAULT_FLUSH_TIMEOUT_MS): Promise<void> {
    // The tails never reject (a failed write fails its caller only).
    return within(Promise.all([this.#tails.stdout, this.#tails.stderr]), timeoutMs).then(() => {});
  }
}
