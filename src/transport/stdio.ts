// The stdio transport: the server is our child process; newline-delimited JSON-RPC on its
// stdin and stdout; stderr is free-form logging — spec 2025-11-25 basic/transports ("stdio")
// and basic/lifecycle ("Shutdown": close stdin, wait, SIGTERM, wait, SIGKILL).

import { messageOf } from "../common/error-text.ts";
import { LineBuffer } from "../common/line-buffer.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { clipText } from "../common/preview.ts";
import { type Redactor, redactText } from "../common/redact.ts";
import { sleep, within } from "../common/timing.ts";
import { describeClose } from "../jsonrpc/errors.ts";
import { LineDecoder } from "../jsonrpc/line-decoder.ts";
import { type ChildProcess, coreRuntime, type ExitStatus, SpawnError } from "../runtime/mod.ts";
import { CHILD_ENV_BASELINE, CHILD_ENV_BASELINE_WINDOWS, childEnvironment, environmentFor, type EnvMode, variableOf } from "./child-env.ts";
import { LineWriterTransport } from "./lifecycle.ts";
import type { ProcessObserver } from "./trace-event.ts";
import { type ServerProcess, TransportError, UndeliverableMessageError } from "./transport.ts";

/** Options of StdioTransport: the command, its arguments, environment and working directory, and the bounds. */
export interface StdioTransportOptions {
  command: string;
  args?: string[];
  /**
   * Variables for the child. By default (`envMode: "baseline"`) they go on top of a safe
   * baseline of ours (CHILD_ENV_BASELINE: PATH, HOME, USER, LANG, TERM, … and `XDG_*`), the way
   * a config file's `env` does — never our whole environment.
   */
  env?: Record<string, string>;
  /**
   * How the child's environment is made from `env`: "baseline" (default) the baseline of ours
   * plus `env`; "exact" `env` alone, exactly as given; "inherit" our whole environment plus `env`.
   */
  envMode?: EnvMode;
  cwd?: string;
  /** Budget for a graceful close before SIGKILL. Default 2000 ms. */
  shutdownTimeoutMs?: number;
  /** Each line the server writes to stderr (its log), as it arrives. */
  onStderr?: (line: string) => void;
  /**
   * Largest stdout line accepted, in bytes. Default 64 MiB. A response over it is skipped
   * unread and its request fails at once, saying so (its id is read from the line's ends).
   */
  maxMessageBytes?: number;
  /**
   * Told of the child's life — spawn (command line, pid), exit (code or signal), each stderr
   * line — for a trace (trace-event.ts). Texts are redacted by their shape (`Bearer …`,
   * `--api-key=…`); the host redacts its own secrets too. Default: none, and nothing is observed.
   */
  observer?: ProcessObserver;
  /**
   * More secrets to keep out of the description, error messages and what the observer is told
   * (the host's: a config's `${GITHUB_TOKEN}` interpolated into an argument). Each argument is
   * redacted before it is quoted or clipped, so a secret is found whole. Default: the shapes alone.
   */
  redactor?: Redactor;
  /**
   * Rewrites the spawn before it happens, e.g. to run the server in a sandbox (the host's
   * `sandbox:` key wraps it in bwrap). What it throws is the start's failure. Default: none.
   */
  wrapSpawn?: (spawn: SpawnCommand) => Promise<WrappedSpawn>;
}

/** A stdio server's spawn as StdioTransport would run it: the command, its arguments, its whole environment. */
export interface SpawnCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A spawn as wrapSpawn rewrote it; `exitNote` is added to the reason when the server exits by itself. */
export interface WrappedSpawn extends SpawnCommand {
  exitNote?: string;
  /** What the command runs inside, for a trace's spawn event (`bubblewrap`): the trace shows the server's command, not the wrapper's. */
  wrapper?: string;
}

/**
 * The names of the baseline a child inherits (POSIX and Windows; `XDG_*` too, as a family).
 * @deprecated Use CHILD_ENV_BASELINE and isBaselineVariable (transport/child-env.ts), the one list.
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = [...CHILD_ENV_BASELINE, ...CHILD_ENV_BASELINE_WINDOWS];

/** Every option StdioTransport reads (checked by its constructor). */
const STDIO_OPTIONS = optionNames<StdioTransportOptions>({
  command: true,
  args: true,
  env: true,
  envMode: true,
  cwd: true,
  shutdownTimeoutMs: true,
  redactor: true,
  onStderr: true,
  maxMessageBytes: true,
  observer: true,
  wrapSpawn: true,
});

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 2000;
/** Time allowed after SIGKILL for the kernel to reap the group. */
const KILL_MARGIN_MS = 2000;
/** How long grandchildren left in the group get between SIGTERM and SIGKILL. */
const REAP_GRACE_MS = 500;
/** How long a failed write to stdin waits for the server's exit, to say how it ended. */
const EXIT_AFTER_WRITE_ERROR_MS = 1000;
const STDERR_TAIL_LINES = 20;
const STDERR_LINE_CHARS = 500;
/** Most characters of the PATH shown in a "command not found" error. */
const PATH_SHOWN_CHARS = 1000;

