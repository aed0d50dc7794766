// The servers' startup status on a terminal: one line on stderr, redrawn in place, naming the
// servers that are starting and for how long (the wall time since each was spawned, so an `npx`
// download counts), cleared once they are up. Nothing at all when stderr is not a terminal.

import { durationText } from "../common/duration.ts";
import type { McpManager } from "../host/manager.ts";
import { runtime } from "../runtime/mod.ts";
import { fitLine } from "../common/preview.ts";
import { lineOf, writeControl } from "./output.ts";
import { claimLine, type OpenLine, releaseLine } from "./progress.ts";

/** How often the line is redrawn; the first drawing waits this long too, so a quick start shows nothing. */
export const STARTUP_REDRAW_MS = 250;
/** The line's width at most: a line wider than the terminal would wrap, and `\r` could not take it back. */
const STATUS_WIDTH = 78;

/** The startup status line: begin() and end() per server, finish() when the verb stops starting servers. */
export class StartupStatus implements OpenLine {
  readonly #write: (text: string) => void;
  readonly #terminal: boolean;
  readonly #now: () => number;
  /** Server → when it began starting (ms, #now's clock), in the order they began. */
  readonly #starting = new Map<string, number>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #drawn = false;

  constructor(write: (text: string) => void, terminal: boolean, now: () => number = () => performance.now()) {
    this.#write = write;
    this.#terminal = terminal;
    this.#now = now;
  }

  /** `server` is being started (its process spawned, or its URL asked). */
  begin(server: string): void {
    if (!this.#terminal) return;
    this.#starting.set(server, this.#now());
    this.#timer ??= setInterval(() => this.draw(), STARTUP_REDRAW_MS);
  }

  /** `server` is up, or has given up: it leaves the line; the line is cleared when none is left. */
  end(server: string): void {
    if (!this.#starting.delete(server)) return;
    if (this.#starting.size === 0) this.finish();
    else if (this.#drawn) this.draw();
  }

  /** The line as it reads now: `starting everything (1.2 s), slow (6 s)…`; empty when nothing is starting. */
  text(): string {
    const now = this.#now();
    const parts = [...this.#starting].map(([server, since]) => `${lineOf(server)} (${durationText(now - since)})`);
    return parts.length === 0 ? "" : fitLine(`starting ${parts.join(", ")}…`, STATUS_WIDTH);
  }

  /** Redraws the line in place (`\r`, the text, `\x1b[K` to clear what a longer line left). */
  draw(): void {
    const text = this.text();
    if (text === "") return;
    claimLine(this);
    this.#write(`\r${text}\x1b[K`);
    this.#drawn = true;
  }

  /** Something else writes to stderr: the line is cleared, and drawn again at the next tick, below it. */
  interrupt(): void {
    if (this.#drawn) this.#write("\r\x1b[K");
    this.#drawn = false;
    releaseLine(this);
  }

  /** No more servers to wait for: the timer stops and the line is cleared. */
  finish(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#starting.clear();
    this.interrupt();
  }
}

/** A status line on this process's stderr (drawn only when it is a terminal). */
export function stderrStartupStatus(): StartupStatus {
  return new StartupStatus((text) => void writeControl("stderr", text), runtime.isTerminal("stderr"));
}

/**
 * Starts `servers` of `manager` at once, with the status line while any is starting; resolves
 * when each is ready or has given up (manager.status() says which).
 */
export async function startServers(manager: McpManager, servers: readonly string[], status: StartupStatus = stderrStartupStatus()): Promise<void> {
  try {
    await Promise.all(servers.map(async (server) => {
      status.begin(server);
      try {
        await manager.startServer(server);
      } finally {
        status.end(server);
      }
    }));
  } finally {
    status.finish();
  }
}
