// The table of requests we sent and still wait for: id allocation, timers, progress
// routing — MCP spec 2025-11-25 basic/lifecycle ("Timeouts") and basic/utilities/progress.

import { DeadlineTimer } from "./deadline-timer.ts";
import type { RequestId } from "./messages.ts";

/** What `notifications/progress` carries — spec 2025-11-25 basic/utilities/progress. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface PendingRequest {
  id: number;
  method: string;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
  onProgress?: (progress: Progress) => void;
  /**
   * When it times out (ms since epoch; Infinity: never): no answer (and no progress) for
   * `timeoutMs`, or the hard deadline if that comes first. Watched by the table's one timer.
   */
  deadline: number;
  /** Whether `deadline` is the idle one (else it is the hard deadline). */
  deadlineIsIdle: boolean;
  timeoutMs: number;
  startedAt: number;
  /** Absolute deadline (ms since epoch) that progress can never push back. */
  hardDeadline: number;
  lastProgress?: number;
  /** Whether progress restarts the idle timer (then "no progress" belongs in a timeout message). */
  progressResetsTimeout?: boolean;
  /** Removes the abort listener from the caller's signal. */
  detach?: () => void;
  /** RequestOptions.headers: the entry is the request's SendOptions, so they reach the transport with it. */
  headers?: Readonly<Record<string, string>>;
  /** RequestOptions.relatedRequestId (a server's request sent while answering one of the host's), for the transport likewise. */
  relatedRequestId?: RequestId;
}

/** Ids we gave up on (cancelled or timed out); a late answer to one is dropped silently. */
const ABANDONED_KEEP = 1024;

export class PendingRequests {
  #nextId = 1;
  readonly #byId = new Map<number, PendingRequest>();
  readonly #abandoned = new Set<number>();
  readonly #deadlines: DeadlineTimer<PendingRequest>;

  /** `onTimeout` gets each entry whose deadline passed (still in the table: give it up). */
  constructor(onTimeout: (entry: PendingRequest) => void) {
    this.#deadlines = new DeadlineTimer(() => this.#byId.values(), onTimeout);
  }

  /** Integer ids, unique per connection — spec 2025-11-25 basic: "MUST NOT reuse the id". */
  allocateId(): number {
    return this.#nextId++;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Adds an entry and starts watching its deadline. */
  add(entry: PendingRequest): void {
    this.#byId.set(entry.id, entry);
    this.#deadlines.watch(entry);
  }

  /** The entry's deadline moved (progress restarted its idle timeout). */
  deadlineChanged(entry: PendingRequest): void {
    if (this.#byId.get(entry.id) === entry) this.#deadlines.watch(entry);
  }

  get(id: RequestId | null): PendingRequest | undefined {
    return typeof id === "number" ? this.#byId.get(id) : undefined;
  }

  /** Removes an entry, stops watching its deadline, drops its abort listener; returns it if it was there. */
  take(id: RequestId | null): PendingRequest | undefined {
    const entry = typeof id === "number" ? this.#byId.get(id) : undefined; // get(id), inline: every answer's path
    if (entry === undefined) return undefined;
    this.#byId.delete(entry.id);
    if (this.#byId.size === 0) this.#deadlines.idle();
    entry.detach?.();
    return entry;
  }

  /** Removes and returns the one entry when exactly one is pending. */
  takeOnly(): PendingRequest | undefined {
    if (this.#byId.size !== 1) return undefined;
    return this.take(this.#byId.keys().next().value!);
  }

  /** Removes an entry we stopped waiting for; its late answer will be dropped silently. */
  abandon(id: number): PendingRequest | undefined {
    const entry = this.take(id);
    this.#abandoned.add(id);
    if (this.#abandoned.size > ABANDONED_KEEP) {
      const oldest = this.#abandoned.values().next().value;
      if (oldest !== undefined) this.#abandoned.delete(oldest);
    }
    return entry;
  }

  wasAbandoned(id: RequestId | null): boolean {
    return typeof id === "number" && this.#abandoned.has(id);
  }

  /** Removes and returns every entry (for close). */
  drain(): PendingRequest[] {
    const all = [...this.#byId.values()];
    for (const entry of all) this.take(entry.id);
    this.#deadlines.stop();
    return all;
  }
}
