// A transport wrapper that shows every JSON-RPC message crossing the wire, in both
// directions, without changing any of them. Used by `mcpwire inspect --trace`. What it
// shows is redacted: a server may echo our credentials back, and a trace is printed.

import { boundedJson } from "../common/bounded.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import { Redactor } from "../common/redact.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { TransportWrapper } from "./http-hooks.ts";
import type { HttpSendOptions } from "./retry-after.ts";
import type { ClientTransport } from "./transport.ts";

export type TraceDirection = "send" | "receive";

/**
 * Called for each message. `text` is what to show: its JSON, bounded in depth and size, with
 * the credentials the connection knows (the inner transport's configured headers,
 * `options.redactor`'s secrets) and credential-shaped values replaced by `[redacted]`.
 * `message` is the message as it crossed the wire, or — when it held a credential — a redacted
 * copy of it, so that printing either never shows a secret (a copy too deep or too large to
 * rebuild from the bounded text keeps only jsonrpc, id and method, plus `redactedText`).
 */
export type TraceFn = (direction: TraceDirection, message: JsonRpcMessage, text: string) => void;

/** Options of TracingTransport: how each traced message is redacted and cut. */
export interface TracingOptions {
  /** More secrets to keep out of the trace (the host's). */
  redactor?: Redactor;
  /** Characters of one message's text before it is cut. Default 100,000. */
  maxChars?: number;
}

/** A transport that can redact what it knows (the HTTP transports: their configured headers). */
interface Redacting {
  redact(text: string): string;
}

function redacting(transport: ClientTransport): Redacting | undefined {
  const candidate = transport as ClientTransport & Partial<Redacting>;
  return typeof candidate.redact === "function" ? (candidate as ClientTransport & Redacting) : undefined;
}

/** The message rebuilt from its redacted text; the envelope alone when the text was cut. */
function redactedCopy(message: JsonRpcMessage, text: string): JsonRpcMessage {
  try {
    return JSON.parse(text) as JsonRpcMessage;
  } catch {
    const envelope: Record<string, unknown> = { jsonrpc: "2.0", redactedText: text };
    if ("id" in message) envelope.id = message.id;
    if ("method" in message) envelope.method = message.method;
    return envelope as unknown as JsonRpcMessage;
  }
}

/** Every option a TracingTransport reads (its constructor checks them). */
const TRACING_OPTIONS = optionNames<TracingOptions>({ redactor: true, maxChars: true });

/**
 * A wrapper around another transport that shows every message crossing it, redacted, changing none.
 *
 * The wrapper's lifecycle is the shared one (lifecycle.ts) around the inner transport's: its
 * messages, errors and close become ours; the HTTP hooks pass through (http-hooks.ts).
 */
export class TracingTransport extends TransportWrapper {
  readonly inner: ClientTransport;
  readonly #trace: TraceFn;
  readonly #redactor: Redactor;
  readonly #innerRedacting: Redacting | undefined;
  readonly #maxChars: number;
  readonly #options: TracingOptions;

  constructor(inner: ClientTransport, trace: TraceFn, options: TracingOptions = {}) {
    super();
    checkOptions("TracingTransport", options, TRACING_OPTIONS);
    this.inner = inner;
    this.#trace = trace;
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

  get serverKey(): string | undefined {
    return this.inner.serverKey;
  }

  /** The inner transport's fresh() one, traced the same way; undefined when the inner transport makes none. */
  fresh(): TracingTransport | undefined {
    const inner = this.inner.fresh?.();
    return inner === undefined ? undefined : new TracingTransport(inner, this.#trace, this.#options);
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
    const raw = boundedJson(message, { maxChars: this.#maxChars });
    const text = this.redact(raw);
    this.#trace(direction, text === raw ? message : redactedCopy(message, text), text);
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
