// One session with a host (HostSession): a handshake-era session from `initialize` to the end of
// its connection, or the 2026-07-28 side of a connection from its first stateless request —
// spec 2025-11-25 basic/lifecycle ("Operation", "Shutdown"); spec 2026-07-28
// basic/patterns/subscriptions (what is not tied to a request reaches a modern host only on
// the listen streams that asked for it). A handshake-era session may also ask its host
// something not tied to any request of its (HostSession.request: roots/list right after
// initialize), once the host has sent `notifications/initialized`.

import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import type { Send } from "../jsonrpc/middleware.ts";
import type { Params, RequestOptions } from "../jsonrpc/peer.ts";
import { ServerError } from "./errors.ts";
import { type Handshake, handshakeIdentity } from "./handshake.ts";
import { checkHostRequest } from "./host-requests.ts";
import { logPasses } from "./log-level.ts";
import type { HostIdentity, HostSession } from "./server-handlers.ts";

/** Where a session's notifications go: the connection's own stream (handshake) or its listen streams (2026-07-28). */
export type SessionDelivery = (method: string, params: Params | undefined) => Promise<void>;

/** Where a handshake-era session's own requests go: its connection's chain, and the name for messages. */
export interface SessionPort {
  readonly who: string;
  readonly send: Send;
}

/**
 * How long a session request waits for the host's `notifications/initialized` (spec 2025-11-25
 * lifecycle: the server SHOULD NOT send requests before it) before it fails.
 */
const INITIALIZED_WAIT_MS = 10_000;

/** A HostSession, with the end its connection gives it. */
export class Session implements HostSession {
  readonly id: string;
  /** The handshake that made it; undefined for the 2026-07-28 side of a connection. */
  readonly handshake: Handshake | undefined;
  readonly #controller = new AbortController();
  readonly #deliver: SessionDelivery;
  readonly #onProblem: (message: string) => void;
  readonly #port: SessionPort | undefined;
  readonly #initialized: Promise<void>;
  #markInitialized!: () => void;

  /** `port`: where request() sends (a handshake-era session's connection); without it request() refuses. */
  constructor(id: string, handshake: Handshake | undefined, deliver: SessionDelivery, onProblem: (message: string) => void, port?: SessionPort) {
    this.id = id;
    this.handshake = handshake;
    this.#deliver = deliver;
    this.#onProblem = onProblem;
    this.#port = port;
    this.#initialized = new Promise((resolve) => (this.#markInitialized = resolve));
    if (handshake?.initialized === true) this.#markInitialized();
  }

  /** spec 2025-11-25 lifecycle: the host sent `notifications/initialized`; the operation phase begins. */
  initialized(): void {
    if (this.handshake !== undefined) this.handshake.initialized = true;
    this.#markInitialized();
  }

  /** The handshake's identity as it stands now (its log level as last set). */
  get host(): HostIdentity | undefined {
    return this.handshake === undefined ? undefined : handshakeIdentity(this.handshake);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get ended(): boolean {
    return this.#controller.signal.aborted;
  }

  notify(method: string, params?: Params): Promise<void> {
    if (this.ended) return Promise.resolve();
    // spec 2025-11-25 logging: at or above the level the host set (none before it set one);
    // spec 2026-07-28 logging: request-scoped only, never on a listen stream.
    if (method === "notifications/message" && (this.handshake === undefined || !logPasses(params?.level, this.handshake.logLevel))) {
      return Promise.resolve();
    }
    return this.#deliver(method, params).catch((error: unknown) => this.#onProblem(`session ${this.id}: could not send ${method}: ${messageOf(error)}`));
  }

  /**
   * HostSession.request: a request to the host tied to none of its requests — on the handshake
   * era only, with the capability it needs (host-requests.ts), after the host's
   * `notifications/initialized` (waited for, bounded). It goes through the connection's chain
   * with no relatedRequestId: over HTTP on the session's GET stream, and a host that has none
   * open fails it at once (spec 2025-11-25 basic/transports, "Listening for Messages from the
   * Server": the only stream a server may send an unrelated request on).
   */
  async request(method: string, params?: Params, options: RequestOptions = {}): Promise<Params> {
    const port = this.#port;
    const host = this.host;
    const who = `${port?.who ?? "the server"}: session ${this.id}`;
    if (port === undefined || host === undefined) {
      throw new ServerError(
        `${who}: cannot send ${method} to the host: a 2026-07-28 connection has no session to ask; ` +
          "answer the request being handled with an input_required result instead (spec 2026-07-28 basic/patterns/mrtr)",
        "wrong-era",
        { method },
      );
    }
    checkHostRequest(who, method, host);
    const signal = options.signal === undefined ? this.signal : AbortSignal.any([this.signal, options.signal]);
    await this.#untilInitialized(who, method, signal);
    return await port.send(method, params, { ...options, signal });
  }

  /** Resolves once the host is initialized; rejects when `signal` aborts (the session ended) or the wait is over. */
  async #untilInitialized(who: string, method: string, signal: AbortSignal): Promise<void> {
    if (this.handshake?.initialized === true) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      const fail = (why: string) => reject(new ServerError(`${who}: cannot send ${method} to the host: ${why}`, "not-initialized", { method }));
      onAbort = () => fail(this.ended ? "the session ended first" : "it was cancelled first");
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(
        () =>
          fail(`the host has not sent notifications/initialized within ${durationText(INITIALIZED_WAIT_MS)} (spec 2025-11-25 lifecycle: no request before it)`),
        INITIALIZED_WAIT_MS,
      );
    });
    try {
      await Promise.race([this.#initialized, stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
    }
  }

  /** The session is over: its signal aborts (once). */
  end(reason: string): void {
    this.#controller.abort(reason);
  }
}
