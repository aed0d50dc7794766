// The check's session with a server (docs/check.md): mcpwire's own Client connected through a
// RecordingTransport (recording-transport.ts), so every message both ways is numbered and kept
// as the families judge it; requests sent through the client's chain (on the 2026-07-28 wire
// its era link puts the per-request protocol fields in `_meta`: spec 2026-07-28 basic/index,
// "Per-request protocol fields") or raw, as they are; the lists walked to their end. What the
// Client refuses of a broken server is still kept and answered from the record: the check
// wants to see broken things, not to stop at them.

import { Client } from "../client/client.ts";
import { withRequestMeta } from "../client/modern-request.ts";
import { LATEST_MODERN_PROTOCOL_VERSION, type ModernProtocolVersion, type ProtocolEra } from "../client/protocol-version.ts";
import { requestHeaders } from "../client/request-headers.ts";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from "../client/request-meta.ts";
import type { ClientCapabilities, JsonObject } from "../client/types.ts";
import { errorOf, messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { McpwireError } from "../common/mcpwire-error.ts";
import { withTimeout } from "../common/timing.ts";
import { RequestAbortedError, RequestTimeoutError } from "../jsonrpc/errors.ts";
import type { RequestId } from "../jsonrpc/messages.ts";
import type { Params } from "../jsonrpc/peer.ts";
import { SseLegacyTransport } from "../transport/sse-legacy.ts";
import { StdioTransport } from "../transport/stdio.ts";
import { StreamableHttpTransport } from "../transport/streamable-http/mod.ts";
import type { TraceSink } from "../transport/trace-event.ts";
import { TracingTransport } from "../transport/tracing.ts";
import type { ClientTransport } from "../transport/transport.ts";
import { answerOf, type CheckAnswer, httpErrorAnswer } from "./answer.ts";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import { MAX_LIST_PAGES, walkLists, type WalkResult } from "./list-walk.ts";
import type { Observed, ObservedLists } from "./observed.ts";
import { RecordingTransport, SessionLog, type TransportProblem } from "./recording-transport.ts";
import type { SeenMessage } from "./rule.ts";
import type { CheckTarget } from "./target.ts";

export type { CheckAnswer, WireError } from "./answer.ts";
export type { ListWalk, WalkResult } from "./list-walk.ts";
export { SessionLog } from "./recording-transport.ts";
export type { RecordingBounds, TransportProblem } from "./recording-transport.ts";

/** Who the check says it is, in `initialize` and in each 2026-07-28 request's `_meta`. */
export const CHECK_CLIENT_INFO = { name: "mcpwire-check", version: "1" } as const;

/**
 * What the check client declares: nothing. It has no model to sample, no user to elicit from and
 * no roots to offer, and declaring one only to refuse every request would misstate it. A server's
 * sampling, elicitation or roots request is answered -32601 by the Client (JSON-RPC 2.0 §5.1: the
 * method is not served here) and stays in the record, where a family can judge it: spec 2025-11-25
 * basic/lifecycle ("Operation"): both parties MUST "only use capabilities that were successfully
 * negotiated"; spec 2026-07-28 basic/index ("Per-request protocol fields"): a server MUST NOT rely
 * on capabilities the client has not declared. No `tasks` either (taskReceiver: false).
 */
export const CHECK_CLIENT_CAPABILITIES: ClientCapabilities = {};

/** The params of an `initialize` the check writes itself at `version` (spec 2025-11-25 basic/lifecycle, "Initialization"). */
export function checkInitializeParams(version: string): Record<string, unknown> {
  return { protocolVersion: version, capabilities: CHECK_CLIENT_CAPABILITIES, clientInfo: { ...CHECK_CLIENT_INFO } };
}

/** The per-request protocol fields of a 2026-07-28 request the check writes itself at `version` (spec 2026-07-28 basic/index). */
export function checkRequestMeta(version: string): Record<string, unknown> {
  return { [META_PROTOCOL_VERSION]: version, [META_CLIENT_CAPABILITIES]: CHECK_CLIENT_CAPABILITIES, [META_CLIENT_INFO]: { ...CHECK_CLIENT_INFO } };
}

const DEFAULT_DISCOVER_TIMEOUT_MS = 5_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

/** Options of openSession. */
export interface SessionOptions {
  /** The era to speak: `modern` (2026-07-28), `legacy` (the initialize handshake), `auto` (the probe decides). */
  protocol: "modern" | "legacy" | "auto";
  /** Where the session's trace events go (`--trace-file`): their `message` events are numbered as SeenMessage.index. */
  trace?: TraceSink;
  /** The server's name in those events. Default "". */
  server?: string;
  /** Bound of each wait: the connect, each request (unless a request says otherwise). Default 10 s. */
  timeoutMs?: number;
  /**
   * The check's log: every connection of one check numbers its messages in it, as one trace
   * file has them (the session's, and each probe's fresh connection). Default: a log of its own.
   */
  log?: SessionLog;
}

/** Options of openConnection: as a session's, without the era (nothing is negotiated). */
export interface ConnectionOptions extends Omit<SessionOptions, "protocol"> {
  /** The version an HTTP transport sends as MCP-Protocol-Version from the start (a raw 2026-07-28 request needs it). */
  protocolVersion?: string;
}

/** Options of CheckConnection.raw. */
export interface RawOptions {
  /** How long to wait for the answer. Default: the session's timeoutMs. */
  timeoutMs?: number;
  /** HTTP headers sent with it (over stdio: none); a modern session's default: the Client's request headers. */
  headers?: Record<string, string>;
  /**
   * An error answer with a null id answers it too (JSON-RPC 2.0 §5: the id of a request that
   * could not be read is null), for a malformed request. Default false.
   */
  acceptNullId?: boolean;
}

/**
 * A connection of the check's own (openConnection): raw messages only, no Client, nothing
 * negotiated unless the probe sends it. A probe of the lifecycle starts one to send an
 * `initialize` of its own making.
 */
export interface CheckConnection {
  /** The messages of this connection so far, both ways (live; SeenMessage.index numbers them across the check). */
  readonly messages: readonly SeenMessage[];
  /** What the transport reported without ending the connection (lines that are not JSON-RPC, undeliverable answers). */
  readonly problems: readonly TransportProblem[];
  /** Whether the connection has ended (the server exited, the stream closed). */
  readonly ended: boolean;
  /** The transport's kind, as trace events name it: "stdio", "streamable-http", "sse", or another transport's class name. */
  readonly wire: string;
  /**
   * `message` sent on the transport as it is (a malformed request, a notification); when it has a
   * string or number `id`, its answer (matched by that id) is taken out before a Client sees it.
   * Over HTTP on the 2026-07-28 wire the request headers the Client would send go with it unless
   * `headers` are given.
   */
  raw(message: object, options?: RawOptions): Promise<CheckAnswer>;
  /** A fresh id for a raw request, never one the Client uses (its are numbers). */
  rawId(): string;
  /** The message with this index, if it was kept. */
  message(index: number): SeenMessage | undefined;
  /** Ends the connection (bounded); safe to call twice. */
  close(): Promise<void>;
}

/** A session of the check with one server in one era (openSession). */
export interface CheckSession extends CheckConnection {
  readonly era: ProtocolEra;
  /** The version spoken: the initialize answer's, or the 2026-07-28 version discovered (as the server said it, a string). */
  readonly protocolVersion: string;
  /**
   * Undefined when the Client connected; otherwise why it gave up on the negotiation result (it
   * was malformed: no capabilities, a version it does not speak) — the session then goes on raw
   * over the same connection, each request sent as the Client would (protocol fields included).
   */
  readonly clientRefused?: string;
  /** A request through the client's chain; its answer as the server sent it, whatever the Client made of it. */
  request(method: string, params?: Params, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<CheckAnswer>;
  /** `params` with the era's per-request protocol fields (2026-07-28: in `_meta`; the handshake era: as they are). */
  withProtocolFields(params?: Params): Params | undefined;
  /** tools/list, resources/list, resources/templates/list, prompts/list for each declared capability, every cursor followed. */
  walk(options?: { timeoutMs?: number; maxPages?: number }): Promise<WalkResult>;
  /** The session as the families read it (its own connection's messages), with the lists of the last walk(). */
  observed(): Observed;
}

/** Why no session could be opened (the server did not start, or never answered the negotiation): what was seen is kept. */
export class CheckSessionError extends McpwireError<"connect-failed"> {
  override readonly name = "CheckSessionError";
  /** The messages seen before it failed. */
  readonly messages: readonly SeenMessage[];
  readonly problems: readonly TransportProblem[];

  constructor(message: string, options: { messages: readonly SeenMessage[]; problems: readonly TransportProblem[]; cause?: unknown }) {
    super(message, "connect-failed", { cause: options.cause });
    this.messages = options.messages;
    this.problems = options.problems;
  }
}

/** The transport a target makes for one connection, before recording (the check's probes of a transport make their own). */
export function targetTransport(target: CheckTarget): ClientTransport {
  switch (target.kind) {
    case "stdio":
      return new StdioTransport(target.stdio);
    case "http":
      return new StreamableHttpTransport({ url: target.http.url, headers: target.http.headers, fetch: target.http.fetch });
    case "sse":
      return new SseLegacyTransport({ url: target.http.url, headers: target.http.headers, fetch: target.http.fetch });
    case "transport":
      return target.make();
  }
}

/** A recording transport for `target`, in `log`, traced when a sink is given. */
function recorder(target: CheckTarget, options: ConnectionOptions, log: SessionLog, seen: SeenMessage[], problems: TransportProblem[]): RecordingTransport {
  const inner = targetTransport(target);
  const traced = options.trace === undefined
    ? inner
    : new TracingTransport(inner, undefined, { sink: options.trace, startedAt: log.startedAt, server: options.server ?? "" });
  return new RecordingTransport(traced, log, seen, problems);
}

/**
 * Opens a bare connection to `target`: the transport started and recorded, nothing sent. Rejects
 * with a CheckSessionError when the transport cannot start (the command does not exist, …).
 */
export async function openConnection(target: CheckTarget, options: ConnectionOptions = {}): Promise<CheckConnection> {
  const log = options.log ?? new SessionLog();
  const seen: SeenMessage[] = [];
  const problems: TransportProblem[] = [];
  const transport = recorder(target, options, log, seen, problems);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  if (options.protocolVersion !== undefined) transport.setProtocolVersion(options.protocolVersion);
  try {
    await withTimeout(
      transport.start(),
      timeoutMs,
      () => new CheckSessionError(`${transport.description}: did not start within ${timeoutMs} ms`, { messages: seen, problems }),
    );
  } catch (error) {
    await transport.close().catch(() => {});
    throw error instanceof CheckSessionError
      ? error
      : new CheckSessionError(`${transport.description}: could not connect: ${messageOf(error)}`, { messages: seen, problems, cause: error });
  }
  return new Connection(transport, log, seen, problems, timeoutMs);
}

/**
 * Opens a check session with `target` in the era `options.protocol` asks for. Resolves once the
 * era is settled (the Client ready, or — on a malformed negotiation result — the session going on
 * raw); rejects with a CheckSessionError, holding what was seen, when the server never answered
 * the negotiation with a result (it did not start, exited, stayed silent, or refused it).
 */
export async function openSession(target: CheckTarget, options: SessionOptions): Promise<CheckSession> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const log = options.log ?? new SessionLog();
  const seen: SeenMessage[] = [];
  const problems: TransportProblem[] = [];
  let current: RecordingTransport | undefined;
  const make = (): ClientTransport => {
    // The transport of a server started again after the era probe: the old one may close now.
    current?.release();
    current = recorder(target, options, log, seen, problems);
    current.held = true;
    return current;
  };
  const client = new Client({ ...CHECK_CLIENT_INFO }, {
    capabilities: CHECK_CLIENT_CAPABILITIES,
    taskReceiver: false,
    // No subscriptions/listen stream of its own: the record holds only what the check asked.
    listen: false,
    requestTimeoutMs: timeoutMs,
    initializeTimeoutMs: timeoutMs + (options.protocol === "auto" ? Math.min(timeoutMs, DEFAULT_DISCOVER_TIMEOUT_MS) : 0),
    discoverTimeoutMs: Math.min(timeoutMs, DEFAULT_DISCOVER_TIMEOUT_MS),
    maxPages: MAX_LIST_PAGES,
  });
  let refusal: string | undefined;
  try {
    // A function, so that a stdio server that exits on the era probe is started again (negotiation.ts).
    await client.connect(make, { protocol: options.protocol });
  } catch (error) {
    refusal = messageOf(error);
  }
  const transport = current;
  if (transport === undefined) {
    // The transport could not even be made (its options were refused).
    throw new CheckSessionError(`no check session: ${refusal ?? "no transport was made"}`, { messages: seen, problems, cause: client.failure });
  }
  transport.held = false;
  const negotiation = negotiationAnswer(transport, log);
  // The Client gave up. If the server did answer the negotiation with a result, the session goes
  // on raw over the same connection (the check judges that result); else there is no session.
  if (refusal !== undefined && (negotiation === undefined || transport.ended)) {
    await transport.close().catch(() => {});
    throw new CheckSessionError(`${transport.description}: no check session: ${refusal}`, { messages: seen, problems, cause: client.failure });
  }
  return new Session(client, transport, log, seen, problems, timeoutMs, refusal, negotiation);
}

/** What answered the negotiation: the result to this connection's last initialize or server/discover, and the era it settles. */
interface NegotiationAnswer {
  seen: SeenMessage;
  result: Record<string, unknown>;
  era: ProtocolEra;
}

function negotiationAnswer(transport: RecordingTransport, log: SessionLog): NegotiationAnswer | undefined {
  let found: NegotiationAnswer | undefined;
  for (const [key, request] of transport.ids.sent) {
    if (request.method !== "initialize" && request.method !== "server/discover") continue;
    const index = transport.ids.answers.get(key);
    const seen = index === undefined ? undefined : log.message(index);
    const result = (seen?.message as { result?: unknown } | undefined)?.result;
    if (seen !== undefined && isObject(result) && (found === undefined || seen.index > found.seen.index)) {
      found = { seen, result, era: request.method === "initialize" ? "legacy" : "modern" };
    }
  }
  return found;
}

/** A recorded connection: raw messages, their answers by id. */
class Connection implements CheckConnection {
  protected readonly transport: RecordingTransport;
  protected readonly log: SessionLog;
  protected readonly timeoutMs: number;
  readonly #seen: SeenMessage[];
  readonly #problems: TransportProblem[];
  #rawIds = 0;
  #closing: Promise<void> | undefined;

  constructor(transport: RecordingTransport, log: SessionLog, seen: SeenMessage[], problems: TransportProblem[], timeoutMs: number) {
    this.transport = transport;
    this.log = log;
    this.#seen = seen;
    this.#problems = problems;
    this.timeoutMs = timeoutMs;
  }

  get messages(): readonly SeenMessage[] {
    return this.#seen;
  }

  get problems(): readonly TransportProblem[] {
    return this.#problems;
  }

  get ended(): boolean {
    return this.transport.ended;
  }

  message(index: number): SeenMessage | undefined {
    return this.log.message(index);
  }

  rawId(): string {
    return `check-${++this.#rawIds}`;
  }

  /** Headers a raw request carries by default (none; a modern session's over HTTP: the Client's). */
  protected defaultHeaders(_method: string, _params: Params | undefined): Record<string, string> | undefined {
    return undefined;
  }

  get wire(): string {
    return this.transport.traceName;
  }

  raw(message: object, options: RawOptions = {}): Promise<CheckAnswer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const fields = message as Record<string, unknown>;
    const id = fields.id;
    const awaited = typeof id === "string" || typeof id === "number" ? id : undefined;
    const method = typeof fields.method === "string" ? fields.method : undefined;
    const headers = options.headers ?? (method === undefined ? undefined : this.defaultHeaders(method, isObject(fields.params) ? fields.params : undefined));
    const sendOptions = { deadline: Date.now() + timeoutMs, ...(headers === undefined ? {} : { headers }) };
    return new Promise<CheckAnswer>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let index = 0;
      const done = (answer: CheckAnswer) => {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        resolve(answer);
      };
      const answered = (at: number) => {
        const seen = this.log.message(at);
        done(seen === undefined ? { failed: "answered, but the answer was not kept (over the check's bounds)", request: index } : answerOf(seen, index));
      };
      let sent: Promise<void>;
      try {
        ({ index, sent } = this.transport.sendRaw(
          message,
          sendOptions,
          awaited === undefined
            ? undefined
            : { id: awaited, answered, lost: (reason) => done({ failed: reason, request: index }), nullId: options.acceptNullId },
        ));
      } catch (error) {
        if (awaited !== undefined) this.transport.forget(awaited);
        done({ failed: messageOf(error) });
        return;
      }
      sent.then(
        () => {
          if (awaited === undefined) done({ sent: true, request: index });
        },
        (error: unknown) => {
          if (awaited !== undefined) this.transport.forget(awaited);
          done(httpErrorAnswer(error, index) ?? { failed: messageOf(error), request: index });
        },
      );
      if (awaited !== undefined) {
        timer = setTimeout(() => {
          this.transport.forget(awaited);
          done({ timeout: true, request: index });
        }, timeoutMs);
      }
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.shutdown();
    return this.#closing;
  }

  protected async shutdown(): Promise<void> {
    this.transport.release();
    await bounded(this.transport.close());
  }
}

