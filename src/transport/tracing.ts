// A transport wrapper that shows every JSON-RPC message crossing the wire, in both
// directions, without changing any of them. Used by `mcpwire inspect --trace`. What it
// shows is redacted: a server may echo our credentials back, and a trace is printed.
// With a `sink` it also makes `message` trace events (trace-event.ts): a response names the
// request it answers and its latency, a progress notification the request of its token.

import { isObject } from "../common/json.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { redactedJson, Redactor } from "../common/redact.ts";
import type { JsonRpcMessage, RequestId } from "../jsonrpc/messages.ts";
import { TransportWrapper } from "./http-hooks.ts";
import type { HttpSendOptions } from "./retry-after.ts";
import { type MessageTraceEvent, type TracedRequest, type TraceSink, traceStamp, type TraceTransportName } from "./trace-event.ts";
import type { ClientTransport, ServerProcess, Transport } from "./transport.ts";

export type TraceDirection = "send" | "receive";

/**
 * Called for each message. `text` is what to show: its JSON, bounded in depth and size, with
 * the credentials the connection knows (the inner transport's configured headers,
 * `options.redactor`'s secrets) and credential-shaped values replaced by `[redacted]` — in all
 * of it that is shown, strings that hold JSON of their own included (common/redact.ts redactedJson).
 * `message` is the message as it crossed the wire, or — when it held a credential — a redacted
 * copy of it, so that printing either never shows a secret; a message too large for `maxChars`
 * (or too deep to rebuild) is its envelope alone: jsonrpc, id and method, plus `redactedText`,
 * the start of its redacted text. Neither is ever larger than `maxChars` and the envelope.
 */
export type TraceFn = (direction: TraceDirection, message: JsonRpcMessage, text: string) => void;

/** Options of TracingTransport: how each traced message is redacted and cut. */
export interface TracingOptions {
  /** More secrets to keep out of the trace (the host's). */
  redactor?: Redactor;
  /** Characters of one message's text before it is cut. Default 100,000. */
  maxChars?: number;
  /** Where `message` trace events go (trace-event.ts). Default: none are made. */
  sink?: TraceSink;
  /** The server's name in those events. Default "". */
  server?: string;
  /** `performance.now()` when the session started: an event's `t` counts from it. Default: when the tracer was made. */
  startedAt?: number;
}

/** The name of a transport in trace events: its kind, or the kind an `auto` transport chose. */
export function traceTransportName(transport: Transport): TraceTransportName {
  // Ours name themselves (TransportBase.traceName); another Transport goes by its class name.
  const named = (transport as { traceName?: unknown }).traceName;
  return typeof named === "string" ? named : transport.constructor.name;
}

/** A request seen on the wire, until its answer: what the answer's event names. */
interface Outstanding extends TracedRequest {
  at: number;
  progressToken?: string | number;
}

/** Most requests remembered per direction while unanswered; the oldest is forgotten past it. */
const MAX_OUTSTANDING = 10_000;

/** A transport that can redact what it knows (the HTTP transports: their configured headers). */
interface Redacting {
  redact(text: string): string;
}

function redacting(transport: ClientTransport): Redacting | undefined {
  const candidate = transport as ClientTransport & Partial<Redacting>;
  return typeof candidate.redact === "function" ? (candidate as ClientTransport & Redacting) : undefined;
}

/**
 * The message rebuilt from its redacted text; the envelope alone (id and method redacted too)
 * when the text was cut or is not JSON.
 */
function redactedCopy(message: JsonRpcMessage, text: string, cut: boolean, redact: (text: string) => string): JsonRpcMessage {
  if (!cut) {
    try {
      return JSON.parse(text) as JsonRpcMessage;
    } catch {
      // not JSON once redacted (a replacement spanned the punctuation): the envelope says what it was
    }
  }
  const envelope: Record<string, unknown> = { jsonrpc: "2.0" };
  if ("id" in message) envelope.id = typeof message.id === "string" ? redact(message.id) : message.id;
  if ("method" in message) envelope.method = typeof message.method === "string" ? redact(message.method) : message.method;
  envelope.redactedText = text;
  return envelope as unknown as JsonRpcMessage;
}

