// What a server tells the client — spec 2025-11-25 server/utilities/logging, server/tools,
// server/resources, server/prompts (list_changed, resources/updated), client/elicitation
// ("Completion Notifications"); spec 2026-07-28 basic/patterns/subscriptions ("Acknowledgment")
// and server/utilities/caching ("Interaction with Notifications"): each becomes a Client event.

import type { Params } from "../jsonrpc/peer.ts";
import type { EmitClientEvent } from "./client-events.ts";
import { META_SUBSCRIPTION_ID } from "./request-meta.ts";
import { LIST_KEYS, readKey, type ResultCache } from "./result-cache.ts";
import { type ListenStream, missingFromAcknowledgment } from "./subscriptions.ts";
import type { JsonObject, LoggingLevel, LogMessage } from "./types.ts";

export const DEFAULT_LOG_BUFFER_SIZE = 1000;

/** What turning notifications into events needs from the Client. */
export interface ServerNotificationsOptions {
  emit: EmitClientEvent;
  /** Names the server in messages, once connected. */
  name(): string;
  /** Results kept while fresh: a change notification makes them stale. */
  cache: ResultCache;
  /** The open listen stream, if any (2026-07-28). */
  listen(): ListenStream | undefined;
  /** URL-mode elicitation ids seen and not completed. */
  openElicitations: Set<string>;
  /** Whether the client is `ready` (log messages before that wait for a listener). */
  ready(): boolean;
  /** Log messages kept while nobody listens before `ready`. */
  logBufferSize: number;
  /** Reports what a log listener threw while early messages were replayed to it. */
  listenerFailed(error: unknown): void;
}

/** Installs the notification handlers and keeps the log messages nobody listened to yet. */
export class ServerNotifications {
  readonly #options: ServerNotificationsOptions;
  /** Log messages that arrived before `ready` with no listener; bounded, oldest dropped. */
  #earlyLogs: LogMessage[] = [];
  #earlyLogsDropped = 0;
  #logListeners = 0;

  readonly #handlers: Map<string, (params: Params | undefined) => void>;

  constructor(options: ServerNotificationsOptions) {
    this.#options = options;
    this.#handlers = this.#handle();
  }

  /**
   * The end of the chain's notification links (docs/architecture.md, "The chain"): each known
   * notification becomes a Client event; others are dropped (spec 2025-11-25 basic/index: a
   * notification gets no answer, so an unknown one is ignored).
   */
  hear(method: string, params: Params | undefined): void {
    this.#handlers.get(method)?.(params);
  }

  #handle(): Map<string, (params: Params | undefined) => void> {
    const handlers = new Map<string, (params: Params | undefined) => void>();
    const { emit, cache } = this.#options;
    const problem = (message: string) => emit("problem", { message });
    // spec 2026-07-28 caching ("Interaction with Notifications"): a change notification makes the cached list stale.
    handlers.set("notifications/tools/list_changed", () => {
      cache.delete(LIST_KEYS.tools);
      emit("toolslistchanged", undefined);
    });
    handlers.set("notifications/resources/list_changed", () => {
      cache.delete(LIST_KEYS.resources);
      cache.delete(LIST_KEYS.templates);
      emit("resourceslistchanged", undefined);
    });
    handlers.set("notifications/prompts/list_changed", () => {
      cache.delete(LIST_KEYS.prompts);
      emit("promptslistchanged", undefined);
    });
    handlers.set("notifications/resources/updated", (params) => {
      if (typeof params?.uri === "string") {
        cache.delete(readKey(params.uri));
        emit("resourceupdated", { uri: params.uri });
      } else {
        problem(`${this.#options.name()}: notifications/resources/updated without a "uri"; ignored`);
      }
    });
    // spec 2026-07-28 subscriptions ("Acknowledgment"): the first message of a listen stream.
    handlers.set("notifications/subscriptions/acknowledged", (params) => {
      const listen = this.#options.listen();
      const id = (params?._meta as JsonObject | undefined)?.[META_SUBSCRIPTION_ID];
      if (listen === undefined || !listen.acknowledged(id)) return; // a stream already replaced
      const missing = missingFromAcknowledgment(listen.filter, params?.notifications);
      if (missing.length > 0) {
        problem(
          `${this.#options.name()}: subscription ${JSON.stringify(id)} was acknowledged without ${missing.join(", ")}; those changes will not be notified`,
        );
      }
    });
    handlers.set("notifications/message", (params) => {
      if (typeof params?.level !== "string") {
        problem(`${this.#options.name()}: notifications/message without a "level"; ignored`);
        return;
      }
      const message: LogMessage = { level: params.level as LoggingLevel, data: params.data };
      if (typeof params.logger === "string") message.logger = params.logger;
      // spec 2025-11-25 basic/lifecycle: servers may log before `initialized`; those messages
      // are kept (the last logBufferSize of them) until someone listens.
      if (this.#logListeners === 0 && !this.#options.ready()) {
        this.#keepEarlyLog(message);
        return;
      }
      emit("log", message);
    });
    handlers.set("notifications/elicitation/complete", (params) => {
      const id = params?.elicitationId;
      // spec 2025-11-25 client/elicitation ("Completion Notifications"): MUST ignore unknown or completed ids.
      if (typeof id !== "string" || !this.#options.openElicitations.delete(id)) return;
      emit("elicitationcomplete", { elicitationId: id });
    });
    return handlers;
  }

  /**
   * A `log` listener was added: it gets the messages kept so far. Returns what to call when
   * it is removed (once).
   */
  logListenerAdded(listener: (detail: LogMessage) => void): () => void {
    this.#logListeners++;
    this.#replayEarlyLogs(listener);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#logListeners--;
    };
  }

  #keepEarlyLog(message: LogMessage): void {
    const size = this.#options.logBufferSize;
    this.#earlyLogs.push(message);
    if (this.#earlyLogs.length > size) {
      // Drop in batches so a flood costs amortised O(1) per message, memory stays bounded.
      const excess = this.#earlyLogs.length - size;
      if (excess >= Math.max(1, size >> 2)) {
        this.#earlyLogs.splice(0, excess);
        this.#earlyLogsDropped += excess;
      }
    }
  }

  #replayEarlyLogs(listener: (detail: LogMessage) => void): void {
    if (this.#earlyLogs.length === 0) return;
    const size = this.#options.logBufferSize;
    const excess = Math.max(0, this.#earlyLogs.length - size);
    const kept = this.#earlyLogs.slice(excess);
    const dropped = this.#earlyLogsDropped + excess;
    this.#earlyLogs = [];
    this.#earlyLogsDropped = 0;
    if (dropped > 0) {
      this.#options.emit("problem", {
        message: `${this.#options.name()}: ${dropped} log message(s) sent before anyone listened were dropped; kept the last ${kept.length}`,
      });
    }
    for (const message of kept) {
      try {
        listener(message);
      } catch (error) {
        this.#options.listenerFailed(error);
      }
    }
  }
}
