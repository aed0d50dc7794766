// One end of a JSON-RPC 2.0 connection: requests out, responses in, requests and
// notifications in both directions — MCP spec 2025-11-25 basic/index, basic/lifecycle
// ("Timeouts"), basic/utilities/cancellation, basic/utilities/progress, basic/utilities/ping.

import { durationText } from "../common/duration.ts";
import { errorOf, messageOf } from "../common/error-text.ts";
import { checkOptions, optionNames } from "../common/options.ts";
import {
  type CloseDetails,
  ConnectionClosedError,
  describeClose,
  ErrorCode,
  RequestAbortedError,
  RequestTimeoutError,
  RpcError,
  type UndeliverableResponse,
  UndeliverableResponseError,
} from "./errors.ts";
import { type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId, undeliverableResponse } from "./messages.ts";
import { type PendingRequest, PendingRequests, type Progress } from "./pending-requests.ts";

export type { Progress } from "./pending-requests.ts";

/** The params of a request or notification, and the result of a request: a JSON object. */
export type Params = Record<string, unknown>;

/** Options of one request: its timeouts, an AbortSignal, and a progress callback. */
export interface RequestOptions {
  /**
   * Idle timeout: no answer (and no progress) for this long fails the request. Default 60 s.
   * `Infinity` means no idle timeout (the hard maximum still applies if it is finite).
   */
  timeoutMs?: number;
  /** Hard maximum that progress cannot extend. Default 10 minutes (or timeoutMs if larger). */
  maxTotalTimeoutMs?: number;
  /** Whether progress notifications restart the idle timeout. Default true. */
  resetTimeoutOnProgress?: boolean;
  /**
   * Aborting it sends `notifications/cancelled` and rejects with a RequestAbortedError naming
   * the connection and the method, the signal's reason as its `cause`.
   */
  signal?: AbortSignal;
  /** Receives this request's `notifications/progress`; implies a progress token. */
  onProgress?: (progress: Progress) => void;
  /** Attach a progress token even without onProgress (so progress resets the timeout). */
  progress?: boolean;
  /** Told the request's id before it is sent (a subscription is named by its request id). */
  onId?: (id: RequestId) => void;
  /**
   * An OpenTelemetry Context whose span is the parent of this request's client span (the
   * client's telemetry reads it; the Peer does not). Default: the context active at the call.
   */
  traceContext?: object;
  /**
   * What the transport sends beside this request, where its wire has a place for it (HTTP:
   * request headers); a transport without one ignores them (SendOptions.headers).
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * On a server: the id of the host's request this one is sent while answering (a sampling
   * request inside a tools/call): the transport sends it on that request's stream
   * (SendOptions.relatedRequestId). A client leaves it out.
   */
  relatedRequestId?: RequestId;
}

export interface IncomingRequestContext {
  requestId: RequestId;
  method: string;
  /** Aborted when the peer sends `notifications/cancelled` for this request, or on close. */
  signal: AbortSignal;
}

export type RequestHandler = (
  params: Params | undefined,
  context: IncomingRequestContext,
) => Params | Promise<Params>;

export type NotificationHandler = (params: Params | undefined) => void;

/** What the peer tells the transport about one message it sends. */
export interface SendOptions {
  /** When the caller stops waiting for the answer (epoch milliseconds, as Date.now()). */
  deadline?: number;
  /**
   * Headers for this message, computed by the layer above (the Client: spec 2026-07-28
   * streamable-http "Request Metadata"); a transport that has headers (HTTP) sends them, the
   * others ignore them. The transport does not read the message to make them.
   */
  headers?: Readonly<Record<string, string>>;
  /**
   * On a server: the id of the request from the other side this message belongs to — a
   * response's own request, a notification or request sent while answering it. A server
   * transport with one stream per request (Streamable HTTP) sends the message on that request's
   * stream; without it the message goes on the connection's own stream (spec 2025-11-25
   * basic/transports, "Sending Messages to the Server" 6; spec 2026-07-28 streamable-http).
   * Others ignore it. The TypeScript SDK's TransportSendOptions has the same field.
   */
  relatedRequestId?: RequestId;
}

