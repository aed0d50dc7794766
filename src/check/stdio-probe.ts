// The stdio probe: the server started again as StdioTransport would start it (command, args,
// environment policy, cwd, wrapSpawn: a sandboxed server is probed in its sandbox), spoken to in
// raw lines, and judged on its standard streams — spec 2025-11-25 basic/transports ("stdio"),
// 2026-07-28 basic/transports/stdio ("Receiving Messages", "Shutdown"), JSON-RPC 2.0 §5 and §5.1
// (a line that is not JSON). It opens with the era's first request, sends a line that is not
// JSON and then a request that must still be answered, closes stdin and watches the server exit.
// Every wait is bounded, what is read is bounded (stdout-lines.ts), and the whole process group
// is gone when it returns, whatever happened.

import type { ProtocolEra } from "../client/protocol-version.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { LineBuffer } from "../common/line-buffer.ts";
import { clipText } from "../common/preview.ts";
import { redactText } from "../common/redact.ts";
import { sleep, within } from "../common/timing.ts";
import { whyNotJsonRpc } from "../jsonrpc/messages.ts";
import { type ChildProcess, coreRuntime, type ExitStatus } from "../runtime/mod.ts";
import { environmentFor } from "../transport/child-env.ts";
import type { SpawnCommand, StdioTransportOptions, WrappedSpawn } from "../transport/stdio.ts";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import { type Judge, type Rule, rule } from "./rule.ts";
import { checkInitializeParams, checkRequestMeta } from "./session.ts";
import { MAX_LINES, type StdoutLine, StdoutLines } from "./stdout-lines.ts";

const STDIO_2025 = { source: "2025-11-25", page: "basic/transports", section: "stdio" } as const;
const STDIO_2026 = (section: string) => ({ source: "2026-07-28", page: "basic/transports/stdio", section }) as const;

/** The rules the stdio probe judges (area `transport`). */
export const StdioRules = {
  stdoutMessagesOnly: rule(
    "transport/stdio-stdout-messages-only",
    "MUST",
    "Every line the server writes to stdout is a JSON-RPC message",
    STDIO_2025,
    "Write banners, logs and debug output to stderr, never to stdout: a client reads each stdout line as a message.",
  ),
  noEmbeddedNewline: rule(
    "transport/stdio-no-embedded-newline",
    "MUST",
    "Each message is one line: no newline inside a message",
    STDIO_2025,
    "Serialize each message without indentation (JSON.stringify(message), no space argument) and end it with a single \\n.",
  ),
  utf8: rule(
    "transport/stdio-utf8",
    "MUST",
    "What the server writes to stdout is UTF-8",
    { source: "2025-11-25", page: "basic/transports" },
    "Encode stdout as UTF-8 whatever the platform's locale (set the stream's encoding explicitly).",
  ),
  stderrLogging: rule(
    "transport/stdio-stderr-logging",
    "MAY",
    "The server's stderr holds its logs (allowed; counted for information)",
    STDIO_2025,
    "Nothing to change: stderr is the place for logs. A client may show it, so keep it free of secrets.",
  ),
  // JSON-RPC 2.0 §5 asks a reply to every call, but whether a line that does not parse was a call
  // or a notification cannot be known: the answer is asked for by §7's example ("rpc call with
  // invalid JSON"), so SHOULD; §5's null id for an answer that is sent is a MUST.
  parseError: rule(
    "transport/stdio-parse-error",
    "SHOULD",
    "A line that is not JSON is answered with a -32700 Parse error",
    { source: "json-rpc-2.0", page: "5.1", section: "Error object" },
    'When a line does not parse, answer {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}} and go on reading.',
  ),
  parseErrorId: rule(
    "transport/stdio-parse-error-id",
    "MUST",
    "The answer to a line that is not JSON has a null id",
    { source: "json-rpc-2.0", page: "5", section: "Response object" },
    'An id that could not be read is answered with "id": null (MCP\'s schema also lets it be left out), never with a made-up id.',
  ),
  survivesBadLine: rule(
    "transport/stdio-survives-bad-line",
    "MUST",
    "After a line that is not JSON the server still answers requests",
    { source: "json-rpc-2.0", page: "5", section: "Response object" },
    "Catch the parse failure of one line, answer it, and keep reading stdin: one bad line must not end the session.",
  ),
  exitOnStdinClose: rule(
    "transport/stdio-exit-on-stdin-close",
    "SHOULD",
    "The server exits when its stdin closes, before any signal",
    STDIO_2026("Shutdown"),
    "Exit when a read of stdin returns end-of-file (Node: process.stdin.on('end', ...)); spec 2025-11-25 basic/lifecycle " +
      '"Shutdown" has the client close stdin first and signal only a server that stays.',
  ),
  noServerRequests: rule(
    "transport/stdio-no-server-requests",
    "MUST",
    "A 2026-07-28 server writes no JSON-RPC request to stdout",
    STDIO_2026("Receiving Messages"),
    "Ask the client for input with an InputRequiredResult (basic/patterns/mrtr) instead of a server-to-client request.",
  ),
} as const;

