// The page `mcpwire trace html FILE -o session.html` writes: a trace (trace-event.ts, read by
// host/trace/trace-reader.ts) as one self-contained page drawing a sequence diagram — a lane for the client and one per
// server, an arrow per JSON-RPC message (spec 2025-11-25 basic, "Messages": requests, responses
// joined to their request, notifications, server-to-client requests), the HTTP exchange under the
// arrow it carried (spec 2025-11-25 basic/transports, Streamable HTTP), process and lifecycle
// events as marks on the lanes, the time down the side, and a message's JSON on click.
// A trace is untrusted: the page embeds it as JSON in a data block, escaped so it cannot end
// the block, and its script builds the page with textContent only (trace-html-page.ts); a
// Content-Security-Policy allows that one script and style (by hash), no network, nothing else.

import { messageOf } from "../../common/error-text.ts";
import { isObject } from "../../common/json.ts";
import { clipText } from "../../common/preview.ts";
import { sha256Base64 } from "../../common/sha256.ts";
import { terminalLine } from "../../common/terminal-text.ts";
import type { Trace } from "../../host/trace/trace-reader.ts";
import type { MessageTraceEvent, TraceEvent } from "../../transport/trace-event.ts";
import { PAGE_SCRIPT, PAGE_STYLE } from "./trace-html-page.ts";

/** How the page is labelled. */
export interface TraceHtmlOptions {
  /** The page's title and heading: the trace file's name. Default "trace". */
  title?: string;
}

/** Characters of an arrow's or a mark's label, and of its HTTP line (the panel shows all). */
const LABEL_CHARS = 160;
/** SSE event ids shown on one arrow (the panel lists the events joined to it). */
const SSE_IDS_SHOWN = 3;

/** One row of the diagram: an arrow between the client and a server, or a mark on a server's lane. */
interface DiagramRow {
  kind: "message" | "mark";
  t: number;
  /** The server's lane (1…; lane 0 is the client). */
  lane: number;
  /** The event (index into the page's events) the row shows. */
  event: number;
  label: string;
  /**
   * A message: request, answer, error (an error answer), notification, server-request (a
   * request from the server). A mark: lifecycle, process, stderr, http, failed.
   */
  role: string;
  /** A message: its direction and method (a response's: the method of the request it answers; "" when unknown). */
  dir?: "send" | "receive";
  method?: string;
  /** An answer or a progress/task notification: the row of the request it belongs to. */
  pair?: number;
  /** A message: the HTTP exchange that carried it, on one line, and those events (indices). */
  http?: string;
  httpEvents?: number[];
}

/** The diagram the page draws: its lanes and rows. */
interface Diagram {
  lanes: string[];
  rows: DiagramRow[];
}

type HttpEvent = Extract<TraceEvent, { kind: "http" }>;

/** Text for one line of the page: control characters visible, cut at LABEL_CHARS. */
function labelOf(text: string): string {
  return clipText(terminalLine(text), LABEL_CHARS);
}

/** `#3`, `#"a"`. */
function idText(id: unknown): string {
  return `#${typeof id === "number" ? id : JSON.stringify(id)}`;
}

/** What a request is about beyond its method: a tool's or prompt's name, a resource's URI. */
function subjectOf(message: Record<string, unknown>): string {
  const params = message.params;
  if (!isObject(params)) return "";
  const subject = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  return subject === undefined ? "" : ` ${subject}`;
}

/** A message's role and label (`tools/call #5 echo`, `↳ tools/call #5 · 12.0 ms`, `notifications/progress 1/3`). */
function describeMessage(event: MessageTraceEvent): { role: string; label: string } {
  const message = event.message as unknown as Record<string, unknown>;
  const latency = event.latencyMs === undefined ? "" : ` · ${event.latencyMs} ms`;
  if (typeof message.method !== "string") {
    const answers = event.answers ?? (event.method === undefined ? undefined : { id: event.id, method: event.method });
    const head = answers === undefined ? `↳ answer to an unknown request ${idText(event.id ?? message.id)}` : `↳ ${answers.method} ${idText(answers.id)}`;
    if ("error" in message) {
      const error = isObject(message.error) ? message.error : {};
      const code = typeof error.code === "number" ? ` ${error.code}` : "";
      const text = typeof error.message === "string" ? ` ${error.message}` : "";
      return { role: "error", label: labelOf(`${head} error${code}${text}${latency}`) };
    }
    return { role: "answer", label: labelOf(`${head}${latency}`) };
  }
  if ("id" in message) {
    return { role: event.dir === "send" ? "request" : "server-request", label: labelOf(`${message.method} ${idText(message.id)}${subjectOf(message)}`) };
  }
  let label = message.method;
  const params = isObject(message.params) ? message.params : {};
  if (typeof params.progress === "number") label += ` ${params.progress}${typeof params.total === "number" ? `/${params.total}` : ""}`;
  if (event.progressOf !== undefined) label += ` ↳ ${event.progressOf.method} ${idText(event.progressOf.id)}`;
  if (event.taskId !== undefined) label += ` (task ${event.taskId})`;
  return { role: "notification", label: labelOf(label) };
}

