// When to reconnect a broken SSE stream: the server's `retry` interval when it gave one,
// otherwise bounded exponential backoff — spec 2025-11-25 basic/transports ("Sending
// Messages to the Server" 6: the client MUST respect the retry field; SEP-1699).

export interface ReconnectOptions {
  /** Reconnection attempts in a row (without an event in between) before giving up. Default 10. */
  maxRetries: number;
  /** The first backoff delay when the server gave no `retry`; it doubles each attempt. Default 1000 ms. */
  initialDelayMs: number;
  /** The longest backoff delay. Default 30 s. */
  maxDelayMs: number;
}

/**
 * A budget a user would not call stingy: 10 attempts over about three minutes
 * (1, 2, 4, 8, 16, then 30 s apart). The official SDK's 2 retries are a known complaint.
 */
export const DEFAULT_RECONNECT: Readonly<ReconnectOptions> = { maxRetries: 10, initialDelayMs: 1000, maxDelayMs: 30_000 };

/** The options with defaults filled in and nonsense (negative, NaN) replaced by the default. */
export function reconnectOptions(given: Partial<ReconnectOptions> = {}): ReconnectOptions {
  const pick = (value: number | undefined, fallback: number) => typeof value === "number" && value >= 0 && !Number.isNaN(value) ? value : fallback;
  return {
    maxRetries: pick(given.maxRetries, DEFAULT_RECONNECT.maxRetries),
    initialDelayMs: pick(given.initialDelayMs, DEFAULT_RECONNECT.initialDelayMs),
    maxDelayMs: pick(given.maxDelayMs, DEFAULT_RECONNECT.maxDelayMs),
  };
}

/**
 * The wait before reconnection attempt `attempt` (0 for the first). The server's `retry`
 * wins: 2025-11-25 transports says the client MUST wait the given number of milliseconds.
 */
export function reconnectDelay(attempt: number, options: ReconnectOptions, serverRetryMs?: number): number {
  if (serverRetryMs !== undefined) return serverRetryMs;
  return Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** attempt);
}
