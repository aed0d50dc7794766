// The small interface behind which the runtimes differ: child processes, environment,
// standard streams, exit. Types only; node.ts (Node, Bun), deno.ts and web.ts (browsers,
// Workers: no processes, files or worker threads) implement it, with the parts they share in
// files named for them. Everything outside src/runtime/ uses only this and web standards. It
// comes in two parts: CoreRuntime, what the client and the layers below it use (`coreRuntime`),
// and Runtime, the core with the host's and the CLI's files, listener, stdin and workers.

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
   * A line that has already arrived, without waiting (and without reading more); undefined
   * when none is here, and at the end of input (readLine then says so). A reader of a burst
   * takes every line of a chunk in one turn.
   */
  takeReadyLine(): string | undefined;
  /**
   * The input that has arrived and not been read yet, exactly as it came (what readLine left
   * buffered first), waiting for more when there is none; undefined at the end of input. Reads
   * only while asked: a caller that stops asking (a size limit reached) stops the reading.
   */
  readText(): Promise<string | undefined>;
}

/**
 * What a runtime may lack, named for UnsupportedRuntimeError: child processes (stdio), files,
 * worker threads with a blocking wait (the sync bridge), a loopback listener, a terminal
 * (stdin, exit, signals). Node, Deno and Bun have them all; web.ts has none.
 */
export type RuntimeCapability = "processes" | "files" | "workers" | "listeners" | "terminal";

/**
 * What the client and the layers below it use (jsonrpc, transport, client): which runtime,
 * processes (the stdio transport), the environment, bytes (the line framer) and timers. The
 * runtime modules export it apart from the whole Runtime (`coreRuntime`), so a bundle of the
 * client holds these functions and none of the CLI's and host's (files, listeners, standard
 * input, worker threads): a bundler keeps what is referenced, never part of an object.
 */
