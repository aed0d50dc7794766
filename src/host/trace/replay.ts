// A recorded server, answering again: `mcpwire replay` reads a trace (trace-reader.ts) and
// answers each request from it by method and params, so that a client sees what the live
// server sent, offline. Nothing the recording holds is executed; it is only sent back.
//
// What is matched:
// - a request by its method and its params as canonical JSON (keys sorted) without `_meta`
//   (progress tokens and the like are noise of one session); `initialize` by its method alone
//   (the client's name and version may change), answered with the recorded result;
// - several recorded answers to the same request are replayed in order, then the last repeats;
// - `ping` is always answered `{}` (spec 2025-11-25 basic/utilities/ping);
// - the ids are the new client's (spec 2025-11-25 basic: a response has the id of its request);
// - the notifications the server sent while a request was open (before its answer; a
//   progress notification goes with the request its token names) follow that request again,
//   before its answer; a progress token is the new request's own (spec 2025-11-25
//   basic/utilities/progress), and without one the progress is left out;
// - notifications the server sent with no request open, right after a client notification
//   (tools/list_changed after notifications/initialized), follow that notification again;
// - client notifications and responses are accepted silently.
// Server-to-client requests in the recording (sampling/createMessage, elicitation/create,
// roots/list sent by the server during a request) are not sent again: the client of the replay
// may not declare the capability (spec 2025-11-25 client/sampling: a server MUST NOT send what
// the client did not declare), and the server's next message in the recording does not depend
// on the new answer anyway. Each is skipped with a note (the answer to the request that caused
// it is replayed as recorded).
// An unmatched request gets a JSON-RPC error naming the closest recorded request.

import { isObject } from "../../common/json.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import { nearestName } from "../../common/nearest-name.ts";
import { ErrorCode } from "../../jsonrpc/errors.ts";
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from "../../jsonrpc/messages.ts";
import type { MessageTraceEvent } from "../../transport/trace-event.ts";
import type { Trace } from "./trace-reader.ts";

/**
 * Why a recording cannot be replayed:
 * - `replay-no-messages`: the trace holds no message of any server;
 * - `replay-unknown-server`: `--server` names a server the trace does not hold;
 * - `replay-which-server`: the trace holds several servers and none was chosen.
 */
export type ReplayErrorCode = "replay-no-messages" | "replay-unknown-server" | "replay-which-server";

/** A trace that cannot be replayed as one server. */
export class ReplayError extends McpwireError<ReplayErrorCode> {
  override readonly name = "ReplayError";
  /** The servers the trace holds. */
  readonly servers: string[];
  constructor(message: string, code: ReplayErrorCode, options: { servers: string[]; cause?: unknown }) {
    super(message, code, options);
    this.servers = options.servers;
  }
}

/** A recorded answer: the response's body and what the server sent before it. */
interface RecordedAnswer {
  body: { result: unknown } | { error: unknown };
  /** Notifications sent while the request was open, in order. */
  notifications: JsonRpcNotification[];
  /** Methods of the server-to-client requests sent while it was open (not replayed). */
  skipped: string[];
}

/** The answers recorded for one method and params, replayed in order, the last repeating. */
interface RecordedRequest {
  method: string;
  params: Record<string, unknown> | undefined;
  answers: RecordedAnswer[];
  next: number;
}

/** What to send for one message from the client, and notes for stderr. */
export interface ReplayReply {
  /** Notifications, then the response (none for a client notification or response). */
  messages: JsonRpcMessage[];
  /** Things a person should know (a server request skipped, a request unmatched). */
  notes: string[];
}

/** How long a params text in a message may be. */
const PARAMS_PREVIEW_CHARS = 200;
/** How many recorded methods an error lists when none is near. */
const LISTED_METHODS = 12;

/** The server a trace is to be replayed as: `wanted`, or the only one it holds. */
function chooseServer(events: MessageTraceEvent[], wanted: string | undefined): string {
  const servers = [...new Set(events.map((event) => event.server))];
  const names = servers.map((name) => (name === "" ? '"" (a server given on the command line)' : JSON.stringify(name))).join(", ");
  if (servers.length === 0) throw new ReplayError("the trace holds no message: record one with --trace-file", "replay-no-messages", { servers });
  if (wanted !== undefined) {
    if (servers.includes(wanted)) return wanted;
    const near = nearestName(wanted, servers.filter((name) => name !== ""));
    throw new ReplayError(
      `the trace holds no server ${JSON.stringify(wanted)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}; it holds ${names}`,
      "replay-unknown-server",
      { servers },
    );
  }
  if (servers.length > 1) {
    throw new ReplayError(`the trace holds several servers (${names}): choose one with --server NAME`, "replay-which-server", { servers });
  }
  return servers[0]!;
}

