// The check's recording of a session (docs/check.md): a transport wrapper that numbers every
// JSON-RPC message both ways and keeps it as a SeenMessage, bounded, an answer named by the
// method of the request it answers; that keeps what the transport reported (a line that is not
// JSON-RPC, an answer it could not deliver); and that takes the answers to the check's own raw
// requests out before the Client sees them. Its numbering is that of the `message` events of
// the trace the check writes: the TracingTransport sits inside it and sees the same messages
// in the same order.

import { boundedCopy } from "../common/bounded.ts";
import { isObject } from "../common/json.ts";
import { describeClose } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage, RequestId } from "../jsonrpc/messages.ts";
import { TransportWrapper } from "../transport/http-hooks.ts";
import type { TraceTransportName } from "../transport/trace-event.ts";
import { traceTransportName } from "../transport/tracing.ts";
import type { ClientTransport, SendOptions, ServerProcess } from "../transport/transport.ts";
import type { SeenMessage } from "./rule.ts";

/** What a transport reported during the session without ending it: a bad line, an undeliverable answer, … */
export interface TransportProblem {
  /** The TransportErrorCode, when the error had one ("bad-line", "undeliverable", …). */
  code?: string;
  /** The transport's own message (not yet made printable: the report does that). */
  message: string;
  /** Milliseconds since the check started. */
  at: number;
  /** How many messages had been seen when it was reported (it came after message `after`). */
  after: number;
}

/** How much of a session the check keeps: a hostile server cannot exhaust its memory. */
export interface RecordingBounds {
  /** Values (JSON nodes) kept of one message; past it the rest becomes a marker string. Default 200,000. */
  maxValuesPerMessage?: number;
  /** Values kept across the session; past it a message keeps its envelope only. Default 4,000,000. */
  maxValues?: number;
  /** Messages kept; later ones are numbered but not kept. Default 50,000. */
  maxMessages?: number;
  /** Transport problems kept. Default 1,000. */
  maxProblems?: number;
}

const DEFAULTS = { maxValuesPerMessage: 200_000, maxValues: 4_000_000, maxMessages: 50_000, maxProblems: 1_000 } as const;
/** Ids remembered (to name an answer's method, to find a request's answer); the oldest are forgotten past it. */
const MAX_IDS = 20_000;
/** Characters of a problem's message kept. */
const MAX_PROBLEM_CHARS = 2_000;

/** A map that forgets its oldest entries past MAX_IDS: a server that never answers cannot grow it. */
class BoundedMap<V> extends Map<string, V> {
  override set(key: string, value: V): this {
    super.set(key, value);
    if (this.size > MAX_IDS) this.delete(this.keys().next().value!);
    return this;
  }
}

/** A request id as a key: `n:1` and `s:1` stay apart. */
export function idKey(id: RequestId): string {
  return `${typeof id === "number" ? "n" : "s"}:${id}`;
}

/**
 * The ids of one connection's requests both ways: the method an answer names, the index of a
 * request and of its answer. Each transport has its own (ids restart on a new connection).
 */
export class IdBook {
  /** Our requests and the server's, by id: the method an answer names, and the index of the request. */
  readonly sent = new BoundedMap<{ method: string; index: number }>();
  readonly received = new BoundedMap<{ method: string; index: number }>();
  /** The index of the first answer to each of our requests, by id. */
  readonly answers = new BoundedMap<number>();

  /** The index of our request with this id, if it was seen. */
  requestIndex(id: RequestId): number | undefined {
    return this.sent.get(idKey(id))?.index;
  }

  /** The index of the first answer received to our request with this id, if any. */
  answerIndex(id: RequestId): number | undefined {
    return this.answers.get(idKey(id));
  }
}

/**
 * Every message of a check, in order, numbered from 1 across all its connections (the session,
 * and the fresh connections of the probes: one numbering, as one trace file has), and what the
 * transports reported.
 */
export class SessionLog {
  readonly messages: SeenMessage[] = [];
  readonly problems: TransportProblem[] = [];
  /** Messages whose content was cut to keep within the bounds. */
  cut = 0;
  /** How many messages crossed the wire (kept or not): the last index given. */
  count = 0;
  readonly #startedAt: number;
  readonly #bounds: Required<RecordingBounds>;
  #values = 0;
  /** Messages kept, by index. */
  readonly #byIndex = new Map<number, SeenMessage>();