/** Which era to open and at which version (the negotiated one). */
export interface StdioProbeContext {
  era: ProtocolEra;
  protocolVersion: string;
}

/** How long the probe waits for each answer. */
export interface StdioProbeOptions {
  /** The wait for each answer (the first request's, the one after the line that is not JSON). Default 10 s. */
  timeoutMs?: number;
}

/** After the follow-up request is answered, how long a parse-error answer may still come. */
const PARSE_ERROR_GRACE_MS = 500;
/** The "reasonable time" of 2025-11-25 basic/lifecycle ("Shutdown") after stdin closes, and again after SIGTERM. */
const EXIT_WAIT_MS = 2000;
/** Time allowed after SIGKILL for the kernel to reap the group; then for grandchildren between SIGTERM and SIGKILL. */
const KILL_MARGIN_MS = 2000;
const REAP_GRACE_MS = 500;
/** How long a write to stdin may take (a server that does not read fills the pipe). */
const WRITE_WAIT_MS = 2000;
/** Past this much stdout the server is flooding: the probe stops and ends it. */
const MAX_STDOUT_BYTES = 16 * 1024 * 1024;
/** Past this much stderr its lines are no longer counted (the bytes still are). */
const MAX_STDERR_BYTES = 16 * 1024 * 1024;
/** A message spread over lines (pretty-printed) is looked for over at most this many lines and characters. */
const RUN_MAX_LINES = 500;
const RUN_MAX_CHARS = 512 * 1024;
/** Places reported per rule; the last one says how many more there were. */
const MAX_PLACES = 3;
const EXCERPT_CHARS = 200;
const STDERR_SHOWN = 3;
/** JSON-RPC 2.0 §7's own example of "rpc call with invalid JSON". */
const NOT_JSON = '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]';
const FIRST_ID = 1;
const FOLLOW_UP_ID = 2;

/** A place a rule was broken: a stdout line, with what was seen. */
interface Place {
  line: number;
  excerpt: string;
  detail: string;
}

/** The places of one rule: the first MAX_PLACES, and how many in all. */
class Places {
  readonly kept: Place[] = [];
  count = 0;
  add(place: Place): void {
    this.count++;
    if (this.kept.length < MAX_PLACES) this.kept.push(place);
  }
  /** Fails `target` once per kept place; the last says how many more there were, and `note` (lines not judged). */
  report(judge: Judge, target: Rule, what: string, note = ""): void {
    this.kept.forEach((place, at) => {
      const last = at === this.kept.length - 1;
      const more = last && this.count > this.kept.length ? ` (and ${this.count - this.kept.length} more ${what})` : "";
      judge.fail(target, `stdout line ${place.line}: ${place.detail}${more}${last ? note : ""}`, { excerpt: place.excerpt });
    });
  }
}

function excerpt(text: string): string {
  return redactText(clipText(text, EXCERPT_CHARS));
}

function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Lines not JSON alone that may be one message spread over lines (pretty-printed). */
interface Run {
  lines: StdoutLine[];
  chars: number;
}

/**
 * What stdout held, line by line: messages (one a line, or spread over lines), lines that are
 * not messages, lines that are not UTF-8. Messages go to `onMessage` as they are read.
 */
class StdoutVerdict {
  readonly stray = new Places();
  readonly spread = new Places();
  readonly notUtf8 = new Places();
  readonly requests = new Places();
  messages = 0;
  /** Lines too long to keep, not judged. */
  clipped = 0;
  #run: Run | undefined;
  readonly #batches: boolean;
  readonly #onMessage: (message: Record<string, unknown>) => void;

  constructor(protocolVersion: string, onMessage: (message: Record<string, unknown>) => void) {
    // JSON-RPC 2.0 §6 batches: allowed by 2025-03-26 alone.
    this.#batches = protocolVersion === "2025-03-26";
    this.#onMessage = onMessage;
  }

