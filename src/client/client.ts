// The MCP client: the lifecycle state machine, version negotiation and typed methods —
// spec 2025-11-25 basic/lifecycle, server/tools, server/resources, server/prompts,
// server/utilities/completion, server/utilities/logging; and what the server asks of the
// client — client/elicitation, client/sampling, client/roots. Dual-era: the 2026-07-28
// revision's stateless wire (spec 2026-07-28 basic/versioning, server/discover,
// basic/patterns/mrtr, basic/patterns/subscriptions, server/utilities/caching) beside the
// initialize handshake, chosen per server.

import { ContainedEventTarget, DetailEvent, type ListenerFailure } from "../common/events.ts";
import {
  type CloseDetails,
  ConnectionClosedError,
  describeClose,
  ErrorCode,
  RequestTimeoutError,
  RpcError,
} from "../jsonrpc/errors.ts";
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  type IncomingRequestContext,
  type Params,
  Peer,
  type Progress,
  type RequestOptions,
} from "../jsonrpc/peer.ts";
import { paramHeadersOf } from "../transport/mcp-headers.ts";
import { SseLegacyTransport } from "../transport/sse-legacy.ts";
import { type Transport, TransportError, UndeliverableMessageError } from "../transport/transport.ts";
import { canMove, type ClientState, type StateChange } from "./client-state.ts";
import {
  CapabilityError,
  ClientStateError,
  HeaderMismatchError,
  InputRoundsExceededError,
  MissingClientCapabilityError,
  OutcomeUnknownError,
  OutputValidationError,
  ProtocolError,
  ProtocolVersionError,
  ResourceNotFoundError,
  UnsupportedProtocolVersionError,
} from "./errors.ts";
import {
  DEFAULT_MAX_INPUT_ROUNDS,
  fulfilInputRequests,
  INPUT_CAPABLE_METHODS,
  type InputRequest,
  isInputRequired,
  readInputRequired,
  retryFields,
} from "./input-requests.ts";
import { META_SERVER_INFO, META_SUBSCRIPTION_ID, withRequestMeta } from "./request-meta.ts";
import { ResultCache, ttlOf } from "./result-cache.ts";
import { ListenStream, missingFromAcknowledgment, type NotificationFilter } from "./subscriptions.ts";
import {
  applyDefaults,
  checkElicitResult,
  checkRequestedSchema,
  elicitationsOf,
  UrlElicitationRequiredError,
  validateAnswer,
} from "./elicitation.ts";
import type { ClientHandlers, HandlerContext } from "./handlers.ts";
import { OutputValidators } from "./output-validator.ts";
import { type RootInput, toRoots } from "./roots.ts";
import { SamplingGate, type SamplingPolicy } from "./sampling.ts";
import { collectPages, DEFAULT_MAX_PAGES } from "./pagination.ts";
import {
  featuresOf,
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  LATEST_MODERN_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  type ModernProtocolVersion,
  type ProtocolChoice,
  type ProtocolEra,
  type ProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./protocol-version.ts";
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteReference,
  CompleteResult,
  ElicitationSchema,
  ElicitResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  JsonObject,
  LoggingLevel,
  LogMessage,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  Tool,
} from "./types.ts";

export interface ClientOptions {
  /** Names the server in every error message; default: the transport's description. */
  name?: string;
  /**
   * Extra capabilities to declare in `initialize`, merged into those the handlers declare.
   * Declaring sampling, elicitation or roots here without its handler throws.
   */
  capabilities?: ClientCapabilities;
  /** What answers the server's requests; each one declares its capability. */
  handlers?: ClientHandlers;
  /** A static roots list (declares `roots`); absolute paths become file:// URIs. */
  roots?: RootInput[];
  /** Policy around the sampling handler. */
  sampling?: SamplingPolicy;
  /** Log messages kept while nobody listens before `ready`. Default 1000. */
  logBufferSize?: number;
  /** Default idle timeout of every request. Default 60 s. */
  requestTimeoutMs?: number;
  /** Hard maximum for a request kept alive by progress. Default 10 minutes. */
  maxTotalTimeoutMs?: number;
  /**
   * Bound of the whole connect(): starting the transport, the server/discover probe, the
   * initialize handshake and the send of notifications/initialized (over HTTP, until its
   * POST is accepted). Default: requestTimeoutMs.
   */
  initializeTimeoutMs?: number;
  /** Page cap when following list cursors. Default 1000. */
  maxPages?: number;
  /**
   * Which era to speak — spec 2026-07-28 basic/versioning. `auto` (default): server/discover
   * first, the initialize handshake when the server does not answer it as a modern server;
   * `modern`: the 2026-07-28 stateless wire only; `legacy`: the initialize handshake only.
   */
  protocol?: ProtocolChoice;
  /** How long `auto` waits for the server/discover probe before taking the server for legacy. Default 5 s. */
  discoverTimeoutMs?: number;
  /** Rounds of a multi round-trip request (input_required results) before giving up. Default 10. */
  maxInputRounds?: number;
  /**
   * Modern wire: keep a subscriptions/listen stream open for the list changes the server
   * declares (and the resources subscribed to). Default true.
   */
  listen?: boolean;
}

/** Options of the list methods: `fresh` skips a cached result still within its ttlMs. */
export interface ListOptions extends RequestOptions {
  fresh?: boolean;
}

export interface CallOptions {
  timeoutMs?: number;
  maxTotalTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

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
  /**
   * Something odd that was survived: a skipped line, an unknown response id, a listener that
   * threw (then `cause` is what it threw), …
   */
  problem: { message: string; cause?: unknown };
}

export type ClientEventType = keyof ClientEvents;

/**
 * The Event a Client dispatches; `detail` is exactly what was emitted. (Not CustomEvent:
 * Node turns an undefined detail into null, Deno keeps undefined.) The shared DetailEvent of
 * src/common/events.ts, typed by event name.
 */
export type ClientEvent<K extends ClientEventType = ClientEventType> = DetailEvent<ClientEvents[K]>;
export const ClientEvent: new <K extends ClientEventType = ClientEventType>(type: K, detail: ClientEvents[K]) => ClientEvent<K> =
  DetailEvent;

/** Methods allowed while initializing — spec 2025-11-25 basic/lifecycle: only ping before the result. */
const ALLOWED_BEFORE_READY = new Set(["ping"]);

/** Default bound of the auto probe; a legacy stdio server may never answer it. */
export const DEFAULT_DISCOVER_TIMEOUT_MS = 5000;

/**
 * Requests that can be sent again after the 2026-07-28 wire lost their answer (spec
 * 2026-07-28 streamable-http: a broken stream loses the request): reads. tools/call only
 * for tools annotated idempotentHint.
 */
const SAFE_TO_REISSUE = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
]);
const MAX_REISSUES = 2;

/** Cache keys of the lists each list_changed notification makes stale. */
const LIST_KEYS = { tools: "tools/list", prompts: "prompts/list", resources: "resources/list", templates: "resources/templates/list" } as const;

/**
 * An MCP client. Its events reach listeners through ContainedEventTarget: a listener that
 * throws is reported as a `problem` event naming the event and what it threw, and the next
 * listener still runs — it never becomes an uncaught exception of the host.
 */
