// The events a Client emits — its state changes (spec 2025-11-25 basic/lifecycle), what the
// server tells it (server/utilities/logging, the list_changed and resources/updated
// notifications, client/elicitation completion) and the problems it survived.

import { DetailEvent } from "../common/events.ts";
import type { StateChange } from "./client-state.ts";
import type { LogMessage, TaskStatusUpdate } from "./types.ts";

/** The events a Client emits; listen with `client.on(type, listener)`. */
export interface ClientEvents {
  statechange: StateChange;
  /** notifications/tools/list_changed */
  toolslistchanged: undefined;
  /** notifications/resources/list_changed */
  resourceslistchanged: undefined;
  /** notifications/prompts/list_changed */
  promptslistchanged: undefined;
  /** notifications/resources/updated */
  resourceupdated: { uri: string };
  /** notifications/message; those received before `ready` reach the first listener added later. */
  log: LogMessage;
  /** notifications/elicitation/complete for a URL-mode elicitation this client saw. */
  elicitationcomplete: { elicitationId: string };
  /** A task of this client changed status (spec 2025-11-25 basic/utilities/tasks); `server` is the client's name option. */
  taskStatus: TaskStatusUpdate & { server?: string };
  /**
   * Something odd that was survived: a skipped line, an unknown response id, a listener that
   * threw (then `cause` is what it threw), …
   */
  problem: { message: string; cause?: unknown };
}

export type ClientEventType = keyof ClientEvents;

/** Emits one event of a Client (its protected `emit`, handed to the parts that notice events). */
export type EmitClientEvent = <K extends ClientEventType>(type: K, detail: ClientEvents[K]) => void;

/**
 * The Event a Client dispatches; `detail` is exactly what was emitted. (Not CustomEvent:
 * Node turns an undefined detail into null, Deno keeps undefined.) The shared DetailEvent of
 * src/common/events.ts, typed by event name.
 */
export type ClientEvent<K extends ClientEventType = ClientEventType> = DetailEvent<ClientEvents[K]>;
export const ClientEvent: new <K extends ClientEventType = ClientEventType>(type: K, detail: ClientEvents[K]) => ClientEvent<K> = DetailEvent;