/** The MCP headers of an HTTP response event as `Name: value` pairs, values cut short. */
function headersLine(headers: Record<string, string>): string {
  return Object.entries(headers).filter(([name]) => name !== "Content-Type").map(([name, value]) => `${name}: ${clipText(value, 16)}`).join(" · ");
}

/** One line for an HTTP event, on its arrow or as a mark (undefined for a phase of a later version). */
function httpText(event: HttpEvent): string | undefined {
  switch (event.phase) {
    case "response": {
      const type = event.responseHeaders["Content-Type"];
      const sse = type !== undefined && type.startsWith("text/event-stream") ? " (SSE)" : "";
      const headers = headersLine({ ...event.requestHeaders, ...event.responseHeaders });
      return `${event.method} ${event.status}${sse}${event.reconnect ? " reconnect" : ""}${headers === "" ? "" : ` · ${headers}`}`;
    }
    case "body":
      return `${event.status} body: ${event.body}`;
    case "failed":
      return `${event.method} failed: ${event.error}`;
    case "sse-event":
      return `SSE event id ${event.eventId}`;
  }
}

/** A mark's role and label: a process or lifecycle event, or an HTTP event no message was joined to. */
function describeMark(event: Exclude<TraceEvent, MessageTraceEvent>): { role: string; label: string } {
  switch (event.kind) {
    case "lifecycle": {
      const phase = event.phase === "connecting" && (event.attempt ?? 1) > 1 ? `connecting (attempt ${event.attempt})` : event.phase;
      const era = event.era === undefined ? "" : ` ${event.era}`;
      const version = event.protocolVersion === undefined ? "" : ` ${event.protocolVersion}`;
      const reason = event.reason === undefined ? "" : `: ${event.reason}`;
      return { role: event.phase === "failed" ? "failed" : "lifecycle", label: labelOf(`${phase}${era}${version}${reason}`) };
    }
    case "process":
      return processMark(event);
    case "http":
      return {
        role: event.phase === "failed" || ("status" in event && event.status >= 400) ? "failed" : "http",
        label: labelOf(httpText(event) ?? event.phase),
      };
  }
}

/** A process event's mark: spawn, exit, a stderr line (spec 2025-11-25 basic/transports, stdio). */
function processMark(event: Extract<TraceEvent, { kind: "process" }>): { role: string; label: string } {
  switch (event.phase) {
    case "spawn":
      return { role: "process", label: labelOf(`spawn pid ${event.pid}${event.wrapper === undefined ? "" : ` in ${event.wrapper}`}: ${event.command}`) };
    case "spawn-failed":
      return { role: "failed", label: labelOf(`spawn failed: ${event.error}`) };
    case "exit":
      return { role: "process", label: labelOf(event.signal === null ? `exit code ${event.code}` : `exit by ${event.signal}`) };
    case "stderr":
      return { role: "stderr", label: labelOf(`stderr: ${event.line}`) };
  }
  return { role: "process", label: labelOf(`process ${String((event as { phase: unknown }).phase)}`) }; // a phase of a later version
}

/** The key of a request: its server, the direction it went, its id. */
function requestKey(server: string, dir: string, id: unknown): string {
  return `${server}\n${dir}\n${JSON.stringify(id)}`;
}

/**
 * The diagram of a trace: one row per event, in file order, but for HTTP events, which join the
 * message they carried — a POST's response joins the oldest message sent on that server that has
 * none (the one its Mcp-Method header names, when it has one), a 4xx body joins the message of its
 * response, SSE event ids join the next message received — and stand as marks when none fits.
 */
