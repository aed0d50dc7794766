// `--trace` on a terminal: each trace event (transport/trace-event.ts) as one readable line on
// stderr — time, arrow, server, method or `↳ answer to tools/call #3`, latency, size, a short
// preview — and with `--trace=full` the message's JSON pretty-printed under it. Everything a
// server sent is redacted and has its control characters made visible (output.ts).

import { clipText } from "../../common/preview.ts";
import type { TraceEvent } from "../../transport/trace-event.ts";
import { boundedText, dataLine, LINE_BOUNDS, lineOf, textOf, TRACE_BOUNDS } from "../output.ts";

/** `short`: one line per event; `full`: a message's JSON pretty-printed under its line. */
export type TraceMode = "short" | "full";

/** Characters of a message's preview on its line. */
const PREVIEW_CHARS = 100;

/** `1.2 KB`, `96 B`: a message's size. */
function sizeText(chars: number): string {
  return chars < 1000 ? `${chars} B` : chars < 1_000_000 ? `${(chars / 1000).toFixed(1)} KB` : `${(chars / 1_000_000).toFixed(1)} MB`;
}

/** A message's preview: its params, result or error, on one line, cut at PREVIEW_CHARS. */
function previewOf(message: Record<string, unknown>): string {
  const body = "params" in message ? message.params : "result" in message ? message.result : "error" in message ? message.error : undefined;
  if (body === undefined) return "";
  return clipText(dataLine(body, { ...LINE_BOUNDS, maxChars: 4 * PREVIEW_CHARS }), PREVIEW_CHARS);
}

/** `#3`, `#"a"`: a request id as shown. */
function idText(id: unknown): string {
  return `#${typeof id === "number" ? id : lineOf(JSON.stringify(id))}`;
}

/** What a message is: its method and id, the request it answers, the request or task it belongs to. */
function messageHead(event: Extract<TraceEvent, { kind: "message" }>): string {
  const message = event.message as unknown as Record<string, unknown>;
  if (event.answers !== undefined) {
    const failed = "error" in message ? " (error)" : "";
    return `↳ answer to ${lineOf(event.answers.method)} ${idText(event.answers.id)}${failed}`;
  }
  if (event.method === undefined) return event.id === undefined ? "(message)" : `↳ answer to an unknown request ${idText(event.id)}`;
  let head = lineOf(event.method);
  if (event.id !== undefined) head += ` ${idText(event.id)}`;
  if (event.progressOf !== undefined) head += ` (for ${lineOf(event.progressOf.method)} ${idText(event.progressOf.id)})`;
  if (event.taskId !== undefined) head += ` (task ${lineOf(event.taskId)})`;
  return head;
}

/** The MCP headers of an http event as `Name: value` pairs. */
function headersText(headers: Record<string, string>): string {
  return Object.entries(headers).map(([name, value]) => `${name}: ${lineOf(value)}`).join("  ");
}

/** One event as text for a terminal: one line (`full`: and a message's JSON under it), no trailing newline. */
export function formatTraceEvent(event: TraceEvent, mode: TraceMode = "short"): string {
  const time = `${event.t.toFixed(1).padStart(9)} ms`;
  const server = lineOf(event.server === "" ? "-" : event.server);
  switch (event.kind) {
    case "message": {
      const arrow = event.dir === "send" ? "→" : "←";
      const latency = event.latencyMs === undefined ? "" : `  ${event.latencyMs.toFixed(1)} ms`;
      const line = `${time} ${arrow} ${server}  ${messageHead(event)}${latency}  (${sizeText(event.size)})`;
      if (mode === "full") return `${line}\n${indent(textOf(boundedText(event.message, { ...TRACE_BOUNDS, indent: 2 })))}`;
      const preview = previewOf(event.message as unknown as Record<string, unknown>);
      return preview === "" ? line : `${line}  ${preview}`;
    }
    case "http": {
      const head = `${time} ⇄ ${server}  HTTP`;
      switch (event.phase) {
        case "response": {
          const sent = headersText(event.requestHeaders);
          const got = headersText(event.responseHeaders);
          return `${head} ${lineOf(String(event.method))} ${lineOf(event.url)} → ${lineOf(String(event.status))}${event.reconnect ? " (reconnect)" : ""}` +
            (sent === "" ? "" : `  sent ${sent}`) + (got === "" ? "" : `  got ${got}`);
        }
        case "body":
          return `${head} ${lineOf(String(event.status))} body of ${lineOf(String(event.method))} ${lineOf(event.url)}: ${
            dataLine(event.body, { ...LINE_BOUNDS, maxChars: 300 })
          }`;
        case "failed":
          return `${head} ${lineOf(String(event.method))} ${lineOf(event.url)} failed: ${lineOf(event.error)}`;
        case "sse-event":
          return `${head} SSE event id ${lineOf(event.eventId)} (${lineOf(event.event)}) on ${lineOf(event.url)}`;
      }
      break;
    }
    case "process": {
      const head = `${time} • ${server}  process`;
      switch (event.phase) {
        case "spawn":
          return `${head} started${event.wrapper === undefined ? "" : ` in ${lineOf(event.wrapper)}`}, pid ${lineOf(String(event.pid))}: ${
            lineOf(event.command)
          }${event.cwd === undefined ? "" : ` (in ${lineOf(event.cwd)})`}`;
        case "spawn-failed":
          return `${head} could not start ${lineOf(event.command)}: ${lineOf(event.error)}`;
        case "exit":
          return `${head} ${lineOf(String(event.pid))} ${
            event.signal !== null ? `killed by ${lineOf(String(event.signal))}` : `exited with code ${lineOf(String(event.code))}`
          }`;
        case "stderr":
          return `${head} stderr: ${lineOf(event.line)}`;
      }
      break;
    }
    case "lifecycle": {
      const parts = [`${time} • ${server}  ${event.phase}`];
      if (event.attempt !== undefined) parts.push(`(attempt ${event.attempt})`);
      if (event.era !== undefined) parts.push(event.era);
      if (event.protocolVersion !== undefined) parts.push(lineOf(event.protocolVersion));
      if (event.reason !== undefined) parts.push(`— ${lineOf(event.reason)}`);
      return `${parts.join(" ")} [${lineOf(event.transport)}]`;
    }
  }
  return `${time} ? ${server}`;
}

function indent(text: string): string {
  return text.split("\n").map((line) => `             ${line}`).join("\n");
}