  line(line: StdoutLine): void {
    if (!line.utf8) this.notUtf8.add({ line: line.number, excerpt: excerpt(line.text), detail: "its bytes are not valid UTF-8" });
    if (line.clipped) {
      this.#flush();
      this.clipped++;
      return;
    }
    const text = line.text;
    // A blank line carries nothing a client could take for a message (mcpwire's framer skips it).
    if (text.trim() === "") {
      if (this.#run) this.#run.lines.push(line);
      return;
    }
    const whole = parsed(text);
    const why = whole === undefined ? "not JSON" : this.#whyNot(whole.value);
    if (why === undefined) {
      this.#flush();
      this.#message(whole!.value, line.number);
      return;
    }
    const run = this.#run;
    if (run === undefined) {
      // A line that opens an object or an array may be the first of a message spread over lines.
      if (whole === undefined && /^\s*[[{]/.test(text)) this.#run = { lines: [line], chars: text.length };
      else this.stray.add({ line: line.number, excerpt: excerpt(text), detail: whole === undefined ? why : `JSON that is not a JSON-RPC message (${why})` });
      return;
    }
    run.lines.push(line);
    run.chars += text.length + 1;
    // Only a line that closes something can end a message: the others need no attempt.
    if (/^\s*[\]}]/.test(text)) {
      const joined = parsed(run.lines.map((each) => each.text).join("\n"));
      if (joined !== undefined && this.#whyNot(joined.value) === undefined) {
        this.#run = undefined;
        const first = run.lines[0]!.number;
        this.spread.add({
          line: first,
          excerpt: excerpt(run.lines.slice(0, 4).map((each) => each.text).join("\n")),
          detail: `one message spread over ${run.lines.length} lines (${first}–${line.number}): it holds newlines`,
        });
        this.#message(joined.value, first);
        return;
      }
    }
    if (run.lines.length >= RUN_MAX_LINES || run.chars >= RUN_MAX_CHARS) this.#flush();
  }

  /** The output ended: lines still waiting to make a message are not messages. */
  end(): void {
    this.#flush();
  }

  #flush(): void {
    const run = this.#run;
    if (run === undefined) return;
    this.#run = undefined;
    for (const line of run.lines) {
      if (line.text.trim() !== "") this.stray.add({ line: line.number, excerpt: excerpt(line.text), detail: "not JSON" });
    }
  }

  #whyNot(value: unknown): string | undefined {
    if (Array.isArray(value) && this.#batches && value.length > 0) {
      for (const item of value) {
        const why = whyNotJsonRpc(item);
        if (why !== undefined) return `in a batch: ${why}`;
      }
      return undefined;
    }
    return whyNotJsonRpc(value);
  }

  #message(value: unknown, line: number): void {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      this.messages++;
      const message = item as Record<string, unknown>;
      if (typeof message.method === "string" && "id" in message) {
        this.requests.add({ line, excerpt: excerpt(JSON.stringify(message)), detail: `a request ("${clipText(message.method, 80)}")` });
      }
      this.#onMessage(message);
    }
  }
}

/** What the probe saw of the process, as it happened. */
interface Watch {
  exit: ExitStatus | undefined;
  /** Set when the process exited before the probe closed its stdin. */
  exitedOnItsOwn: boolean;
  flooded: boolean;
  stdinClosed: boolean;
  /** Resolved (and replaced) each time something arrives or the process exits. */
  changed: Promise<void>;
  notify(): void;
}

function watch(): Watch {
  let resolve!: () => void;
  const state: Watch = {
    exit: undefined,
    exitedOnItsOwn: false,
    flooded: false,
    stdinClosed: false,
    changed: new Promise<void>((done) => (resolve = done)),
    notify() {
      resolve();
      state.changed = new Promise<void>((done) => (resolve = done));
    },
  };
  return state;
}

/** Waits until `ready()` holds, the process exits or floods, or `ms` pass; returns ready(). */
async function until(state: Watch, ready: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!ready() && state.exit === undefined && !state.flooded) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await within(state.changed, left);
  }
  return ready();
}

/** Writes to stdin; false when the write failed or did not finish in WRITE_WAIT_MS. */
async function write(child: ChildProcess, text: string): Promise<boolean> {
  let ok = false;
  const written = new Promise<void>((resolve) =>
    child.write(text, (error) => {
      ok = error === undefined;
      resolve();
    })
  );
  await within(written, WRITE_WAIT_MS);
  return ok;
}