/** The default child environment: the baseline variables we have (childEnvironment()), nothing else. */
export function defaultChildEnv(): Record<string, string> {
  return childEnvironment();
}

/** `PATH searched: …` for a "not found" message: the child's PATH as given, whole up to a bound. */
function pathSearched(env: Record<string, string>): string {
  const path = variableOf(env, "PATH");
  return path === undefined ? "no PATH was set for it" : `PATH searched: ${clipText(path, PATH_SHOWN_CHARS)}`;
}

/** The text without one `\r` at its end (a CRLF line cut before its `\n`). */
function withoutReturn(text: string): string {
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}

function describeExit(status: ExitStatus): string {
  return status.signal !== null ? `server process was killed by ${status.signal}` : `server process exited with code ${status.code}`;
}

/**
 * A server run as a child process, one JSON-RPC message per line on its stdin and stdout.
 * Node, Deno and Bun only: in a browser or a Worker, start() rejects with an
 * UnsupportedRuntimeError (code "unsupported-runtime"); importing it is harmless everywhere.
 */
export class StdioTransport extends LineWriterTransport {
  readonly description: string;
  readonly traceName = "stdio";

  readonly #options: StdioTransportOptions;
  readonly #shutdownTimeoutMs: number;
  #child: ChildProcess | undefined;
  /** Set while coreRuntime.spawn is in flight, so a close() meanwhile can wait for the child. */
  #spawning: Promise<unknown> | undefined;
  #decoder: LineDecoder;
  readonly #stderrText = new TextDecoder();
  readonly #stderrLines = new LineBuffer();
  readonly #stderrTail: string[] = [];
  /** Reaping the group and releasing the pipes after the server exited on its own. */
  #cleanup: Promise<void> | undefined;
  #closedByUs = false;
  /** The environment the child was started with (for a "not found" message). */
  #env: Record<string, string> = {};
  /** What wrapSpawn runs the command inside (a sandbox), for the spawn event. */
  #wrapper: string | undefined;
  /** Said after the exit reason when the server exits by itself (from wrapSpawn). */
  #exitNote: string | undefined;
  /** wrapSpawn threw: its error is the start's failure as it is. */
  #wrapFailed = false;

