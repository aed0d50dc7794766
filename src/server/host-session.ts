// One session with a host (HostSession): a handshake-era session from `initialize` to the end of
// its connection, or the 2026-07-28 side of a connection from its first stateless request —
// spec 2025-11-25 basic/lifecycle ("Operation", "Shutdown"); spec 2026-07-28
// basic/patterns/subscriptions (what is not tied to a request reaches a modern host only on
// the listen streams that asked for it).

import { messageOf } from "../common/error-text.ts";
import type { Params } from "../jsonrpc/peer.ts";
import { type Handshake, handshakeIdentity } from "./handshake.ts";
import { logPasses } from "./log-level.ts";
import type { HostIdentity, HostSession } from "./server-handlers.ts";

/** Where a session's notifications go: the connection's own stream (handshake) or its listen streams (2026-07-28). */
export type SessionDelivery = (method: string, params: Params | undefined) => Promise<void>;

/** A HostSession, with the end its connection gives it. */
export class Session implements HostSession {
  readonly id: string;
  /** The handshake that made it; undefined for the 2026-07-28 side of a connection. */
  readonly handshake: Handshake | undefined;
  readonly #controller = new AbortController();
  readonly #deliver: SessionDelivery;
  readonly #onProblem: (message: string) => void;

  constructor(id: string, handshake: Handshake | undefined, deliver: SessionDelivery, onProblem: (message: string) => void) {
    this.id = id;
    this.handshake = handshake;
    this.#deliver = deliver;
    this.#onProblem = onProblem;
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

  /** The session is over: its signal aborts (once). */
  end(reason: string): void {
    this.#controller.abort(reason);
  }
}
