// The options of the Streamable HTTP client transport and their defaults — spec 2025-11-25
// basic/transports ("Streamable HTTP").

import type { Redactor } from "../../common/redact.ts";
import type { ReconnectOptions } from "../sse-reconnect.ts";

export interface StreamableHttpTransportOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string | URL;
  /** Sent with every request: each POST, GET and DELETE (Authorization, API keys, …). */
  headers?: Record<string, string>;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof fetch;
  /** How broken SSE streams are reconnected. Default DEFAULT_RECONNECT (10 attempts, up to 30 s apart). */
  reconnect?: Partial<ReconnectOptions>;
  /**
   * Extra fetch options for every request (a Node `dispatcher`, a Deno `client`, `keepalive`,
   * …). Its headers come first, under `headers` and ours; method, body, signal and redirect
   * are always ours.
   */
  requestInit?: RequestInit;
  /**
   * Bound of each wait that no request timeout covers: a POST of a notification or response
   * until its 202, and each GET (re)connection until its headers. Default 30 s. (A request's
   * POST is bounded by the caller's timeout: the Peer sends notifications/cancelled, which
   * closes that request's stream.)
   */
  timeoutMs?: number;
  /** Bound of the DELETE that ends the session in close(). Default 2 s. */
  closeTimeoutMs?: number;
  /** Open the GET stream for server-initiated messages after initialization. Default true. */
  listen?: boolean;
  /**
   * Largest message accepted: a JSON answer in bytes, one SSE event in characters. A larger
   * answer to a request fails that request at once, naming this limit; another larger
   * message is skipped and reported. Default 64 MiB.
   */
  maxMessageBytes?: number;
  /**
   * Longest Retry-After of a 429 or 503 that is waited out before the message is sent again
   * (never past the call's deadline). A longer one fails the send with the time to retry. Default 30 s.
   */
  maxRetryAfterMs?: number;
  /**
   * More secrets to keep out of error messages and reports (the host's). The values of
   * `headers` and `requestInit.headers` are always kept out.
   */
  redactor?: Redactor;
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
export const DEFAULT_HTTP_CLOSE_TIMEOUT_MS = 2000;