/** JSON with object keys sorted, so that two equal values give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Params without their `_meta` (noise of one session: progress tokens, protocol headers). */
function withoutMeta(params: unknown): Record<string, unknown> {
  if (!isObject(params)) return {};
  const { _meta: _, ...rest } = params;
  return rest;
}

/** The key a request is matched by. */
function keyOf(method: string, params: unknown): string {
  // spec 2025-11-25 basic/lifecycle: initialize carries the client's info, which may change.
  return method === "initialize" ? method : `${method} ${canonicalJson(withoutMeta(params))}`;
}

/** A request as a person reads it: `tools/call {"arguments":…,"name":"echo"}`, cut. */
function requestText(method: string, params: unknown): string {
  const text = canonicalJson(withoutMeta(params));
  if (text === "{}") return method;
  return `${method} ${text.length > PARAMS_PREVIEW_CHARS ? `${text.slice(0, PARAMS_PREVIEW_CHARS)}…` : text}`;
}

/** What names a request among others of its method: its `name` or `uri`, else its params. */
function labelOf(params: unknown): string {
  const plain = withoutMeta(params);
  if (typeof plain.name === "string") return plain.name;
  if (typeof plain.uri === "string") return plain.uri;
  return canonicalJson(plain);
}

/** A recorded server: its requests and answers, by method and params. Build it with fromTrace. */
export class Recording {
  /** The server's name in the trace ("" for one given on the command line). */
  readonly server: string;
  /** How many request–answer pairs were recorded. */
  readonly exchanges: number;
  readonly #requests = new Map<string, RecordedRequest>();
  /** Notifications the server sent on its own after a client notification, by that notification's method. */
  readonly #afterNotification = new Map<string, JsonRpcNotification[][]>();
  readonly #notificationsSeen = new Map<string, number>();

  private constructor(server: string, exchanges: number) {
    this.server = server;
    this.exchanges = exchanges;
  }

  /** The recording of `server` (or of the only server) in a trace. Throws ReplayError when there is none to choose. */
  static fromTrace(trace: Trace, server?: string): Recording {
    const all = trace.events.filter((event): event is MessageTraceEvent => event.kind === "message" && isObject(event.message));
    const chosen = chooseServer(all, server);
    const events = all.filter((event) => event.server === chosen);
    type Open = { method: string; params: unknown; answer: RecordedAnswer };
    const open = new Map<string, Open>(); // by JSON of the recorded id
    const order: string[] = []; // ids of open requests, oldest first
    const pairs: Open[] = [];
    const after = new Map<string, JsonRpcNotification[][]>();
    let lastNotification: JsonRpcNotification[] | undefined; // the list of the last client message, when a notification
    for (const event of events) {
      const message = event.message as unknown as Record<string, unknown>;
      const method = typeof message.method === "string" ? message.method : undefined;
      const id = typeof message.id === "string" || typeof message.id === "number" ? (message.id as RequestId) : undefined;
      if (event.dir === "send") {
        if (method !== undefined && id !== undefined) {
          const key = JSON.stringify(id);
          open.set(key, { method, params: message.params, answer: { body: { result: {} }, notifications: [], skipped: [] } });
          order.push(key);
          lastNotification = undefined;
        } else if (method !== undefined) {
          const list: JsonRpcNotification[] = [];
          const lists = after.get(method) ?? [];
          lists.push(list);
          after.set(method, lists);
          lastNotification = list;
        }
        continue; // a client's response to a server request: nothing to replay
      }
      if (method === undefined) {
        // A response: it closes its request.
        const key = JSON.stringify(id ?? null);
        const entry = open.get(key);
        if (entry === undefined) continue;
        open.delete(key);
        order.splice(order.indexOf(key), 1);
        entry.answer.body = "error" in message ? { error: message.error } : { result: message.result };
        pairs.push(entry);
        continue;
      }
      // A server notification or request: to the request it belongs to, else the latest open one.
      const owner = event.progressOf !== undefined ? open.get(JSON.stringify(event.progressOf.id)) : undefined;
      const latest = order.length > 0 ? open.get(order[order.length - 1]!) : undefined;
      const target = owner ?? latest;
      if (id !== undefined) {
        target?.answer.skipped.push(method);
        continue;
      }
      const notification: JsonRpcNotification = message.params === undefined
        ? { jsonrpc: "2.0", method }
        : { jsonrpc: "2.0", method, params: message.params as Record<string, unknown> };
      if (target !== undefined) target.answer.notifications.push(notification);
      else lastNotification?.push(notification);
    }
    const recording = new Recording(chosen, pairs.length);
    for (const pair of pairs) {
      const key = keyOf(pair.method, pair.params);
      const entry = recording.#requests.get(key) ?? { method: pair.method, params: isObject(pair.params) ? pair.params : undefined, answers: [], next: 0 };
      entry.answers.push(pair.answer);
      recording.#requests.set(key, entry);
    }
    for (const [method, lists] of after) recording.#afterNotification.set(method, lists);
    return recording;
  }