/** Every option a TracingTransport reads (its constructor checks them). */
const TRACING_OPTIONS = optionNames<TracingOptions>({ redactor: true, maxChars: true, sink: true, server: true, startedAt: true });

/**
 * A wrapper around another transport that shows every message crossing it, redacted, changing none.
 *
 * The wrapper's lifecycle is the shared one (lifecycle.ts) around the inner transport's: its
 * messages, errors and close become ours; the HTTP hooks pass through (http-hooks.ts).
 */
export class TracingTransport extends TransportWrapper {
  readonly inner: ClientTransport;

  /** The wrapped transport's kind. */
  get traceName(): TraceTransportName {
    return traceTransportName(this.inner);
  }
  readonly #trace: TraceFn | undefined;
  readonly #sink: TraceSink | undefined;
  readonly #startedAt: number;
  /** Requests we sent / received, by id, until answered (for `answers` and `latencyMs`). */
  readonly #sent = new Map<RequestId, Outstanding>();
  readonly #received = new Map<RequestId, Outstanding>();
  /** Progress tokens of the requests we sent: the request each belongs to. */
  readonly #progress = new Map<string | number, TracedRequest>();
  readonly #redactor: Redactor;
  readonly #innerRedacting: Redacting | undefined;
  readonly #maxChars: number;
  readonly #options: TracingOptions;

  /**
   * `trace` gets each message as text (inspect --trace); `options.sink` gets `message` trace
   * events. Either may be left out (pass undefined for `trace` to have events only).
   */
  constructor(inner: ClientTransport, trace: TraceFn | undefined, options: TracingOptions = {}) {
    super();
    checkOptions("TracingTransport", options, TRACING_OPTIONS);
    this.inner = inner;
    this.#trace = trace;
    this.#sink = options.sink;
    this.#startedAt = options.startedAt ?? performance.now();
    this.#options = options;
    this.#redactor = options.redactor ?? new Redactor();
    this.#innerRedacting = redacting(inner);
    this.#maxChars = options.maxChars ?? 100_000;
    inner.onmessage = (message) => {
      this.#show("receive", message);
      this.receive(message);
    };
    inner.onclose = (details) => this.notifyClose(details);
    inner.onerror = (error) => this.reportError(error);
    this.hooks.attach(inner);
  }

  get description(): string {
    return this.inner.description;
  }

  /** The wrapped transport's: whether it sends SendOptions.headers (they pass through send as given). */
  get sendsHeaders(): boolean {
    return this.inner.sendsHeaders === true;
  }

  /** The wrapped transport's child process, if it runs one (stdio). */
  get serverProcess(): ServerProcess | undefined {
    return this.inner.serverProcess;
  }

  /** `text` with every credential this connection knows replaced (as the trace shows it). */
  redact(text: string): string {
    const inner = this.#innerRedacting?.redact(text) ?? text;
    return this.#redactor.redact(inner);
  }

  protected override redactReport(text: string): string {
    return this.redact(text);
  }

