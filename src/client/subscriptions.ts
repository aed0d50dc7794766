// The one long-lived subscriptions/listen request of a modern connection: opened with the
// change notifications the client wants, re-opened when the filter changes, and re-opened
// with backoff when its stream breaks — spec 2026-07-28 basic/patterns/subscriptions.

import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { within } from "../common/timing.ts";
import type { JsonObject, ServerCapabilities } from "./types.ts";

/** spec 2026-07-28 subscriptions ("Notification Filter"). */
export interface NotificationFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** tasks extension ("Task Status Notifications"): notifications/tasks for these task ids. */
  taskIds?: string[];
}

export interface ListenOptions {
  /**
   * Sends one subscriptions/listen request with this filter; resolves with its result when
   * the server ends the subscription gracefully, rejects when the stream breaks. Aborting
   * `signal` cancels it (closes the stream on HTTP, notifications/cancelled on stdio).
   */
  open: (filter: NotificationFilter, signal: AbortSignal, onId: (id: string | number) => void) => Promise<unknown>;
  /** Something worth telling the user: a broken stream, a filter the server cut down. */
  onProblem: (message: string) => void;
  /** Names the server in messages. */
  name: string;
  /** First re-open delay; doubles per failure up to maxDelayMs. Default 1 s. */
  initialDelayMs?: number;
  /** Default 30 s. */
  maxDelayMs?: number;
}

export function isEmptyFilter(filter: NotificationFilter): boolean {
  return filter.toolsListChanged !== true && filter.promptsListChanged !== true && filter.resourcesListChanged !== true &&
    (filter.resourceSubscriptions ?? []).length === 0 && (filter.taskIds ?? []).length === 0;
}

/** What a listen stream asks for: the list changes the server declares, and the subscribed URIs. */
export function listenFilter(capabilities: ServerCapabilities, subscribed: ReadonlySet<string>, tasks: ReadonlySet<string> = new Set()): NotificationFilter {
  const filter: NotificationFilter = {};
  if (capabilities.tools?.listChanged === true) filter.toolsListChanged = true;
  if (capabilities.prompts?.listChanged === true) filter.promptsListChanged = true;
  if (capabilities.resources?.listChanged === true) filter.resourcesListChanged = true;
  if (subscribed.size > 0) filter.resourceSubscriptions = [...subscribed];
  if (tasks.size > 0) filter.taskIds = [...tasks];
  return filter;
}

/** What the acknowledgment left out of what was asked for, as words ("toolsListChanged", a URI). */
export function missingFromAcknowledgment(asked: NotificationFilter, acknowledged: unknown): string[] {
  const given = isObject(acknowledged) ? acknowledged : {};
  const missing: string[] = [];
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    if (asked[key] === true && given[key] !== true) missing.push(key);
  }
  const uris = Array.isArray(given.resourceSubscriptions) ? given.resourceSubscriptions : [];
  for (const uri of asked.resourceSubscriptions ?? []) if (!uris.includes(uri)) missing.push(`resourceSubscriptions ${uri}`);
  const taskIds = Array.isArray(given.taskIds) ? given.taskIds : [];
  for (const id of asked.taskIds ?? []) if (!taskIds.includes(id)) missing.push(`taskIds ${id}`);
  return missing;
}

/** Keeps one listen stream open with the current filter until stop(). */
export class ListenStream {
  readonly #options: ListenOptions;
  #filter: NotificationFilter = {};
  /** The JSON-RPC id of the open listen request: its subscription id (spec "Receiving Notifications"). */
  #currentId: string | number | undefined;
  #current: AbortController | undefined;
  #stopped = false;
  #failures = 0;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;

  constructor(options: ListenOptions) {
    this.#options = options;
  }

  get filter(): NotificationFilter {
    return this.#filter;
  }

