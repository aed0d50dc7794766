// What an HTTP transport shows its observer (trace-event.ts, kind "http"): a fetch wrapper that
// reports each request's method, URL, status and MCP headers (spec 2025-11-25 basic/transports:
// Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID; 2026-07-28 streamable-http: Mcp-Method,
// Mcp-Name; basic/authorization: WWW-Authenticate), and the start of a 4xx body, the answer
// that decides a fallback or a session renewal. Everything passes through the transport's
// redactor first; credential headers (Authorization, …) are never among those shown.

import { fetchFailureReason, type RedactFn, showUrl } from "./http-errors.ts";
import { type HttpObserver, tracedHeaders } from "./trace-event.ts";

/** Most characters of a 4xx body an http event shows. */
export const TRACED_BODY_CHARS = 2000;
/** Longest wait for the start of a 4xx body before the event goes without it. */
const BODY_WAIT_MS = 2000;

/** `fetch`, with each exchange reported to `observer`, redacted by `redact`. Made only when there is an observer. */
export function observedFetch(base: typeof fetch, observer: HttpObserver, redact: RedactFn): typeof fetch {
  return async (input, init) => {
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const url = redact(showUrl(new URL(input instanceof Request ? input.url : input)));
    const requestHeaders = tracedHeaders(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)), redact);
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      observer({ kind: "http", phase: "failed", method, url, error: redact(fetchFailureReason(error)) });
      throw error;
    }
    observer({
      kind: "http",
      phase: "response",
      method,
      url,
      status: response.status,
      requestHeaders,
      responseHeaders: tracedHeaders(response.headers, redact),
      ...(method === "GET" && "Last-Event-ID" in requestHeaders ? { reconnect: true } : {}),
    });
    // A 4xx body says why: read from a copy, in the background, so the transport's own reading is not held up.
    if (response.status >= 400 && response.status < 500 && response.body !== null) {
      void bodyStart(response.clone()).then((body) => {
        if (body !== "") observer({ kind: "http", phase: "body", method, url, status: response.status, body: redact(body) });
      });
    }
    return response;
  };
}

/** Up to TRACED_BODY_CHARS characters of a body, waiting at most BODY_WAIT_MS; "" when none came. */
async function bodyStart(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), BODY_WAIT_MS)));
  try {
    while (text.length < TRACED_BODY_CHARS) {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk === undefined || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } catch {
    // The body broke off: what came is what is shown.
  } finally {
    clearTimeout(timer);
    void reader.cancel().catch(() => {});
  }
  return text.length > TRACED_BODY_CHARS ? text.slice(0, TRACED_BODY_CHARS) + "…" : text;
}
