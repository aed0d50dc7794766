// fetch that follows redirects only within one origin, so headers we were configured with
// (Authorization, API keys) never travel to another host — spec 2025-11-25 basic/transports
// ("Security Warning") and basic/security_best_practices.

import { discardBody, fetchFailureReason, showUrl } from "./http-errors.ts";
import { TransportError } from "./transport.ts";

export const MAX_REDIRECTS = 5;

export interface SameOriginResponse {
  response: Response;
  /** The URL that answered (after redirects). */
  url: URL;
}

/**
 * Sends `init` to `url` with `redirect: "manual"` and follows 3xx answers itself: at most
 * MAX_REDIRECTS hops, each within `url`'s origin. The method and body go along on every
 * hop (fetch would turn a redirected POST into a GET, which no MCP endpoint can answer).
 * Rejects with TransportError: "redirect-origin", "redirect-loop", "fetch-failed", or
 * "aborted" when `init.signal` aborted.
 */
export async function fetchSameOrigin(
  fetchFn: typeof fetch,
  url: URL,
  init: RequestInit,
  who: string,
): Promise<SameOriginResponse> {
  const method = init.method ?? "GET";
  const manual: RequestInit = init.redirect === "manual" ? init : { ...init, redirect: "manual" };
  let current = url;
  for (let hop = 0;; hop++) {
    let response: Response;
    try {
      response = await fetchFn(current, manual);
    } catch (error) {
      if (init.signal?.aborted) throw new TransportError(`${who}: ${method} ${showUrl(current)} was aborted`, "cancelled", { cause: error });
      throw new TransportError(
        `${who}: ${method} ${showUrl(current)} failed: ${fetchFailureReason(error)}; is the server running and is the URL right?`,
        "fetch-failed",
        { cause: error },
      );
    }
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || response.status === 304 || location === null) {
      return { response, url: current };
    }
    await discardBody(response);
    const next = new URL(location, current);
    if (next.origin !== url.origin) {
      throw new TransportError(
        `${who}: ${method} ${showUrl(current)} was redirected (HTTP ${response.status}) to ${showUrl(next)}, on another origin; ` +
          `redirects are followed only within ${url.origin}; configure the final URL if you trust it`,
        "redirect-origin",
      );
    }
    if (hop + 1 >= MAX_REDIRECTS) {
      throw new TransportError(
        `${who}: ${method} ${showUrl(url)} was redirected more than ${MAX_REDIRECTS} times (last to ${showUrl(next)}); configure the final URL`,
        "redirect-loop",
      );
    }
    current = next;
  }
}
