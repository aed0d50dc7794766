// An HTTP URL whose transport is not known: try Streamable HTTP, fall back to the legacy
// HTTP+SSE transport — spec 2025-11-25 basic/transports ("Backwards Compatibility", the
// client's algorithm). A Transport like any other: the Client never knows which one it got.

import { messageOf } from "../common/error-text.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { connectionRedaction, HttpStatusError, type RedactFn, showUrl } from "./http-errors.ts";
import { TransportWrapper } from "./http-hooks.ts";
import { HTTP_CONNECTION_OPTIONS, type HttpConnectionOptions } from "./http-options.ts";
import { methodOf } from "./lifecycle.ts";
import type { HttpSendOptions } from "./retry-after.ts";
import { SseLegacyTransport } from "./sse-legacy.ts";
import { StreamableHttpTransport } from "./streamable-http/mod.ts";
import type { TraceTransportName } from "./trace-event.ts";
import { type Transport, TransportError } from "./transport.ts";
import { httpEndpoint } from "./url-credentials.ts";

/** Every option AutoHttpTransport reads (checked by its constructor). */
const AUTO_HTTP_OPTIONS = optionNames<AutoHttpTransportOptions>({
  ...HTTP_CONNECTION_OPTIONS,
  endpointTimeoutMs: true,
});

/** The transport an AutoHttpTransport chose. */
export type HttpTransportKind = "streamable-http" | "sse";

/** `url` may be either kind of endpoint; the connection options apply to whichever transport is chosen. */
export interface AutoHttpTransportOptions extends HttpConnectionOptions {
  /** For the legacy fallback: how long to wait for the `endpoint` event. Default 10 s. */
  endpointTimeoutMs?: number;
}

/** 2025-11-25 transports (Backwards Compatibility): the statuses that mean "try the old transport". */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

/** "POST <url> answered HTTP 405: "<body start>"", from the refusal of the first POST. */
function describeRefusal(error: HttpStatusError, url: URL): string {
  const body = error.bodyStart;
  return `POST ${showUrl(url)} answered HTTP ${error.status}` + (body !== "" ? `: ${JSON.stringify(body)}` : "");
}

/** The first POST's refusal when it means "try the old transport", else undefined. */
function fallbackRefusal(error: unknown): HttpStatusError | undefined {
  if (!(error instanceof HttpStatusError) || error.code !== "http-status") return undefined;
  return FALLBACK_STATUSES.has(error.status) ? error : undefined;
}

