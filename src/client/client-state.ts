// The client's lifecycle states — spec 2025-11-25 basic/lifecycle (initialization,
// operation, shutdown), plus `failed` for a connection that ended without our asking.

import { ClientStateError } from "./errors.ts";

/** Where a Client is in its lifecycle; every change is a `statechange` event. */
export type ClientState = "new" | "connecting" | "initializing" | "ready" | "closing" | "closed" | "failed";

/**
 * Which state may follow which. `failed` is reachable from every state before `closed`; a client
 * that is `closed` or `failed` may connect again (docs/architecture.md, "Reusable clients").
 */
const NEXT: Record<ClientState, readonly ClientState[]> = {
  new: ["connecting", "closed", "failed"],
  connecting: ["initializing", "closing", "failed"],
  initializing: ["ready", "closing", "failed"],
  ready: ["closing", "failed"],
  closing: ["closed", "failed"],
  closed: ["connecting"],
  failed: ["connecting"],
};

export function canMove(from: ClientState, to: ClientState): boolean {
  return NEXT[from].includes(to);
}

/** A `statechange` event: the state left, the state entered, and the error for `failed`. */
export interface StateChange {
  from: ClientState;
  to: ClientState;
  /** For `failed`: what went wrong. */
  cause?: Error;
}

/**
 * Why `method` cannot be sent to `server` in `state`, as the error the caller gets — spec
 * 2025-11-25 basic/lifecycle: only ping before the initialize result.
 */
export function notReadyError(method: string, state: ClientState, server: string, failure: Error | undefined): ClientStateError {
  switch (state) {
    case "new":
      return new ClientStateError(`cannot send ${method}: the client is not connected; call connect() first`, "not-connected", { state });
    case "connecting":
    case "initializing":
      return new ClientStateError(
        `cannot send ${method} to ${server} while it is ${state}; wait for connect() to resolve (only ping may go before the initialize result)`,
        "connecting",
        { state },
      );
    case "failed":
      return new ClientStateError(`cannot send ${method}: ${failure?.message ?? `${server} failed`}`, "failed", { state, cause: failure });
    default:
      return new ClientStateError(`cannot send ${method}: the connection to ${server} is ${state}`, "closed", { state });
  }
}
