// The events one SSE stream sent, kept (bounded) so a client that lost the connection can resume
// it with Last-Event-ID — spec 2025-11-25 basic/transports, "Resumability and Redelivery": the
// server replays what would have been sent after that id, on that stream only.

/** A bounded buffer of one stream's events by sequence number, oldest dropped first. */
export class EventLog {
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  #events: { seq: number; data: string }[] = [];
  #bytes = 0;
  #next = 1;

  constructor(maxEvents: number, maxBytes: number) {
    this.#maxEvents = maxEvents;
    this.#maxBytes = maxBytes;
  }

  /** Keeps one event's data; returns its sequence number (1, 2, …). */
  append(data: string): number {
    const seq = this.#next++;
    this.#events.push({ seq, data });
    this.#bytes += data.length;
    while (this.#events.length > this.#maxEvents || (this.#bytes > this.#maxBytes && this.#events.length > 1)) {
      this.#bytes -= this.#events.shift()!.data.length;
    }
    return seq;
  }

  /**
   * The events after `seq`, oldest first; undefined when some of them were already dropped (or
   * `seq` was never given out): the stream cannot be resumed from there.
   */
  after(seq: number): { seq: number; data: string }[] | undefined {
    if (seq >= this.#next || seq < 0) return undefined;
    const first = this.#events[0]?.seq ?? this.#next;
    if (seq + 1 < first) return undefined;
    return this.#events.slice(seq + 1 - first);
  }
}
