// An HTTP URL whose transport is not known: try Streamable HTTP, fall back to the legacy
// HTTP+SSE transport — spec 2025-11-25 basic/transports ("Backwards Compatibility", the
// client's algorithm). A Transport like any other: the Client never knows which one it got.

import { Redactor } from "../common/redact.ts";
import type { CloseDetails } from "../jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";
import { showUrl } from "./http-errors.ts";
import type { HttpSendOptions } from "./retry-after.ts";
import { SseLegacyTransport } from "./sse-legacy.ts";
import { StreamableHttpTransport } from "./streamable-http.ts";
import { type Transport, TransportError } from "./transport.ts";

/** The transport an AutoHttpTransport chose. */
export type HttpTransportKind = "streamable-http" | "sse";

export interface AutoHttpTransportOptions {
  /** The server's URL: a Streamable HTTP endpoint (`…/mcp`) or a legacy SSE endpoint (`…/sse`). */
  url: string | URL;
  /** Sent with every request, whichever transport is chosen. */
  headers?: Record<string, string>;
  /** The fetch to use. Default: the global fetch. */
  fetch?: typeof fetch;
  /** For the legacy fallback: how long to wait for the `endpoint` event. Default 10 s. */
  endpointTimeoutMs?: number;
  /** Largest message accepted, in bytes, whichever transport is chosen. Default 64 MiB. */
  maxMessageBytes?: number;
  /** Longest Retry-After of a 429 or 503 that is waited out, whichever transport is chosen. Default 30 s. */
  maxRetryAfterMs?: number;
  /** More secrets to keep out of error messages (the host's). The values of `headers` are always kept out. */
  redactor?: Redactor;
}

/** 2025-11-25 transports (Backwards Compatibility): the statuses that mean "try the old transport". */
const FALLBACK_STATUSES = new Set([400, 404, 405]);

/** "POST <url> answered HTTP 405: "<body start>"", from the refusal of the first POST. */
function describeRefusal(error: Error, url: URL, status: number): string {
  const body = (error as Error & { bodyStart?: unknown }).bodyStart;
  return `POST ${showUrl(url)} answered HTTP ${status}` + (typeof body === "string" && body !== "" ? `: ${JSON.stringify(body)}` : "");
}

function fallbackStatus(error: unknown): number | undefined {
  if (!(error instanceof TransportError) || error.code !== "http-status") return undefined;
  const status = (error as TransportError & { status?: unknown }).status;
  return typeof status === "number" && FALLBACK_STATUSES.has(status) ? status : undefined;
}

