// One timer for the deadlines of every pending request, instead of a setTimeout each — the
// clock behind MCP spec 2025-11-25 basic/lifecycle ("Timeouts": an idle timeout that progress
// may restart, and a maximum it cannot pass).

import { runtime } from "../runtime/mod.ts";

/** Something with a deadline, in ms since the epoch (Date.now()); Infinity: none. */
export interface HasDeadline {
  deadline: number;
}

/** setTimeout holds a signed 32-bit delay; a longer one fires at once, so wait in steps. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Watches entries' deadlines with one setTimeout, armed for the earliest one it knows of.
 *
 * A sequential caller sends a request, gets its answer, sends the next: with a timer per
 * request that is a setTimeout and a clearTimeout per call. Here a new deadline later than the
 * armed one (the usual case: the same timeout, started later) arms nothing, and an answer only
 * forgets its entry. When the timer fires it expires what is due and re-arms for the earliest
 * deadline left, so each deadline is still met. With nothing left to watch the timer stays
 * armed but no longer keeps the process alive (runtime.timerKeepsAlive), so an idle connection
 * holds the process no more than it did with no timer at all.
 */
export class DeadlineTimer<T extends HasDeadline> {
  readonly #onExpired: (entry: T) => void;
  readonly #entries = new Set<T>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires, in ms since the epoch; Infinity when none is armed. */
  #firesAt = Infinity;
  #keepsAlive = false;

  /** `onExpired` gets each entry whose deadline passed; the entry is no longer watched then. */
  constructor(onExpired: (entry: T) => void) {
    this.#onExpired = onExpired;
  }

  /** Entries watched (for tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  /** Watches `entry` until its deadline, or its new deadline if it changed. */
  watch(entry: T): void {
    if (entry.deadline === Infinity) {
      this.unwatch(entry);
      return;
    }
    this.#entries.add(entry);
    if (entry.deadline < this.#firesAt) this.#arm(entry.deadline);
    else if (!this.#keepsAlive) this.#keepAlive(true);
  }

  /** Stops watching `entry` (answered, cancelled, failed). */
  unwatch(entry: T): void {
    if (this.#entries.delete(entry) && this.#entries.size === 0 && this.#keepsAlive) this.#keepAlive(false);
  }

  /** Forgets every entry and clears the timer. */
  stop(): void {
    this.#entries.clear();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#firesAt = Infinity;
    this.#keepsAlive = false;
  }

  #arm(deadline: number): void {
    clearTimeout(this.#timer);
    const now = Date.now();
    const wait = Math.min(Math.max(0, deadline - now), MAX_TIMER_DELAY_MS);
    this.#firesAt = now + wait;
    this.#timer = setTimeout(() => this.#fire(), wait);
    this.#keepsAlive = true; // a new timer keeps the process alive
  }

  #keepAlive(keepAlive: boolean): void {
    if (this.#timer === undefined) return;
    this.#keepsAlive = keepAlive;
    runtime.timerKeepsAlive(this.#timer, keepAlive);
  }

  #fire(): void {
    this.#timer = undefined;
    this.#firesAt = Infinity;
    this.#keepsAlive = false;
    const now = Date.now();
    const expired: T[] = [];
    let next = Infinity;
    for (const entry of this.#entries) {
      if (entry.deadline <= now) expired.push(entry);
      else if (entry.deadline < next) next = entry.deadline;
    }
    for (const entry of expired) this.#entries.delete(entry);
    // Armed before the callbacks run, so what they watch meets an armed timer.
    if (next !== Infinity) this.#arm(next);
    for (const entry of expired) this.#onExpired(entry);
  }
}
