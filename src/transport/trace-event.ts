// The trace event model (version 1): what `--trace`, `--trace-file` and later `trace show`,
// `trace html` and `replay` read — every JSON-RPC message, HTTP exchange, process event and
// lifecycle step of a session, redacted, stamped with the time since the session started.
// Defined here, in the lowest layer that produces events (transports); host and CLI add the
// lifecycle events and write the sinks.
//
// Every event is one JSON object (one line of a --trace-file, JSON Lines):
//   { "v": 1, "t": 12.3, "wall": "2026-…Z", "server": "everything", "transport": "stdio", "kind": "message", … }
// A reader checks `v` first: a later version may add fields and kinds (ignore what you do not
// know), and changes the version when a field changes meaning.

import type { JsonRpcMessage, RequestId } from "../jsonrpc/messages.ts";

/** The version of the trace event model: `v` of every event. */
export const TRACE_EVENT_VERSION = 1;

/**
 * The transport an event went over: `stdio`, `streamable-http`, `sse` (the legacy HTTP+SSE
 * transport, 2024-11-05), `auto` (an HTTP URL before it chose), `memory`; another name for a
 * transport of the embedder's own.
 */
export type TraceTransportName = "stdio" | "streamable-http" | "sse" | "auto" | "memory" | (string & Record<never, never>);

/** What every trace event has. */
export interface TraceEventBase {
  /** The version of the model (TRACE_EVENT_VERSION). */
  v: typeof TRACE_EVENT_VERSION;
  /** Milliseconds since the session (the command, the manager) started, to 0.1 ms. */
  t: number;
  /** The wall-clock time, ISO 8601 in UTC. */
  wall: string;
  /** The server's name (its config key); "" when none was given. */
  server: string;
  transport: TraceTransportName;
}

/** A request a message belongs to: its id and method. */
export interface TracedRequest {
  id: RequestId;
  method: string;
}

/**
 * One JSON-RPC message crossing the wire (spec 2025-11-25 basic, "Messages"), as it was sent
 * or received, redacted: no credential the connection knows, nor anything shaped like one.
 */
export interface MessageTraceEvent extends TraceEventBase {
  kind: "message";
  /** `send`: from us to the server; `receive`: from the server to us. */
  dir: "send" | "receive";
  /**
   * The method: of a request or notification, its own; of a response, the method of the
   * request it answers (absent when that request was not seen, e.g. an unknown id).
   */
  method?: string;
  /** The id of a request or a response. */
  id?: RequestId;
  /** A response: the request it answers (`↳ answer to tools/call #3`). */
  answers?: TracedRequest;
  /** A response: milliseconds from its request crossing the wire to the answer crossing back. */
  latencyMs?: number;
  /**
   * notifications/progress: the request its progress token was given with (spec 2025-11-25
   * basic/utilities/progress: the token is chosen by the requester in `_meta.progressToken`).
   */
  progressOf?: TracedRequest;
  /** A task-status notification (spec 2025-11-25 basic/utilities/tasks): the task it is about. */
  taskId?: string;
  /** Characters of the message's JSON (as traced: redacted, and cut past the tracer's limit). */
  size: number;
  /** The message, redacted (its envelope alone, with `redactedText`, when it was too large to copy). */
  message: JsonRpcMessage;
}

/**
 * The MCP headers an HTTP event shows (spec 2025-11-25 basic/transports, 2026-07-28
 * streamable-http, basic/authorization), by their names as written here; values redacted.
 */
export const TRACED_HTTP_HEADERS = [
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
  "Last-Event-ID",
  "WWW-Authenticate",
  "Retry-After",
  "Content-Type",
] as const;

/**
 * What an HTTP transport reports to its observer (the `kind: "http"` event without the common
 * fields). Every text has passed through the transport's redactor (its configured header
 * values, the host's secrets, credential shapes); Authorization and other credential headers
 * are never among the headers shown.
 * - `response`: a request's response head arrived: its method, URL, status and MCP headers;
 *   `reconnect` marks a GET that resumes an SSE stream (it carried Last-Event-ID).
 * - `body`: the start of a 4xx body (at most 2,000 characters): the answer that decides a
 *   fallback to the legacy transport or the era (400 to server/discover), or a session renewal (404).
 * - `failed`: no response (connection refused, reset, aborted).
 * - `sse-event`: an SSE event with an id arrived (the cursor a reconnect resumes from).
 */
