// What `checkServer` is told (docs/check.md): the eras to check, the tools it may call, the
// longest wait, where the trace goes.

import type { ProtocolEra } from "../client/protocol-version.ts";
import type { JsonObject } from "../client/types.ts";
import type { TraceSink } from "../transport/trace-event.ts";

/** A tool `checkServer` is asked to call: its name and arguments (or a function making them from its inputSchema). */
export interface ToolCall {
  name: string;
  arguments?: JsonObject | ((inputSchema: unknown) => JsonObject);
}

/** How `checkServer` checks. */
export interface CheckOptions {
  /** The eras to check: `all` (default) each one the server offers; `auto` the one a client negotiates; or only one. */
  era?: "all" | "auto" | ProtocolEra;
  /** Tools to call, each result checked (tools are never called otherwise). */
  calls?: readonly ToolCall[];
  /** Call every tool annotated readOnlyHint, with arguments made from its inputSchema. */
  callReadOnly?: boolean;
  /** The longest wait for any one answer, in ms. Default 10,000. */
  timeoutMs?: number;
  /** Where the sessions' trace events go (`--trace-file`); message indexes in findings count its message events. */
  trace?: TraceSink;
  /** The server's name, for the trace and the report. */
  name?: string;
  /** Stops the check: what was judged so far is reported. */
  signal?: AbortSignal;
}

/** The defaults a check runs with. */
export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;