  #show(direction: TraceDirection, message: JsonRpcMessage): void {
    // Redacted, then bounded: nothing past maxChars (and the slack redaction reads) is shown,
    // and the message itself only when nothing in it was replaced and it fits.
    const redact = (text: string) => this.redact(text);
    const { text, cut, changed } = redactedJson(message, redact, { maxChars: this.#maxChars });
    const shown = changed ? redactedCopy(message, text, cut, redact) : message;
    if (this.#trace !== undefined) this.#trace(direction, shown, text);
    if (this.#sink !== undefined) this.#event(direction, message, shown, text.length);
  }

  /** Adds a request to a table, forgetting the oldest (and its progress token) past MAX_OUTSTANDING: a server that never answers cannot grow it. */
  #remember(table: Map<RequestId, Outstanding>, id: RequestId, request: Outstanding): void {
    table.set(id, request);
    if (table.size <= MAX_OUTSTANDING) return;
    const [oldestId, oldest] = table.entries().next().value!;
    table.delete(oldestId);
    if (oldest.progressToken !== undefined) this.#progress.delete(oldest.progressToken);
  }

  /** The `message` event of one message: what it answers, how long that took, whose progress it is. */
  #event(dir: TraceDirection, message: JsonRpcMessage, shown: JsonRpcMessage, size: number): void {
    const now = performance.now();
    const base = traceStamp({
      sink: this.#sink!,
      startedAt: this.#startedAt,
      server: this.#options.server ?? "",
      transport: () => traceTransportName(this.inner),
    });
    // `message` is set last, so that in a JSON line the short fields come first.
    const event = { ...base, kind: "message", dir } as MessageTraceEvent;
    const id = "id" in message ? message.id : undefined;
    if (id !== undefined && id !== null) event.id = id;
    if ("method" in message && typeof message.method === "string") {
      event.method = message.method;
      const params = isObject(message.params) ? message.params : undefined;
      if (id !== undefined && id !== null) {
        // A request: remembered until its answer crosses back (ours are answered by the server, and the other way round).
        const outstanding: Outstanding = { id, method: message.method, at: now };
        const token = isObject(params?._meta) ? params._meta.progressToken : undefined;
        if (dir === "send" && (typeof token === "string" || typeof token === "number")) {
          outstanding.progressToken = token;
          this.#progress.set(token, { id, method: message.method });
        }
        this.#remember(dir === "send" ? this.#sent : this.#received, id, outstanding);
      } else if (message.method === "notifications/progress") {
        // spec 2025-11-25 basic/utilities/progress: the notification carries the requester's token.
        const token = params?.progressToken;
        const owner = typeof token === "string" || typeof token === "number" ? this.#progress.get(token) : undefined;
        if (owner !== undefined) event.progressOf = owner;
      } else if (message.method.startsWith("notifications/tasks/") && typeof params?.taskId === "string") {
        // spec 2025-11-25 basic/utilities/tasks: notifications/tasks/status names its task.
        event.taskId = params.taskId;
      }
    } else if (id !== undefined && id !== null) {
      // A response: to one of ours when we receive it, to one of the server's when we send it.
      const table = dir === "receive" ? this.#sent : this.#received;
      const request = table.get(id);
      if (request !== undefined) {
        table.delete(id);
        if (request.progressToken !== undefined) this.#progress.delete(request.progressToken);
        event.method = request.method;
        event.answers = { id: request.id, method: request.method };
        event.latencyMs = Math.round((now - request.at) * 10) / 10;
      }
      const result = "result" in message && isObject(message.result) ? message.result : undefined;
      const task = isObject(result?.task) ? result.task : undefined;
      if (typeof task?.taskId === "string") event.taskId = task.taskId;
    }
    // The names a server chose are shown as its message's text is: redacted.
    if (event.method !== undefined) event.method = this.redact(event.method);
    if (typeof event.id === "string") event.id = this.redact(event.id);
    if (event.taskId !== undefined) event.taskId = this.redact(event.taskId);
    event.size = size;
    event.message = shown;
    try {
      this.#sink!(event);
    } catch {
      // A trace never breaks the connection it watches.
    }
  }

  start(): Promise<void> {
    const refused = this.claimStart();
    return refused ? Promise.reject(refused) : this.inner.start();
  }

  /** Traces, then sends through the inner transport (with `options`, which the HTTP transports take). */
  send(message: JsonRpcMessage, options?: HttpSendOptions): Promise<void> {
    this.#show("send", message);
    return options === undefined ? this.inner.send(message) : this.inner.send(message, options);
  }

  protected shutdown(): Promise<void> {
    return this.inner.close();
  }
}