export type HttpTraceDetail =
  | {
    kind: "http";
    phase: "response";
    method: string;
    url: string;
    status: number;
    /** The MCP headers we sent (TRACED_HTTP_HEADERS), redacted. */
    requestHeaders: Record<string, string>;
    /** The MCP headers the server answered with, redacted. */
    responseHeaders: Record<string, string>;
    reconnect?: boolean;
  }
  | { kind: "http"; phase: "body"; method: string; url: string; status: number; body: string }
  | { kind: "http"; phase: "failed"; method: string; url: string; error: string }
  | { kind: "http"; phase: "sse-event"; url: string; eventId: string; event: string };

/** Something an HTTP transport saw on the wire; set as its `observer` option (zero cost when absent). */
export type HttpObserver = (detail: HttpTraceDetail) => void;

/**
 * What the stdio transport reports to its observer (the `kind: "process"` event without the
 * common fields): spec 2025-11-25 basic/transports ("stdio": the server's stderr is for logging).
 * - `spawn`: the child started: its command line (redacted), pid and working directory;
 * - `spawn-failed`: it could not start (`error` says why);
 * - `exit`: it ended: exit code, or the signal that ended it;
 * - `stderr`: one line it wrote to stderr (redacted).
 */
export type ProcessTraceDetail =
  | { kind: "process"; phase: "spawn"; command: string; pid: number; cwd?: string; wrapper?: string }
  | { kind: "process"; phase: "spawn-failed"; command: string; error: string }
  | { kind: "process"; phase: "exit"; pid: number; code: number | null; signal: string | null }
  | { kind: "process"; phase: "stderr"; pid?: number; line: string };

/** Something the stdio transport saw of its child; set as its `observer` option (zero cost when absent). */
export type ProcessObserver = (detail: ProcessTraceDetail) => void;

/**
 * A step of the connection's life, from the host (it watches the Client's state changes):
 * spec 2025-11-25 basic/lifecycle, and the era negotiation of 2026-07-28 basic/versioning.
 * - `connecting`: a connect begins (`attempt` counts retries and reconnects);
 * - `era`: the era is chosen: `modern` (2026-07-28, stateless) or `legacy` (the initialize
 *   handshake), with `protocolVersion` and `reason` (the probe's answer, a fallback, a pin, a cached era);
 * - `ready`: the server can be used;
 * - `reconnect`: the connection was lost and is being made again (`reason`);
 * - `failed`: a connect attempt failed (`reason`);
 * - `close`: the connection ended (`reason`).
 */
export interface LifecycleTraceDetail {
  kind: "lifecycle";
  phase: "connecting" | "era" | "ready" | "reconnect" | "failed" | "close";
  era?: "modern" | "legacy";
  protocolVersion?: string;
  reason?: string;
  attempt?: number;
}

/** One trace event: a message, an HTTP exchange, a process event or a lifecycle step. */
export type TraceEvent =
  | MessageTraceEvent
  | (TraceEventBase & HttpTraceDetail)
  | (TraceEventBase & ProcessTraceDetail)
  | (TraceEventBase & LifecycleTraceDetail);

/** Where trace events go (a JSON Lines file, a terminal formatter, a test's array). It must not throw. */
export type TraceSink = (event: TraceEvent) => void;

/** What is known of one traced session: where events go, when it started, which server and transport. */
export interface TraceOrigin {
  sink: TraceSink;
  /** `performance.now()` when the session started: `t` counts from it. */
  startedAt: number;
  server: string;
  /** The transport's name, read when each event is made (an `auto` transport learns it late). */
  transport: () => TraceTransportName;
}

/** The common fields of an event of `origin`, stamped now. */
export function traceStamp(origin: TraceOrigin): TraceEventBase {
  const t = Math.round((performance.now() - origin.startedAt) * 10) / 10;
  return { v: TRACE_EVENT_VERSION, t, wall: new Date().toISOString(), server: origin.server, transport: origin.transport() };
}

/** Stamps `detail` and hands it to the origin's sink; a sink that throws is not our caller's problem. */
export function emitTrace(origin: TraceOrigin, detail: HttpTraceDetail | ProcessTraceDetail | LifecycleTraceDetail): void {
  try {
    origin.sink({ ...traceStamp(origin), ...detail } as TraceEvent);
  } catch {
    // A trace never breaks the connection it watches.
  }
}

/** The traced headers present in `headers` (names as TRACED_HTTP_HEADERS writes them), each value passed through `redact`. */
export function tracedHeaders(headers: Headers, redact: (text: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of TRACED_HTTP_HEADERS) {
    const value = headers.get(name);
    if (value !== null) out[name] = redact(value);
  }
  return out;
}
