// The servers' startup status on a terminal: one line on stderr, redrawn in place, naming the
// servers that are starting and for how long (the wall time since each was spawned, so an `npx`
// download counts), which attempt a retried one is at, and those that failed to start while
// others still start; cleared once none is starting. Nothing at all when stderr is not a terminal.

import { durationText } from "../../common/duration.ts";
import { fitLine } from "../../common/preview.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import { runtime } from "../../runtime/mod.ts";
import { lineOf, writeControl } from "../output.ts";
import { claimLine, type OpenLine, releaseLine } from "../progress.ts";

/** How often the line is redrawn; the first drawing waits this long too, so a quick start shows nothing. */
export const STARTUP_REDRAW_MS = 250;
/** The line's width at most: a line wider than the terminal would wrap, and `\r` could not take it back. */
const STATUS_WIDTH = 78;

/** The startup status line: begin() and end() per server, finish() when the verb stops starting servers. */
export class StartupStatus implements OpenLine {
  readonly #write: (text: string) => void;
  readonly #terminal: boolean;
  readonly #now: () => number;
  /** Server → when it began starting (ms, #now's clock) and, once retried, its attempt; in the order they began. */
  readonly #starting = new Map<string, { since: number; attempt?: string }>();
  /** Servers that gave up starting while others still start. */
  readonly #failed: string[] = [];
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
    this.#starting.set(server, { since: this.#now() });
    this.#timer ??= setInterval(() => this.draw(), STARTUP_REDRAW_MS);
  }

  /** `server`'s attempt `attempt` of `attempts` is next (an earlier one failed); the line says so from now on. */
  retry(server: string, attempt: number, attempts: number): void {
    const starting = this.#starting.get(server);
    if (starting === undefined) return;
    starting.attempt = `attempt ${attempt} of ${attempts}`;
    if (this.#drawn) this.draw();
  }

  /** `server` is up (`failed` false), or has given up: it leaves the line, which is cleared when none is left. */
  end(server: string, failed = false): void {
    if (!this.#starting.delete(server)) return;
    if (failed) this.#failed.push(server);
    if (this.#starting.size === 0) this.finish();
    else if (this.#drawn) this.draw();
  }

  /** The line as it reads now: `starting everything (1.2 s), slow (6 s, attempt 2 of 4)…; broken failed`; empty when nothing is starting. */
  text(): string {
    const now = this.#now();
    const parts = [...this.#starting].map(([server, { since, attempt }]) =>
      `${lineOf(server)} (${durationText(now - since)}${attempt === undefined ? "" : `, ${attempt}`})`
    );
    if (parts.length === 0) return "";
    const failed = this.#failed.length === 0 ? "" : `; ${this.#failed.map(lineOf).join(", ")} failed`;
    return fitLine(`starting ${parts.join(", ")}…${failed}`, STATUS_WIDTH);
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
    this.#failed.length = 0;
    this.interrupt();
  }
}

/** A status line on this process's stderr (drawn only when it is a terminal). */
export function stderrStartupStatus(): StartupStatus {
  return new StartupStatus((text) => void writeControl("stderr", text), runtime.isTerminal("stderr"));
}

/**
 * Starts `servers` of `manager` at once, with the status line while any is starting (a retry
 * shows its attempt, a server that gave up shows as failed); resolves when each is ready or has
 * given up (manager.status() says which).
 */
export async function startServers(manager: McpManager, servers: readonly string[], status: StartupStatus = stderrStartupStatus()): Promise<void> {
  const stopRetries = manager.on("connectfailed", ({ server, attempt, attempts, retryInMs }) => {
    if (retryInMs !== undefined) status.retry(server, attempt + 1, attempts);
  });
  try {
    await Promise.all(servers.map(async (server) => {
      status.begin(server);
      let ready = false;
      try {
        await manager.startServer(server);
        ready = manager.status().some((each) => each.name === server && each.state === "ready");
      } finally {
        status.end(server, !ready);
      }
    }));
  } finally {
    stopRetries();
    status.finish();
  }
}
