// Events with listeners that cannot crash the host. A listener is the embedder's code; on Node a
// listener that throws inside EventTarget.dispatchEvent becomes an uncaught exception (the whole
// process ends), on Deno it is reported to globalThis. Every emitter of mcpwire (client, manager,
// registry, bridge) extends this class, so a throwing listener is reported as a "problem" event
// of the same emitter and the dispatch goes on to the next listener.

/** An event carrying a typed detail. */
export class DetailEvent<T> extends Event {
  readonly detail: T;
  constructor(type: string, detail: T) {
    super(type);
    this.detail = detail;
  }
}

/** What a listener's failure is reported with (the emitter turns it into its "problem" event). */
export type ListenerFailure = { type: string; error: unknown };

type Wrapped = (event: Event) => void;

/**
 * An EventTarget whose listeners are contained: each added listener runs inside a try/catch, and
 * what it throws goes to `listenerFailed` (subclasses report it as their own problem event) —
 * never to the runtime's uncaught-exception path. `on()` is the typed way to listen.
 */
export class ContainedEventTarget<Events extends { [K in keyof Events]: unknown }> extends EventTarget {
  // One wrapper per (listener, type, capture), so removeEventListener finds what was added.
  readonly #wrappers = new WeakMap<object, Map<string, Wrapped>>();
  #reporting = false;

  /** Typed listener; returns a function that removes it. */
  on<K extends keyof Events & string>(type: K, listener: (detail: Events[K]) => void): () => void {
    const wrapped = (event: Event) => listener((event as DetailEvent<Events[K]>).detail);
    this.addEventListener(type, wrapped);
    return () => this.removeEventListener(type, wrapped);
  }

  /** Dispatches `detail` to the listeners of `type`; a throwing listener never escapes. */
  protected emit<K extends keyof Events & string>(type: K, detail: Events[K]): void {
    this.dispatchEvent(new DetailEvent(type, detail));
  }

  /**
   * Called with what a listener threw. The default does nothing; subclasses emit their
   * "problem" event. A failure while reporting a failure is dropped (no loop).
   */
  protected listenerFailed(_failure: ListenerFailure): void {}

  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ): void {
    if (listener === null) return;
    const key = `${type}\u0000${captureOf(options)}`;
    let byType = this.#wrappers.get(listener);
    if (byType === undefined) this.#wrappers.set(listener, byType = new Map());
    let wrapped = byType.get(key);
    if (wrapped === undefined) {
      wrapped = (event: Event) => {
        try {
          if (typeof listener === "function") listener.call(this, event);
          else listener.handleEvent(event);
        } catch (error) {
          this.#failed(type, error);
        }
      };
      byType.set(key, wrapped);
    }
    super.addEventListener(type, wrapped, options);
  }

  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ): void {
    if (listener === null) return;
    const wrapped = this.#wrappers.get(listener)?.get(`${type}\u0000${captureOf(options)}`);
    if (wrapped !== undefined) super.removeEventListener(type, wrapped, options);
  }

  #failed(type: string, error: unknown): void {
    if (this.#reporting) return;
    this.#reporting = true;
    try {
      this.listenerFailed({ type, error });
    } catch {
      // The report's own listener threw; nothing is left to report it to.
    } finally {
      this.#reporting = false;
    }
  }
}

function captureOf(options: boolean | EventListenerOptions | undefined): boolean {
  return typeof options === "boolean" ? options : options?.capture === true;
}
