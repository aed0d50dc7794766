// One SSE response body as the server writes it: events (an id and JSON data), comments
// (keep-alives), the end — the event stream format of the HTML standard ("Server-sent events",
// event stream interpretation), as Streamable HTTP uses it (spec 2025-11-25 basic/transports).

const encoder = new TextEncoder();

/** Writes SSE events into a stream that a Response carries; knows nothing of what the data means. */
export class SseWriter {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;

  /** `onGone` runs once when the client goes away (the body is cancelled) before close(). */
  constructor(onGone: () => void) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.#controller = controller),
      cancel: () => {
        if (!this.#open) return;
        this.#open = false;
        onGone();
      },
    });
  }

  /** Still connected: neither closed by us nor cancelled by the client. */
  get open(): boolean {
    return this.#open;
  }

  /**
   * One event: `id:` when given, then the data (a JSON text holds no newline, so one `data:`
   * line; an empty data is the priming event, spec 2025-11-25 transports "Sending Messages" 6).
   */
  event(data: string, id?: string): void {
    if (!this.#open) return;
    this.#controller.enqueue(encoder.encode(`${id === undefined ? "" : `id: ${id}\n`}data: ${data}\n\n`));
  }

  /** A comment line (`: text`), which clients ignore: a keep-alive through proxies and idle timeouts. */
  comment(text: string): void {
    if (this.#open) this.#controller.enqueue(encoder.encode(`: ${text}\n\n`));
  }

  /** Ends the stream (the events written so far still reach the client). */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#controller.close();
  }
}

/** The headers of an SSE response (spec 2026-07-28 streamable-http: X-Accel-Buffering: no, for proxies). */
export function sseHeaders(extra: Record<string, string> = {}): Headers {
  return new Headers({ "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no", ...extra });
}
