// The client's lifecycle states — spec 2025-11-25 basic/lifecycle (initialization,
// operation, shutdown), plus `failed` for a connection that ended without our asking.

export type ClientState = "new" | "connecting" | "initializing" | "ready" | "closing" | "closed" | "failed";

/** Which state may follow which. `failed` is reachable from every state before `closed`. */
const NEXT: Record<ClientState, readonly ClientState[]> = {
  new: ["connecting", "closed", "failed"],
  connecting: ["initializing", "closing", "failed"],
  initializing: ["ready", "closing", "failed"],
  ready: ["closing", "failed"],
  closing: ["closed", "failed"],
  closed: [],
  failed: [],
};

export function canMove(from: ClientState, to: ClientState): boolean {
  return NEXT[from].includes(to);
}

export interface StateChange {
  from: ClientState;
  to: ClientState;
  /** For `failed`: what went wrong. */
  cause?: Error;
}