  /** The methods of the recorded requests, each once, in the order first recorded. */
  get methods(): string[] {
    return [...new Set([...this.#requests.values()].map((entry) => entry.method))];
  }

  /** What to send back for one message from the client. */
  reply(message: JsonRpcMessage): ReplayReply {
    if (!("method" in message)) return { messages: [], notes: [] }; // a response: we sent no request
    if (!("id" in message)) return { messages: this.#afterClientNotification(message.method), notes: [] };
    return this.#answer(message);
  }

  #afterClientNotification(method: string): JsonRpcMessage[] {
    const lists = this.#afterNotification.get(method);
    if (lists === undefined || lists.length === 0) return [];
    const seen = this.#notificationsSeen.get(method) ?? 0;
    this.#notificationsSeen.set(method, seen + 1);
    return lists[Math.min(seen, lists.length - 1)]!.map((notification) => structuredClone(notification));
  }

  #answer(request: JsonRpcRequest): ReplayReply {
    const { id, method } = request;
    if (method === "ping") return { messages: [{ jsonrpc: "2.0", id, result: {} }], notes: [] };
    const entry = this.#requests.get(keyOf(method, request.params));
    if (entry === undefined) return this.#unmatched(request);
    const answer = entry.answers[Math.min(entry.next, entry.answers.length - 1)]!;
    entry.next++;
    const token = isObject(request.params?._meta) ? request.params._meta.progressToken : undefined;
    const messages: JsonRpcMessage[] = [];
    for (const recorded of answer.notifications) {
      const notification = structuredClone(recorded);
      if (notification.method === "notifications/progress") {
        // spec 2025-11-25 basic/utilities/progress: the token is the one this request gave.
        if (typeof token !== "string" && typeof token !== "number") continue;
        notification.params = { ...notification.params, progressToken: token };
      }
      messages.push(notification);
    }
    const response = { jsonrpc: "2.0", id, ...structuredClone(answer.body) } as JsonRpcResponse;
    messages.push(response);
    const notes = answer.skipped.map((skipped) =>
      `the recorded server sent ${skipped} during ${requestText(method, request.params)}: not sent again (its answer was recorded; the recorded result follows)`
    );
    return { messages, notes };
  }

  /** A JSON-RPC error naming the closest recorded request. */
  #unmatched(request: JsonRpcRequest): ReplayReply {
    const { id, method } = request;
    const asked = requestText(method, request.params);
    const sameMethod = [...this.#requests.values()].filter((entry) => entry.method === method);
    let message: string;
    let closest: { method: string; params?: Record<string, unknown> } | undefined;
    let code: number;
    if (sameMethod.length > 0) {
      // spec 2025-11-25 basic: -32602 Invalid params: the method is known, these params were never asked.
      code = ErrorCode.InvalidParams;
      const labels = new Map(sameMethod.map((entry) => [labelOf(entry.params), entry] as const));
      const near = labels.get(nearestName(labelOf(request.params), labels.keys()) ?? "") ?? sameMethod[0]!;
      closest = near.params === undefined ? { method: near.method } : { method: near.method, params: withoutMeta(near.params) };
      message = `replay of a recorded server: no recorded answer to ${asked}; the closest recorded request: ${requestText(near.method, near.params)}`;
    } else {
      code = ErrorCode.MethodNotFound;
      const methods = this.methods;
      const near = nearestName(method, methods);
      if (near !== undefined) closest = { method: near };
      message = near !== undefined
        ? `replay of a recorded server: ${method} was never asked in the recording; the closest recorded request: ${near}`
        : `replay of a recorded server: ${method} was never asked in the recording; recorded: ${methods.slice(0, LISTED_METHODS).join(", ")}${
          methods.length > LISTED_METHODS ? ", …" : ""
        }`;
    }
    const error = closest === undefined ? { code, message } : { code, message, data: { closest } };
    return { messages: [{ jsonrpc: "2.0", id, error }], notes: [message] };
  }
}