/** Options of a Peer: its name, how it sends, default and maximum timeouts, and where problems go. */
export interface PeerOptions {
  /** Names the connection in every error message, e.g. `server "everything"`. */
  name: string;
  /**
   * Hands one message to the transport; a request's `deadline` (epoch ms) goes with it, so a
   * transport that must wait before sending (an HTTP Retry-After) knows how long it may.
   */
  send: (message: JsonRpcMessage, options?: SendOptions) => Promise<void>;
  defaultTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
  /** Non-fatal oddities: unknown response ids, progress going backwards, failed sends. */
  onProblem?: (message: string) => void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Most requests one send-failure handler watches (Peer #watchSend). */
const SEND_GROUP_MAX = 1024;
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;
/** Every option a Peer reads (its constructor checks them). */
const PEER_OPTIONS = optionNames<PeerOptions>({
  name: true,
  send: true,
  defaultTimeoutMs: true,
  maxTotalTimeoutMs: true,
  onProblem: true,
});

/** One side of a JSON-RPC connection: ids, the pending table, deadlines, cancellation, progress and the handler tables. */
export class Peer {
  readonly name: string;
  readonly #send: (message: JsonRpcMessage, options?: SendOptions) => Promise<void>;
  readonly #onProblem: (message: string) => void;
  readonly #defaultTimeoutMs: number;
  readonly #defaultMaxTotalMs: number;
  readonly #pending = new PendingRequests((entry) => this.#timedOut(entry));
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, NotificationHandler>();
  /** Where requests and notifications without a handler of their own go (setReceiver): a side's chain. */
  #receive: ((method: string, params: Params | undefined, context: IncomingRequestContext) => Params | Promise<Params>) | undefined;
  #hear: ((method: string, params: Params | undefined) => void) | undefined;
  /** Requests the other side sent us that our handlers are still working on. */
  readonly #incoming = new Map<RequestId, Incoming>();
  #closed: ConnectionClosedError | undefined;
  /** The resolvers #capture took from the promise request() just made. */
  #resolveNext: ((result: Params) => void) | undefined;
  #rejectNext: ((error: unknown) => void) | undefined;
  readonly #capture = (resolve: (result: Params) => void, reject: (error: unknown) => void): void => {
    this.#resolveNext = resolve;
    this.#rejectNext = reject;
  };
  /** The last send promise of a request, and the ids of the requests it carries (#watchSend). */
  #lastSend: Promise<void> | undefined;
  #lastSendIds: number[] = [];

  constructor(options: PeerOptions) {
    checkOptions("Peer", options, PEER_OPTIONS, ["name", "send"]);
    this.name = options.name;
    this.#send = options.send;
    this.#onProblem = options.onProblem ?? (() => {});
    this.#defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#defaultMaxTotalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    // spec 2025-11-25 basic/utilities/ping: the receiver MUST respond promptly with an empty result.
    this.#requestHandlers.set("ping", () => ({}));
  }

  /** Requests sent and not yet answered. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  get isClosed(): boolean {
    return this.#closed !== undefined;
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#requestHandlers.set(method, handler);
  }

  removeRequestHandler(method: string): void {
    this.#requestHandlers.delete(method);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.#notificationHandlers.set(method, handler);
  }

  /**
   * Where every request and notification without a handler of its own goes: the receiving
   * links of a side's chain (middleware.ts), which answer -32601 for a method nobody serves.
   */
  setReceiver(
    receive: (method: string, params: Params | undefined, context: IncomingRequestContext) => Params | Promise<Params>,
    hear: (method: string, params: Params | undefined) => void,
  ): void {
    this.#receive = receive;
    this.#hear = hear;
  }

  /** Sends a request and resolves with its result, or rejects with RpcError and the like. */
  request(method: string, params?: Params, options: RequestOptions = {}): Promise<Params> {
    if (this.#closed) return Promise.reject(this.#closedError(method));
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(this.#abortError(method, signal.reason));

    const id = this.#pending.allocateId();
    options.onId?.(id);
    const wantsProgress = options.onProgress !== undefined || options.progress === true;
    // The request id doubles as the progress token: unique among active requests,
    // as spec 2025-11-25 basic/utilities/progress requires. A copy of `params` with
    // `_meta.progressToken` set (the caller's object is not changed); own enumerable keys are
    // copied one by one, in their order: on V8 an object spread here cost about four times as
    // much, and the spread result was slower to serialize. (Inline: every request's path.)
    if (wantsProgress) {
      const copy: Params = {};
      if (params !== undefined) {
        const keys = Object.keys(params);
        for (let i = 0; i < keys.length; i++) copy[keys[i]!] = params[keys[i]!];
      }
      const meta = copy._meta as Params | undefined;
      copy._meta = meta === undefined || meta === null || typeof meta !== "object" ? { progressToken: id } : { ...meta, progressToken: id };
      params = copy;
    }
    const message: JsonRpcRequest = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

    const timeoutMs = options.timeoutMs ?? this.#defaultTimeoutMs;
    const maxTotal = Math.max(options.maxTotalTimeoutMs ?? this.#defaultMaxTotalMs, timeoutMs);

    // One executor for every request (#capture): no closure, and no context for one to close
    // over, per request. Nothing below throws, so the promise settles only through the entry.
    const promise = new Promise<Params>(this.#capture);
    const startedAt = Date.now();
    const hardDeadline = startedAt + maxTotal;
    const idleDeadline = startedAt + timeoutMs;
    const entry: PendingRequest = {
      id,
      method,
      resolve: this.#resolveNext!,
      reject: this.#rejectNext!,
      onProgress: options.onProgress,
      timeoutMs,
      startedAt,
      hardDeadline,
      deadline: Math.min(idleDeadline, hardDeadline),
      deadlineIsIdle: idleDeadline <= hardDeadline,
    };
    this.#resolveNext = this.#rejectNext = undefined;
    // #onProgress moves the deadline itself: no wrapper closure per request.
    if (wantsProgress && options.resetTimeoutOnProgress !== false) entry.progressResetsTimeout = true;
    if (options.headers !== undefined) entry.headers = options.headers;
    if (options.relatedRequestId !== undefined) entry.relatedRequestId = options.relatedRequestId;
    if (signal) this.#watchSignal(entry, signal);
    this.#pending.add(entry);
    // The entry itself is the SendOptions (its deadline, kept current): no object per request.
    // #sendSafely, inline: a synchronous throw becomes a rejection.
    let sent: Promise<void>;
    try {
      sent = this.#send(message, entry);
    } catch (error) {
      sent = Promise.reject(error);
    }
    this.#watchSend(sent, id);
    return promise;
  }

  /** The caller's signal aborting gives the request up (cancelled by the caller). */
  #watchSignal(entry: PendingRequest, signal: AbortSignal): void {
    const onAbort = () => this.#giveUp(entry.id, this.#abortError(entry.method, signal.reason), "cancelled by the caller");
    signal.addEventListener("abort", onAbort, { once: true });
    entry.detach = () => signal.removeEventListener("abort", onAbort);
  }

  /**
   * A request whose send fails fails with the send's error. A transport that writes the
   * requests of one tick together (stdio) hands each of them the same promise: the requests
   * sharing it are listed, and one handler per promise fails them all, instead of a closure
   * and a derived promise per request.
   */
  #watchSend(sent: Promise<void>, id: number): void {
    // A group is capped, so a transport that returns one shared promise for every send does
    // not grow one list forever.
    if (sent === this.#lastSend && this.#lastSendIds.length < SEND_GROUP_MAX) {
      this.#lastSendIds.push(id);
      return;
    }
    const ids = [id];
    this.#lastSend = sent;
    this.#lastSendIds = ids;
    sent.then(undefined, (error: unknown) => {
      // Its handler has run: a later send with the same (already rejected) promise needs one of its own.
      if (this.#lastSend === sent) this.#lastSend = undefined;
      const reason = errorOf(error);
      for (const failedId of ids) {
        const entry = this.#pending.take(failedId);
        if (entry !== undefined) this.#reject(entry, reason);
      }
    });
  }

  /**
   * Sends a notification. Rejects only when the transport could not send it. `options` (a
   * server's relatedRequestId: the request it belongs to) go to the transport with it.
   */
  notify(method: string, params?: Params, options?: SendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(this.#closedError(method));
    const message: JsonRpcNotification = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    return this.#sendSafely(message, options);
  }

  /** The send function, with a synchronous throw turned into a rejection. */
  #sendSafely(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    try {
      return options === undefined ? this.#send(message) : this.#send(message, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Feeds one message that arrived from the other side. After close() the connection is
   * over for us: what still trickles in (a server's answers while it shuts down) is dropped.
   */
  receive(message: JsonRpcMessage): void {
    if (this.#closed) return;
    if ("method" in message) {
      if ("id" in message) this.#onRequest(message);
      else this.#onNotification(message);
    } else {
      this.#onResponse(message);
    }
  }

  /**
   * The connection ended: every pending request rejects at once with an error naming the
   * connection and the cause; handlers still running are aborted. Idempotent.
   */
  close(details: CloseDetails): void {
    if (this.#closed) return;
    this.#closed = new ConnectionClosedError(`${this.name}: connection closed: ${describeClose(details)}`, { details });
    for (const entry of this.#pending.drain()) this.#reject(entry, this.#closedError(entry.method));
    for (const incoming of this.#incoming.values()) incoming.abort(this.#closed);
    this.#incoming.clear();
  }

  /**
   * A response arrived that cannot be delivered (too large to read, or not a well-formed
   * response): the request it answers fails now with an UndeliverableResponseError saying why,
   * instead of waiting out its timeout. Without a readable id, the only pending request is
   * taken to be the one it answers; with several pending, none can be chosen and the report
   * goes to onProblem.
   */
  undeliverable(response: UndeliverableResponse): void {
    if (this.#closed) return;
    const pending = this.#pending.size;
    const entry = response.id !== undefined ? this.#pending.take(response.id) : pending === 1 ? this.#pending.takeOnly() : undefined;
    if (entry === undefined) {
      const which = response.id !== undefined
        ? `request id ${JSON.stringify(response.id)}, which is not pending`
        : pending === 0
        ? "no request (none is pending)"
        : `no request: its id could not be read and ${pending} are pending (they wait for their timeouts)`;
      if (response.id === undefined || !this.#pending.wasAbandoned(response.id)) {
        this.#onProblem(`${this.name}: a response could not be delivered (${response.detail}); it answers ${which}`);
      }
      return;
    }
    const idText = response.id !== undefined ? `id ${JSON.stringify(entry.id)}` : `id unreadable, taken as ${entry.id}, the only request pending`;
    this.#pending.abandon(entry.id); // a late copy of the answer is dropped silently
    this.#reject(
      entry,
      new UndeliverableResponseError(
        `${this.name}: ${entry.method} failed: its response (${idText}) could not be delivered: ${response.detail}` +
          (response.remedy !== undefined ? `; ${response.remedy}` : ""),
        { method: entry.method, requestId: entry.id, response },
      ),
    );
  }

  /** Fails a request with `error` (its detach and bookkeeping are the pending table's). */
  #reject(entry: PendingRequest, error: unknown): void {
    entry.reject(error);
  }

  /** What an aborted request rejects with: who, which method, and the signal's reason. */
  #abortError(method: string, reason: unknown): RequestAbortedError {
    const timeout = (reason as { name?: unknown } | null)?.name === "TimeoutError";
    const why = reason === undefined ? "no reason given" : messageOf(reason);
    return timeout
      ? new RequestAbortedError(
        `${this.name}: ${method} timed out: the caller's AbortSignal fired (${why}); give it more time, or check the server's stderr`,
        "timeout",
        { method, cause: reason },
      )
      : new RequestAbortedError(`${this.name}: ${method} was cancelled by the caller: ${why}`, "cancelled", { method, cause: reason });
  }

  #closedError(method: string): ConnectionClosedError {
    const closed = this.#closed!;
    return new ConnectionClosedError(
      `${this.name}: ${method} failed: connection closed: ${describeClose(closed.details)}`,
      { details: closed.details },
    );
  }

  /** Restarts the idle timeout (progress came), never past the hard deadline. */
  #restartIdle(entry: PendingRequest): void {
    const idleDeadline = Date.now() + entry.timeoutMs;
    entry.deadlineIsIdle = idleDeadline <= entry.hardDeadline;
    entry.deadline = Math.min(idleDeadline, entry.hardDeadline);
    this.#pending.deadlineChanged(entry);
  }

  #timedOut(entry: PendingRequest): void {
    const idle = entry.deadlineIsIdle;
    const total = entry.hardDeadline - entry.startedAt;
    const message = idle
      ? `${this.name}: ${entry.method} timed out after ${durationText(entry.timeoutMs)} ` +
        (entry.progressResetsTimeout ? `(no answer and no progress for ${durationText(entry.timeoutMs)})` : "with no answer") +
        "; raise the timeout or check the server's stderr"
      : `${this.name}: ${entry.method} timed out after its maximum total time of ${durationText(total)}; ` +
        "progress kept it alive but it never finished; raise the maximum total timeout if that is expected";
    this.#giveUp(
      entry.id,
      new RequestTimeoutError(message, { method: entry.method, timeoutMs: idle ? entry.timeoutMs : total, kind: idle ? "idle" : "total" }),
      "timed out",
    );
  }

  /** Stop waiting for a request: tell the server (except for initialize), reject the caller. */
  #giveUp(id: number, error: unknown, reason: string): void {
    const entry = this.#pending.abandon(id);
    if (entry === undefined) return;
    // spec 2025-11-25 basic/utilities/cancellation: the initialize request MUST NOT be cancelled.
    if (entry.method !== "initialize" && !this.#closed) {
      // A server's request sent while answering one of the host's: its cancel goes the same way (relatedRequestId).
      const related = entry.relatedRequestId === undefined ? undefined : { relatedRequestId: entry.relatedRequestId };
      this.#sendSafely({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } }, related)
        .catch((sendError: unknown) => this.#onProblem(`${this.name}: could not send notifications/cancelled: ${messageOf(sendError)}`));
    }
    this.#reject(entry, error);
  }

  #onResponse(message: JsonRpcResponse): void {
    // Transports that hand over objects unchecked (memory) can deliver a malformed response:
    // it fails its request with the reason, as one the framer caught does.
    // (isObject, inline: every response's path.)
    const body = "result" in message ? ("error" in message ? undefined : message.result) : message.error;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      const fault = undeliverableResponse(message);
      if (fault !== undefined) {
        this.undeliverable(fault);
        return;
      }
    }
    const entry = this.#pending.take(message.id);
    if (entry === undefined) {
      // A late answer to a request we cancelled or that timed out is expected; drop it.
      if (!this.#pending.wasAbandoned(message.id)) {
        this.#onProblem(`${this.name}: response for unknown request id ${JSON.stringify(message.id)}; ignored`);
      }
      return;
    }
    if ("error" in message) {
      const { code, message: text, data } = message.error;
      this.#reject(entry, new RpcError(text, code, { data }));
    } else {
      entry.resolve(message.result);
    }
  }

  #onNotification(message: JsonRpcNotification): void {
    const params = message.params;
    switch (message.method) {
      case "notifications/progress":
        this.#onProgress(params);
        return;
      case "notifications/cancelled": {
        // spec 2025-11-25 basic/utilities/cancellation: stop the work, send no response.
        const requestId = params?.requestId;
        if (typeof requestId === "string" || typeof requestId === "number") {
          const incoming = this.#incoming.get(requestId);
          if (incoming) {
            this.#incoming.delete(requestId);
            incoming.abort(new Error(`cancelled by the peer: ${String(params?.reason ?? "no reason given")}`));
          }
        }
        break;
      }
    }
    const handler = this.#notificationHandlers.get(message.method);
    try {
      if (handler !== undefined) handler(params);
      else this.#hear?.(message.method, params); // without a receiver, unknown notifications are ignored
    } catch (error) {
      this.#onProblem(`${this.name}: handler for ${message.method} threw: ${messageOf(error)}`);
    }
  }

  #onProgress(params: Params | undefined): void {
    const token = params?.progressToken;
    const progress = params?.progress;
    if (typeof progress !== "number") {
      this.#onProblem(`${this.name}: notifications/progress without a numeric "progress"; ignored`);
      return;
    }
    const entry = this.#pending.get(typeof token === "number" || typeof token === "string" ? Number(token) : null);
    if (entry === undefined || (entry.onProgress === undefined && !entry.progressResetsTimeout)) return; // finished or not ours
    // spec 2025-11-25 basic/utilities/progress: "The progress value MUST increase with each notification".
    if (entry.lastProgress !== undefined && progress <= entry.lastProgress) {
      this.#onProblem(
        `${this.name}: progress for ${entry.method} (id ${entry.id}) did not increase (${entry.lastProgress} then ${progress})`,
      );
    }
    entry.lastProgress = progress;
    if (entry.progressResetsTimeout) this.#restartIdle(entry);
    if (entry.onProgress === undefined) return;
    const update: Progress = { progress };
    if (typeof params?.total === "number") update.total = params.total;
    if (typeof params?.message === "string") update.message = params.message;
    try {
      entry.onProgress(update);
    } catch (error) {
      // The caller's callback failed; that must not break the connection or the request.
      this.#onProblem(`${this.name}: onProgress callback for ${entry.method} (id ${entry.id}) threw: ${messageOf(error)}`);
    }
  }

  #onRequest(message: JsonRpcRequest): void {
    const { id, method } = message;
    const handler = this.#requestHandlers.get(method);
    const receive = this.#receive;
    if (handler === undefined && receive === undefined) {
      this.#respond({
        jsonrpc: "2.0",
        id,
        error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` },
      });
      return;
    }
    const incoming = new Incoming();
    const context: IncomingRequestContext = {
      requestId: id,
      method,
      // Most handlers never look at their signal: make the AbortController only when one does.
      get signal() {
        return incoming.signal;
      },
    };
    let outcome: Params | Promise<Params>;
    try {
      outcome = handler !== undefined ? handler(message.params, context) : receive!(method, message.params, context);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    if (!isThenable(outcome)) {
      // A handler that answered synchronously (ping, an in-process server): respond now,
      // without a promise and a microtask hop per request. Nothing can have cancelled it in
      // between (a notifications/cancelled arrives in a later task), so it never needed a
      // place in #incoming; #respond sends nothing once the connection is closed.
      this.#respond({ jsonrpc: "2.0", id, result: outcome });
      return;
    }
    // Still running: from now on notifications/cancelled and close() can reach it.
    if (this.#closed) incoming.abort(this.#closed);
    else this.#incoming.set(id, incoming);
    Promise.resolve(outcome).then(
      (result) => {
        if (this.#finishIncoming(id, incoming)) this.#respond({ jsonrpc: "2.0", id, result });
      },
      (error: unknown) => {
        if (!this.#finishIncoming(id, incoming)) return;
        const body = error instanceof RpcError ? error.toJSON() : { code: ErrorCode.InternalError, message: messageOf(error) };
        this.#respond({ jsonrpc: "2.0", id, error: body });
      },
    );
  }

  /** True when the answer should still be sent (not cancelled, connection open). */
  #finishIncoming(id: RequestId, incoming: Incoming): boolean {
    if (this.#incoming.get(id) === incoming) this.#incoming.delete(id);
    return !incoming.aborted && !this.#closed;
  }

  /**
   * Sends our answer to the other side's request, with its id as the relatedRequestId: a server
   * transport with a stream per request sends it on that stream (SendOptions). A client answers
   * few requests (sampling, elicitation, roots, ping), so the one object per answer is not on
   * its plain path, which sends requests and receives answers.
   */
  #respond(message: JsonRpcResponse): void {
    if (this.#closed) return;
    const id = message.id;
    this.#sendSafely(message, id === null ? undefined : { relatedRequestId: id }).catch((error: unknown) =>
      this.#onProblem(`${this.name}: could not send the response to request ${JSON.stringify(message.id)}: ${messageOf(error)}`)
    );
  }
}

/** Whether a handler's outcome is a promise (or promise-like) rather than the result itself. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** A request our handler is working on: its abort state, and an AbortSignal made only when asked for. */
class Incoming {
  aborted = false;
  #reason: unknown;
  #controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
