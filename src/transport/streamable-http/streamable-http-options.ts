// The options of the Streamable HTTP client transport and their defaults — spec 2025-11-25
// basic/transports ("Streamable HTTP").

import { optionNames } from "../../common/options.ts";
import { HTTP_CONNECTION_OPTIONS, type HttpConnectionOptions } from "../http-options.ts";
import type { ReconnectOptions } from "../sse-reconnect.ts";

/** Options of StreamableHttpTransport: the endpoint URL, reconnection, and the shared HTTP options. */
export interface StreamableHttpTransportOptions extends HttpConnectionOptions {
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
}

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
export const DEFAULT_HTTP_CLOSE_TIMEOUT_MS = 2000;

/** Every option StreamableHttpTransport reads (checked by its constructor). */
export const STREAMABLE_HTTP_OPTIONS = optionNames<StreamableHttpTransportOptions>({
  ...HTTP_CONNECTION_OPTIONS,
  reconnect: true,
  requestInit: true,
  timeoutMs: true,
  closeTimeoutMs: true,
  listen: true,
});
