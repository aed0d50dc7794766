// A fetch that sends a request once more when the connection was reset before any answer
// came back. The usual cause is an idle keep-alive connection the server had already closed
// and the client reused before it saw the close, so the server never read the request (RFC
// 9112 9.3.1 lets a client retry a request it knows was not processed). fetch cannot tell
// that case from a server that read the request and then dropped the connection, so this
// accepts the small risk of a second delivery in that rare case; a busy server makes the
// keep-alive race common.

/** How a connection reset shows up: Node's undici and Deno's fetch word it differently. */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);
const RESET_TEXT = /ECONNRESET|connection reset|other side closed|socket hang up|connection closed before message completed/i;

/** True when `error` (a rejected fetch) says the connection was reset or closed under the request. */
export function isConnectionReset(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && RESET_CODES.has(code)) return true;
    if (RESET_TEXT.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/** A body fetch can send again: none, or one held in memory (not a stream, which is read once). */
function replayable(init: RequestInit | undefined): boolean {
  const body = init?.body;
  return body === undefined || body === null || typeof body === "string" || body instanceof URLSearchParams ||
    body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof Blob || body instanceof FormData;
}

/**
 * Wraps `fetchFn`: a request whose connection was reset before its response arrived is sent
 * once more on a new connection, unless it was aborted or its body cannot be sent twice.
 * A second reset is the caller's error.
 */
export function retryOnReset(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await fetchFn(input, init);
    } catch (error) {
      const request = input instanceof Request ? input : undefined;
      if (!isConnectionReset(error) || init?.signal?.aborted || request?.signal.aborted) throw error;
      if (request !== undefined ? request.bodyUsed || request.body !== null : !replayable(init)) throw error;
      return await fetchFn(input, init);
    }
  };
}