/** `promise`, given up on after DEFAULT_CLOSE_TIMEOUT_MS; never rejects. */
function bounded(promise: Promise<void>): Promise<void> {
  return withTimeout(promise, DEFAULT_CLOSE_TIMEOUT_MS, () => errorOf(`did not close within ${DEFAULT_CLOSE_TIMEOUT_MS} ms`)).catch(() => {});
}

class Session extends Connection implements CheckSession {
  readonly era: ProtocolEra;
  readonly protocolVersion: string;
  readonly clientRefused: string | undefined;
  readonly #client: Client;
  readonly #negotiation: NegotiationAnswer | undefined;
  #lists: ObservedLists = {};

  constructor(
    client: Client,
    transport: RecordingTransport,
    log: SessionLog,
    seen: SeenMessage[],
    problems: TransportProblem[],
    timeoutMs: number,
    refusal: string | undefined,
    negotiation: NegotiationAnswer | undefined,
  ) {
    super(transport, log, seen, problems, timeoutMs);
    this.#client = client;
    this.#negotiation = negotiation;
    this.clientRefused = refusal;
    if (refusal === undefined) {
      this.era = client.era!;
      this.protocolVersion = client.protocolVersion!;
    } else {
      this.era = negotiation!.era;
      const version = negotiation!.result.protocolVersion;
      // The handshake era speaks the version the server answered; the 2026-07-28 wire the one asked for.
      this.protocolVersion = this.era === "legacy" ? (typeof version === "string" ? version : "(none)") : LATEST_MODERN_PROTOCOL_VERSION;
      // spec 2025-11-25 basic/lifecycle ("Initialization"): after initialize, initialized —
      // sent here, as the Client that refused the result did not.
      if (this.era === "legacy") void this.raw({ jsonrpc: "2.0", method: "notifications/initialized" });
      else transport.setProtocolVersion(LATEST_MODERN_PROTOCOL_VERSION);
    }
  }