/** A transport's message without its leading `<description>: `, to quote inside ours. */
function unprefixed(message: string, transport: Transport): string {
  const prefix = `${transport.description}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/**
 * A transport for an HTTP URL whose kind is not known: Streamable HTTP tried first, the legacy HTTP+SSE one as the fallback.
 *
 * The shared lifecycle (lifecycle.ts) around whichever transport is tried or chosen; the HTTP
 * hooks pass through to it (http-hooks.ts).
 */
export class AutoHttpTransport extends TransportWrapper {
  readonly description: string;
  readonly url: URL;

  readonly #options: AutoHttpTransportOptions;
  /** The configured headers, with the URL's credentials as Authorization: Basic. */
  readonly #headers: Record<string, string>;
  /** The transport being tried, then the one chosen. */
  #candidate: StreamableHttpTransport | SseLegacyTransport | undefined;
  #kind: HttpTransportKind | undefined;
  /** The first send, which chooses the transport. */
  #choosing: Promise<void> | undefined;
  /** Keeps the configured header values and the host's secrets out of every message we make. */
  readonly #redact: RedactFn;

  constructor(options: AutoHttpTransportOptions) {
    super();
    checkOptions("AutoHttpTransport", options, AUTO_HTTP_OPTIONS, ["url"]);
    this.#options = options;
    // A user:password@ in the URL becomes Authorization: Basic (url-credentials.ts), for either transport.
    const endpoint = httpEndpoint(options.url, options.headers, "http");
    this.url = endpoint.url;
    this.#headers = endpoint.headers;
    this.description = `http "${showUrl(this.url)}"`;
    this.#redact = connectionRedaction([...Object.values(this.#headers), ...endpoint.secrets], options.redactor);
  }

  /**
   * `text` with the credentials this transport knows (its configured header values, the
   * host's secrets) and credential-shaped values replaced by `[redacted]`.
   */
  redact(text: string): string {
    return this.#redact(text);
  }

  protected override redactReport(text: string): string {
    return this.redact(text);
  }

  /** A request's SendOptions.headers go to whichever HTTP transport is chosen (the legacy one has no use for them). */
  readonly sendsHeaders = true;

  /** Which transport the server speaks; undefined until the first message has been sent. */
  get kind(): HttpTransportKind | undefined {
    return this.#kind;
  }

  /** "auto" until a kind is chosen, then that kind. */
  get traceName(): TraceTransportName {
    return this.#kind ?? "auto";
  }

  /** The transport in use, once chosen. */
  get inner(): Transport | undefined {
    return this.#kind === undefined ? undefined : this.#candidate;
  }

  /** Nothing goes over the wire yet: the first message (initialize) is the probe. */
  start(): Promise<void> {
    const refused = this.claimStart();
    return refused ? Promise.reject(refused) : Promise.resolve();
  }

  /** Sends through the transport in use; `options.deadline` bounds the wait for a busy server (retry-after.ts). */
  send(message: JsonRpcMessage, options: HttpSendOptions = {}): Promise<void> {
    if (this.closing || !this.started) return Promise.reject(this.refusal(methodOf(message), this.closing ? "closed" : "not started"));
    if (this.#choosing === undefined) {
      this.#choosing = this.#choose(message, options);
      return this.#choosing;
    }
    // Sent while the first message was choosing: it follows on the chosen transport.
    return this.#choosing.then(
      () => this.#candidate!.send(message, options),
      (error: unknown) => {
        throw new TransportError(`${this.description}: cannot send, no transport could be used: ${this.redact(messageOf(error))}`, "closed", {
          cause: error,
        });
      },
    );
  }

  /**
   * 2025-11-25 transports (Backwards Compatibility): POST the first message (initialize) with
   * Streamable HTTP; on 400, 404 or 405 open the GET stream, and if an `endpoint` event
   * arrives use the legacy transport and send the message again there.
   */
  async #choose(first: JsonRpcMessage, options: HttpSendOptions): Promise<void> {
    const { fetch, maxMessageBytes, maxRetryAfterMs, redactor, observer } = this.#options;
    const url = this.url.href;
    const headers = this.#headers;
    const streamable = new StreamableHttpTransport({ url, headers, fetch, maxMessageBytes, maxRetryAfterMs, redactor, observer });
    this.#use(streamable);
    let refusal: string;
    try {
      await streamable.start();
      await streamable.send(first, options);
      this.#kind = "streamable-http";
      return;
    } catch (error) {
      // spec 2026-07-28 basic/versioning ("Backward Compatibility"): a refused server/discover
      // says the server is not modern; the Client decides what follows. If it falls back to
      // initialize, that first legacy message chooses between Streamable HTTP and HTTP+SSE.
      if ("method" in first && first.method === "server/discover") {
        await this.#discard(streamable);
        this.#choosing = undefined;
        throw error;
      }
      const refused = fallbackRefusal(error);
      if (refused === undefined || this.closing) {
        await this.#discard(streamable);
        throw error;
      }
      refusal = describeRefusal(refused, this.url);
    }
    await this.#discard(streamable);
    if (this.closing) throw new TransportError(`${this.description}: closed while connecting`, "closed");

    const legacy = new SseLegacyTransport({
      url,
      headers,
      fetch,
      endpointTimeoutMs: this.#options.endpointTimeoutMs,
      maxMessageBytes,
      maxRetryAfterMs,
      redactor,
      observer,
    });
    this.#use(legacy);
    try {
      await legacy.start();
    } catch (error) {
      await this.#discard(legacy);
      if (this.closing) throw new TransportError(`${this.description}: closed while connecting`, "closed", { cause: error });
      const legacyError = error instanceof TransportError ? error : new TransportError(messageOf(error), "connect-failed");
      throw new TransportError(
        `${this.description}: not a Streamable HTTP server (${refusal}), ` +
          `and not a legacy HTTP+SSE server either (${unprefixed(legacyError.message, legacy)}); check the URL`,
        legacyError.code,
        { cause: error },
      );
    }
    this.#kind = "sse";
    await legacy.send(first, options);
  }

  /** Makes `inner` the candidate: its messages, errors and close become ours, the HTTP hooks its. */
  #use(inner: StreamableHttpTransport | SseLegacyTransport): void {
    this.#candidate = inner;
    inner.onmessage = (message) => this.onmessage?.(message);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = (details) => {
      if (this.#candidate === inner) this.notifyClose(details);
    };
    this.hooks.attach(inner);
  }

  /** Closes a transport that was tried and not chosen, without its close becoming ours. */
  async #discard(inner: StreamableHttpTransport | SseLegacyTransport): Promise<void> {
    if (this.#candidate === inner) this.#candidate = undefined;
    inner.onmessage = undefined;
    inner.onerror = undefined;
    inner.onclose = undefined;
    this.hooks.detach(inner);
    await inner.close().catch(() => {});
  }

  /** Closes whichever transport is in use or being tried; bounded by its close; onclose fires once. */
  protected async shutdown(): Promise<void> {
    const inner = this.#candidate;
    if (inner !== undefined) await inner.close().catch(() => {});
    // A probe under way ends once its transport is closed.
    await this.#choosing?.catch(() => {});
    this.notifyClose({ reason: this.started ? "closed by the client" : "closed before it started" });
  }
}
