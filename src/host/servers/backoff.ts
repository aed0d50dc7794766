// Reconnect delays: exponential backoff with jitter — 1 s doubling to 60 s, each delay
// spread ±20 % so that many servers that died together do not all come back in step.

/** The reconnect delays of a supervised server: the first, the longest, and the jitter. */
export interface BackoffOptions {
  /** Delay before the first retry. Default 1000 ms. */
  initialMs?: number;
  /** Cap of the doubling (before jitter). Default 60 000 ms. */
  maxMs?: number;
  /** Fraction each delay is spread by, both ways. Default 0.2 (±20 %). */
  jitter?: number;
  /** A source of numbers in [0, 1); default Math.random. Tests pass their own. */
  random?: () => number;
}

export const DEFAULT_BACKOFF_INITIAL_MS = 1000;
export const DEFAULT_BACKOFF_MAX_MS = 60_000;
export const DEFAULT_BACKOFF_JITTER = 0.2;

/** The delay without jitter before retry number `attempt` (1-based): initial · 2^(attempt−1), capped. */
export function backoffBase(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? DEFAULT_BACKOFF_INITIAL_MS;
  const max = options.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2^exponent overflows to Infinity long after the cap is reached; min() handles both.
  return Math.min(max, initial * 2 ** exponent);
}

/**
 * The delay before retry number `attempt` (1-based): the base delay times a factor drawn
 * uniformly from [1 − jitter, 1 + jitter). With the defaults: ~1 s, ~2 s, ~4 s, … ~60 s.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const jitter = options.jitter ?? DEFAULT_BACKOFF_JITTER;
  const random = options.random ?? Math.random;
  const factor = 1 + jitter * (2 * random() - 1);
  return Math.max(0, Math.round(backoffBase(attempt, options) * factor));
}