export interface CoreRuntime {
  /** "node" (Node and Bun), "deno", or "web" (browsers, Cloudflare workerd, web workers). */
  readonly name: "node" | "deno" | "web";
  /**
   * Throws an UnsupportedRuntimeError when this runtime lacks `capability`; `what` names the
   * operation asked for in its message (`stdio "node server.js"`). Called where
   * the operation starts, so that it fails there with a reason rather than deeper down.
   */
  ensure(capability: RuntimeCapability, what: string): void;
  /** Starts a child as the leader of a new process group, with piped stdio. */
  spawn(request: SpawnRequest): Promise<ChildProcess>;
  /** A copy of this process's environment. */
  env(): Record<string, string>;
  /** The operating system, in Deno's spelling: "linux", "darwin", "windows", … */
  readonly os: string;
  /** This process's working directory (absolute). */
  cwd(): string;
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

/** Everything: the core, and the files, listener, standard streams, exit and worker threads the host and the CLI use. */
export interface Runtime extends CoreRuntime {
  /**
   * Reads a whole file as UTF-8; rejects with a FileError carrying the OS reason. Only a regular
   * file of at most MAX_TEXT_FILE_BYTES is read: a FIFO, a device or a socket (whose read would
   * block, or never end) is `ENOTREG`, a larger file `EFBIG`, both at once (a file the user names
   * or a repository holds is untrusted input, and every wait is bounded).
   */
  readTextFile(path: string, options?: TextFileOptions): Promise<string>;
  /**
   * Writes a file only its owner may read or write (mode 0600), atomically: a temporary file in
   * the same directory renamed into place. Missing parent directories are made owner-only (0700);
   * existing ones keep their mode. Only a regular file is ever replaced: a FIFO or a character
   * device is written as it is (opened, written, closed; a FIFO with no reader, or one that takes
   * nothing, fails after SPECIAL_FILE_WAIT_MS), a symbolic link is written through to its target
   * (the link stays), anything else is `ENOTREG` (runtime/special-file.ts). Rejects with a
   * FileError carrying the OS reason. `data` is UTF-8 text or raw bytes. `mode` (permission bits)
   * replaces 0600, e.g. to keep the mode of the file being replaced. `links: "replace"` is for
   * mcpwire's own files (its caches, token and trust stores): a link in their place is never
   * followed but replaced by a regular file, whatever it points to.
   */
  writePrivateFile(path: string, data: string | Uint8Array, mode?: number, links?: LinkPolicy): Promise<void>;
  /**
   * Starts a new, empty file only its owner may read or write (mode 0600, made as
   * writePrivateFile makes one) and opens it for appending text: each append() hands its text
   * to the OS at once (synchronously), so what was appended survives a crash of this process.
   * A FIFO or a character device is opened as it is and appended to (a reader that takes nothing
   * for SPECIAL_FILE_WAIT_MS makes append() throw), never replaced. Rejects with a FileError
   * carrying the OS reason.
   */
  openPrivateLog(path: string): Promise<PrivateLog>;
  /**
   * Makes `path` a directory only its owner may enter (mode 0700): creates it (missing parents
   * too, 0700) or, when it already exists with another mode, tightens it to 0700 (a no-op where
   * there are no POSIX modes). Only for mcpwire's own directories (its cache, config, state and
   * token folders): never a directory the user named or owns for another purpose (a project).
   * Rejects with a FileError carrying the OS reason.
   */
  makePrivateDirectory(path: string): Promise<void>;
  /**
   * What is at `path` itself, a link not followed (lstat): its kind, owner and permission bits
   * (null where the OS has none, Windows). Undefined when nothing is there; rejects with a
   * FileError for any other failure.
   */
  linkInfo(path: string): Promise<LinkInfo | undefined>;
  /**
   * The absolute path of `path` with every symbolic link resolved (realpath). Undefined when
   * nothing is there; rejects with a FileError for any other failure.
   */
  realPath(path: string): Promise<string | undefined>;
  /** The user id this process runs as; undefined where there are none (Windows) or it may not be read (Deno without --allow-sys). */
  userId(): number | undefined;
  /** Deletes a file; one that is not there is not an error. Rejects with a FileError. */
  removeFile(path: string): Promise<void>;
  /**
   * Creates `path` (mode 0600) holding `text` only if nothing is there (O_EXCL): true when this
   * call made it, false when something already was. The primitive of an inter-process lock
   * (host/store/file-lock.ts). Missing directories are made owner-only (0700); an existing one keeps its
   * mode (it may be the user's project). Rejects with a FileError for any other failure.
   */
  createExclusive(path: string, text: string): Promise<boolean>;
  /**
   * The regular files directly in a directory, with their last change time (ms since the
   * epoch) and size in bytes; subdirectories and links are left out. Rejects with a FileError.
   */
  listFiles(path: string): Promise<FileEntry[]>;
  /**
   * An HTTP listener on 127.0.0.1 only (port 0: any free one), answering each request with
   * `handler`, which gets its method, URL, headers and body (Node reads at most 16 MiB of it) —
   * the OAuth redirect listener of `mcpwire auth login` (RFC 8252 7.3), `mcpwire replay --http`.
   */
  serveLoopback(port: number, handler: (request: Request) => Response | Promise<Response>): Promise<LoopbackListener>;
  /**
   * An HTTP listener on `options.hostname` (default 127.0.0.1; `::1`, `0.0.0.0`, `::` only when
   * asked), answering each request with `handler` — the Streamable HTTP front of `mcpwire serve`.
   * The request's body is read first, at most `maxBodyBytes` (default 16 MiB; over it: 413, the
   * handler never called); `request.signal` aborts when the client goes away before its answer
   * is written. A `text/event-stream` Response is written chunk by chunk as it comes (SSE), and
   * cancelled when the client goes away or the listener closes; any other body is read whole
   * first and goes with its Content-Length (one write on Node). Rejects with a FileError
   * (EADDRINUSE, EACCES, …) when it cannot listen. (On Deno, watching for the client going away
   * reads Deno.serve's request signal, which makes Deno print a one-line notice once per process
   * unless run with --unstable-no-legacy-abort; serveLoopback does not watch.)
   */
  listenHttp(options: HttpListenOptions, handler: (request: Request) => Response | Promise<Response>): Promise<HttpListener>;
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
}

/** Options of Runtime.readTextFile. */
/**
 * What writing a path does with a symbolic link in its place: `follow` (a file the user named:
 * its target is written, the link stays) or `replace` (mcpwire's own files: the link itself is
 * replaced by a regular file, never followed).
 */
export type LinkPolicy = "follow" | "replace";

export interface TextFileOptions {
  /** Bytes that are not UTF-8 are an error (`EILSEQ`, naming the first one and its line) rather than U+FFFD: for a file about to be rewritten. */
  strict?: boolean;
}

/** A file opened by Runtime.openPrivateLog: text appended as it comes. */
export interface PrivateLog {
  /** Writes `text` at the end of the file now (synchronously). Throws the OS error when it cannot. */
  append(text: string): void;
  /** Closes the file; later appends are ignored. */
  close(): void;
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
  /** When it last changed (ms since the epoch); null where the OS does not say. */
  mtimeMs: number | null;
}

/** A listener from serveLoopback. */
export interface LoopbackListener {
  readonly port: number;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/** Options of Runtime.listenHttp. */
export interface HttpListenOptions {
  /** The address to bind: default 127.0.0.1 (loopback only). */
  hostname?: string;
  /** 0: any free port. */
  port: number;
  /** The largest request body read, in bytes (default 16 MiB): a larger one is answered 413. */
  maxBodyBytes?: number;
}

/** A listener from listenHttp: where it is bound, and how to stop it. */
export interface HttpListener extends LoopbackListener {
  /** The address it is bound to, as given (default 127.0.0.1). */
  readonly hostname: string;
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
