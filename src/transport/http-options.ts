// The options every HTTP client transport takes — Streamable HTTP, the legacy HTTP+SSE
// transport and the automatic choice between them (spec 2025-11-25 basic/transports): where
// the server is, what goes with every request, and the bounds on what it may send.

import type { Redactor } from "../common/redact.ts";
import type { HttpObserver } from "./trace-event.ts";

export interface HttpConnectionOptions {
  /**
   * The server's endpoint: `http://127.0.0.1:3001/mcp` (Streamable HTTP), `…/sse` (legacy SSE).
   * A `user:password@` in it is sent as `Authorization: Basic` and never shown (url-credentials.ts);
   * with an Authorization header in `headers` too, the transport refuses the URL (`bad-url`).
   */
  url: string | URL;
  /** Sent with every request the transport makes, each POST, GET and DELETE (Authorization, API keys, …). */
  headers?: Record<string, string>;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * Largest message accepted: a JSON answer in bytes, one SSE event in characters. A larger
   * answer to a request fails that request at once, naming this limit, where the transport can
   * tell which request it answers; another larger message is skipped and reported. Default 64 MiB.
   */
  maxMessageBytes?: number;
  /**
   * Longest Retry-After of a 429 or 503 that is waited out before the message is sent again
   * (never past the call's deadline, nor a legacy POST's postTimeoutMs). A longer one fails
   * the send with the time to retry. Default 30 s.
   */
  maxRetryAfterMs?: number;
  /**
   * More secrets to keep out of error messages and reports (the host's). The values of
   * `headers` (and of Streamable HTTP's `requestInit.headers`) are always kept out.
   */
  redactor?: Redactor;
  /**
   * Told of each HTTP exchange (status, MCP headers, a 4xx body's start, SSE event ids),
   * redacted by this transport's redactor: what a trace shows (trace-event.ts). Default: none,
   * and then nothing is observed.
   */
  observer?: HttpObserver;
}

/** The names of HttpConnectionOptions, for the option lists of the HTTP transports (common/options.ts). */
export const HTTP_CONNECTION_OPTIONS: { [K in keyof Required<HttpConnectionOptions>]: true } = {
  url: true,
  headers: true,
  fetch: true,
  maxMessageBytes: true,
  maxRetryAfterMs: true,
  redactor: true,
  observer: true,
};
