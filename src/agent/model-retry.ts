// Retries of a model request that failed for a reason worth waiting out (ProviderError.retryable:
// HTTP 429, 503 or 529, or an error the API calls "overloaded", also inside a stream; see
// providers/http.ts isRetryable): 1 s doubling to 30 s, at most 5, and a server's Retry-After
// honoured unless it asks for longer than we are willing to wait. A lost connection is not retried.

import { durationText } from "../common/duration.ts";
import { sleep } from "../common/timing.ts";
import type { ProviderError } from "./providers/types.ts";

/** Retries of a retryable provider error: 1 s doubling to 30 s, at most 5, Retry-After honoured. */
export interface RetryOptions {
  /** Default 5. */
  maxRetries?: number;
  /** Delay before the first retry, ms. Default 1000. */
  initialDelayMs?: number;
  /** Cap of the doubling, ms. Default 30 000. */
  maxDelayMs?: number;
  /** A Retry-After longer than this ends the run instead of waiting. Default 120 000 ms. */
  maxRetryAfterMs?: number;
  /** How to wait; tests pass one that does not sleep. Rejects when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** After a failed attempt: wait this long and try again, or give up with this message. */
export type RetryDecision = { delayMs: number } | { giveUp: string };

/** A retry policy: RetryOptions with their defaults. */
export class ModelRetry {
  readonly #maxRetries: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: RetryOptions = {}) {
    this.#maxRetries = options.maxRetries ?? 5;
    this.#initialDelayMs = options.initialDelayMs ?? 1000;
    this.#maxDelayMs = options.maxDelayMs ?? 30_000;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
    this.#sleep = options.sleep ?? sleep;
  }

  /**
   * What follows failed attempt `attempt` (0-based) of a request to model `who`: the server's
   * Retry-After when it gave one, else 1 s · 2^attempt up to 30 s; or the end, when the error
   * is not retryable, the retries are used up, or the Retry-After is too long.
   */
  next(attempt: number, error: ProviderError, who: string): RetryDecision {
    if (!error.retryable) return { giveUp: `model ${who}: ${error.message}` };
    if (attempt >= this.#maxRetries) {
      return { giveUp: `model ${who}: still failing after ${this.#maxRetries} retries: ${error.message}; try again later` };
    }
    if (error.retryAfterMs !== undefined && error.retryAfterMs >= 0) {
      if (error.retryAfterMs > this.#maxRetryAfterMs) {
        return {
          giveUp: `model ${who}: ${error.message}; the server asks to retry after ${durationText(error.retryAfterMs)}, ` +
            `longer than the ${durationText(this.#maxRetryAfterMs)} we wait; try again later`,
        };
      }
      return { delayMs: error.retryAfterMs };
    }
    return { delayMs: Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** attempt) };
  }

  /** Waits `ms`; rejects with the signal's reason when it aborts. */
  wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return this.#sleep(ms, signal);
  }
}
