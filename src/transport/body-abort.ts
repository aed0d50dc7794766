// A fetch body being read is ended by the reader's own abort, not left to fetch's signal.
// fetch ties a response body to the request's signal (WHATWG Fetch, "fetch" step 12: abort
// the fetch), but Deno keeps that link through the Request's dependent signal, which it holds
// only weakly once nothing references the Response: after a garbage collection an abort may
// never reach the body, whose pending read then never ends (a wait without bound, and the
// "fetch response body … not consumed" / "op_read … never completed" of Deno's leak check).
// Every transport that reads a body therefore cancels its reader itself when its signal aborts.

/**
 * Cancels `reader` when `signal` aborts (at once when it has already); returns what stops
 * that once the reading is over. Without a signal there is nothing to wait for.
 */
export function cancelOnAbort(reader: ReadableStreamDefaultReader<Uint8Array>, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return noop;
  const cancel = () => void reader.cancel().catch(noop);
  if (signal.aborted) {
    cancel();
    return noop;
  }
  signal.addEventListener("abort", cancel, { once: true });
  return () => signal.removeEventListener("abort", cancel);
}

function noop(): void {}