  /** `startedAt`: `performance.now()` when the check started (SeenMessage.at counts from it). */
  constructor(startedAt: number = performance.now(), bounds: RecordingBounds = {}) {
    this.#startedAt = startedAt;
    this.#bounds = { ...DEFAULTS, ...bounds };
  }

  /** When the check started, as `performance.now()`. */
  get startedAt(): number {
    return this.#startedAt;
  }

  /**
   * Records one message crossing the wire of the connection whose ids `book` keeps, and puts
   * what is kept in `into` too (the messages of one session); returns its index.
   */
  record(dir: "send" | "receive", message: JsonRpcMessage, book: IdBook, into?: SeenMessage[]): number {
    const index = ++this.count;
    const raw = message as unknown as Record<string, unknown>;
    const id = isObject(raw) ? raw.id : undefined;
    const method = isObject(raw) && typeof raw.method === "string" ? raw.method : undefined;
    const hasId = typeof id === "string" || typeof id === "number";
    let answers: string | undefined;
    if (method !== undefined && hasId) (dir === "send" ? book.sent : book.received).set(idKey(id), { method, index });
    else if (method === undefined && hasId) {
      // An answer: to one of ours when received, to one of the server's when sent.
      answers = (dir === "receive" ? book.sent : book.received).get(idKey(id))?.method;
      if (dir === "receive" && !book.answers.has(idKey(id))) book.answers.set(idKey(id), index);
    }
    if (this.messages.length >= this.#bounds.maxMessages) return index;
    const seen: SeenMessage = { index, dir, message: this.#kept(raw), at: Math.round(performance.now() - this.#startedAt) };
    if (method === undefined && answers !== undefined) seen.method = answers;
    this.messages.push(seen);
    into?.push(seen);
    this.#byIndex.set(index, seen);
    return index;
  }

  /** The message with this index, if it was kept. */
  message(index: number): SeenMessage | undefined {
    return this.#byIndex.get(index);
  }

  /** Keeps what a transport reported (in `into` too), up to maxProblems. */
  problem(error: Error, into?: TransportProblem[]): void {
    if (this.problems.length >= this.#bounds.maxProblems) return;
    const code = (error as { code?: unknown }).code;
    const problem: TransportProblem = {
      message: error.message.slice(0, MAX_PROBLEM_CHARS),
      at: Math.round(performance.now() - this.#startedAt),
      after: this.count,
    };
    if (typeof code === "string") problem.code = code;
    this.problems.push(problem);
    into?.push(problem);
  }

  /** The message as kept: a bounded copy; past the session's budget its envelope, the rest a marker. */
  #kept(raw: Record<string, unknown>): JsonRpcMessage {
    const left = this.#bounds.maxValues - this.#values;
    const limit = Math.max(1, Math.min(this.#bounds.maxValuesPerMessage, left));
    const kept: Record<string, unknown> = {};
    let cut = false;
    for (const key of Object.keys(raw)) {
      const value = raw[key];
      if (value !== null && typeof value === "object") {
        const counted = countValues(value, limit + 1);
        if (counted > limit) cut = true;
        kept[key] = boundedCopy(value, { maxNodes: limit });
        this.#values += Math.min(counted, limit);
      } else kept[key] = value;
    }
    if (cut) this.cut++;
    return kept as unknown as JsonRpcMessage;
  }
}

/** How many JSON values `value` holds, counting no further than `limit`. */
function countValues(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count < limit) {
    const item = stack.pop();
    count++;
    if (item !== null && typeof item === "object") {
      for (const member of Array.isArray(item) ? item : Object.values(item)) stack.push(member);
    }
  }
  return count;
}

/** Who waits for the answer to a raw request (RecordingTransport.sendRaw). */
interface RawWaiter {
  resolve(index: number): void;
  /** The connection ended before the answer came. */
  lost(reason: string): void;
  /** Whether an error with a null id answers it too (a request whose id the server may not read). */
  nullId: boolean;
}

/**
 * The transport the check's Client is given: every message recorded into the session's log,
 * every problem the inner transport reports kept there too (and passed on), the answers to raw
 * requests taken out. While `held`, close() leaves the inner transport open: a Client that gave
 * up on a malformed negotiation result closes its transport, and the check goes on over it.
 */
export class RecordingTransport extends TransportWrapper {
  readonly inner: ClientTransport;
  readonly log: SessionLog;
  /** This connection's request ids. */
  readonly ids = new IdBook();
  /** The messages and problems of the session this transport serves (a restart's transport shares them). */
  readonly #seen: SeenMessage[];
  readonly #problems: TransportProblem[];
  /** While true, close() does not close the inner transport (release() ends it). */
  held = false;
  readonly #raw = new Map<string, RawWaiter>();

  constructor(inner: ClientTransport, log: SessionLog, seen: SeenMessage[], problems: TransportProblem[]) {
    super();
    this.inner = inner;
    this.log = log;
    this.#seen = seen;
    this.#problems = problems;
    inner.onmessage = (message) => this.#received(message);
    inner.onclose = (details) => {
      // No answer can come any more: the raw requests waiting for one end now, saying why.
      const waiting = [...this.#raw.values()];
      this.#raw.clear();
      for (const waiter of waiting) waiter.lost(`the connection closed before the answer came (${describeClose(details)})`);
      this.notifyClose(details);
    };
    inner.onerror = (error) => {
      log.problem(error, problems);
      this.reportError(error);
    };
    this.hooks.attach(inner);
  }

  get traceName(): TraceTransportName {
    return traceTransportName(this.inner);
  }

  get description(): string {
    return this.inner.description;
  }

  get sendsHeaders(): boolean {
    return this.inner.sendsHeaders === true;
  }

  get serverProcess(): ServerProcess | undefined {
    return this.inner.serverProcess;
  }

  /** Whether the connection has ended (the server exited, the stream closed, close() ran). */
  get ended(): boolean {
    return this.ending;
  }

  start(): Promise<void> {
    const refused = this.claimStart();
    return refused ? Promise.reject(refused) : this.inner.start();
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.log.record("send", message, this.ids, this.#seen);
    return options === undefined ? this.inner.send(message) : this.inner.send(message, options);
  }

  /**
   * Sends `message` as it is (it need not be well-formed) and returns its index; when
   * `waitFor` is given, `answered` is told the index of the answer with that id (or, with
   * `nullId`, of an error answer with a null id, JSON-RPC 2.0 §5: the answer to a request whose
   * id could not be read), which the Client never sees.
   */
  sendRaw(
    message: object,
    options: SendOptions,
    waitFor?: { id: RequestId; answered: (index: number) => void; lost: (reason: string) => void; nullId?: boolean },
  ): { index: number; sent: Promise<void> } {
    if (waitFor !== undefined) this.#raw.set(idKey(waitFor.id), { resolve: waitFor.answered, lost: waitFor.lost, nullId: waitFor.nullId === true });
    const index = this.log.record("send", message as JsonRpcMessage, this.ids, this.#seen);
    return { index, sent: this.inner.send(message as JsonRpcMessage, options) };
  }

  /** Stops waiting for a raw request's answer (its time ran out): a late one goes to the Client, which drops it. */
  forget(id: RequestId): void {
    this.#raw.delete(idKey(id));
  }

  #received(message: JsonRpcMessage): void {
    const index = this.log.record("receive", message, this.ids, this.#seen);
    const raw = message as unknown as Record<string, unknown>;
    if (!("method" in raw) && this.#raw.size > 0) {
      const id = raw.id;
      let key = typeof id === "string" || typeof id === "number" ? idKey(id) : undefined;
      // An error with a null id answers a request whose id could not be read: the oldest raw one that allows it.
      if (id === null && "error" in raw) key = [...this.#raw].find(([, waiter]) => waiter.nullId)?.[0];
      const waiter = key === undefined ? undefined : this.#raw.get(key);
      if (waiter !== undefined) {
        this.#raw.delete(key!);
        waiter.resolve(index);
        return;
      }
    }
    this.receive(message);
  }

  override close(): Promise<void> {
    return this.held ? Promise.resolve() : super.close();
  }

  /** Ends the hold: close() closes the inner transport again. */
  release(): void {
    this.held = false;
  }

  protected shutdown(): Promise<void> {
    return this.inner.close();
  }
}