export class Client extends ContainedEventTarget<ClientEvents> {
  readonly clientInfo: Implementation;
  readonly #options: ClientOptions;
  #state: ClientState = "new";
  #failure: Error | undefined;
  #transport: Transport | undefined;
  #peer: Peer | undefined;
  #name = "server";
  #init: InitializeResult | undefined;
  #version: ProtocolVersion | undefined;
  /** Which wire this connection speaks, once connect() has found out. */
  #era: ProtocolEra | undefined;
  /** Modern wire: the level sent in each request's _meta (no logging/setLevel there). */
  #logLevel: LoggingLevel | undefined;
  /** Modern wire: resources subscribed to, carried by the listen stream's filter. */
  readonly #subscribed = new Set<string>();
  #listen: ListenStream | undefined;
  /** Results kept while their ttlMs says they are fresh (spec 2026-07-28 caching). */
  readonly #cache = new ResultCache();
  /** The last full tool listing, by name: where outputSchemas are looked up. */
  #tools = new Map<string, Tool>();
  #closing: Promise<void> | undefined;
  readonly #validators = new OutputValidators((message) => this.#problem(`${this.#name}: ${message}`));
  readonly #capabilities: ClientCapabilities;
  /** The same, as the 2026-07-28 wire has them: roots without listChanged (that notification is gone). */
  readonly #modernCapabilities: ClientCapabilities;
  readonly #sampling: SamplingGate | undefined;
  #roots: Root[] | undefined;
  /** Log messages that arrived before `ready` with no listener; bounded, oldest dropped. */
  #earlyLogs: LogMessage[] = [];
  #earlyLogsDropped = 0;
  #logListeners = 0;
  /** URL-mode elicitation ids we saw and that have not completed. */
  readonly #openElicitations = new Set<string>();

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    super();
    this.clientInfo = clientInfo;
    this.#options = options;
    this.#roots = options.roots === undefined ? undefined : toRoots(options.roots);
    this.#capabilities = declaredCapabilities(options);
    this.#modernCapabilities = this.#capabilities.roots === undefined ? this.#capabilities : { ...this.#capabilities, roots: {} };
    const sampling = options.handlers?.sampling;
    this.#sampling = sampling === undefined ? undefined : new SamplingGate(sampling, options.sampling);
  }

  /** What this client declares in `initialize`: what its handlers answer, plus `capabilities`. */
  get capabilities(): ClientCapabilities {
    return this.#capabilities;
  }

  // --- state -------------------------------------------------------------------------

  get state(): ClientState {
    return this.#state;
  }

  /** What ended the connection, when state is `failed`. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  get serverInfo(): Implementation | undefined {
    return this.#init?.serverInfo;
  }

  /** The negotiated protocol version, once initialized (or discovered, on the modern wire). */
  get protocolVersion(): ProtocolVersion | undefined {
    return this.#version;
  }

  /** `modern` (2026-07-28, stateless) or `legacy` (the initialize handshake), once connected. */
  get era(): ProtocolEra | undefined {
    return this.#era;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#init?.capabilities;
  }

  get instructions(): string | undefined {
    return this.#init?.instructions;
  }

  /** The transport this client was connected with. */
  get transport(): Transport | undefined {
    return this.#transport;
  }

  /**
   * Typed listener; returns a function that removes it. The first `log` listener also gets
   * the log messages that arrived before `ready` while nobody listened.
   */
  override on<K extends ClientEventType>(type: K, listener: (detail: ClientEvents[K]) => void): () => void {
    const off = super.on(type, listener);
    if (type !== "log") return off;
    this.#logListeners++;
    this.#replayEarlyLogs(listener as (detail: LogMessage) => void);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#logListeners--;
      off();
    };
  }

  /** A listener threw: reported as a problem, never thrown into the transport or the host. */
  protected override listenerFailed({ type, error }: ListenerFailure): void {
    this.emit("problem", { message: `${this.#name}: a "${type}" event listener threw: ${describeThrown(error)}`, cause: error });
  }

  #problem(message: string): void {
    this.emit("problem", { message });
  }

  #move(to: ClientState, cause?: Error): void {
    const from = this.#state;
    if (from === to || !canMove(from, to)) return;
    this.#state = to;
    if (to === "failed") this.#failure = cause;
    this.emit("statechange", cause ? { from, to, cause } : { from, to });
  }

  // --- connect and close ---------------------------------------------------------------

  /**
   * Starts the transport and runs the initialize handshake — spec 2025-11-25
   * basic/lifecycle ("Initialization"). Resolves once the client is `ready`.
   */
  async connect(transport: Transport, options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#state !== "new") {
      throw new ClientStateError(`connect() was already called (state: ${this.#state}); create a new Client to connect again`, this.#state);
    }
    this.#transport = transport;
    this.#name = this.#options.name !== undefined ? `server "${this.#options.name}"` : transport.description;
    // initializeTimeoutMs bounds the whole connect; each step gets what is left of it.
    const budgetMs = this.#options.initializeTimeoutMs ?? this.#options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const deadline = Date.now() + budgetMs;
    const remaining = () => Math.max(0, deadline - Date.now());
    const peer = new Peer({
      name: this.#name,
      send: (message, options) => (options === undefined ? transport.send(message) : transport.send(message, options)),
      defaultTimeoutMs: this.#options.requestTimeoutMs,
      maxTotalTimeoutMs: this.#options.maxTotalTimeoutMs,
      onProblem: (message) => this.#problem(message),
    });
    this.#peer = peer;
    this.#installNotificationHandlers(peer);
    this.#installRequestHandlers(peer);
    transport.onmessage = (message) => peer.receive(message);
    transport.onerror = (error) => {
      // A response the transport could not deliver fails its request now, with the reason.
      if (error instanceof UndeliverableMessageError) peer.undeliverable(error.response);
      else this.#problem(error.message);
    };
    transport.onclose = (details) => this.#onTransportClose(details);
    transport.onsessionexpired = () => this.#startNewSession(peer, transport);
    // spec 2026-07-28 streamable-http ("Custom Headers from Tool Parameters"): x-mcp-header
    // parameters are found in the tools of the last tools/list.
    transport.setToolSchemas?.((tool) => this.#tools.get(tool)?.inputSchema);

    this.#move("connecting");
    try {
      await transport.start();
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      peer.close({ reason: `could not start: ${cause.message}` });
      // A start that failed because close() stopped it ends `closed`, like the handshake below.
      if (this.#closing !== undefined) {
        await this.#closing.catch(() => {});
        throw this.#closedWhileConnecting();
      }
      this.#move("failed", cause);
      throw cause;
    }
    // close() may have been called while the transport was starting, or the server died.
    if ((this.#state as ClientState) !== "connecting") {
      if (this.#closing !== undefined) {
        await this.#closing.catch(() => {});
        throw this.#closedWhileConnecting();
      }
      throw this.#notReady("initialize");
    }

    // The legacy HTTP+SSE transport (2024-11-05) carries the handshake era only: no probe over it.
    const handshakeOnly = carriesHandshakeOnly(transport);
    const choice = handshakeOnly ? "legacy" : this.#options.protocol ?? "auto";
    if (handshakeOnly && this.#options.protocol === "modern") {
      const cause = new ProtocolVersionError(
        `${this.#name}: protocol: modern needs the 2026-07-28 wire, which the legacy HTTP+SSE transport (2024-11-05) cannot carry; ` +
          `set protocol: auto (or legacy) for this server, or connect to its Streamable HTTP endpoint`,
        LATEST_MODERN_PROTOCOL_VERSION,
        undefined,
        SUPPORTED_PROTOCOL_VERSIONS,
      );
      this.#move("failed", cause);
      peer.close({ reason: cause.message });
      await transport.close().catch(() => {});
      throw cause;
    }
    if (choice !== "legacy") {
      let modern: boolean;
      try {
        modern = await this.#probe(peer, transport, choice, options.signal, remaining);
        // Unanswered until the connect's time ran out: no time is left for a handshake.
        if (!modern && remaining() === 0) throw this.#connectTimeout("server/discover", budgetMs);
      } catch (raw) {
        const error = raw instanceof RequestTimeoutError && remaining() === 0 ? this.#connectTimeout("server/discover", budgetMs) : raw;
        if (this.#closing !== undefined) {
          await this.#closing.catch(() => {});
          throw this.#closedWhileConnecting();
        }
        const cause = error instanceof Error ? error : new Error(String(error));
        this.#move("failed", cause);
        peer.close({ reason: `server/discover failed: ${cause.message}` });
        await transport.close().catch(() => {});
        throw cause;
      }
      if (this.#closing !== undefined) {
        await this.#closing.catch(() => {});
        throw this.#closedWhileConnecting();
      }
      if ((this.#state as ClientState) !== "connecting") throw this.#notReady("initialize");
      if (modern) {
        this.#era = "modern";
        this.#move("initializing");
        this.#move("ready");
        this.#startListening();
        return;
      }
    }
    this.#era = "legacy";

    // spec 2025-11-25 basic/lifecycle: initialization MUST be the first interaction. The
    // request is on its way before `initializing` is announced, so a ping sent from a
    // statechange listener cannot overtake it.
    const initialize = peer.request(
      "initialize",
      this.#initializeParams(),
      { timeoutMs: remaining(), signal: options.signal },
    );
    this.#move("initializing");
    try {
      const result = await initialize;
      if (choice === "auto" && isModernProtocolVersion(result.protocolVersion)) {
        // The probe went unanswered in time, but the server answers initialize with a modern
        // version: it is a modern server after all. Speak that wire; no initialized follows.
        this.#init = this.#checkInitializeResult(result, true);
        this.#version = this.#init.protocolVersion as ProtocolVersion;
        this.#era = "modern";
        transport.setProtocolVersion?.(this.#version);
        this.#problem(`${this.#name}: server/discover went unanswered, but initialize was answered with ${this.#version}; using the 2026-07-28 wire`);
        if (this.#closing !== undefined) throw this.#closedWhileConnecting();
        this.#move("ready");
        this.#startListening();
        return;
      }
      this.#init = this.#checkInitializeResult(result);
      this.#version = this.#init.protocolVersion as ProtocolVersion;
      // spec 2025-11-25 basic/transports (Protocol Version Header): HTTP sends it from now on.
      transport.setProtocolVersion?.(this.#version);
      // spec 2025-11-25 basic/lifecycle: after a successful initialize the client MUST send
      // initialized. Over HTTP its POST waits for a 202 (spec 2025-11-25 basic/transports):
      // that wait is part of the connect and bounded by what is left of initializeTimeoutMs.
      await within(peer.notify("notifications/initialized"), remaining(), () => this.#connectTimeout("notifications/initialized", budgetMs));
    } catch (raw) {
      const error = raw instanceof RequestTimeoutError && raw.method === "initialize" && remaining() === 0
        ? this.#connectTimeout("initialize", budgetMs)
        : raw;
      // close() during the handshake is the caller's choice, not a failure: it ends `closed`.
      if (this.#closing !== undefined) {
        await this.#closing.catch(() => {});
        throw this.#closedWhileConnecting();
      }
      const cause = this.#handshakeFailure(error, choice);
      this.#move("failed", cause);
      peer.close({ reason: `initialize failed: ${cause.message}` });
      await transport.close().catch(() => {});
      throw cause;
    }
    if (this.#closing !== undefined) throw this.#closedWhileConnecting();
    this.#move("ready");
  }

  /**
   * Finds out whether the server speaks the 2026-07-28 wire — spec 2026-07-28
   * basic/versioning ("Backward Compatibility"), stdio ("Backward Compatibility"),
   * streamable-http ("Backward Compatibility"). A DiscoverResult, or a recognized modern
   * error, means modern (a -32022 is answered by retrying with a version from `supported`);
   * any other error, an HTTP refusal, or silence until the timeout means legacy — unless
   * `modern` was pinned, which then fails with what the server said.
   */
  async #probe(
    peer: Peer,
    transport: Transport,
    choice: ProtocolChoice,
    signal: AbortSignal | undefined,
    remaining: () => number,
  ): Promise<boolean> {
    let version: ModernProtocolVersion = LATEST_MODERN_PROTOCOL_VERSION;
    for (let attempt = 0; ; attempt++) {
      transport.setProtocolVersion?.(version);
      // Never past the connect's own bound (initializeTimeoutMs).
      const timeoutMs = choice === "auto" ? Math.min(this.#options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS, remaining()) : remaining();
      let result: Params;
      try {
        result = await peer.request("server/discover", this.#modernParams(undefined, version), { timeoutMs, signal });
      } catch (error) {
        if (this.#closing !== undefined || peer.isClosed || signal?.aborted) throw error;
        if (error instanceof RequestTimeoutError && remaining() === 0) throw error; // the connect's time is up
        const typed = typedRpcError(error);
        if (typed instanceof UnsupportedProtocolVersionError) {
          const next = MODERN_PROTOCOL_VERSIONS.find((candidate) => typed.supported.includes(candidate));
          if (next !== undefined && attempt === 0) {
            version = next;
            continue;
          }
          // Refused twice (or no modern version in common): a listed handshake version wins under auto.
          const legacy = typed.supported.some((candidate) => isSupportedProtocolVersion(candidate));
          if (legacy && choice === "auto") {
            transport.setProtocolVersion?.(undefined);
            return false;
          }
          throw new ProtocolVersionError(
            `${this.#name} does not support a protocol version mcpwire speaks: it supports ${typed.supported.join(", ") || "(none listed)"}; ` +
              `mcpwire speaks ${[...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS].join(", ")}` +
              (legacy && choice === "modern" ? `; set protocol: legacy (or auto) for this server` : ""),
            version,
            typed.supported,
            [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS],
          );
        }
        if (typed instanceof HeaderMismatchError || typed instanceof MissingClientCapabilityError) {
          throw new ProtocolError(`${this.#name} is a 2026-07-28 server but refused server/discover: ${typed.message}`, "refused-discover", {
            method: "server/discover",
            cause: typed,
          });
        }
        if (!meansLegacy(error)) throw error; // a dead process, a refused connection, a 5xx: no era to choose
        if (choice === "modern") {
          throw new ProtocolVersionError(
            `${this.#name} did not answer server/discover as a 2026-07-28 server (${describeProbeFailure(error)}); ` +
              `it probably speaks only the initialize handshake: set protocol: legacy (or auto) for this server`,
            version,
            undefined,
            MODERN_PROTOCOL_VERSIONS,
          );
        }
        // A legacy server: the handshake follows, with no version header until it has run.
        transport.setProtocolVersion?.(undefined);
        return false;
      }
      const accepted = this.#acceptDiscover(result, version, choice);
      if (accepted === undefined) {
        transport.setProtocolVersion?.(undefined);
        return false;
      }
      if (accepted !== version) {
        version = accepted;
        transport.setProtocolVersion?.(version);
      }
      return true;
    }
  }

  /**
   * spec 2026-07-28 server/discover ("DiscoverResult"): picks the newest mutual modern version;
   * undefined when the server lists none and `auto` may fall back to the handshake.
   */
  #acceptDiscover(result: Params, asked: ModernProtocolVersion, choice: ProtocolChoice): ModernProtocolVersion | undefined {
    const listed = Array.isArray(result.supportedVersions) ? result.supportedVersions.filter((v): v is string => typeof v === "string") : [];
    const version = MODERN_PROTOCOL_VERSIONS.find((candidate) => listed.includes(candidate));
    if (version === undefined) {
      // Not a DiscoverResult we can use (some legacy servers answer unknown methods with {}):
      // under auto the handshake decides.
      if (choice === "auto") return undefined;
      throw new ProtocolVersionError(
        `${this.#name} answered server/discover with supportedVersions ${JSON.stringify(listed)}, none of which mcpwire speaks ` +
          `(${[...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS].join(", ")})`,
        asked,
        listed,
        MODERN_PROTOCOL_VERSIONS,
      );
    }
    const capabilities = result.capabilities;
    if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
      throw new ProtocolError(`${this.#name}: the server/discover result has no "capabilities" object`, "bad-result", { method: "server/discover" });
    }
    // serverInfo goes in _meta (spec 2026-07-28 basic/index); some servers put it beside the fields.
    const meta = result._meta as JsonObject | undefined;
    const info = meta?.[META_SERVER_INFO] ?? result.serverInfo;
    const serverInfo = typeof info === "object" && info !== null && typeof (info as JsonObject).name === "string"
      ? info as Implementation
      : { name: "(server gave no serverInfo)", version: "" };
    this.#init = {
      protocolVersion: version,
      capabilities: capabilities as ServerCapabilities,
      serverInfo,
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
    };
    this.#version = version;
    return version;
  }

  /** The params of a modern request: the per-request protocol fields in `_meta`. */
  #modernParams(params: Params | undefined, version: string, extra?: Params): Params {
    return withRequestMeta(params as JsonObject | undefined, {
      protocolVersion: version,
      capabilities: this.#modernCapabilities,
      clientInfo: this.clientInfo,
      logLevel: this.#logLevel,
    }, extra as JsonObject | undefined);
  }

  #initializeParams(): Params {
    return {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: this.#capabilities,
      clientInfo: this.clientInfo,
    };
  }

  /**
   * The server ended the session (HTTP 404): run the handshake again on a new one — spec
   * 2025-11-25 basic/transports ("Session Management" 4) and basic/lifecycle. The transport
   * holds every other send until this settles, and closes if it rejects.
   */
  async #startNewSession(peer: Peer, transport: Transport): Promise<void> {
    if (this.#state !== "ready") {
      throw new ClientStateError(`${this.#name} ended the session while the client was ${this.#state}`, this.#state);
    }
    this.#problem(`${this.#name}: the server ended the session; starting a new one (initialize again)`);
    const result = await peer.request("initialize", this.#initializeParams(), { timeoutMs: this.#options.initializeTimeoutMs });
    this.#init = this.#checkInitializeResult(result);
    this.#version = this.#init.protocolVersion as ProtocolVersion;
    transport.setProtocolVersion?.(this.#version);
    await peer.notify("notifications/initialized");
  }

  /**
   * A refused initialize, as the user should read it. spec 2026-07-28 basic/versioning: a
   * modern-only server names its versions in the error it gives an initialize request.
   */
  #handshakeFailure(error: unknown, choice: ProtocolChoice): Error {
    const typed = typedRpcError(error);
    if (typed instanceof UnsupportedProtocolVersionError) {
      const modern = typed.supported.some((version) => isModernProtocolVersion(version));
      return new ProtocolVersionError(
        `${this.#name} refused the initialize handshake: it supports ${typed.supported.join(", ") || "(none listed)"}` +
          (modern && choice === "legacy" ? "; it speaks the 2026-07-28 wire: set protocol: auto (or modern) for this server" : ""),
        LATEST_PROTOCOL_VERSION,
        typed.supported,
        SUPPORTED_PROTOCOL_VERSIONS,
      );
    }
    return typed instanceof Error ? typed : new Error(String(typed));
  }

  /** connect() ran out of initializeTimeoutMs while waiting on `method`. */
  #connectTimeout(method: "server/discover" | "initialize" | "notifications/initialized", budgetMs: number): RequestTimeoutError {
    const waited = method === "notifications/initialized"
      ? "the server did not accept notifications/initialized in time (over HTTP: no 202 to its POST)"
      : `no answer to ${method}`;
    return new RequestTimeoutError(
      `${this.#name}: ${method} timed out: connect did not finish within initializeTimeoutMs (${durationText(budgetMs)}): ${waited}; ` +
        "raise initializeTimeoutMs, or check the server's stderr",
      method,
      budgetMs,
      "total",
    );
  }

  #closedWhileConnecting(): ClientStateError {
    return new ClientStateError(`connect() to ${this.#name} did not finish: close() was called while it was connecting`, this.#state);
  }

  #checkInitializeResult(result: Params, modern = false): InitializeResult {
    const version = result.protocolVersion;
    // spec 2025-11-25 basic/lifecycle: if the client does not support the server's version it SHOULD disconnect.
    if (!isSupportedProtocolVersion(version) && !(modern && isModernProtocolVersion(version))) {
      throw new ProtocolVersionError(
        `${this.#name} answered initialize with protocol version ${JSON.stringify(version)}, which mcpwire does not speak ` +
          `(offered ${LATEST_PROTOCOL_VERSION}; accepts ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); disconnected`,
        LATEST_PROTOCOL_VERSION,
        version,
        SUPPORTED_PROTOCOL_VERSIONS,
      );
    }
    const capabilities = result.capabilities;
    const serverInfo = result.serverInfo;
    if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
      throw new ProtocolError(`${this.#name}: initialize result has no "capabilities" object`, "bad-result", { method: "initialize" });
    }
    if (typeof serverInfo !== "object" || serverInfo === null || typeof (serverInfo as JsonObject).name !== "string") {
      throw new ProtocolError(`${this.#name}: initialize result has no "serverInfo" with a name`, "bad-result", { method: "initialize" });
    }
    return {
      protocolVersion: version,
      capabilities: capabilities as ServerCapabilities,
      serverInfo: serverInfo as Implementation,
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
    };
  }

  /**
   * Ends the connection (stdio: close stdin, SIGTERM, SIGKILL). Bounded; safe to call twice:
   * a second call resolves when the first one has finished.
   */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    if (this.#state === "closed" || this.#state === "failed") return Promise.resolve();
    this.#closing = this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) {
      this.#move("closed");
      return;
    }
    this.#move("closing");
    // The peer closes first: every pending request, the listen request included, ends here,
    // so stopping the listen stream sends no notifications/cancelled into a transport that
    // is closing (a close the user asked for reports nothing).
    this.#peer?.close({ reason: "closed by the client" });
    await this.#stopListening();
    try {
      await transport.close();
    } finally {
      this.#move("closed");
    }
  }

  #onTransportClose(details: CloseDetails): void {
    // The transport is gone: close the peer before the listen stream, which then has nothing to cancel.
    this.#peer?.close(details);
    void this.#stopListening();
    if (this.#state === "closing" || this.#state === "closed" || this.#state === "failed") return;
    this.#move("failed", new ConnectionClosedError(`${this.#name}: connection closed: ${describeClose(details)}`, details));
  }

  // --- requests ------------------------------------------------------------------------

  #notReady(method: string): Error {
    switch (this.#state) {
      case "new":
        return new ClientStateError(`cannot send ${method}: the client is not connected; call connect() first`, this.#state);
      case "connecting":
      case "initializing":
        return new ClientStateError(
          `cannot send ${method} to ${this.#name} while it is ${this.#state}; wait for connect() to resolve (only ping may go before the initialize result)`,
          this.#state,
        );
      case "failed":
        return new ClientStateError(`cannot send ${method}: ${this.#failure?.message ?? `${this.#name} failed`}`, this.#state, {
          cause: this.#failure,
        });
      default:
        return new ClientStateError(`cannot send ${method}: the connection to ${this.#name} is ${this.#state}`, this.#state);
    }
  }

  /** Sends any request; for methods the typed helpers do not cover. */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Params> {
    const ready = this.#state === "ready" || (this.#state === "initializing" && ALLOWED_BEFORE_READY.has(method));
    if (!ready) return Promise.reject(this.#notReady(method));
    if (this.#era === "modern") return this.#modernRequest(method, params, options ?? {});
    return this.#peer!.request(method, params, options).catch((error: unknown) => {
      throw this.#surfaceUrlElicitation(method, typedRpcError(error));
    });
  }

  /**
   * One request on the 2026-07-28 wire, to its final result: the protocol fields in
   * `_meta`; a -32022 answered by retrying once with a version from `supported`; an
   * input_required result fulfilled and retried as a new request (spec 2026-07-28 mrtr),
   * at most maxInputRounds times; a lost response stream re-issued when that is safe.
   */
  async #modernRequest(method: string, params: Params | undefined, options: RequestOptions): Promise<Params> {
    const peer = this.#peer!;
    const who = `${this.#name}: ${method}${typeof params?.name === "string" ? ` "${params.name}"` : ""}`;
    const maxRounds = this.#options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    let extra: Params | undefined;
    let rounds = 0;
    let versionRetried = false;
    let headersRefreshed = false;
    let reissues = 0;
    for (;;) {
      let result: Params;
      try {
        result = await peer.request(method, this.#modernParams(params, this.#version!, extra), options);
      } catch (raw) {
        const error = typedRpcError(raw);
        if (error instanceof UnsupportedProtocolVersionError && !versionRetried) {
          // spec 2026-07-28 basic/versioning: select a mutually supported version and retry.
          const next = MODERN_PROTOCOL_VERSIONS.find((candidate) => error.supported.includes(candidate));
          if (next === undefined) {
            throw new UnsupportedProtocolVersionError(
              `${who}: the server no longer supports ${this.#version} (it supports ${error.supported.join(", ") || "none listed"}; ` +
                `mcpwire speaks ${MODERN_PROTOCOL_VERSIONS.join(", ")} on this wire); reconnect with protocol: auto`,
              error.data,
            );
          }
          versionRetried = true;
          this.#version = next;
          this.#transport?.setProtocolVersion?.(next);
          continue;
        }
        if (error instanceof HeaderMismatchError && method === "tools/call" && !headersRefreshed) {
          // spec 2026-07-28 streamable-http ("Client Behavior"): re-list tools, then retry with the right headers.
          headersRefreshed = true;
          await this.listTools({ fresh: true }).catch(() => {});
          continue;
        }
        if (raw instanceof TransportError && raw.code === "stream-lost") {
          if (this.#safeToReissue(method, params) && reissues < MAX_REISSUES && !options.signal?.aborted) {
            reissues++;
            this.#problem(`${who}: the response stream was lost; sending the request again as a new request`);
            continue;
          }
          throw new OutcomeUnknownError(
            `${who}: the response stream broke before the answer, and the request is not safe to send again ` +
              `(not a read, and the tool is not annotated idempotentHint): the outcome is unknown; check before retrying`,
            method,
            { cause: raw },
          );
        }
        throw error;
      }
      if (!isInputRequired(result)) return result;
      // spec 2026-07-28 mrtr ("Supported Requests"): only tools/call, prompts/get, resources/read.
      if (!INPUT_CAPABLE_METHODS.has(method)) {
        throw new ProtocolError(
          `${who}: the server answered input_required, which only tools/call, prompts/get and resources/read may`,
          "input-not-allowed",
          { method },
        );
      }
      if (++rounds > maxRounds) {
        throw new InputRoundsExceededError(
          `${who}: the server still wanted input after ${maxRounds} round trips; stopped (raise maxInputRounds if that is expected)`,
          method,
          maxRounds,
        );
      }
      const required = readInputRequired(who, result);
      const responses = required.inputRequests === undefined
        ? undefined
        : await fulfilInputRequests(required.inputRequests, (request, key) => this.#fulfil(who, request, key, options.signal));
      // spec 2026-07-28 mrtr ("Client Requirements" 2-4): a new request, the state echoed, nothing else carried over.
      extra = retryFields(required, responses);
    }
  }

  #safeToReissue(method: string, params: Params | undefined): boolean {
    if (SAFE_TO_REISSUE.has(method)) return true;
    if (method !== "tools/call" || typeof params?.name !== "string") return false;
    return this.#tools.get(params.name)?.annotations?.idempotentHint === true;
  }

  /** One input request of an InputRequiredResult, answered by the same handlers a legacy server's request reaches. */
  async #fulfil(who: string, request: InputRequest, key: string, signal: AbortSignal | undefined): Promise<JsonObject> {
    const context: IncomingRequestContext = { requestId: key, method: request.method, signal: signal ?? new AbortController().signal };
    try {
      switch (request.method) {
        case "elicitation/create":
          return await this.#elicit(request.params, context, true) as JsonObject;
        case "sampling/createMessage":
          if (this.#sampling === undefined) break;
          return await this.#sampling.run(request.params, this.#context(context)) as JsonObject;
        case "roots/list":
          if (this.#capabilities.roots === undefined) break;
          return { roots: await this.#currentRoots(context) } as JsonObject;
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ProtocolError(`${who}: the server's ${request.method} input request ${JSON.stringify(key)} could not be fulfilled: ${reason}`, "input-failed", {
        cause: error,
      });
    }
    // spec 2026-07-28 mrtr ("Server Requirements" 7): servers MUST NOT ask for what was not declared.
    throw new ProtocolError(
      `${who}: the server asked for ${request.method} (input request ${JSON.stringify(key)}), a capability this client did not declare`,
      "undeclared-capability",
    );
  }

  /** spec 2025-11-25 client/elicitation ("URL Elicitation Required Error"): -32042 carries its elicitations. */
  #surfaceUrlElicitation(method: string, error: unknown): unknown {
    if (!(error instanceof RpcError) || error.code !== ErrorCode.UrlElicitationRequired) return error;
    const elicitations = elicitationsOf(error.data);
    for (const elicitation of elicitations) this.#openElicitations.add(elicitation.elicitationId);
    const urls = elicitations.map((elicitation) => elicitation.url).join(", ");
    return new UrlElicitationRequiredError(
      `${this.#name}: ${method} needs the user to complete ${elicitations.length} URL elicitation(s) first` +
        (urls === "" ? "" : ` (${urls})`) + `: ${error.message}; open them with the user's consent, then retry`,
      elicitations,
      error.data,
    );
  }

  /** Sends any notification. */
  notify(method: string, params?: Params): Promise<void> {
    if (this.#state !== "ready") return Promise.reject(this.#notReady(method));
    return this.#peer!.notify(method, params);
  }

  #requireCapability(capability: keyof ServerCapabilities & string, method: string): void {
    if (this.#state === "ready" && this.#init?.capabilities[capability] === undefined) {
      throw new CapabilityError(
        `${this.#name} did not declare the "${capability}" capability, so it does not accept ${method}`,
        capability,
      );
    }
  }

  #has(capability: keyof ServerCapabilities & string): boolean {
    return this.#init?.capabilities[capability] !== undefined;
  }

  /** spec 2025-11-25 basic/utilities/ping. Allowed while initializing. */
  async ping(options?: RequestOptions): Promise<void> {
    // spec 2026-07-28 changelog: no ping on the modern wire; server/discover, which every
    // modern server MUST answer, tells the same thing.
    await this.request(this.#era === "modern" ? "server/discover" : "ping", undefined, options);
  }

  /**
   * Every page of a list, or the cached list while its ttlMs says it is fresh — spec
   * 2026-07-28 server/utilities/caching. The whole list is kept for the shortest ttlMs of its
   * pages; a server that sends no ttlMs (every legacy server) is never cached.
   */
  async #list<T>(method: string, key: string, options: ListOptions): Promise<T[]> {
    if (options.fresh !== true) {
      const cached = this.#cache.get<T[]>(method);
      if (cached !== undefined) return [...cached];
    }
    let ttl = Infinity;
    const { fresh: _fresh, ...requestOptions } = options;
    const items = await collectPages<T>(
      `${this.#name}: ${method}`,
      method,
      key,
      async (cursor) => {
        const page = await this.request(method, cursor === undefined ? undefined : { cursor }, requestOptions);
        ttl = Math.min(ttl, ttlOf(page));
        return page as JsonObject;
      },
      this.#options.maxPages ?? DEFAULT_MAX_PAGES,
    );
    this.#cache.set(method, [...items], Number.isFinite(ttl) ? ttl : 0);
    return items;
  }

  /**
   * Every tool, all pages followed. [] when the server has no tools capability. On the
   * 2026-07-28 wire a tool whose x-mcp-header annotations break the rules is left out, with
   * a problem event (spec 2026-07-28 streamable-http, "Custom Headers from Tool Parameters").
   */
  async listTools(options: ListOptions = {}): Promise<Tool[]> {
    if (this.#state === "ready" && !this.#has("tools")) return [];
    let tools = await this.#list<Tool>(LIST_KEYS.tools, "tools", options);
    if (this.#era === "modern") {
      tools = tools.filter((tool) => {
        const headers = paramHeadersOf(tool?.inputSchema);
        if (!("problem" in headers)) return true;
        this.#problem(`${this.#name}: tool ${JSON.stringify(tool?.name)} left out: its inputSchema is invalid: ${headers.problem}`);
        return false;
      });
    }
    const byName = new Map<string, Tool>();
    for (const tool of tools) {
      // spec 2025-11-25 schema: Tool requires name (and inputSchema, left to the caller to judge).
      if (typeof tool?.name !== "string") {
        throw new ProtocolError(`${this.#name}: tools/list returned a tool without a name`, "bad-result", { method: "tools/list" });
      }
      byName.set(tool.name, tool);
    }
    this.#tools = byName;
    this.#validators.retain(new Set(byName.keys()));
    return tools;
  }

  /** The tools of the last listTools(), by name. */
  get knownTools(): ReadonlyMap<string, Tool> {
    return this.#tools;
  }

  /**
   * spec 2025-11-25 server/tools ("Calling Tools"). A tool error is a result with
   * `isError: true`; a protocol error throws RpcError. Always carries a progress token,
   * so progress restarts the timeout and reaches onProgress.
   */
  async callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolResult> {
    this.#requireCapability("tools", "tools/call");
    const result = await this.request("tools/call", { name, arguments: args }, {
      timeoutMs: options.timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs,
      signal: options.signal,
      onProgress: options.onProgress,
      progress: true,
    });
    return this.#checkToolResult(name, result);
  }

  #checkToolResult(name: string, result: Params): CallToolResult {
    const who = `${this.#name}: tools/call "${name}"`;
    // spec 2025-11-25 schema (and 2026-07-28, 2025-06-18, 2024-11-05): CallToolResult requires
    // `content`, an array — also beside structuredContent ("SHOULD also return the serialized JSON").
    if (result.content === undefined) {
      throw new ProtocolError(
        `${who} returned a result without "content", which the spec requires (an array, empty if need be); ` +
          `the server is not following the protocol: report it to its authors`,
        "bad-result",
        { method: "tools/call" },
      );
    }
    if (!Array.isArray(result.content)) {
      throw new ProtocolError(`${who} returned "content" that is not an array (${kindOf(result.content)})`, "bad-result", { method: "tools/call" });
    }
    // structuredContent is left as it is: an object up to 2025-11-25, any JSON value from
    // 2026-07-28 on (spec 2026-07-28 schema); an outputSchema judges it below.
    const checked = result as CallToolResult;
    if (checked.isError === true) return checked; // tool errors are not validated
    const schema = this.#tools.get(name)?.outputSchema;
    if (schema === undefined || this.#version === undefined || !featuresOf(this.#version).structuredToolOutput) {
      return checked;
    }
    // spec 2025-11-25 server/tools: with an outputSchema, servers MUST return conforming structuredContent.
    if (checked.structuredContent === undefined) {
      throw new OutputValidationError(
        `${this.#name}: tool "${name}" declares an outputSchema but returned no structuredContent`,
        name,
        [{ path: "", message: "structuredContent is missing" }],
        "missing",
      );
    }
    const outcome = this.#validators.judge(name, schema, checked.structuredContent);
    if (outcome === undefined) return checked;
    if ("unchecked" in outcome) {
      throw new OutputValidationError(
        `${this.#name}: tool "${name}" returned structuredContent that could not be checked against its outputSchema: ` +
          `${outcome.unchecked}; the result is refused (ask the server's authors to return flatter data)`,
        name,
        [{ path: "", message: outcome.unchecked }],
        "unchecked",
      );
    }
    throw new OutputValidationError(
      `${this.#name}: tool "${name}" returned structuredContent that does not match its outputSchema: ` +
        outcome.failures.map((failure) => failure.message).join("; "),
      name,
      outcome.failures,
      "mismatch",
    );
  }

  /** spec 2025-11-25 server/resources ("Listing Resources"). [] without the resources capability. */
  listResources(options: ListOptions = {}): Promise<Resource[]> {
    if (this.#state === "ready" && !this.#has("resources")) return Promise.resolve([]);
    return this.#list<Resource>(LIST_KEYS.resources, "resources", options);
  }

  /** spec 2025-11-25 server/resources ("Resource Templates"). */
  listResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    if (this.#state === "ready" && !this.#has("resources")) return Promise.resolve([]);
    return this.#list<ResourceTemplate>(LIST_KEYS.templates, "resourceTemplates", options);
  }

  /**
   * spec 2025-11-25 server/resources ("Reading Resources"). Not found is ResourceNotFoundError
   * (code -32002 in the handshake era, -32602 on the 2026-07-28 wire). Cached while fresh
   * (ttlMs) unless `fresh`; a notifications/resources/updated for the URI makes it stale.
   */
  async readResource(uri: string, options: ListOptions = {}): Promise<ReadResourceResult> {
    this.#requireCapability("resources", "resources/read");
    const key = `resources/read ${uri}`;
    if (options.fresh !== true) {
      const cached = this.#cache.get<ReadResourceResult>(key);
      if (cached !== undefined) return cached;
    }
    const { fresh: _fresh, ...requestOptions } = options;
    let result: Params;
    try {
      result = await this.request("resources/read", { uri }, requestOptions);
    } catch (error) {
      const notFound = error instanceof RpcError &&
        (error.code === ErrorCode.ResourceNotFound || (this.#era === "modern" && error.code === ErrorCode.InvalidParams));
      if (!notFound) throw error;
      throw new ResourceNotFoundError(`${this.#name}: resources/read: no resource ${JSON.stringify(uri)}: ${error.message}`, error.code, uri, error.data);
    }
    if (!Array.isArray(result.contents)) {
      // spec 2025-11-25 schema: ReadResourceResult requires contents.
      throw new ProtocolError(`${this.#name}: resources/read "${uri}" returned no "contents" array, which the spec requires`, "bad-result", {
        method: "resources/read",
      });
    }
    this.#cache.set(key, result, ttlOf(result));
    return result as ReadResourceResult;
  }

  /** spec 2025-11-25 server/resources ("Subscriptions"). */
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    this.#requireCapability("resources", "resources/subscribe");
    // spec 2025-11-25 server/resources ("Capabilities"): subscribe is optional within resources.
    if (this.#state === "ready" && this.#init?.capabilities.resources?.subscribe !== true) {
      throw new CapabilityError(
        `${this.#name} declares resources without "subscribe", so it does not accept resources/subscribe; read the resource again instead`,
        "resources.subscribe",
      );
    }
    if (this.#era === "modern") {
      // spec 2026-07-28 subscriptions: no resources/subscribe; the URI joins the listen filter.
      this.#subscribed.add(uri);
      this.#updateListen();
      return;
    }
    await this.request("resources/subscribe", { uri }, options);
  }

  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    this.#requireCapability("resources", "resources/unsubscribe");
    if (this.#era === "modern") {
      this.#subscribed.delete(uri);
      this.#updateListen();
      return;
    }
    await this.request("resources/unsubscribe", { uri }, options);
  }

  /** What the listen stream asks for: the list changes the server declares, and the subscribed URIs. */
  #listenFilter(): NotificationFilter {
    const capabilities = this.#init?.capabilities ?? {};
    const filter: NotificationFilter = {};
    if (capabilities.tools?.listChanged === true) filter.toolsListChanged = true;
    if (capabilities.prompts?.listChanged === true) filter.promptsListChanged = true;
    if (capabilities.resources?.listChanged === true) filter.resourcesListChanged = true;
    if (this.#subscribed.size > 0) filter.resourceSubscriptions = [...this.#subscribed];
    return filter;
  }

  /**
   * spec 2026-07-28 basic/patterns/subscriptions: one subscriptions/listen request, open for
   * as long as the connection, whose stream carries the change notifications opted into.
   */
  #startListening(): void {
    if (this.#options.listen === false) return;
    this.#listen = new ListenStream({
      name: this.#name,
      onProblem: (message) => this.#problem(message),
      open: (filter, signal, onId) =>
        this.request("subscriptions/listen", { notifications: filter }, {
          signal,
          onId,
          timeoutMs: Infinity,
          maxTotalTimeoutMs: Infinity,
        }) as Promise<JsonObject>,
    });
    this.#updateListen();
  }

  /** Ends the listen stream, if one is open; resolves when its loop has let go. */
  #stopListening(): Promise<void> {
    const listen = this.#listen;
    this.#listen = undefined;
    return listen?.stop() ?? Promise.resolve();
  }

  #updateListen(): void {
    this.#listen?.update(this.#listenFilter());
  }

  /** spec 2025-11-25 server/prompts ("Listing Prompts"). [] without the prompts capability. */
  listPrompts(options: RequestOptions = {}): Promise<Prompt[]> {
    if (this.#state === "ready" && !this.#has("prompts")) return Promise.resolve([]);
    return collectPages<Prompt>(
      `${this.#name}: prompts/list`,
      "prompts/list",
      "prompts",
      (cursor) => this.request("prompts/list", cursor === undefined ? undefined : { cursor }, options),
      this.#options.maxPages ?? DEFAULT_MAX_PAGES,
    );
  }

  /** spec 2025-11-25 server/prompts ("Getting a Prompt"). Argument values are strings. */
  async getPrompt(name: string, args: Record<string, string> = {}, options: RequestOptions = {}): Promise<GetPromptResult> {
    this.#requireCapability("prompts", "prompts/get");
    const result = await this.request("prompts/get", { name, arguments: args }, options);
    if (!Array.isArray(result.messages)) {
      // spec 2025-11-25 schema: GetPromptResult requires messages.
      throw new ProtocolError(`${this.#name}: prompts/get "${name}" returned no "messages" array, which the spec requires`, "bad-result", {
        method: "prompts/get",
      });
    }
    return result as GetPromptResult;
  }

  /**
   * spec 2025-11-25 server/utilities/completion. `context.arguments` carries values already
   * chosen for other arguments.
   */
  async complete(
    ref: CompleteReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: RequestOptions = {},
  ): Promise<CompleteResult> {
    // Before 2025-03-26 servers did not advertise completion; the method still existed.
    if (this.#version !== undefined && featuresOf(this.#version).completionsCapability) {
      this.#requireCapability("completions", "completion/complete");
    }
    const params: Params = { ref, argument };
    if (context !== undefined) params.context = context;
    const result = await this.request("completion/complete", params, options);
    const completion = result.completion as CompleteResult | undefined;
    if (typeof completion !== "object" || completion === null || !Array.isArray(completion.values)) {
      // spec 2025-11-25 schema: CompleteResult requires completion.values.
      throw new ProtocolError(`${this.#name}: completion/complete returned no "completion.values" array, which the spec requires`, "bad-result", {
        method: "completion/complete",
      });
    }
    return completion;
  }

  /** spec 2025-11-25 server/utilities/logging ("Setting Log Level"). */
  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    if (this.#era === "modern") {
      // spec 2026-07-28 server/utilities/logging: no logging/setLevel; the level travels in
      // every request's _meta (io.modelcontextprotocol/logLevel) from now on.
      this.#logLevel = level;
      return;
    }
    this.#requireCapability("logging", "logging/setLevel");
    await this.request("logging/setLevel", { level }, options);
  }

  /** Modern wire: the log level sent with each request, if one was set. */
  get loggingLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  // --- what the server sends us --------------------------------------------------------

  #installNotificationHandlers(peer: Peer): void {
    // spec 2026-07-28 caching ("Interaction with Notifications"): a change notification makes the cached list stale.
    peer.setNotificationHandler("notifications/tools/list_changed", () => {
      this.#cache.delete(LIST_KEYS.tools);
      this.emit("toolslistchanged", undefined);
    });
    peer.setNotificationHandler("notifications/resources/list_changed", () => {
      this.#cache.delete(LIST_KEYS.resources);
      this.#cache.delete(LIST_KEYS.templates);
      this.emit("resourceslistchanged", undefined);
    });
    peer.setNotificationHandler("notifications/prompts/list_changed", () => {
      this.#cache.delete(LIST_KEYS.prompts);
      this.emit("promptslistchanged", undefined);
    });
    peer.setNotificationHandler("notifications/resources/updated", (params) => {
      if (typeof params?.uri === "string") {
        this.#cache.delete(`resources/read ${params.uri}`);
        this.emit("resourceupdated", { uri: params.uri });
      } else {
        this.#problem(`${this.#name}: notifications/resources/updated without a "uri"; ignored`);
      }
    });
    // spec 2026-07-28 subscriptions ("Acknowledgment"): the first message of a listen stream.
    peer.setNotificationHandler("notifications/subscriptions/acknowledged", (params) => {
      const listen = this.#listen;
      const id = (params?._meta as JsonObject | undefined)?.[META_SUBSCRIPTION_ID];
      if (listen === undefined || !listen.acknowledged(id)) return; // a stream already replaced
      const missing = missingFromAcknowledgment(listen.filter, params?.notifications);
      if (missing.length > 0) {
        this.#problem(
          `${this.#name}: subscription ${JSON.stringify(id)} was acknowledged without ${missing.join(", ")}; those changes will not be notified`,
        );
      }
    });
    peer.setNotificationHandler("notifications/message", (params) => {
      if (typeof params?.level !== "string") {
        this.#problem(`${this.#name}: notifications/message without a "level"; ignored`);
        return;
      }
      const message: LogMessage = { level: params.level as LoggingLevel, data: params.data };
      if (typeof params.logger === "string") message.logger = params.logger;
      // spec 2025-11-25 basic/lifecycle: servers may log before `initialized`; those messages
      // are kept (the last logBufferSize of them) until someone listens.
      if (this.#logListeners === 0 && this.#state !== "ready") {
        this.#keepEarlyLog(message);
        return;
      }
      this.emit("log", message);
    });
    peer.setNotificationHandler("notifications/elicitation/complete", (params) => {
      const id = params?.elicitationId;
      // spec 2025-11-25 client/elicitation ("Completion Notifications"): MUST ignore unknown or completed ids.
      if (typeof id !== "string" || !this.#openElicitations.delete(id)) return;
      this.emit("elicitationcomplete", { elicitationId: id });
    });
  }

  #keepEarlyLog(message: LogMessage): void {
    const size = this.#options.logBufferSize ?? DEFAULT_LOG_BUFFER_SIZE;
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
    const size = this.#options.logBufferSize ?? DEFAULT_LOG_BUFFER_SIZE;
    const excess = Math.max(0, this.#earlyLogs.length - size);
    const kept = this.#earlyLogs.slice(excess);
    const dropped = this.#earlyLogsDropped + excess;
    this.#earlyLogs = [];
    this.#earlyLogsDropped = 0;
    if (dropped > 0) {
      this.#problem(`${this.#name}: ${dropped} log message(s) sent before anyone listened were dropped; kept the last ${kept.length}`);
    }
    for (const message of kept) {
      try {
        listener(message);
      } catch (error) {
        this.listenerFailed({ type: "log", error });
      }
    }
  }

  // --- what the server asks us ---------------------------------------------------------

  #context(context: IncomingRequestContext): HandlerContext {
    return { server: this.#name, signal: context.signal, requestId: context.requestId };
  }

  #installRequestHandlers(peer: Peer): void {
    const handlers = this.#options.handlers ?? {};
    // Always answered: an undeclared mode gets -32602 (spec 2025-11-25 client/elicitation "Error Handling").
    peer.setRequestHandler("elicitation/create", (params, context) => this.#elicit(params, context));
    const sampling = this.#sampling;
    if (sampling !== undefined) {
      peer.setRequestHandler("sampling/createMessage", async (params, context) =>
        (await sampling.run(params, this.#context(context))) as Params);
    }
    if (this.#capabilities.roots !== undefined) {
      // spec 2025-11-25 client/roots ("Listing Roots").
      peer.setRequestHandler("roots/list", async (_params, context) => ({ roots: await this.#currentRoots(context) }));
    }
  }

  async #currentRoots(context: IncomingRequestContext): Promise<Root[]> {
    const handler = this.#options.handlers?.roots;
    return handler !== undefined ? toRoots(await handler(this.#context(context))) : this.#roots ?? [];
  }

  /** `modern`: an input request of the 2026-07-28 wire, where URL mode has no elicitationId. */
  async #elicit(params: Params | undefined, context: IncomingRequestContext, modern = false): Promise<Params> {
    const who = `${this.#name}: elicitation/create`;
    const handlers = this.#options.handlers?.elicitation ?? {};
    // spec 2025-11-25 client/elicitation: a request without `mode` is form mode.
    const mode = params?.mode ?? "form";
    const declared = this.#capabilities.elicitation;
    if (mode !== "form" && mode !== "url") {
      throw new RpcError(ErrorCode.InvalidParams, `${who}: unknown mode ${JSON.stringify(mode)}; this client supports "form" and "url"`);
    }
    if (declared?.[mode] === undefined) {
      const modes = Object.keys(declared ?? {});
      throw new RpcError(
        ErrorCode.InvalidParams,
        `${who}: this client did not declare ${mode}-mode elicitation` +
          (modes.length === 0 ? " (it declares no elicitation)" : ` (it declares: ${modes.join(", ")})`),
      );
    }
    const message = typeof params?.message === "string" ? params.message : "";
    if (mode === "url") {
      const url = params?.url;
      const elicitationId = params?.elicitationId;
      if (typeof url !== "string" || !URL.canParse(url)) {
        throw new RpcError(ErrorCode.InvalidParams, `${who}: url mode needs a valid "url" (got ${JSON.stringify(url)})`);
      }
      if (typeof elicitationId !== "string" && !modern) {
        throw new RpcError(ErrorCode.InvalidParams, `${who}: url mode needs an "elicitationId"`);
      }
      if (typeof elicitationId === "string") this.#openElicitations.add(elicitationId);
      // spec 2025-11-25 client/elicitation ("Safe URL Handling"): nothing is prefetched; the handler gets the full URL.
      const request = { url, host: new URL(url).host, message, ...(typeof elicitationId === "string" ? { elicitationId } : {}) };
      const result = this.#checkedElicitResult(who, await handlers.url!(request, this.#context(context)));
      if (result.action !== "accept" && typeof elicitationId === "string") this.#openElicitations.delete(elicitationId);
      const { content: _content, ...rest } = result; // content belongs to form mode only
      return rest;
    }
    const problem = checkRequestedSchema(params?.requestedSchema);
    if (problem !== undefined) {
      throw new RpcError(ErrorCode.InvalidParams, `${who}: the requestedSchema is outside the restricted form: ${problem}`);
    }
    const requestedSchema = params!.requestedSchema as ElicitationSchema;
    const request = { mode: "form" as const, message, requestedSchema, ...(params?._meta !== undefined ? { _meta: params._meta as JsonObject } : {}) };
    const result = this.#checkedElicitResult(who, await handlers.form!(request, this.#context(context)));
    if (result.action !== "accept") {
      const { content: _content, ...rest } = result;
      return rest;
    }
    // SEP-1034 (spec 2025-11-25 client/elicitation "Requested Schema"): defaults fill omitted fields.
    const content = applyDefaults(requestedSchema, result.content);
    const failures = validateAnswer(requestedSchema, content);
    if (failures !== undefined) {
      this.#problem(`${who}: the elicitation handler's answer was not sent: ${failures.join("; ")}`);
      throw new RpcError(
        ErrorCode.InternalError,
        `${who}: the client's answer does not match the requestedSchema (${failures.join("; ")}); it was not sent`,
      );
    }
    return { ...result, content };
  }

  #checkedElicitResult(who: string, result: unknown): ElicitResult {
    const checked = checkElicitResult(result);
    if (typeof checked === "string") throw new RpcError(ErrorCode.InternalError, `${who}: ${checked}; nothing was sent`);
    return checked;
  }

  /**
   * Replaces the static roots and tells the server — spec 2025-11-25 client/roots ("Root
   * List Changes"). Needs the roots capability (a `roots` list or handler at construction).
   */
  async setRoots(roots: RootInput[]): Promise<void> {
    if (this.#capabilities.roots === undefined) {
      throw new ClientStateError(
        "setRoots(): this client did not declare roots; pass `roots` or `handlers.roots` to new Client() to offer roots",
        this.#state,
      );
    }
    this.#roots = toRoots(roots);
    // spec 2026-07-28 changelog: no roots list_changed on the modern wire; servers ask again (MRTR).
    if (this.#state === "ready" && this.#era !== "modern") await this.notify("notifications/roots/list_changed");
  }

  /** The static roots list (what roots/list answers without a roots handler). */
  get roots(): readonly Root[] | undefined {
    return this.#roots;
  }
}

export const DEFAULT_LOG_BUFFER_SIZE = 1000;

/** A duration for a person: "3 s", "1.5 s", "250 ms". */
function durationText(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`;
}

/**
 * The promise, or `onTimeout()` as a rejection once `ms` passed first. The promise's own
 * later rejection is then ignored (the caller has moved on and closes what it waited on).
 */
function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  // setTimeout holds 2^31 - 1 ms at most; beyond that (Infinity too) there is no bound.
  if (ms >= 2 ** 31 - 1) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  promise.catch(() => {});
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What kind of JSON value this is, for error messages: "a string", "null", "an array". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** What a listener threw, as text; never throws itself (a thrown value's toString may). */
function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return "a value that cannot be shown";
  }
}

/** The typed error for the 2026-07-28 error codes (spec 2026-07-28 basic/index "Error Codes"); others unchanged. */
function typedRpcError(error: unknown): unknown {
  if (!(error instanceof RpcError) || error.constructor !== RpcError) return error;
  switch (error.code) {
    case -32020:
      return new HeaderMismatchError(error.message, error.data);
    case -32021:
      return new MissingClientCapabilityError(error.message, error.data);
    case -32022:
      return new UnsupportedProtocolVersionError(error.message, error.data);
    default:
      return error;
  }
}

/**
 * What a failed server/discover tells about a server that is not modern — spec 2026-07-28
 * basic/versioning: a JSON-RPC error (any code but the modern ones), no answer in time, or
 * an HTTP 4xx without a modern error body. Other failures are failures.
 */
function meansLegacy(error: unknown): boolean {
  if (error instanceof RpcError || error instanceof RequestTimeoutError) return true;
  if (!(error instanceof TransportError) || error.code !== "http-status") return false;
  const status = (error as TransportError & { status?: unknown }).status;
  return typeof status === "number" && status >= 400 && status < 500;
}

/**
 * Whether `transport` is (or wraps: a TracingTransport, an AutoHttpTransport that chose sse) the
 * legacy HTTP+SSE transport, which carries only the handshake era — spec 2024-11-05
 * basic/transports ("HTTP with SSE"); the 2026-07-28 wire needs Streamable HTTP or stdio.
 */
function carriesHandshakeOnly(transport: Transport): boolean {
  for (let current: Transport | undefined = transport; current !== undefined; current = (current as { inner?: Transport }).inner) {
    if (current instanceof SseLegacyTransport) return true;
  }
  return false;
}

/** Why the probe did not find a modern server, in a few words. */
function describeProbeFailure(error: unknown): string {
  if (error instanceof RpcError) return `error ${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The capabilities a client declares: those its handlers answer, merged with the explicit
 * `capabilities` option, which cannot claim a handler it does not have.
 */
function declaredCapabilities(options: ClientOptions): ClientCapabilities {
  const handlers = options.handlers ?? {};
  const explicit = options.capabilities ?? {};
  const declared: ClientCapabilities = { ...explicit };
  const refuse = (what: string, fix: string): never => {
    throw new TypeError(`new Client(): the capabilities option declares ${what} but ${fix}`);
  };

  if (handlers.sampling !== undefined) {
    const tools = options.sampling?.tools === true;
    if (explicit.sampling?.tools !== undefined && !tools) refuse("sampling.tools", "the sampling policy does not allow tools; set sampling: { tools: true }");
    declared.sampling = { ...explicit.sampling, ...(tools ? { tools: {} } : {}) };
  } else if (explicit.sampling !== undefined) {
    refuse("sampling", "there is no handlers.sampling; give a sampling handler");
  }

  const elicitation = handlers.elicitation ?? {};
  if (explicit.elicitation !== undefined) {
    // spec 2025-11-25 client/elicitation ("Capabilities"): an empty object means form mode.
    const modes = Object.keys(explicit.elicitation).length === 0 ? ["form"] : Object.keys(explicit.elicitation);
    for (const mode of modes) {
      if ((mode === "form" || mode === "url") && elicitation[mode] === undefined) {
        refuse(`elicitation.${mode}`, `there is no handlers.elicitation.${mode}; give a ${mode}-mode elicitation handler`);
      }
    }
  }
  if (elicitation.form !== undefined || elicitation.url !== undefined) {
    declared.elicitation = {
      ...(elicitation.form !== undefined ? { form: {} } : {}),
      ...(elicitation.url !== undefined ? { url: {} } : {}),
    };
  } else {
    delete declared.elicitation;
  }

  // Roots need no human or model: declared without a list or handler, roots/list answers
  // the static list, empty until setRoots().
  if (handlers.roots !== undefined || options.roots !== undefined || explicit.roots !== undefined) {
    declared.roots = { ...explicit.roots, listChanged: true };
  }
  return declared;
}