  /** Opens the stream with `filter`, or re-opens it when the filter changed; an empty filter closes it. */
  update(filter: NotificationFilter): void {
    if (this.#stopped) return;
    if (JSON.stringify(filter) === JSON.stringify(this.#filter) && this.#loop !== undefined) return;
    this.#filter = filter;
    this.#current?.abort(); // the loop re-opens with the new filter
    this.#wake?.();
    if (this.#loop === undefined && !isEmptyFilter(filter)) this.#loop = this.#run();
  }

  /**
   * The server acknowledged subscription `id`. True when that is the open one (so backoff
   * starts over); false for a stream already replaced, whose acknowledgment says nothing now.
   * spec 2026-07-28 subscriptions: clients MUST correlate by io.modelcontextprotocol/subscriptionId.
   */
  acknowledged(id: unknown): boolean {
    if (id !== this.#currentId) return false;
    this.#failures = 0;
    return true;
  }

  /**
   * Stops re-opening (and reporting) without cancelling: returns the id of the listen request
   * still open, for a caller that ends it on the wire itself (Client.close) before the
   * connection goes. stop() then lets the loop go.
   */
  release(): string | number | undefined {
    this.#stopped = true;
    this.#wake?.();
    return this.#currentId;
  }

  /** Ends the subscription; resolves when the loop has let go. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#current?.abort();
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (!this.#stopped && !isEmptyFilter(this.#filter)) {
      const controller = new AbortController();
      this.#current = controller;
      const filter = this.#filter;
      let delay = 0;
      try {
        await this.#options.open(filter, controller.signal, (id) => (this.#currentId = id));
        // Graceful closure (spec: "Graceful Closure"): the server ended it; listen again after a pause.
        delay = this.#options.initialDelayMs ?? 1000;
      } catch (error) {
        if (this.#stopped) break;
        if (controller.signal.aborted) continue; // a new filter: re-open at once
        this.#failures++;
        const initial = this.#options.initialDelayMs ?? 1000;
        delay = Math.min(initial * 2 ** (this.#failures - 1), this.#options.maxDelayMs ?? 30_000);
        this.#options.onProblem(
          `${this.#options.name}: the subscriptions/listen stream ended (${messageOf(error)}); listening again in ${durationText(delay)}`,
        );
      } finally {
        if (this.#current === controller) {
          this.#current = undefined;
          this.#currentId = undefined;
        }
      }
      if (this.#stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, delay);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#wake = done;
      });
      this.#wake = undefined;
    }
    this.#loop = undefined;
  }
}

/**
 * The 2026-07-28 wire's subscriptions of one connection — spec 2026-07-28
 * basic/patterns/subscriptions: one subscriptions/listen request, open for as long as the
 * connection, whose stream carries the list changes the server declares and the resources
 * subscribed to (there is no resources/subscribe on that wire).
 */
export class Subscriptions {
  readonly #subscribed = new Set<string>();
  /** Task ids whose notifications/tasks the stream asks for (counted: several waiters may watch one). */
  readonly #tasks = new Map<string, number>();
  #capabilities: ServerCapabilities = {};
  #stream: ListenStream | undefined;

  /** The open listen stream, if any. */
  get stream(): ListenStream | undefined {
    return this.#stream;
  }

  /** Opens the listen stream for what `capabilities` declare (and the URIs subscribed to). */
  start(capabilities: ServerCapabilities, options: ListenOptions): void {
    this.#capabilities = capabilities;
    this.#stream = new ListenStream(options);
    this.#update();
  }

  subscribe(uri: string): void {
    this.#subscribed.add(uri);
    this.#update();
  }

  unsubscribe(uri: string): void {
    this.#subscribed.delete(uri);
    this.#update();
  }

  /** Asks for notifications/tasks of `taskId` (tasks extension "Task Status Notifications"). */
  watchTask(taskId: string): void {
    this.#tasks.set(taskId, (this.#tasks.get(taskId) ?? 0) + 1);
    this.#update();
  }

  unwatchTask(taskId: string): void {
    const count = (this.#tasks.get(taskId) ?? 0) - 1;
    if (count > 0) this.#tasks.set(taskId, count);
    else this.#tasks.delete(taskId);
    this.#update();
  }

  /** See ListenStream.release: the open listen request's id, the stream no longer re-opened. */
  release(): string | number | undefined {
    return this.#stream?.release();
  }

  /** Ends the listen stream, if one is open; resolves when its loop has let go. */
  stop(): Promise<void> {
    const stream = this.#stream;
    this.#stream = undefined;
    return stream?.stop() ?? Promise.resolve();
  }

  #update(): void {
    this.#stream?.update(listenFilter(this.#capabilities, this.#subscribed, new Set(this.#tasks.keys())));
  }
}

/** How long closing waits for the notifications/cancelled of the listen stream to be written. */
const LISTEN_CANCEL_MS = 1000;

/**
 * spec 2026-07-28 basic/patterns/subscriptions ("Cancellation"): the client ends its listen
 * stream with notifications/cancelled naming the listen request (on HTTP the transport
 * closes that request's stream instead), before the connection closes — on stdio before
 * stdin closes (basic/transports/stdio "Shutdown"), so a server that waits for its listens
 * to end exits at once instead of at SIGTERM. Bounded; a send that fails is not reported:
 * the connection is going anyway.
 */
export async function endListen(subscriptions: Subscriptions, peer: { notify(method: string, params?: JsonObject): Promise<void> } | undefined): Promise<void> {
  const id = subscriptions.release();
  if (id === undefined || peer === undefined) return;
  const sent = peer.notify("notifications/cancelled", { requestId: id, reason: "the client is closing the connection" });
  await within(sent.catch(() => {}), LISTEN_CANCEL_MS);
}
