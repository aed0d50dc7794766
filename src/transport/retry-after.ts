// A server too busy to take a request: 429 (RFC 6585 section 4) and 503 (RFC 9110 section
// 15.6.4) say the request was not processed, and Retry-After (RFC 9110 section 10.2.3) says
// when to send it again — as seconds or as an HTTP-date. Such a request is sent again after
// the wait when the wait fits in the time the caller has; otherwise the error says when.

import type { SendOptions } from "./transport.ts";

/** The longest Retry-After an HTTP transport waits out by default. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;
/** How many busy answers in a row one message waits out before it gives up. */
export const MAX_BUSY_RETRIES = 5;

/**
 * Options of one send on an HTTP transport: `deadline` (epoch ms) is when the caller stops
 * waiting; a Retry-After that ends later is not waited out, and the error says when to retry.
 */
export type HttpSendOptions = SendOptions;

/** True for the statuses that say "not processed, try again later". */
export function isBusyStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * The wait a Retry-After header asks for, in milliseconds (0 for a date in the past), or
 * undefined when there is no header or it is neither a number of seconds nor an HTTP-date.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  // RFC 9110 10.2.3: Retry-After = HTTP-date / delay-seconds.
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date starts with the day's name (IMF-fixdate, RFC 850 and asctime forms alike);
  // Date.parse alone would also take "1.5" or "-5" for a date.
  if (!/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** "after 120 s (at 2026-12-03T10:31:05Z)", for a message that says when to retry. */
export function retryWhen(waitMs: number, now: number = Date.now()): string {
  const at = new Date(now + waitMs).toISOString().replace(/\.\d+Z$/, "Z");
  return `after ${waitMs >= 1000 ? `${Math.round(waitMs / 100) / 10} s` : `${waitMs} ms`} (at ${at})`;
}

/** The name of a busy status, for messages. */
export function busyName(status: number): string {
  return status === 429 ? "429 Too Many Requests" : "503 Service Unavailable";
}
