// The `subscriptions/listen` streams of one connection: each opened by a host's request,
// acknowledged with the kinds this server agreed to, held open, and fed only the notifications
// of those kinds, each tagged with its subscription id — spec 2026-07-28
// basic/patterns/subscriptions ("Opening a Stream", "Acknowledgment", "Receiving
// Notifications", "Cancellation", "Graceful Closure").

import { META_SUBSCRIPTION_ID } from "../client/request-meta.ts";
import type { JsonObject, ServerCapabilities } from "../client/types.ts";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { RequestId } from "../jsonrpc/messages.ts";
import type { Params, SendOptions } from "../jsonrpc/peer.ts";
import type { ListenFilter } from "./server-handlers.ts";

/** Most resource URIs one stream may ask to watch, and the longest URI taken: a host is untrusted input. */
const MAX_RESOURCE_SUBSCRIPTIONS = 1000;
const MAX_URI_CHARS = 8192;

/** The filter flag each list notification needs (spec 2026-07-28 subscriptions, "Notification Filter"). */
const LIST_KINDS: Readonly<Record<string, "toolsListChanged" | "promptsListChanged" | "resourcesListChanged">> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/** One open stream: its id (the listen request's), what it agreed to, and how it ends gracefully. */
interface Stream {
  readonly id: RequestId;
  readonly filter: ListenFilter;
  /** Answers the listen request (the graceful end). */
  readonly end: () => void;
}

/** How the streams send: a notification tied to the listen request it belongs to. */
export type StreamSend = (method: string, params: Params, options: SendOptions) => Promise<void>;

/**
 * The filter a `subscriptions/listen` asked for, or the -32602 it is answered with. Unknown
 * keys are left out (the acknowledgment names only what is honoured).
 */
export function readListenFilter(params: Params | undefined): ListenFilter {
  const given = params?.notifications;
  if (given === undefined) return {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new RpcError(`Invalid params: subscriptions/listen "notifications" is not an object`, ErrorCode.InvalidParams);
  }
  const asked = given as JsonObject;
  const filter: { -readonly [K in keyof ListenFilter]: ListenFilter[K] } = {};
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    if (asked[key] === true) filter[key] = true;
  }
  const uris = asked.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.length > MAX_RESOURCE_SUBSCRIPTIONS || !uris.every((uri) => typeof uri === "string" && uri.length <= MAX_URI_CHARS)) {
      throw new RpcError(
        `Invalid params: subscriptions/listen "resourceSubscriptions" must be at most ${MAX_RESOURCE_SUBSCRIPTIONS} URI strings of at most ${MAX_URI_CHARS} characters`,
        ErrorCode.InvalidParams,
      );
    }
    if (uris.length > 0) filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return filter;
}

/**
 * What a server that declares `capabilities` can honour of `asked`: a list's changes when it
 * declares that list's `listChanged`, resource updates when it declares `resources.subscribe`
 * ("Acknowledgment": types the server does not support are omitted).
 */
export function supportedFilter(asked: ListenFilter, capabilities: ServerCapabilities): ListenFilter {
  const filter: { -readonly [K in keyof ListenFilter]: ListenFilter[K] } = {};
  if (asked.toolsListChanged && capabilities.tools?.listChanged === true) filter.toolsListChanged = true;
  if (asked.promptsListChanged && capabilities.prompts?.listChanged === true) filter.promptsListChanged = true;
  if (asked.resourcesListChanged && capabilities.resources?.listChanged === true) filter.resourcesListChanged = true;
  if (asked.resourceSubscriptions !== undefined && capabilities.resources?.subscribe === true) filter.resourceSubscriptions = asked.resourceSubscriptions;
  return filter;
}

/**
 * What the listen hook (ServerHandlers.listen) kept of `offered`: only what it offered (a hook
 * narrows, never widens), only `true` flags and the URIs offered.
 */
export function keptFilter(offered: ListenFilter, kept: ListenFilter): ListenFilter {
  const filter: { -readonly [K in keyof ListenFilter]: ListenFilter[K] } = {};
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    if (offered[key] === true && kept[key] === true) filter[key] = true;
  }
  const uris = Array.isArray(kept.resourceSubscriptions) ? kept.resourceSubscriptions.filter((uri) => offered.resourceSubscriptions?.includes(uri)) : [];
  if (uris.length > 0) filter.resourceSubscriptions = uris;
  return filter;
}

/** The `subscriptions/listen` streams open on one connection. */
export class ListenStreams {
  readonly #send: StreamSend;
  readonly #streams = new Map<RequestId, Stream>();

  constructor(send: StreamSend) {
    this.#send = send;
  }

  get size(): number {
    return this.#streams.size;
  }

  /**
   * Opens stream `id` with the agreed `filter`: the acknowledgment goes first (spec: "MUST send
   * notifications/subscriptions/acknowledged as the first message"), then the stream takes
   * notifications. Resolves with the listen request's result when the server ends it (end());
   * a host's cancel or the connection's end aborts `signal` (then no answer goes out: the Peer
   * drops it).
   */
  async open(id: RequestId, filter: ListenFilter, signal: AbortSignal): Promise<Params> {
    await this.#send("notifications/subscriptions/acknowledged", { _meta: { [META_SUBSCRIPTION_ID]: id }, notifications: filter }, { relatedRequestId: id });
    return await new Promise<Params>((resolve) => {
      const finish = () => {
        if (this.#streams.get(id) === stream) this.#streams.delete(id);
        signal.removeEventListener("abort", finish);
        resolve({ resultType: "complete", _meta: { [META_SUBSCRIPTION_ID]: id } });
      };
      const stream: Stream = { id, filter, end: finish };
      if (signal.aborted) return finish();
      this.#streams.set(id, stream);
      signal.addEventListener("abort", finish, { once: true });
    });
  }

  /**
   * Sends `method` to each stream that opted into its kind, tagged with the stream's id and tied
   * to its listen request (on HTTP, that request's stream). Other notifications go nowhere: the
   * server "MUST NOT send notification types the client has not explicitly requested".
   */
  async deliver(method: string, params: Params | undefined): Promise<void> {
    if (this.#streams.size === 0) return;
    const kind = LIST_KINDS[method];
    const uri = method === "notifications/resources/updated" ? params?.uri : undefined;
    if (kind === undefined && typeof uri !== "string") return;
    const sends: Promise<void>[] = [];
    for (const stream of this.#streams.values()) {
      const wanted = kind !== undefined ? stream.filter[kind] === true : stream.filter.resourceSubscriptions?.includes(uri as string) === true;
      if (!wanted) continue;
      const given = params?._meta;
      const meta = typeof given === "object" && given !== null && !Array.isArray(given) ? given as JsonObject : undefined;
      sends.push(this.#send(method, { ...params, _meta: { ...meta, [META_SUBSCRIPTION_ID]: stream.id } }, { relatedRequestId: stream.id }));
    }
    await Promise.all(sends);
  }

  /** Ends every stream gracefully: each listen request is answered ("Graceful Closure"). */
  endAll(): void {
    for (const stream of [...this.#streams.values()]) stream.end();
  }
}
