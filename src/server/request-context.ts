// What a handler is given beside a request's params (ServerRequestContext): who asked, its
// session, its cancellation, and the messages it may send while answering — progress (spec
// 2025-11-25 basic/utilities/progress), log messages at the host's level (server/utilities/
// logging of both eras), requests to the host (host-requests.ts). Each goes out tied to the
// request (SendOptions.relatedRequestId: over HTTP, on that request's stream).

import type { JsonObject } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import type { RequestId } from "../jsonrpc/messages.ts";
import type { Send } from "../jsonrpc/middleware.ts";
import type { IncomingRequestContext, Params, RequestOptions, SendOptions } from "../jsonrpc/peer.ts";
import { checkHostRequest } from "./host-requests.ts";
import { logPasses } from "./log-level.ts";
import type { HostIdentity, HostSession, ServerRequestContext } from "./server-handlers.ts";

/** What a request's context sends through: its connection's Peer and chain. */
export interface ContextPort {
  /** Names the server in messages (`server "everything"`). */
  readonly who: string;
  /** Sends a notification (the Peer's notify). */
  notify(method: string, params: Params | undefined, options: SendOptions): Promise<void>;
  /** Sends a request to the host through the connection's chain. */
  readonly send: Send;
  onProblem(message: string): void;
}

/** One request's ServerRequestContext; it is also the IncomingRequestContext the chain's links are given. */
export class RequestContext implements ServerRequestContext, IncomingRequestContext {
  readonly #port: ContextPort;
  readonly #incoming: IncomingRequestContext;
  readonly host: HostIdentity;
  readonly session: HostSession;
  readonly meta: JsonObject | undefined;

  constructor(port: ContextPort, incoming: IncomingRequestContext, host: HostIdentity, session: HostSession, meta: JsonObject | undefined) {
    this.#port = port;
    this.#incoming = incoming;
    this.host = host;
    this.session = session;
    this.meta = meta;
  }

  get requestId(): RequestId {
    return this.#incoming.requestId;
  }

  get method(): string {
    return this.#incoming.method;
  }

  /** Made only when a handler looks at it (the Peer's IncomingRequestContext makes it lazily). */
  get signal(): AbortSignal {
    return this.#incoming.signal;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    // spec 2025-11-25 progress: only with the token the request gave, and that token as given.
    const token = this.meta?.progressToken;
    if (typeof token !== "string" && typeof token !== "number") return Promise.resolve();
    const params: Params = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return this.#send("notifications/progress", params);
  }

  notify(method: string, params?: Params): Promise<void> {
    // spec 2026-07-28 logging: none without the request's level; both eras: at or above it only.
    if (method === "notifications/message" && !logPasses(params?.level, this.host.logLevel)) return Promise.resolve();
    return this.#send(method, params);
  }

  request(method: string, params?: Params, options: RequestOptions = {}): Promise<Params> {
    try {
      checkHostRequest(`${this.#port.who}: answering ${this.method}`, method, this.host);
    } catch (error) {
      return Promise.reject(error);
    }
    // spec 2025-11-25 cancellation: a request the host cancels takes ours with it (the Peer sends notifications/cancelled).
    const own = this.signal;
    const signal = options.signal === undefined ? own : AbortSignal.any([own, options.signal]);
    return this.#port.send(method, params, { ...options, signal, relatedRequestId: this.requestId });
  }

  /** Sends a notification tied to this request; never rejects (a failure is reported). */
  #send(method: string, params: Params | undefined): Promise<void> {
    return this.#port.notify(method, params, { relatedRequestId: this.requestId }).catch((error: unknown) =>
      this.#port.onProblem(`${this.#port.who}: could not send ${method} for ${this.method} (request ${JSON.stringify(this.requestId)}): ${messageOf(error)}`)
    );
  }
}
