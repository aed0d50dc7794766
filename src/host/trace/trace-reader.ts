// Reading a trace back: a JSON Lines file that `--trace-file` wrote (trace-file.ts), one event
// a line (trace-event.ts, version 1), for `trace show`, `trace html`, `trace diff` and `replay`.
// A trace file is untrusted input (it may come from someone else): its size and each event's
// depth are bounded, a line that is not an event is skipped and reported with its line number
// (a crash may leave half a line at the end), and a version this reader does not know is
// refused, since a new version changes what a field means.

import { jsonTextDepth } from "../../common/bounded.ts";
import { messageOf } from "../../common/error-text.ts";
import { isObject } from "../../common/json.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import { runtime } from "../../runtime/mod.ts";
import { TRACE_EVENT_VERSION, type TraceEvent } from "../../transport/trace-event.ts";

/** The largest trace file read, in characters (a session of ~100,000 messages). */
export const MAX_TRACE_CHARS = 256 * 1024 * 1024;
/** The deepest event read: a traced message was already cut at the tracer's bound, so a deeper line was not written by us. */
export const MAX_TRACE_EVENT_DEPTH = 80;

/** The kinds of event version 1 has; a line of another kind is skipped (a later version may add kinds). */
const KINDS: ReadonlySet<string> = new Set(["message", "http", "process", "lifecycle"]);

/**
 * Why a trace could not be read:
 * - `trace-unreadable`: the file could not be read (missing, a directory, no permission);
 * - `trace-too-large`: it is over MAX_TRACE_CHARS;
 * - `trace-version`: it was written in a version of the event model this reader does not know.
 */
export type TraceReadErrorCode = "trace-unreadable" | "trace-too-large" | "trace-version";

/** A trace file that cannot be read at all (a line that is not an event is a problem, not an error). */
export class TraceReadError extends McpwireError<TraceReadErrorCode> {
  override readonly name = "TraceReadError";
  /** The file, as given. */
  readonly path: string;
  constructor(message: string, code: TraceReadErrorCode, options: { path: string; cause?: unknown }) {
    super(message, code, options);
    this.path = options.path;
  }
}

/** A line of a trace that was skipped, and why. */
export interface TraceProblem {
  /** 1-based. */
  line: number;
  message: string;
}

/** The events of a trace in file order, and the lines skipped. */
export interface Trace {
  events: TraceEvent[];
  problems: TraceProblem[];
}

/** Reads the trace file at `path`. Rejects with TraceReadError when the file cannot be read as a whole. */
export async function readTrace(path: string): Promise<Trace> {
  let text: string;
  try {
    text = await runtime.readTextFile(path);
  } catch (error) {
    throw new TraceReadError(`trace file ${path}: cannot read it (${messageOf(error)}); give a file that --trace-file wrote`, "trace-unreadable", {
      path,
      cause: error,
    });
  }
  return parseTrace(text, path);
}

/** The events of trace text (JSON Lines); `path` names it in messages. Throws TraceReadError for a size or version it cannot read. */
export function parseTrace(text: string, path = "(trace)"): Trace {
  if (text.length > MAX_TRACE_CHARS) {
    throw new TraceReadError(
      `trace file ${path}: ${text.length} characters, over the ${MAX_TRACE_CHARS} this reader takes; cut it (one event a line) and read the parts`,
      "trace-too-large",
      { path },
    );
  }
  const events: TraceEvent[] = [];
  const problems: TraceProblem[] = [];
  let number = 0;
  for (const line of text.split("\n")) {
    number++;
    if (line.trim() === "") continue;
    const why = eventProblem(line);
    if (typeof why === "string") {
      problems.push({ line: number, message: why });
      continue;
    }
    if (why.v !== TRACE_EVENT_VERSION) {
      throw new TraceReadError(
        `trace file ${path}:${number}: written in version ${
          JSON.stringify(why.v)
        } of the trace event model; this mcpwire reads version ${TRACE_EVENT_VERSION}: use the mcpwire that wrote it`,
        "trace-version",
        { path },
      );
    }
    if (!KINDS.has(why.kind)) continue; // a later version's kind: ignored, as the model says
    events.push(why as unknown as TraceEvent);
  }
  return { events, problems };
}

/** The event on one line, or why it is not one. */
function eventProblem(line: string): string | { v: unknown; kind: string; [field: string]: unknown } {
  if (jsonTextDepth(line, MAX_TRACE_EVENT_DEPTH + 1) > MAX_TRACE_EVENT_DEPTH) return `nested deeper than ${MAX_TRACE_EVENT_DEPTH}: not an event mcpwire wrote`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `not JSON (${messageOf(error)}): a line cut short, or not a trace file`;
  }
  if (!isObject(value)) return "not a JSON object";
  if (typeof value.kind !== "string") return "no `kind`: not a trace event";
  if (value.v === TRACE_EVENT_VERSION) {
    if (typeof value.t !== "number" || !Number.isFinite(value.t)) return "no time `t`";
    if (typeof value.server !== "string") return "no `server`";
    if (value.kind === "message" && !isObject(value.message)) return "a message event without its `message`";
    if (value.kind === "message" && value.dir !== "send" && value.dir !== "receive") return "a message event whose `dir` is neither send nor receive";
  }
  return { ...value, v: value.v, kind: value.kind };
}
