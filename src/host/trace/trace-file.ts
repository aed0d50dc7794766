// A trace written to a file as JSON Lines (trace-event.ts): one event a line, each handed to the
// OS as it happens, so a crash keeps everything traced before it. The file is its owner's alone
// (mode 0600): events are redacted, but a trace still shows what a session did.

import { messageOf } from "../../common/error-text.ts";
import { runtime } from "../../runtime/mod.ts";
import type { TraceEvent, TraceSink } from "../../transport/trace-event.ts";

/** An open trace file: its sink, and how to close it. */
export interface TraceFile {
  readonly path: string;
  /** Writes one event as one line. A failed write stops the file (see `failure`); it never throws. */
  readonly sink: TraceSink;
  /** Why writing stopped (disk full, …), if it did. */
  readonly failure: string | undefined;
  close(): void;
}

/** One event as JSON; a message too deep for JSON.stringify is written as its envelope, marked. */
function eventLine(event: TraceEvent): string {
  try {
    return JSON.stringify(event);
  } catch {
    const message = event.kind === "message" ? { jsonrpc: "2.0", redactedText: "[too deep to write as JSON]" } : undefined;
    return JSON.stringify({ ...event, ...(message === undefined ? {} : { message }) });
  }
}

/** Starts a new trace file at `path` (an existing one is replaced). Rejects with the runtime's FileError. */
export async function openTraceFile(path: string): Promise<TraceFile> {
  const log = await runtime.openPrivateLog(path);
  let failure: string | undefined;
  return {
    path,
    get failure() {
      return failure;
    },
    sink(event) {
      if (failure !== undefined) return;
      try {
        log.append(eventLine(event) + "\n");
      } catch (error) {
        failure = messageOf(error);
        log.close();
      }
    },
    close() {
      log.close();
    },
  };
}