/** A transport's message without its leading `<description>: `, to quote inside ours. */
function unprefixed(message: string, transport: Transport): string {
  const prefix = `${transport.description}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

export class AutoHttpTransport implements Transport {
  readonly description: string;
  readonly url: URL;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (details: CloseDetails) => void;
  onerror?: (error: Error) => void;

  readonly #options: AutoHttpTransportOptions;
  #onsessionexpired: (() => Promise<void>) | undefined;
  #protocolVersion: string | undefined;
  #toolSchemas: ((tool: string) => unknown) | undefined;
  #started = false;
  /** The transport being tried, then the one chosen. */
  #candidate: Transport | undefined;
  #kind: HttpTransportKind | undefined;
  /** The first send, which chooses the transport. */
  #choosing: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closeNotified = false;
  readonly #redactor = new Redactor();

  constructor(options: AutoHttpTransportOptions) {
    this.#options = options;
    this.url = new URL(options.url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TransportError(`http "${showUrl(this.url)}": the URL must be http:// or https://`, "bad-url");
    }
    this.description = `http "${showUrl(this.url)}"`;
    this.#redactor.addHeaders(options.headers);
  }

  /**
   * `text` with the credentials this transport knows (its configured header values, the
   * host's secrets) and credential-shaped values replaced by `[redacted]`.
   */
  redact(text: string): string {
    const own = this.#redactor.redact(text);
    return this.#options.redactor === undefined ? own : this.#options.redactor.redact(own);
  }

  /**
   * Passed through to the transport in use (Streamable HTTP runs it when the server ended
   * the session; the legacy transport has no sessions).
   */
  get onsessionexpired(): (() => Promise<void>) | undefined {
    return this.#onsessionexpired;
  }

  set onsessionexpired(handler: (() => Promise<void>) | undefined) {
    this.#onsessionexpired = handler;
    if (this.#candidate !== undefined) this.#candidate.onsessionexpired = handler;
  }

  /** Passed through to the transport in use (Streamable HTTP sends it as MCP-Protocol-Version). */
  setProtocolVersion(version: string | undefined): void {
    this.#protocolVersion = version;
    this.#candidate?.setProtocolVersion?.(version);
  }

  /** Passed through to the transport in use (Streamable HTTP mirrors x-mcp-header parameters). */
  setToolSchemas(lookup: (tool: string) => unknown): void {
    this.#toolSchemas = lookup;
    this.#candidate?.setToolSchemas?.(lookup);
  }

  /** Which transport the server speaks; undefined until the first message has been sent. */
  get kind(): HttpTransportKind | undefined {
    return this.#kind;
  }

  /** The transport in use, once chosen. */
  get inner(): Transport | undefined {
    return this.#kind === undefined ? undefined : this.#candidate;
  }

  /** Nothing goes over the wire yet: the first message (initialize) is the probe. */
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new TransportError(`${this.description}: already started`, "started"));
    this.#started = true;
    if (this.#closing) return Promise.reject(new TransportError(`${this.description}: close() was called before start()`, "closed"));
    return Promise.resolve();
  }

  /** Sends through the transport in use; `options.deadline` bounds the wait for a busy server (retry-after.ts). */
  send(message: JsonRpcMessage, options: HttpSendOptions = {}): Promise<void> {
    if (this.#closing || !this.#started) {
      const what = "method" in message ? message.method : "a response";
      const state = this.#closing ? "closed" : "not started";
      return Promise.reject(new TransportError(`${this.description}: cannot send ${what}, the connection is ${state}`, "closed"));
    }
    if (this.#choosing === undefined) {
      this.#choosing = this.#choose(message, options);
      return this.#choosing;
    }
    // Sent while the first message was choosing: it follows on the chosen transport.
    return this.#choosing.then(
      () => (this.#candidate as StreamableHttpTransport | SseLegacyTransport).send(message, options),
      (error: unknown) => {
        throw new TransportError(`${this.description}: cannot send, no transport could be used: ${this.redact((error as Error).message)}`, "closed", {
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
    const { url, headers, fetch, maxMessageBytes, maxRetryAfterMs, redactor } = this.#options;
    const streamable = new StreamableHttpTransport({ url: this.url.href, headers, fetch, maxMessageBytes, maxRetryAfterMs, redactor });
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
      const status = fallbackStatus(error);
      if (status === undefined || this.#closing) {
        await this.#discard(streamable);
        throw error;
      }
      refusal = describeRefusal(error as Error, this.url, status);
    }
    await this.#discard(streamable);
    if (this.#closing) throw new TransportError(`${this.description}: closed while connecting`, "closed");

    const legacy = new SseLegacyTransport({
      url,
      headers,
      fetch,
      endpointTimeoutMs: this.#options.endpointTimeoutMs,
      maxMessageBytes,
      maxRetryAfterMs,
      redactor,
    });
    this.#use(legacy);
    try {
      await legacy.start();
    } catch (error) {
      await this.#discard(legacy);
      if (this.#closing) throw new TransportError(`${this.description}: closed while connecting`, "closed", { cause: error });
      const legacyError = error instanceof TransportError ? error : new TransportError(String(error), "connect-failed");
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

  /** Makes `inner` the candidate: its messages, errors and close become ours. */
  #use(inner: Transport): void {
    this.#candidate = inner;
    inner.onmessage = (message) => this.onmessage?.(message);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = (details) => {
      if (this.#candidate === inner) this.#notifyClose(details);
    };
    if (this.#onsessionexpired !== undefined) inner.onsessionexpired = this.#onsessionexpired;
    if (this.#protocolVersion !== undefined) inner.setProtocolVersion?.(this.#protocolVersion);
    if (this.#toolSchemas !== undefined) inner.setToolSchemas?.(this.#toolSchemas);
  }

  /** Closes a transport that was tried and not chosen, without its close becoming ours. */
  async #discard(inner: Transport): Promise<void> {
    if (this.#candidate === inner) this.#candidate = undefined;
    inner.onmessage = undefined;
    inner.onerror = undefined;
    inner.onclose = undefined;
    inner.onsessionexpired = undefined;
    await inner.close().catch(() => {});
  }

  /** Closes whichever transport is in use or being tried; bounded by its close; onclose fires once. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const inner = this.#candidate;
    if (inner !== undefined) await inner.close().catch(() => {});
    // A probe under way ends once its transport is closed.
    await this.#choosing?.catch(() => {});
    this.#notifyClose({ reason: this.#started ? "closed by the client" : "closed before it started" });
  }

  #notifyClose(details: CloseDetails): void {
    if (this.#closeNotified) return;
    this.#closeNotified = true;
    try {
      this.onclose?.(details);
    } catch (error) {
      try {
        this.onerror?.(new TransportError(`${this.description}: onclose handler threw: ${(error as Error).message}`, "handler-threw", { cause: error }));
      } catch {
        // nowhere left to report to
      }
    }
  }
}
