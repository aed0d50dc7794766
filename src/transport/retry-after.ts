// A server too busy to take a request: 429 (RFC 6585 section 4) and 503 (RFC 9110 section
// 15.6.4) say the request was not processed, and Retry-After (RFC 9110 section 10.2.3) says
// when to send it again — as seconds or as an HTTP-date. Such a request is sent again after
// the wait when the wait fits in the time the caller has; otherwise the error says when.

import { durationText } from "../common/duration.ts";
import { sleep } from "../common/timing.ts";
import { bodyStart, discardBody, HttpStatusError, type RedactFn, showUrl } from "./http-errors.ts";
import type { SameOriginResponse } from "./same-origin-fetch.ts";
import { type SendOptions, TransportError } from "./transport.ts";

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
  return `after ${durationText(waitMs)} (at ${at})`;
}

/** The name of a busy status, for messages. */
export function busyName(status: number): string {
  return status === 429 ? "429 Too Many Requests" : "503 Service Unavailable";
}

/** How one message is POSTed patiently: what to send again, and the limits of the waiting. */
export interface PatientSend<T extends SameOriginResponse> {
  /** A busy answer the caller already had from its own first POST: waited out before the next post. */
  first?: T;
  /** The transport's description, for messages. */
  description: string;
  /** The message, for messages: "tools/call (id 4)". */
  what: string;
  /** One POST of the message. */
  post: () => Promise<T>;
  /** When the caller stops waiting (epoch ms); undefined for no limit. */
  until: number | undefined;
  maxRetryAfterMs: number;
  /** Stops a wait (close, cancellation). */
  signal: AbortSignal;
  redact: RedactFn;
  /** How the transport quotes a body's start in a message. */
  quoteBody: (start: string) => string;
  /** Told when a wait begins (the time the message goes again) and ends (undefined). */
  onWait?: (resumeAt: number | undefined) => void;
  /** Told when `signal` cut a wait short, with the time the server had asked for. */
  onStopped?: (resumeAt: number, status: number) => void;
}

/**
 * POSTs a message, waiting out a busy server: 429 and 503 say the server did not process the
 * request (RFC 6585 4, RFC 9110 15.6.4), so it is sent again after its Retry-After (RFC 9110
 * 10.2.3) when that ends before `until` and within maxRetryAfterMs, up to MAX_BUSY_RETRIES
 * times; otherwise it fails with an HttpStatusError "busy" that says when the server asked to
 * be tried again. Resolves with the first answer that is not busy.
 */
export async function sendPatiently<T extends SameOriginResponse>(send: PatientSend<T>): Promise<T> {
  for (let busy = 0;; busy++) {
    const answered = busy === 0 && send.first !== undefined ? send.first : await send.post();
    const status = answered.response.status;
    if (!isBusyStatus(status)) return answered;
    const now = Date.now();
    const wait = retryAfterMs(answered.response.headers, now);
    const left = send.until === undefined ? Infinity : send.until - now;
    const why = wait === undefined
      ? "the server gave no Retry-After; try again later"
      : busy >= MAX_BUSY_RETRIES
      ? `it was busy ${busy + 1} times in a row; the server asks to be tried again ${retryWhen(wait, now)}`
      // Name the tighter of the two bounds the wait broke: the setting or the call's deadline.
      : wait > send.maxRetryAfterMs && send.maxRetryAfterMs <= left
      ? `the server asks to be tried again ${retryWhen(wait, now)}, longer than maxRetryAfterMs (${
        durationText(send.maxRetryAfterMs)
      }) allows to wait; try again then`
      : wait > left
      ? `the server asks to be tried again ${retryWhen(wait, now)}, after this call's deadline (in ${durationText(Math.max(0, left))}); try again then`
      : undefined;
    if (why !== undefined || wait === undefined) {
      const start = await bodyStart(answered.response, send.redact, undefined, send.signal);
      throw new HttpStatusError(
        `${send.description}: ${send.what}: POST ${showUrl(answered.url)} answered HTTP ${busyName(status)}${send.quoteBody(start)}; ` +
          `the server did not process it and it was not sent again: ${why}`,
        "busy",
        { status, url: answered.url.href, bodyStart: start, retryAt: wait === undefined ? undefined : new Date(now + wait) },
      );
    }
    await discardBody(answered.response);
    send.onWait?.(now + wait);
    const waited = await sleep(wait, send.signal).then(() => true, () => false);
    send.onWait?.(undefined);
    if (!waited) {
      send.onStopped?.(now + wait, status);
      throw new TransportError(`${send.description}: ${send.what}: stopped while waiting out the busy server's Retry-After`, "cancelled");
    }
  }
}
