// `mcpwire replay FILE`: a recorded server (a --trace-file trace) served again as an MCP
// server, on our own stdin and stdout (spec 2025-11-25 basic/transports, "stdio": one JSON-RPC
// message a line, stdout for nothing else) or, with --http PORT, as Streamable HTTP on
// 127.0.0.1. The answers come from the recording (host/trace/replay.ts); nothing in it is executed.
// Every diagnostic goes to stderr, redacted and with control characters made visible.

import { jsonTextDepth } from "../../common/bounded.ts";
import { messageOf } from "../../common/error-text.ts";
import { Recording, ReplayError } from "../../host/trace/replay.ts";
import { REPLAY_HTTP_PATH, serveReplayHttp } from "../../host/trace/replay-http.ts";
import { readTrace } from "../../host/trace/trace-reader.ts";
import { ErrorCode } from "../../jsonrpc/errors.ts";
import { encodeLine } from "../../jsonrpc/line-encoder.ts";
import { type JsonRpcMessage, whyNotJsonRpc } from "../../jsonrpc/messages.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, UsageError } from "../args.ts";
import { lineOf, write } from "../output.ts";

export const REPLAY_USAGE = `usage: mcpwire replay FILE [--server NAME] [--http PORT]

Serves a recorded server again: FILE is a trace that --trace-file wrote (mcpwire inspect
--trace-file, mcpwire call --trace-file, …). Each request is answered from the recording by
its method and params (ids are the new client's; _meta such as progress tokens is ignored);
the notifications the server sent while a request was open (progress, logging) are sent
again before its answer; initialize gets the recorded result, ping gets {}; a request the
recording never saw gets a JSON-RPC error naming the closest recorded one. Several
recorded answers to the same request are replayed in order, then the last repeats.
Requests the recorded server sent to its client (sampling, elicitation, roots/list) are not
sent again: stderr says so. Nothing in the recording is executed.

  mcpwire inspect --json --trace-file session.jsonl --stdio "node server.js"
  mcpwire inspect --json --stdio "mcpwire replay session.jsonl"   # the same, offline

options:
  --server NAME   the server to replay, when the trace holds several
                  (a server given to inspect on the command line is named "")
  --http PORT     serve Streamable HTTP at http://127.0.0.1:PORT${REPLAY_HTTP_PATH} instead of stdio
                  (0: any free port; stderr says which); runs until interrupted

Over stdio, stdout carries only the protocol; it exits 0 when stdin ends.`;

/** The deepest message read from the client. */
const MAX_MESSAGE_DEPTH = 64;
/** How long the HTTP listener may take to close. */
const CLOSE_TIMEOUT_MS = 2_000;

/** One line on stderr: redacted, control characters visible. */
function note(text: string): Promise<void> {
  return write("stderr", `mcpwire replay: ${lineOf(text)}\n`);
}

/** The options `mcpwire replay` takes. */
export const REPLAY_OPTIONS = { server: { kind: "string" }, http: { kind: "string" }, help: { kind: "flag" }, debug: { kind: "flag" } } as const;

export async function replay(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, REPLAY_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", REPLAY_USAGE + "\n");
    return 0;
  }
  const [file, ...extra] = args.positional;
  if (file === undefined) throw new UsageError("replay needs a trace file: mcpwire replay FILE (one that --trace-file wrote)");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const portText = args.values.get("http");
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (!/^\d+$/.test(portText ?? "") || port > 65535)) throw new UsageError(`--http needs a port from 0 to 65535 (got "${portText}")`);
  const trace = await readTrace(file);
  for (const problem of trace.problems.slice(0, 5)) await note(`${file}:${problem.line}: skipped: ${problem.message}`);
  if (trace.problems.length > 5) await note(`${file}: ${trace.problems.length - 5} more lines skipped`);
  let recording: Recording;
  try {
    recording = Recording.fromTrace(trace, args.values.get("server"));
  } catch (error) {
    if (error instanceof ReplayError) throw new UsageError(`${file}: ${error.message}`, "usage", { cause: error });
    throw error;
  }
  return port === undefined ? await serveStdio(recording) : await serveHttp(recording, port);
}

/** Answers the messages of our stdin on our stdout until stdin ends. */
async function serveStdio(recording: Recording): Promise<number> {
  const input = runtime.stdinLines();
  for (;;) {
    const line = await input.readLine();
    if (line === undefined) return 0;
    if (line.trim() === "") continue;
    const message = parseMessage(line);
    if (typeof message === "string") {
      await note(message);
      // JSON-RPC 2.0 §5: a message that cannot be read gets an error with a null id.
      await runtime.write("stdout", encodeLine({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message } } as unknown as JsonRpcMessage));
      continue;
    }
    const reply = recording.reply(message);
    for (const text of reply.notes) await note(text);
    // One write: the notifications and the answer reach the client together, in order.
    if (reply.messages.length > 0) await runtime.write("stdout", reply.messages.map(encodeLine).join(""));
  }
}

/** One message of the client, or why the line is not one. */
function parseMessage(line: string): JsonRpcMessage | string {
  if (jsonTextDepth(line, MAX_MESSAGE_DEPTH + 1) > MAX_MESSAGE_DEPTH) return `a message nested deeper than ${MAX_MESSAGE_DEPTH}: skipped`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `a line that is not JSON (${messageOf(error)}): skipped`;
  }
  const why = whyNotJsonRpc(value);
  return why === undefined ? value as JsonRpcMessage : `a line that is not a JSON-RPC message (${why}): skipped`;
}

/** Serves Streamable HTTP until SIGINT or SIGTERM, then closes the listener (bounded). */
async function serveHttp(recording: Recording, port: number): Promise<number> {
  let listener;
  try {
    listener = await serveReplayHttp(recording, port, (text) => void note(text));
  } catch (error) {
    throw new UsageError(`cannot listen on 127.0.0.1:${port} (${messageOf(error)}); choose another --http port, or 0 for any free one`, "usage", {
      cause: error,
    });
  }
  const name = recording.server === "" ? "the recorded server" : `server ${JSON.stringify(recording.server)}`;
  // Listening for the signals first: one may come as soon as the URL is out.
  const interrupted = new Promise<void>((resolve) => runtime.onInterrupt(() => resolve()));
  await note(`serving ${name} (${recording.exchanges} recorded answers) at http://127.0.0.1:${listener.port}${REPLAY_HTTP_PATH}; stop with Ctrl-C`);
  await interrupted;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([listener.close(), new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))]);
  clearTimeout(timer);
  return 0;
}
