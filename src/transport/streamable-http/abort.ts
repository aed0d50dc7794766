// Cancellation inside the Streamable HTTP transport: every fetch, stream and wait hangs off
// one scope that close() aborts, each with its own controller (and timer) that is let go when
// it is done. An abort costs an event for each listener (fetch's among them) and, in Node, a
// new DOMException: each controller is aborted at most once, and a request that got its answer
// on its own response is not aborted at all (streamable-http.ts). An abort alone does not
// end a body being read (under Deno it may not reach it): each reader cancels itself
// (../body-abort.ts).

/** Aborts `controller` unless it was already. */
function abortOnce(controller: AbortController): void {
  if (!controller.signal.aborted) controller.abort();
}

/** Resolves when the signal aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/**
 * Controllers aborted together when the transport ends. A set rather than one abort listener
 * each on a shared signal: a hundred requests in flight would be a hundred listeners.
 */
export class AbortScope {
  #aborted = false;
  readonly #members = new Set<AbortController>();

  get aborted(): boolean {
    return this.#aborted;
  }

  add(controller: AbortController): void {
    if (this.#aborted) abortOnce(controller);
    else this.#members.add(controller);
  }

  delete(controller: AbortController): void {
    this.#members.delete(controller);
  }

  abort(): void {
    this.#aborted = true;
    for (const controller of this.#members) abortOnce(controller);
    this.#members.clear();
  }
}

/**
 * An AbortController that also aborts when `parent` does, or after `ms`; dispose() clears
 * the timer and detaches it from the parent (so long-lived parents collect nothing).
 */
export class LinkedAbort {
  readonly controller = new AbortController();
  timedOut = false;
  readonly #parent: AbortSignal | AbortScope | undefined;
  readonly #onParent = () => abortOnce(this.controller);
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(parent: AbortSignal | AbortScope | undefined, ms?: number) {
    this.#parent = parent;
    if (parent instanceof AbortScope) parent.add(this.controller);
    else if (parent?.aborted) abortOnce(this.controller);
    else parent?.addEventListener("abort", this.#onParent, { once: true });
    if (ms !== undefined && Number.isFinite(ms) && !this.controller.signal.aborted) {
      this.#timer = setTimeout(() => {
        this.timedOut = true;
        abortOnce(this.controller);
      }, ms);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborts once (a second call does nothing): what listens on the signal hears one event. */
  abort(): void {
    abortOnce(this.controller);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#parent instanceof AbortScope) this.#parent.delete(this.controller);
    else this.#parent?.removeEventListener("abort", this.#onParent);
  }
}