function firstRequest(context: StdioProbeContext): Record<string, unknown> {
  if (context.era === "modern") {
    // spec 2026-07-28 basic/transports/stdio ("Backward Compatibility"): server/discover first.
    return { jsonrpc: "2.0", id: FIRST_ID, method: "server/discover", params: { _meta: checkRequestMeta(context.protocolVersion) } };
  }
  return {
    jsonrpc: "2.0",
    id: FIRST_ID,
    method: "initialize",
    params: checkInitializeParams(context.protocolVersion),
  };
}

/** A request that any server of the era answers: ping (2025-11-25 basic/utilities/ping), server/discover (2026-07-28, which has no ping). */
function followUp(context: StdioProbeContext): Record<string, unknown> {
  if (context.era === "modern") {
    return { jsonrpc: "2.0", id: FOLLOW_UP_ID, method: "server/discover", params: { _meta: checkRequestMeta(context.protocolVersion) } };
  }
  return { jsonrpc: "2.0", id: FOLLOW_UP_ID, method: "ping" };
}

function describeExit(status: ExitStatus): string {
  return status.signal !== null ? `was killed by ${status.signal}` : `exited with code ${status.code}`;
}

/** Starts the server as StdioTransport.start() would: the same environment policy, wrapSpawn and process group. */
async function start(stdio: StdioTransportOptions, onStdout: (chunk: Uint8Array) => void, onStderr: (chunk: Uint8Array) => void): Promise<ChildProcess> {
  coreRuntime.ensure("processes", `cannot probe stdio "${stdio.command}"`);
  const env = environmentFor(stdio.envMode ?? "baseline", stdio.env);
  const spawn: SpawnCommand = { command: stdio.command, args: stdio.args ?? [], env, ...(stdio.cwd === undefined ? {} : { cwd: stdio.cwd }) };
  const wrapped: WrappedSpawn = stdio.wrapSpawn === undefined ? spawn : await stdio.wrapSpawn(spawn);
  return await coreRuntime.spawn({ command: wrapped.command, args: wrapped.args, env: wrapped.env, cwd: wrapped.cwd, onStdout, onStderr });
}

/**
 * Ends the server as spec 2025-11-25 basic/lifecycle ("Shutdown", stdio) asks a client to: stdin
 * closed, a wait, SIGTERM, a wait, SIGKILL; then whatever is left of its process group. Says
 * what it took. Never throws; the group is gone (or past SIGKILL) when it returns.
 */
async function end(child: ChildProcess, state: Watch): Promise<"exit" | "SIGTERM" | "SIGKILL" | "before"> {
  let took: "exit" | "SIGTERM" | "SIGKILL" | "before" = state.exit === undefined ? "exit" : "before";
  try {
    if (took === "exit") {
      state.stdinClosed = true;
      child.closeStdin();
      if (!(await within(child.exited, EXIT_WAIT_MS))) {
        took = "SIGTERM";
        child.signalGroup("SIGTERM");
        if (!(await within(child.exited, EXIT_WAIT_MS))) {
          took = "SIGKILL";
          child.signalGroup("SIGKILL");
          await within(child.exited, KILL_MARGIN_MS);
        }
      }
    }
  } finally {
    // Grandchildren left in the group: SIGTERM, a moment, SIGKILL (as StdioTransport reaps).
    if (child.groupAlive()) {
      child.signalGroup("SIGTERM");
      for (let waited = 0; waited < REAP_GRACE_MS && child.groupAlive(); waited += 25) await sleep(25);
      if (child.groupAlive()) child.signalGroup("SIGKILL");
    }
    await child.dispose();
  }
  return took;
}

/**
 * Probes a stdio server on its standard streams and reports into `judge` the rules of
 * StdioRules: stdout holds only JSON-RPC messages, one a line, in UTF-8; stderr is counted; a
 * line that is not JSON is answered with -32700 and the server goes on; it exits when its stdin
 * closes; a 2026-07-28 server sends no request. Starts its own process and leaves none behind.
 */