function diagramOf(events: readonly TraceEvent[]): Diagram {
  const lanes = ["client"];
  const laneOf = new Map<string, number>();
  const rows: DiagramRow[] = [];
  const requests = new Map<string, number>();
  const awaitingPost = new Map<string, number[]>();
  const lastPost = new Map<string, { row: number; status: number }>();
  const sse = new Map<string, number[]>();
  const lane = (server: string): number => {
    let index = laneOf.get(server);
    if (index === undefined) {
      index = lanes.push(server === "" ? "(unnamed server)" : labelOf(server)) - 1;
      laneOf.set(server, index);
    }
    return index;
  };
  const join = (row: DiagramRow, index: number, text = ""): void => {
    row.httpEvents = [...(row.httpEvents ?? []), index];
    row.http = labelOf(row.http === undefined ? text : `${row.http} | ${text}`);
  };
  const mark = (event: Exclude<TraceEvent, MessageTraceEvent>, index: number): void => {
    rows.push({ kind: "mark", t: event.t, lane: lane(event.server), event: index, ...describeMark(event) });
  };
  const place = (event: TraceEvent, index: number): void => {
    if (event.kind === "message") {
      const { role, label } = describeMessage(event);
      const row: DiagramRow = { kind: "message", t: event.t, lane: lane(event.server), event: index, label, role, dir: event.dir, method: event.method ?? "" };
      const other = event.dir === "send" ? "receive" : "send";
      const belongs = event.answers ?? event.progressOf ?? (role === "answer" || role === "error" ? { id: event.id } : undefined);
      const pair = belongs === undefined ? undefined : requests.get(requestKey(event.server, other, belongs.id));
      if (pair !== undefined) row.pair = pair;
      if (role === "request" || role === "server-request") requests.set(requestKey(event.server, event.dir, event.id), rows.length);
      if (event.dir === "send" && event.transport !== "stdio") {
        const queue = awaitingPost.get(event.server) ?? [];
        queue.push(rows.length);
        if (queue.length > 1000) queue.shift(); // never answered over HTTP: not kept for ever
        awaitingPost.set(event.server, queue);
      }
      const ids = event.dir === "receive" ? sse.get(event.server) : undefined;
      if (ids !== undefined) {
        const shown = ids.slice(0, SSE_IDS_SHOWN).map((id) => (events[id] as Extract<HttpEvent, { phase: "sse-event" }>).eventId);
        row.httpEvents = ids;
        row.http = labelOf(`SSE id ${shown.join(", ")}${ids.length > SSE_IDS_SHOWN ? ` (+${ids.length - SSE_IDS_SHOWN})` : ""}`);
        sse.delete(event.server);
      }
      rows.push(row);
      return;
    }
    if (event.kind !== "http") return mark(event, index);
    if (event.phase === "sse-event") {
      const pending = sse.get(event.server);
      if (pending === undefined) sse.set(event.server, [index]);
      else pending.push(index);
      return;
    }
    if (event.phase === "body") {
      const last = lastPost.get(event.server);
      if (event.method === "POST" && last !== undefined && last.status === event.status) return join(rows[last.row]!, index, httpText(event));
      return mark(event, index);
    }
    const queue = awaitingPost.get(event.server) ?? [];
    if (event.method !== "POST" || queue.length === 0) return mark(event, index);
    const named = event.phase === "response" ? event.requestHeaders["Mcp-Method"] : undefined;
    const at = Math.max(0, named === undefined ? 0 : queue.findIndex((row) => rows[row]!.method === named));
    const row = queue.splice(at, 1)[0]!;
    join(rows[row]!, index, httpText(event));
    if (event.phase === "response") lastPost.set(event.server, { row, status: event.status });
  };
  events.forEach((event, index) => {
    try {
      place(event, index);
    } catch (error) {
      // A field of the wrong type (the file is untrusted): the event is shown as it is, marked.
      rows.push({
        kind: "mark",
        t: event.t,
        lane: lane(event.server),
        event: index,
        role: "failed",
        label: labelOf(`an event this page cannot draw: ${messageOf(error)}`),
      });
    }
  });
  for (const ids of sse.values()) {
    for (const id of ids) mark(events[id] as HttpEvent, id); // SSE events no message followed: after the rest, with their times
  }
  return { lanes, rows };
}

/**
 * JSON for inside a `<script type="application/json">`: `<`, `>`, `&` and U+2028/2029 written as
 * \u escapes (JSON reads them back as the same characters), so no `</script>` or `<!--` in the
 * data can end or change the block (HTML Living Standard 4.12.1.3, "Restrictions for contents of script elements").
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

let policy: string | undefined;

/**
 * The page's Content-Security-Policy: nothing may load (default-src 'none': no fetch, image,
 * font, frame), only the page's own script and style run (by their SHA-256), no base URL or form
 * target may be set, and Trusted Types forbid every HTML-parsing sink (no innerHTML at all).
 */
function contentSecurityPolicy(): string {
  policy ??= [
    "default-src 'none'",
    `script-src 'sha256-${sha256Base64(PAGE_SCRIPT)}'`,
    `style-src 'sha256-${sha256Base64(PAGE_STYLE)}'`,
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join("; ");
  return policy;
}

/** The HTML page of a trace: one self-contained file (see the top of this file). */
export function renderTraceHtml(trace: Trace, options: TraceHtmlOptions = {}): string {
  const { lanes, rows } = diagramOf(trace.events);
  const data = scriptJson({ title: options.title ?? "trace", lanes, rows, events: trace.events, problems: trace.problems });
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>mcpwire trace</title>",
    `<style>${PAGE_STYLE}</style>`,
    "</head>",
    "<body>",
    "<noscript>This page draws the trace with its own inline script; allow JavaScript for this file to see it.</noscript>",
    `<script type="application/json" id="trace-data">${data}</script>`,
    `<script>${PAGE_SCRIPT}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
