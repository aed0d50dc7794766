// Cancellation inside the Streamable HTTP transport: every fetch, stream and wait hangs off
// one scope that close() aborts, each with its own controller (and timer) that is let go when
// it is done.

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
    if (this.#aborted) controller.abort();
    else this.#members.add(controller);
  }

  delete(controller: AbortController): void {
    this.#members.delete(controller);
  }

  abort(): void {
    this.#aborted = true;
    for (const controller of this.#members) controller.abort();
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
  readonly #onParent = () => this.controller.abort();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(parent: AbortSignal | AbortScope | undefined, ms?: number) {
    this.#parent = parent;
    if (parent instanceof AbortScope) parent.add(this.controller);
    else if (parent?.aborted) this.controller.abort();
    else parent?.addEventListener("abort", this.#onParent, { once: true });
    if (ms !== undefined && Number.isFinite(ms) && !this.controller.signal.aborted) {
      this.#timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort();
      }, ms);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(): void {
    this.controller.abort();
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#parent instanceof AbortScope) this.#parent.delete(this.controller);
    else this.#parent?.removeEventListener("abort", this.#onParent);
  }
}
