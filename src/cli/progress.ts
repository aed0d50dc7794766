// Shows a tool call's progress on stderr: a redrawn bar on a terminal, plain lines otherwise
// — spec 2025-11-25 basic/utilities/progress (total may be unknown; message is optional); and
// the status of a call that runs as a task (spec 2025-11-25 basic/utilities/tasks) the same way.

import type { TaskStatusUpdate } from "../client/tasks/tasks.ts";
import type { Progress } from "../jsonrpc/peer.ts";
import { lineOf } from "./output.ts";

const BAR_WIDTH = 24;

/** A line being redrawn in place on the terminal: a progress bar, the servers' startup status (startup-status.ts). */
export interface OpenLine {
  /** Something else is about to write to stderr: end or clear the line so that it starts on a fresh one. */
  interrupt(): void;
}

/** The line open on the terminal, if any. */
let openBar: OpenLine | undefined;

/** Something else is about to write to stderr (a log line, a prompt): end an open bar's line first. */
export function interruptProgress(): void {
  openBar?.interrupt();
}

/** `line` is drawn on the terminal now (another open line is interrupted first). */
export function claimLine(line: OpenLine): void {
  if (openBar !== line) openBar?.interrupt();
  openBar = line;
}

/** `line` is no longer drawn. */
export function releaseLine(line: OpenLine): void {
  if (openBar === line) openBar = undefined;
}

export class ProgressDisplay implements OpenLine {
  readonly #write: (text: string) => void;
  readonly #terminal: boolean;
  #drawn = false;

  constructor(write: (text: string) => void, terminal: boolean) {
    this.#write = write;
    this.#terminal = terminal;
  }

  update({ progress, total, message }: Progress): void {
    const known = total !== undefined && total > 0;
    const ratio = known ? Math.min(1, Math.max(0, progress / total)) : 0;
    // The numbers and the message are the server's: one line, control characters visible.
    const amount = lineOf(known ? `${Math.round(ratio * 100)}% (${progress}/${total})` : `${progress}`);
    const text = message ? ` ${lineOf(message)}` : "";
    if (!this.#terminal) {
      this.#write(`progress ${amount}${text}\n`);
      return;
    }
    const bar = known
      ? "#".repeat(Math.round(ratio * BAR_WIDTH)).padEnd(BAR_WIDTH, ".")
      : "~".repeat((Number.isFinite(progress) ? Math.abs(Math.trunc(progress)) % BAR_WIDTH : 0) + 1).padEnd(BAR_WIDTH, " ");
    // \r returns to the line start, \x1b[K clears what a longer previous line left.
    claimLine(this);
    this.#write(`\r[${bar}] ${amount}${text}\x1b[K`);
    this.#drawn = true;
  }

  /**
   * A task's status changed: a line per change off a terminal (`task <id>: working — Gathering
   * sources...`), the redrawn line on one. The id, status and message are the server's text.
   */
  task({ taskId, status, statusMessage }: TaskStatusUpdate): void {
    const text = `task ${lineOf(taskId)}: ${lineOf(status)}${statusMessage ? ` — ${lineOf(statusMessage)}` : ""}`;
    if (!this.#terminal) {
      this.#write(`${text}\n`);
      return;
    }
    claimLine(this);
    this.#write(`\r${text}\x1b[K`);
    this.#drawn = true;
  }

  interrupt(): void {
    this.finish();
  }

  /** Ends the bar's line so that what follows starts on a fresh one. */
  finish(): void {
    if (this.#drawn) this.#write("\n");
    this.#drawn = false;
    releaseLine(this);
  }
}
