// One timer for the deadlines of every pending request, instead of a setTimeout each — the
// clock behind MCP spec 2025-11-25 basic/lifecycle ("Timeouts": an idle timeout that progress
// may restart, and a maximum it cannot pass).

import { coreRuntime } from "../runtime/mod.ts";

/** Something with a deadline, in ms since the epoch (Date.now()); Infinity: none. */
export interface HasDeadline {
  deadline: number;
}

/** setTimeout holds a signed 32-bit delay; a longer one fires at once, so wait in steps. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Watches the deadlines of an owner's entries with one setTimeout, armed for the earliest
 * deadline it was told of. The owner keeps the entries (the pending-request table) and tells
 * the timer when one is added or its deadline moved (`watch`) and when none is left (`idle`);
 * a removed entry needs no call at all.
 *
 * A sequential caller sends a request, gets its answer, sends the next: with a timer per
 * request that is a setTimeout and a clearTimeout per call. Here a new deadline later than the
 * armed one (the usual case: the same timeout, started later) arms nothing. When the timer
 * fires it expires what is due among the owner's entries and re-arms for the earliest deadline
 * left, so each deadline is still met. With no entry left the timer stays armed but no longer
 * keeps the process alive (coreRuntime.timerKeepsAlive), so an idle connection holds the process
 * no more than it did with no timer at all.
 */
export class DeadlineTimer<T extends HasDeadline> {
  readonly #entries: () => Iterable<T>;
  readonly #onExpired: (entry: T) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires, in ms since the epoch; Infinity when none is armed. */
  #firesAt = Infinity;
  #keepsAlive = false;

  /**
   * `entries` lists the owner's current entries; `onExpired` gets each one whose deadline
   * passed (the owner removes it).
   */
  constructor(entries: () => Iterable<T>, onExpired: (entry: T) => void) {
    this.#entries = entries;
    this.#onExpired = onExpired;
  }

  /** Whether a timer is armed (for tests and diagnostics). */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** An entry was added or its deadline moved: make sure the timer fires by its deadline. */
  watch(entry: T): void {
    if (entry.deadline === Infinity) return;
    if (entry.deadline < this.#firesAt) this.#arm(entry.deadline);
    else if (!this.#keepsAlive) this.#keepAlive(true);
  }

  /** The owner has no entries left: the armed timer stops holding the process. */
  idle(): void {
    if (this.#keepsAlive) this.#keepAlive(false);
  }

  /** Clears the timer (the owner is closing). */
  stop(): void {
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
    coreRuntime.timerKeepsAlive(this.#timer, keepAlive);
  }

  #fire(): void {
    this.#timer = undefined;
    this.#firesAt = Infinity;
    this.#keepsAlive = false;
    const now = Date.now();
    const expired: T[] = [];
    let next = Infinity;
    for (const entry of this.#entries()) {
      if (entry.deadline <= now) expired.push(entry);
      else if (entry.deadline < next) next = entry.deadline;
    }
    // Armed before the callbacks run, so what they watch meets an armed timer.
    if (next !== Infinity) this.#arm(next);
    // Several due at once (a late timer on a busy loop): still in the order of their deadlines.
    if (expired.length > 1) expired.sort((a, b) => a.deadline - b.deadline);
    for (const entry of expired) this.#onExpired(entry);
  }
}
