// This process's writes to stdout and stderr, queued so that flush() can wait for the last.

import { within } from "../common/timing.ts";
import type { StreamName } from "./types.ts";

/** The default bound of Runtime.flush(). */
export const DEFAULT_FLUSH_TIMEOUT_MS = 2000;

/**
 * The writes to stdout and stderr, so that flush() can wait for the last of them, bounded. With
 * `serialize`, each stream's writes run one after another (a runtime whose async write can be
 * cut into partial writes, which must not interleave with the next); without, each is handed
 * over at once (a runtime that keeps the order itself).
 */
export class OutputQueue {
  readonly #tails: Record<StreamName, Promise<void>> = { stdout: Promise.resolve(), stderr: Promise.resolve() };
  readonly #writeNow: (stream: StreamName, text: string) => Promise<void>;
  readonly #serialize: boolean;

  constructor(writeNow: (stream: StreamName, text: string) => Promise<void>, options: { serialize: boolean }) {
    this.#writeNow = writeNow;
    this.#serialize = options.serialize;
  }

  write(stream: StreamName, text: string): Promise<void> {
    const written = this.#serialize ? this.#tails[stream].then(() => this.#writeNow(stream, text)) : this.#writeNow(stream, text);
    // A failed write (a closed pipe) fails its caller, not the writes after it.
    this.#tails[stream] = written.catch(() => {});
    return written;
  }

  flush(timeoutMs: number = DEFAULT_FLUSH_TIMEOUT_MS): Promise<void> {
    // The tails never reject (a failed write fails its caller only).
    return within(Promise.all([this.#tails.stdout, this.#tails.stderr]), timeoutMs).then(() => {});
  }
}