  protected override defaultHeaders(method: string, params: Params | undefined): Record<string, string> | undefined {
    // spec 2026-07-28 streamable-http ("Request Metadata"): the headers a request carries.
    return this.era === "modern" && this.transport.sendsHeaders ? requestHeaders(method, params) : undefined;
  }

  withProtocolFields(params?: Params): Params | undefined {
    if (this.era !== "modern") return params;
    return withRequestMeta(params as JsonObject | undefined, {
      protocolVersion: this.protocolVersion as ModernProtocolVersion,
      capabilities: CHECK_CLIENT_CAPABILITIES,
      clientInfo: { ...CHECK_CLIENT_INFO },
    });
  }

  async request(method: string, params?: Params, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<CheckAnswer> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    if (this.clientRefused !== undefined) {
      return await this.raw({ jsonrpc: "2.0", id: this.rawId(), method, params: this.withProtocolFields(params) ?? {} }, { timeoutMs });
    }
    let id: RequestId | undefined;
    let failure: unknown;
    try {
      await this.#client.request(method, params, { timeoutMs, signal: options.signal, onId: (sent) => (id = sent) });
    } catch (error) {
      failure = error;
    }
    // The last id sent is the final round's (a 2026-07-28 version retry sends the request again).
    const request = id === undefined ? undefined : this.transport.ids.requestIndex(id);
    const answer = id === undefined ? undefined : this.transport.ids.answerIndex(id);
    if (answer !== undefined) {
      const seen = this.log.message(answer);
      if (seen !== undefined) return answerOf(seen, request ?? 0);
    }
    if (failure instanceof RequestTimeoutError || (failure instanceof RequestAbortedError && failure.code === "timeout")) {
      return request === undefined ? { timeout: true } : { timeout: true, request };
    }
    const fromHttp = request === undefined ? undefined : httpErrorAnswer(failure, request);
    if (fromHttp !== undefined) return fromHttp;
    const failed = failure === undefined ? "answered, but the answer was not kept (over the check's bounds)" : messageOf(failure);
    return request === undefined ? { failed } : { failed, request };
  }

  async walk(options: { timeoutMs?: number; maxPages?: number } = {}): Promise<WalkResult> {
    const walked = await walkLists(this.#capabilities(), (method, params) => this.request(method, params, { timeoutMs: options.timeoutMs }), options.maxPages);
    this.#lists = walked.lists;
    return walked;
  }

  observed(): Observed {
    const observed: Observed = {
      era: this.era,
      protocolVersion: this.protocolVersion,
      capabilities: this.#capabilities(),
      lists: this.#lists,
      messages: this.messages,
    };
    const negotiation = this.#negotiation;
    if (negotiation !== undefined) {
      observed.negotiation = { result: negotiation.result, index: negotiation.seen.index };
      const instructions = negotiation.result.instructions;
      if (typeof instructions === "string") observed.instructions = instructions;
    }
    return observed;
  }

  /** The capabilities the server declared, raw ({} when none were readable). */
  #capabilities(): Record<string, unknown> {
    const capabilities = this.#negotiation?.result.capabilities;
    return isObject(capabilities) ? capabilities : {};
  }

  protected override async shutdown(): Promise<void> {
    await bounded(this.#client.close());
    await super.shutdown();
  }
}