export async function probeStdio(stdio: StdioTransportOptions, context: StdioProbeContext, judge: Judge, options: StdioProbeOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const state = watch();
  const responses = new Map<unknown, Record<string, unknown>>();
  /** Responses to none of our ids: the answer to the line that is not JSON. */
  const others: Record<string, unknown>[] = [];
  const verdict = new StdoutVerdict(context.protocolVersion, (message) => {
    if (typeof message.method === "string") return;
    const id = message.id;
    if (id === FIRST_ID || id === FOLLOW_UP_ID) responses.set(id, message);
    else if (others.length < MAX_PLACES) others.push(message);
    state.notify();
  });
  const lines = new StdoutLines((line) => verdict.line(line));
  const stderr = { lines: 0, bytes: 0, shown: [] as string[], text: new TextDecoder(), buffer: new LineBuffer() };
  const onStderrLine = (line: string) => {
    stderr.lines++;
    if (stderr.shown.length < STDERR_SHOWN && line.trim() !== "") stderr.shown.push(excerpt(line));
  };

  let child: ChildProcess;
  try {
    child = await start(stdio, (chunk) => {
      lines.push(chunk);
      if (lines.bytes > MAX_STDOUT_BYTES && !state.flooded) state.flooded = true;
      state.notify();
    }, (chunk) => {
      stderr.bytes += chunk.length;
      // Lines are counted; only the first few are kept (clipped), whatever the server writes.
      if (stderr.bytes > MAX_STDERR_BYTES) return;
      stderr.buffer.push(stderr.text.decode(chunk, { stream: true }));
      for (let line = stderr.buffer.take(); line !== undefined; line = stderr.buffer.take()) onStderrLine(line);
      if (stderr.buffer.partialLength > 4096) onStderrLine(stderr.buffer.takeText());
    });
  } catch (error) {
    const reason = `the server could not be started again for the probe: ${redactText(clipText(messageOf(error), 500))}`;
    for (const each of Object.values(StdioRules)) judge.skip(each, reason);
    return;
  }
  void child.exited.then((status) => {
    state.exit = status;
    if (!state.stdinClosed) state.exitedOnItsOwn = true;
    state.notify();
  });

  let firstAnswered = false;
  let sentBadLine = false;
  let took: Awaited<ReturnType<typeof end>> = "before";
  try {
    const first = firstRequest(context);
    if (await write(child, JSON.stringify(first) + "\n")) {
      firstAnswered = await until(state, () => responses.has(FIRST_ID), timeoutMs);
    }
    if (firstAnswered && context.era === "legacy") await write(child, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    if (firstAnswered && state.exit === undefined && !state.flooded) {
      // The line that is not JSON, then at once a request that must still be answered: a server
      // that drops the bad line silently is found without waiting out a timeout.
      sentBadLine = await write(child, NOT_JSON + "\n" + JSON.stringify(followUp(context)) + "\n");
      if (sentBadLine) {
        const answered = await until(state, () => responses.has(FOLLOW_UP_ID), timeoutMs);
        if (answered && others.length === 0) await until(state, () => others.length > 0, PARSE_ERROR_GRACE_MS);
      }
    }
  } finally {
    took = await end(child, state);
  }
  lines.end();
  verdict.end();
  const last = stderr.buffer.takeText();
  if (last !== "") onStderrLine(last);

  judgeStdout(judge, verdict, context, lines.lines);
  judgeStderr(judge, stderr.lines, stderr.bytes, stderr.shown);
  const firstMethod = String(firstRequest(context).method);
  if (!firstAnswered) {
    const why = state.exit !== undefined && state.exitedOnItsOwn
      ? `the server ${describeExit(state.exit)} before it answered ${firstMethod}`
      : state.flooded
      ? `the server wrote more than ${MAX_STDOUT_BYTES} bytes to stdout before it answered ${firstMethod}`
      : `the server did not answer ${firstMethod} within ${timeoutMs} ms`;
    for (const each of [StdioRules.parseError, StdioRules.parseErrorId, StdioRules.survivesBadLine]) judge.skip(each, why);
  } else if (!sentBadLine) {
    const why = state.exit !== undefined && state.exitedOnItsOwn
      ? `the server ${describeExit(state.exit)} before the probe could send it a line`
      : state.flooded
      ? `the server flooded stdout (over ${MAX_STDOUT_BYTES} bytes)`
      : "its stdin could not be written";
    for (const each of [StdioRules.parseError, StdioRules.parseErrorId, StdioRules.survivesBadLine]) judge.skip(each, why);
  } else {
    judgeBadLine(judge, others, responses.has(FOLLOW_UP_ID), state, context, timeoutMs);
  }
  judgeExit(judge, took, state);
}

function judgeStdout(judge: Judge, verdict: StdoutVerdict, context: StdioProbeContext, lineCount: number): void {
  const unjudged = lineCount > MAX_LINES ? `; of ${lineCount} lines the first ${MAX_LINES} were judged` : "";
  if (verdict.stray.count === 0) judge.pass(StdioRules.stdoutMessagesOnly);
  else verdict.stray.report(judge, StdioRules.stdoutMessagesOnly, "lines", unjudged);
  if (verdict.spread.count > 0) verdict.spread.report(judge, StdioRules.noEmbeddedNewline, "messages");
  else if (verdict.messages > 0) judge.pass(StdioRules.noEmbeddedNewline);
  else judge.skip(StdioRules.noEmbeddedNewline, "the server wrote no message to stdout");
  if (verdict.notUtf8.count > 0) verdict.notUtf8.report(judge, StdioRules.utf8, "lines");
  else if (lineCount > 0) judge.pass(StdioRules.utf8);
  else judge.skip(StdioRules.utf8, "the server wrote nothing to stdout");
  if (context.era !== "modern") judge.skip(StdioRules.noServerRequests, "a 2026-07-28 rule: a server of the handshake era may send requests");
  else if (verdict.requests.count > 0) verdict.requests.report(judge, StdioRules.noServerRequests, "requests");
  else judge.pass(StdioRules.noServerRequests);
}

function judgeStderr(judge: Judge, lines: number, bytes: number, shown: string[]): void {
  if (lines === 0 && bytes === 0) return judge.pass(StdioRules.stderrLogging);
  const first = shown.length === 0 ? "" : `; it began: ${shown.map((line) => JSON.stringify(line)).join(", ")}`;
  const detail = `for information: the server wrote ${lines} line(s), ${bytes} bytes, to stderr during the probe${first}`;
  judge.fail(StdioRules.stderrLogging, detail, shown[0] === undefined ? undefined : { excerpt: shown[0] });
}

function judgeBadLine(
  judge: Judge,
  others: Record<string, unknown>[],
  followUpAnswered: boolean,
  state: Watch,
  context: StdioProbeContext,
  timeoutMs: number,
): void {
  const sent = { excerpt: NOT_JSON };
  const answer = others[0];
  if (answer === undefined) {
    const after = state.exit !== undefined && state.exitedOnItsOwn ? `; the server ${describeExit(state.exit)}` : "";
    judge.fail(StdioRules.parseError, `the line that is not JSON got no answer${after}`, sent);
    judge.skip(StdioRules.parseErrorId, "the line that is not JSON got no answer");
  } else {
    const error = answer.error;
    const code = isObject(error) ? error.code : undefined;
    const shown = { excerpt: excerpt(JSON.stringify(answer)) };
    if (!isObject(error)) judge.fail(StdioRules.parseError, "the line that is not JSON was answered with a result, not a -32700 error", shown);
    else if (code !== -32700) {
      judge.fail(StdioRules.parseError, `the line that is not JSON was answered with code ${JSON.stringify(code)}, not -32700 (Parse error)`, shown);
    } else judge.pass(StdioRules.parseError);
    // JSON-RPC 2.0 §5: id "MUST be Null" when it could not be read; MCP's schema lets it be left out.
    if (answer.id !== null && answer.id !== undefined) {
      judge.fail(StdioRules.parseErrorId, `the answer carries id ${JSON.stringify(answer.id)}, not null`, shown);
    } else judge.pass(StdioRules.parseErrorId);
  }
  const method = String(followUp(context).method);
  if (followUpAnswered) judge.pass(StdioRules.survivesBadLine);
  else if (state.exit !== undefined && state.exitedOnItsOwn) {
    judge.fail(StdioRules.survivesBadLine, `the server ${describeExit(state.exit)} after the line that is not JSON, without answering ${method}`, sent);
  } else if (state.flooded) judge.skip(StdioRules.survivesBadLine, `the server flooded stdout (over ${MAX_STDOUT_BYTES} bytes)`);
  else judge.fail(StdioRules.survivesBadLine, `${method} sent after the line that is not JSON got no answer within ${timeoutMs} ms`, sent);
}

function judgeExit(judge: Judge, took: "exit" | "SIGTERM" | "SIGKILL" | "before", state: Watch): void {
  if (took === "before") {
    const how = state.exit === undefined ? "ended" : describeExit(state.exit);
    return judge.skip(StdioRules.exitOnStdinClose, `the server ${how} before the probe closed its stdin`);
  }
  if (took === "exit") return judge.pass(StdioRules.exitOnStdinClose);
  const detail = took === "SIGTERM"
    ? `the server was still running ${EXIT_WAIT_MS} ms after its stdin closed; SIGTERM ended it`
    : `the server outlived its stdin closing and SIGTERM (${EXIT_WAIT_MS} ms each); only SIGKILL ended it`;
  judge.fail(StdioRules.exitOnStdinClose, detail);
}