  constructor(options: StdioTransportOptions) {
    super();
    checkOptions("StdioTransport", options, STDIO_OPTIONS, ["command"]);
    this.#options = options;
    this.#shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    // Redacted before it is clipped: a secret across the cut is still found whole.
    const shown = [options.command, ...(options.args ?? [])].map((word) => this.#redact(word)).join(" ");
    this.description = `stdio "${clipText(this.#redact(shown), 80)}"`;
    this.#decoder = new LineDecoder({
      maxMessageBytes: options.maxMessageBytes,
      // A throwing handler must not stop the reading of stdout (and with it every later answer).
      onMessage: this.receive.bind(this),
      onProblem: (problem) => {
        const response = problem.response;
        if (response === undefined) {
          this.report(`stdout ${problem.message}`, "bad-line");
          return;
        }
        // The answer to one of our requests is lost: the Client fails that request with it now.
        if (response.reason === "too-large") {
          response.remedy = "raise the stdio transport's maxMessageBytes option " +
            "(StdioTransport({ maxMessageBytes })) if the server's answers are this large";
        }
        this.reportError(new UndeliverableMessageError(`${this.description}: stdout ${problem.message}`, { response }));
      },
    });
  }

  /** The process id of the server, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The server's process (Transport.serverProcess): its id and its last stderr lines. */
  get serverProcess(): ServerProcess {
    return { pid: this.pid, stderrTail: this.stderrTail };
  }

  /** The last lines the server wrote to stderr, oldest first. */
  get stderrTail(): string[] {
    return [...this.#stderrTail];
  }

  async start(): Promise<void> {
    const refused = this.claimStart();
    if (refused) throw refused;
    // A browser or a Worker starts no process: an UnsupportedRuntimeError saying so, here.
    coreRuntime.ensure("processes", `cannot start ${this.description}`);
    const { cwd } = this.#options;
    const env = environmentFor(this.#options.envMode ?? "baseline", this.#options.env);
    this.#env = env;
    const spawning = this.#spawn({ command: this.#options.command, args: this.#options.args ?? [], env, ...(cwd === undefined ? {} : { cwd }) });
    this.#spawning = spawning.catch(() => {});
    try {
      this.#child = await spawning;
      this.openWrites();
    } catch (error) {
      // What wrapSpawn threw says itself why the server did not start (e.g. no sandbox can be had).
      const failure = this.#wrapFailed ? error : this.#spawnFailure(error, env);
      this.#options.observer?.({ kind: "process", phase: "spawn-failed", command: this.#commandLine(), error: this.#redact(messageOf(failure)) });
      throw failure;
    } finally {
      this.#spawning = undefined;
    }
    if (this.#options.observer) {
      const wrapper = this.#wrapper === undefined ? {} : { wrapper: this.#wrapper };
      this.#options.observer({
        kind: "process",
        phase: "spawn",
        command: this.#commandLine(),
        pid: this.#child.pid,
        ...(cwd === undefined ? {} : { cwd }),
        ...wrapper,
      });
    }
    this.#child.exited.then((status) => this.#onExit(status));
    // close() was called while we were spawning: it is now ending the child.
    if (this.closing) throw new TransportError(`${this.description}: closed while starting`, "closed");
  }

  /** The spawn, rewritten by wrapSpawn first when there is one. */
  async #spawn(spawn: SpawnCommand): Promise<ChildProcess> {
    let wrapped: WrappedSpawn = spawn;
    if (this.#options.wrapSpawn !== undefined) {
      try {
        wrapped = await this.#options.wrapSpawn(spawn);
      } catch (error) {
        this.#wrapFailed = true;
        throw error;
      }
    }
    this.#exitNote = wrapped.exitNote;
    this.#wrapper = wrapped.wrapper;
    return await coreRuntime.spawn({
      command: wrapped.command,
      args: wrapped.args,
      env: wrapped.env,
      cwd: wrapped.cwd,
      onStdout: this.#decoder.push.bind(this.#decoder),
      onStderr: (chunk) => this.#onStderr(chunk),
    });
  }

  /**
   * The command line as a trace shows it: each word redacted (a secret is matched as it was
   * given, before quoting escapes it), those with spaces or quotes quoted, then credential shapes
   * across words (`--api-key sk-…`) redacted.
   */
  #commandLine(): string {
    const { command, args = [] } = this.#options;
    const words = [command, ...args].map((word) => this.#redact(word));
    return this.#redact(words.map((word) => (/[\s"']/.test(word) || word === "" ? JSON.stringify(word) : word)).join(" "));
  }

  /** `text` with the redactor's secrets and every credential shape replaced. */
  #redact(text: string): string {
    return this.#options.redactor?.redact(text) ?? redactText(text);
  }

  #spawnFailure(error: unknown, env: Record<string, string>): TransportError {
    const { command } = this.#options;
    const code = error instanceof SpawnError ? error.code : "EUNKNOWN";
    const detail = messageOf(error);
    let message: string;
    if (code === "ENOENT") {
      message = `cannot start ${this.description}: command "${command}" not found (ENOENT; ${pathSearched(env)}); ` +
        `check the name, give its full path, or set PATH in the transport's env`;
    } else if (code === "EACCES") {
      message = `cannot start ${this.description}: "${command}" is not executable (EACCES); check its permissions`;
    } else if (code === "ENOCWD") {
      message = `cannot start ${this.description}: ${detail}; fix the server's cwd`;
    } else {
      message = `cannot start ${this.description}: ${detail}`;
    }
    return new TransportError(message, code, { cause: error });
  }

  // send() is LineWriterTransport's: the lines of a turn go to stdin together, one system call
  // for up to BATCH_MAX_LINES messages instead of one each.

  protected unwritableState(): string {
    return this.#child === undefined ? "not started" : this.closed ? "closed (the server process has ended)" : "closing";
  }

  protected writeBatch(text: string, done: (error?: unknown) => void): void {
    this.#child!.write(text, done); // openWrites() comes once the child exists
  }

  /**
   * A write that fails has almost always met a server that exited (EPIPE) and whose exit has
   * not been seen yet: wait for it, briefly, so the error says how the server ended and what it
   * wrote to stderr rather than only "broken pipe".
   */
  protected override async writeFailed(error: unknown): Promise<Error> {
    const ended = await this.#exitAfter(this.#child!);
    const why = ended === undefined ? `${messageOf(error)}; the server has probably exited` : `${messageOf(error)}: ${ended}`;
    return new TransportError(`${this.description}: could not write to the server's stdin (${why})`, "send-failed", { cause: error });
  }

  /** How the child ended, with the end of its stderr, once it exits within EXIT_AFTER_WRITE_ERROR_MS; undefined if it does not. */
  async #exitAfter(child: ChildProcess): Promise<string | undefined> {
    let status: ExitStatus | undefined;
    await within(child.exited.then((exit) => (status = exit)), EXIT_AFTER_WRITE_ERROR_MS);
    if (status === undefined) return undefined;
    return describeClose({ reason: describeExit(status), exitCode: status.code, signal: status.signal, stderrTail: this.stderrTail });
  }

  /**
   * spec 2025-11-25 basic/lifecycle (stdio shutdown): close the server's stdin, wait for it
   * to exit, SIGTERM if it does not, SIGKILL if it still does not. Returns within
   * shutdownTimeoutMs plus a small margin, with no process of the server's group left.
   */
  protected async shutdown(): Promise<void> {
    if (this.#spawning) await this.#spawning; // a child that is being born must not escape
    const child = this.#child;
    if (child === undefined) {
      this.notifyClose({ reason: "closed before it started" });
      return;
    }
    if (this.#cleanup) {
      // The server already exited on its own; finish reaping what it left.
      await this.#cleanup;
      return;
    }
    this.#closedByUs = true;
    const step = this.#shutdownTimeoutMs / 2;
    // 2025-11-25 lifecycle (stdio shutdown) 1: close the input stream to the server.
    child.closeStdin();
    if (!(await within(child.exited, step))) {
      // 2: it did not exit within a reasonable time: SIGTERM.
      child.signalGroup("SIGTERM");
      if (!(await within(child.exited, step))) {
        // 3: still there after SIGTERM: SIGKILL.
        child.signalGroup("SIGKILL");
        await within(child.exited, KILL_MARGIN_MS);
      }
    }
    await this.#reapGroup(child);
    await child.dispose();
    // Deliver onclose even if the exit status never arrived.
    this.notifyClose({ reason: "closed by the client", stderrTail: this.stderrTail });
  }

  /** Ends processes of the server's group that outlived it (grandchildren). */
  async #reapGroup(child: ChildProcess): Promise<void> {
    if (!child.groupAlive()) return;
    child.signalGroup("SIGTERM");
    for (let waited = 0; waited < REAP_GRACE_MS && child.groupAlive(); waited += 25) await sleep(25);
    if (child.groupAlive()) child.signalGroup("SIGKILL");
  }

  #onExit(status: ExitStatus): void {
    this.#decoder.end();
    const last = this.#stderrLines.takeText();
    if (last !== "") this.#stderrLine(withoutReturn(last));
    const child = this.#child!;
    if (this.#options.observer) this.#options.observer({ kind: "process", phase: "exit", pid: child.pid, code: status.code, signal: status.signal });
    if (!this.#closedByUs) {
      // Nobody will call close() on a server that died by itself: leave nothing behind.
      this.#cleanup = this.#reapGroup(child).then(() => child.dispose());
    }
    // Fail the pending calls at once; cleanup goes on in the background.
    this.notifyClose({
      reason: this.#closedByUs
        ? "closed by the client"
        : describeExit(status) + this.#notFoundHint(status) + (status.code !== 0 && this.#exitNote !== undefined ? ` (${this.#exitNote})` : ""),
      exitCode: status.code,
      signal: status.signal,
      stderrTail: this.stderrTail,
    });
  }

  /**
   * A shell's exit 127 with "not found" on stderr (`sh: 1: mcp-server-everything: not found`, as
   * from `npx`): a command the server runs was not found; say which PATH it searched. POSIX
   * (Shell Command Language, "Command Search and Execution"): 127 when a command is not found.
   */
  #notFoundHint(status: ExitStatus): string {
    if (status.code !== 127 || !this.#stderrTail.some((line) => /not found|no such file/i.test(line))) return "";
    return ` (a command it runs was not found; ${pathSearched(this.#env)})`;
  }

  #onStderr(chunk: Uint8Array): void {
    const lines = this.#stderrLines;
    lines.push(this.#stderrText.decode(chunk, { stream: true }));
    for (let line = lines.take(); line !== undefined; line = lines.take()) this.#stderrLine(line);
    // A "line" that never ends: show it in pieces rather than buffer it forever.
    if (lines.partialLength > 4 * STDERR_LINE_CHARS) this.#stderrLine(withoutReturn(lines.takeText()));
  }

  /** One line of the child's stderr, its line ending already off. */
  #stderrLine(line: string): void {
    if (this.#options.observer) this.#options.observer({ kind: "process", phase: "stderr", pid: this.#child?.pid, line: this.#redact(line) });
    if (this.#options.onStderr) {
      try {
        this.#options.onStderr(line);
      } catch (error) {
        this.report(`onStderr handler threw: ${messageOf(error)}`, "handler-threw", error);
      }
    }
    if (line.trim() === "") return;
    this.#stderrTail.push(clipText(line, STDERR_LINE_CHARS));
    if (this.#stderrTail.length > STDERR_TAIL_LINES) this.#stderrTail.shift();
  }
}
