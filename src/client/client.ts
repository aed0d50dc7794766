// The MCP client: its state, connect and close, and the typed methods — spec 2025-11-25
// basic/lifecycle, server/tools, server/resources, server/prompts, server/utilities/completion,
// server/utilities/logging; client/roots (setRoots). Dual-era: the 2026-07-28 stateless wire
// (spec 2026-07-28 basic/versioning, basic/patterns/subscriptions, server/utilities/caching)
// beside the initialize handshake, chosen per server. The parts live beside it:
// negotiation.ts (era, probe, handshake), modern-request.ts (the stateless request loop),
// server-requests.ts and server-notifications.ts (what the server asks and tells),
// client-events.ts, client-options.ts.

import { ContainedEventTarget, type ListenerFailure } from "../common/events.ts";
import { errorOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { checkOptions } from "../common/options.ts";
import { type CloseDetails, ConnectionClosedError, describeClose, ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, type Params, Peer, type RequestOptions } from "../jsonrpc/peer.ts";
import { within } from "../common/timing.ts";
import { type ClientTransport, UndeliverableMessageError } from "../transport/transport.ts";
import type { ClientEvents, ClientEventType } from "./client-events.ts";
import { type CallOptions, CLIENT_OPTIONS, type ClientOptions, declaredCapabilities, type ListOptions, modernCapabilities } from "./client-options.ts";
import { canMove, type ClientState, notReadyError } from "./client-state.ts";
import { surfaceUrlElicitation } from "./elicitation.ts";
import { EXTENSIONS, negotiatedExtension } from "./extensions.ts";
import {
  CapabilityError,
  ClientStateError,
  ProtocolError,
  ResourceNotFoundError,
  typedRpcError,
} from "./errors.ts";
import { DEFAULT_MAX_INPUT_ROUNDS } from "./input-requests.ts";
import { modernRequest, type ModernWire, withRequestMeta } from "./modern-request.ts";
import { DEFAULT_DISCOVER_TIMEOUT_MS, handshakeAgain, Negotiation } from "./negotiation.ts";
import { OutputValidators } from "./output-validator.ts";
import { cachedPages, collectPages, DEFAULT_MAX_PAGES } from "./pagination.ts";
import {
  featuresOf,
  LATEST_PROTOCOL_VERSION,
  type ProtocolEra,
  type ProtocolVersion,
} from "./protocol-version.ts";
import type { RequestMeta } from "./request-meta.ts";
import { LIST_KEYS, readKey, ResultCache, ttlOf } from "./result-cache.ts";
import { type RootInput, toRoots } from "./roots.ts";
import { SamplingGate } from "./sampling.ts";
import { loadJsonSchema } from "./json-schema.ts";
import { checkToolResult, indexTools } from "./tools.ts";
import { DEFAULT_LOG_BUFFER_SIZE, ServerNotifications } from "./server-notifications.ts";
import { ServerRequests } from "./server-requests.ts";
import { Subscriptions } from "./subscriptions.ts";
import { explainMissingCapability, TaskCalls } from "./tasks/task-calls.ts";
import type { TaskInfo, TaskWire, ToolTask } from "./tasks/tasks.ts";
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteReference,
  CompleteResult,
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

/** The options of `new Client()`, beside the class they configure. */
export type { ClientOptions } from "./client-options.ts";

/** How long close() waits for the notifications/cancelled of the listen stream to be written. */
const LISTEN_CANCEL_MS = 1000;

/** Methods allowed while initializing — spec 2025-11-25 basic/lifecycle: only ping before the result. */
const ALLOWED_BEFORE_READY = new Set(["ping"]);

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
  #transport: ClientTransport | undefined;
  #peer: Peer | undefined;
  #name = "server";
  #init: InitializeResult | undefined;
  #version: ProtocolVersion | undefined;
  /** Which wire this connection speaks, once connect() has found out. */
  #era: ProtocolEra | undefined;
  /** Modern wire: the level sent in each request's _meta (no logging/setLevel there). */
  #logLevel: LoggingLevel | undefined;
  /** Modern wire: the listen stream and the resources subscribed to, which its filter carries. */
  readonly #subscriptions = new Subscriptions();
  /** Results kept while their ttlMs says they are fresh (spec 2026-07-28 caching). */
  readonly #cache = new ResultCache();
  /** The last full tool listing, by name: where outputSchemas are looked up. */
  #tools = new Map<string, Tool>();
  #closing: Promise<void> | undefined;
  readonly #validators = new OutputValidators((message) => this.#problem(`${this.#name}: ${message}`));
  readonly #capabilities: ClientCapabilities;
  /** The same, as the 2026-07-28 wire has them (client-options.ts modernCapabilities). */
  readonly #modernCapabilities: ClientCapabilities;
  #roots: Root[] | undefined;
  /** URL-mode elicitation ids we saw and that have not completed. */
  readonly #openElicitations = new Set<string>();
  readonly #serverRequests: ServerRequests;
  readonly #serverNotifications: ServerNotifications;
  /** The 2026-07-28 request loop's view of this client, once connected on that wire. */
  #modernWire: ModernWire | undefined;
  /** Tool calls that may run as tasks, and tasks by id (tasks/task-calls.ts). */
  readonly #tasks: TaskCalls;
  /** The era negotiation of connect(), while it runs. */
  #negotiation: Negotiation | undefined;
  /**
   * What a tool result is checked for at the negotiated version (#setVersion): whether an
   * outputSchema applies (2025-06-18 on), and the version when structuredContent must be an object.
   */
  #structuredOutput = false;
  #objectOnly: ProtocolVersion | undefined;
  /**
   * 2025-11-25 tasks ("Tool-Level Negotiation"): the server declares tasks.requests.tools.call,
   * so a tools/call goes through the tasks extension (tasks/task-calls.ts), which decides per tool.
   */
  #taskCalls = false;
  /** tools/call and ping requests answered with a result (answeredCalls). */
  #answered = 0;
  /** How the connection ended while connect() ran: connect() fails with it, in its own words. */
  #lostWhileConnecting: CloseDetails | undefined;

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    super();
    checkOptions("Client", options, CLIENT_OPTIONS);
    this.clientInfo = clientInfo;
    this.#options = options;
    this.#roots = options.roots === undefined ? undefined : toRoots(options.roots);
    this.#capabilities = declaredCapabilities(options);
    this.#modernCapabilities = modernCapabilities(this.#capabilities);
    const sampling = options.handlers?.sampling;
    const name = () => this.#name;
    this.#serverRequests = new ServerRequests({
      handlers: options.handlers ?? {},
      capabilities: this.#capabilities,
      sampling: sampling === undefined ? undefined : new SamplingGate(sampling, options.sampling),
      roots: () => this.#roots,
      name,
      openElicitations: this.#openElicitations,
      taskReceiver: options.taskReceiver,
      onProblem: (message) => this.#problem(message),
    });
    this.#serverNotifications = new ServerNotifications({
      emit: (type, detail) => this.emit(type, detail),
      name,
      cache: this.#cache,
      listen: () => this.#subscriptions.stream,
      openElicitations: this.#openElicitations,
      ready: () => this.#state === "ready",
      logBufferSize: options.logBufferSize ?? DEFAULT_LOG_BUFFER_SIZE,
      listenerFailed: (error) => this.listenerFailed({ type: "log", error }),
      taskHint: (params) => this.#tasks.hint(params),
    });
    this.#tasks = new TaskCalls({
      wire: () => this.#taskWire(),
      tool: (tool) => this.#tools.get(tool),
      listTools: () => this.listTools({ fresh: true }),
      capabilities: () => this.#init?.capabilities,
      defaultLifeMs: () => this.#options.maxTotalTimeoutMs,
    });
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

  /**
   * The server's settings of an extension when both sides declared it, else undefined —
   * spec 2026-07-28 basic/versioning ("Extension Negotiation"). See `EXTENSIONS`.
   */
  extension(id: string): JsonObject | undefined {
    return negotiatedExtension(this.#capabilities.extensions ?? {}, this.#init?.capabilities, id);
  }

  get instructions(): string | undefined {
    return this.#init?.instructions;
  }

  /** The transport this client was connected with. */
  get transport(): ClientTransport | undefined {
    return this.#transport;
  }

  /**
   * Typed listener; returns a function that removes it. The first `log` listener also gets
   * the log messages that arrived before `ready` while nobody listened.
   */
  override on<K extends ClientEventType>(type: K, listener: (detail: ClientEvents[K]) => void): () => void {
    const off = super.on(type, listener);
    if (type !== "log") return off;
    const removed = this.#serverNotifications.logListenerAdded(listener as (detail: LogMessage) => void);
    return () => {
      removed();
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

  /** #problem as a value, made once (handed to every tool result's check). */
  readonly #reportProblem = (message: string): void => this.#problem(message);

  #move(to: ClientState, cause?: Error): void {
    const from = this.#state;
    if (from === to || !canMove(from, to)) return;
    this.#state = to;
    if (to === "failed") this.#failure = cause;
    this.emit("statechange", cause ? { from, to, cause } : { from, to });
  }

  // --- connect and close ---------------------------------------------------------------

  /**
   * Starts the transport and settles the era: the server/discover probe and, for a server of
   * the handshake era, the initialize handshake — spec 2025-11-25 basic/lifecycle
   * ("Initialization"), spec 2026-07-28 basic/versioning. Resolves once the client is `ready`.
   * A close() while connecting ends it `closed` and rejects with a ClientStateError.
   */
  async connect(transport: ClientTransport, options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#state !== "new") {
      throw new ClientStateError(`connect() was already called (state: ${this.#state}); create a new Client to connect again`, "already-connected", { state: this.#state });
    }
    this.#transport = transport;
    this.#name = this.#options.name !== undefined ? `server "${this.#options.name}"` : transport.description;
    const peer = this.#attach(transport);
    // initializeTimeoutMs bounds the whole connect; each step gets what is left of it.
    const budgetMs = this.#options.initializeTimeoutMs ?? this.#options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const negotiation = new Negotiation({
      name: this.#name,
      peer,
      transport,
      choice: this.#options.protocol ?? "auto",
      eraCache: this.#options.eraCache !== undefined && transport.serverKey !== undefined
        ? { cache: this.#options.eraCache, key: transport.serverKey }
        : undefined,
      discoverTimeoutMs: this.#options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS,
      budgetMs,
      deadline: Date.now() + budgetMs,
      signal: options.signal,
      closing: () => this.#closing !== undefined,
      proceed: () => this.#proceed(),
      modernParams: (version) => this.#modernParams(undefined, version),
      initializeParams: this.#initializeParams(),
      restart: () => this.#restart(),
      found: (init) => this.#found(init),
      handshaking: () => {
        this.#era = "legacy";
        this.#move("initializing");
      },
      onProblem: (message) => this.#problem(message),
    });

    this.#move("connecting");
    this.#negotiation = negotiation;
    let started = false;
    try {
      await transport.start();
      started = true;
      // close() may have been called while the transport was starting, or the server died.
      this.#proceed();
      this.#era = await negotiation.run();
      this.#proceed();
      if (this.#era === "legacy" && this.#init !== undefined) this.#taskCalls = declaresTaskCalls(this.#init);
    } catch (error) {
      // close() while connecting is the caller's choice, not a failure: it ends `closed`.
      if (this.#closing !== undefined) {
        await this.#closing.catch(() => {});
        throw new ClientStateError(`connect() to ${this.#name} did not finish: close() was called while it was connecting`, "closed-while-connecting", { state: this.#state });
      }
      const cause = errorOf(error);
      // After a restart (negotiation.ts) the peer and transport are the new ones.
      this.#peer?.close({ reason: started ? `${negotiation.step} failed: ${cause.message}` : `could not start: ${cause.message}` });
      this.#move("failed", cause);
      if (started) await this.#transport?.close().catch(() => {});
      throw cause;
    } finally {
      this.#negotiation = undefined;
    }
    if (this.#era === "modern") this.#modernWire = this.#modernWireOf(this.#peer!);
    this.#move("initializing");
    this.#move("ready");
    if (this.#era === "modern") this.#startListening();
  }

  /** The server's initialize result (or discover result): its capabilities and version. */
  #found(init: InitializeResult): void {
    this.#init = init;
    this.#setVersion(init.protocolVersion as ProtocolVersion);
    if (this.#era === "legacy") this.#taskCalls = declaresTaskCalls(init);
  }

  /** The negotiated version, and what it says about tool results (read on every call). */
  #setVersion(version: ProtocolVersion): void {
    this.#version = version;
    // Structured output came with 2025-06-18; before it an outputSchema means nothing.
    const features = featuresOf(version);
    this.#structuredOutput = features.structuredToolOutput === true;
    this.#objectOnly = this.#structuredOutput && !features.anyJsonStructuredContent ? version : undefined;
    if (this.#modernWire !== undefined) this.#modernWire.meta = this.#requestMeta();
  }

  /** The per-request protocol fields of the 2026-07-28 wire, as they are now. */
  #requestMeta(): RequestMeta {
    return { protocolVersion: this.#version!, capabilities: this.#modernCapabilities, clientInfo: this.clientInfo, logLevel: this.#logLevel };
  }

  /** What the 2026-07-28 request loop (modern-request.ts) needs of this client. */
  #modernWireOf(peer: Peer): ModernWire {
    return {
      name: this.#name,
      peer,
      maxInputRounds: this.#options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      meta: this.#requestMeta(),
      retryWith: (version) => {
        this.#setVersion(version);
        this.#transport?.setProtocolVersion?.(version);
      },
      relistTools: () => this.listTools({ fresh: true }),
      idempotentTool: (tool) => this.#tools.get(tool)?.annotations?.idempotentHint === true,
      fulfil: (who, request, key, signal) => this.#serverRequests.fulfil(who, request, key, signal),
      onProblem: (message) => this.#problem(message),
      // tasks extension ("Supported Methods"): a task result only for tools/call, only when declared.
      taskMethods: this.#capabilities.extensions?.[EXTENSIONS.tasks] !== undefined ? new Set(["tools/call"]) : new Set(),
    };
  }

  /** What tasks (tasks/task-calls.ts, tasks/tool-task.ts) need of this client, made once: its getters and functions read the client's state when called. */
  #wire: TaskWire | undefined;
  #taskWire(): TaskWire {
    return this.#wire ??= this.#makeTaskWire();
  }
  #makeTaskWire(): TaskWire {
    // deno-lint-ignore no-this-alias -- the getters below read the client's private fields
    const client = this;
    return {
      get name() {
        return client.#name;
      },
      get era() {
        return client.#era === "modern" ? "modern" : "legacy";
      },
      request: (method, params, options) => this.request(method, params, options),
      fulfil: (who, request, key, signal) => this.#serverRequests.fulfil(who, request, key, signal),
      finish: (result, tool) => this.#toolResult(tool, result),
      canCancel: () => this.#era === "modern" || this.#init?.capabilities.tasks?.cancel !== undefined,
      watch: (taskId, wake) => {
        const unwatch = this.#tasks.watch(taskId, wake);
        if (this.#era !== "modern") return unwatch;
        // tasks extension ("Task Status Notifications"): the task id joins the listen filter.
        this.#subscriptions.watchTask(taskId);
        return () => {
          unwatch();
          this.#subscriptions.unwatchTask(taskId);
        };
      },
      emit: (update) => this.emit("taskStatus", this.#options.name === undefined ? update : { ...update, server: this.#options.name }),
      onProblem: (message) => this.#problem(message),
    };
  }

  /** A new Peer on `transport`, with this client's handlers and the transport's events wired to it. */
  #attach(transport: ClientTransport): Peer {
    const peer = new Peer({
      name: this.#name,
      // The transport's own send, bound: no closure of ours between the peer and the transport.
      send: transport.send.bind(transport),
      defaultTimeoutMs: this.#options.requestTimeoutMs,
      maxTotalTimeoutMs: this.#options.maxTotalTimeoutMs,
      onProblem: (message) => this.#problem(message),
      mapError: (method, error) => surfaceUrlElicitation(`${this.#name}: ${method}`, typedRpcError(error), this.#openElicitations),
    });
    this.#peer = peer;
    this.#serverNotifications.install(peer);
    this.#serverRequests.install(peer);
    transport.onmessage = peer.receive.bind(peer);
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
    return peer;
  }

  /**
   * The server exited on the server/discover probe (negotiation.ts): the same server on a fresh
   * transport, with a new Peer. The new transport is this client's at once, so a close() from
   * now on closes it (and a start() after that close is refused).
   */
  async #restart(): Promise<{ peer: Peer; transport: ClientTransport }> {
    const old = this.#transport!;
    const transport = old.fresh?.();
    if (transport === undefined) throw new ClientStateError(`${this.#name}: its transport cannot start the server again`, "cannot-restart", { state: this.#state });
    old.onmessage = undefined;
    old.onerror = undefined;
    old.onclose = undefined;
    this.#transport = transport;
    const peer = this.#attach(transport);
    await old.close().catch(() => {}); // reaps what the exited process left behind
    this.#proceed();
    await transport.start();
    return { peer, transport };
  }

  /** Throws when connect() cannot go on: close() was called, or the connection ended under it. */
  #proceed(): void {
    if (this.#closing !== undefined) throw new ClientStateError(`close() was called while connecting to ${this.#name}`, "closed-while-connecting", { state: this.#state });
    if (this.#state !== "connecting" && this.#state !== "initializing") throw this.#notReady("initialize");
    const lost = this.#lostWhileConnecting;
    if (lost !== undefined) throw new ConnectionClosedError(`${this.#name}: connection closed: ${describeClose(lost)}`, { details: lost });
  }

  /** The params of a modern request: the per-request protocol fields in `_meta`. */
  #modernParams(params: Params | undefined, version: string, extra?: Params): Params {
    return withRequestMeta(params, {
      protocolVersion: version,
      capabilities: this.#modernCapabilities,
      clientInfo: this.clientInfo,
      logLevel: this.#logLevel,
    }, extra);
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
   * 2025-11-25 basic/transports ("Session Management" 4). The transport holds every other
   * send until this settles, and closes if it rejects.
   */
  async #startNewSession(peer: Peer, transport: ClientTransport): Promise<void> {
    if (this.#state !== "ready") {
      throw new ClientStateError(`${this.#name} ended the session while the client was ${this.#state}`, "session-ended", { state: this.#state });
    }
    this.#problem(`${this.#name}: the server ended the session; starting a new one (initialize again)`);
    this.#found(await handshakeAgain(this.#name, peer, transport, this.#initializeParams(), this.#options.initializeTimeoutMs));
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
    await this.#cancelListen();
    // The peer closes next: every pending request, the listen request included, ends here,
    // so stopping the listen stream sends no second notifications/cancelled into a transport
    // that is closing (a close the user asked for reports nothing).
    this.#peer?.close({ reason: "closed by the client" });
    this.#serverRequests.close("the client closed the connection");
    await this.#subscriptions.stop();
    try {
      await transport.close();
    } finally {
      this.#move("closed");
    }
  }

  /**
   * spec 2026-07-28 basic/patterns/subscriptions ("Cancellation"): the client ends its listen
   * stream with notifications/cancelled naming the listen request (on HTTP the transport
   * closes that request's stream instead), before the connection closes — on stdio before
   * stdin closes (basic/transports/stdio "Shutdown"), so a server that waits for its listens
   * to end exits at once instead of at SIGTERM. Bounded; a send that fails is not reported:
   * the connection is going anyway.
   */
  async #cancelListen(): Promise<void> {
    const id = this.#subscriptions.release();
    const peer = this.#peer;
    if (id === undefined || peer === undefined || this.#era !== "modern") return;
    const sent = peer.notify("notifications/cancelled", { requestId: id, reason: "the client is closing the connection" });
    await within(sent.catch(() => {}), LISTEN_CANCEL_MS);
  }

  #onTransportClose(details: CloseDetails): void {
    // The transport is gone: close the peer before the listen stream, which then has nothing to cancel.
    this.#peer?.close(details);
    const connecting = this.#negotiation !== undefined && this.#closing === undefined &&
      (this.#state === "connecting" || this.#state === "initializing");
    // The server exited on the era probe: the negotiation starts it again, the connect goes on.
    if (connecting && this.#negotiation?.restartsOnClose === true) return;
    this.#serverRequests.close(`the connection closed (${describeClose(details)})`);
    void this.#subscriptions.stop();
    if (connecting) {
      // connect() fails with the step that met the close (negotiation.ts says how the server ended).
      this.#lostWhileConnecting = details;
      return;
    }
    if (this.#state === "closing" || this.#state === "closed" || this.#state === "failed") return;
    this.#move("failed", new ConnectionClosedError(`${this.#name}: connection closed: ${describeClose(details)}`, { details }));
  }

  // --- requests ------------------------------------------------------------------------

  #notReady(method: string): Error {
    return notReadyError(method, this.#state, this.#name, this.#failure);
  }

  /** Why a request cannot go out now: the host's reason (ClientOptions.unavailable) if it has one, else the client's. */
  #refused(method: string): Error {
    return (this.#state !== "ready" ? this.#options.unavailable?.(this.#state) : undefined) ?? this.#notReady(method);
  }

  /** Sends any request; for methods the typed helpers do not cover. */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Params> {
    const ready = this.#state === "ready" || (this.#state === "initializing" && ALLOWED_BEFORE_READY.has(method));
    if (!ready) return Promise.reject(this.#refused(method));
    // Its errors are typed by the peer's mapError (connect()).
    const answer = this.#modernWire !== undefined
      ? modernRequest(this.#modernWire, method, params, options ?? {})
      : this.#peer!.request(method, params, options);
    if (method !== "tools/call" && method !== "ping") return answer;
    return answer.then((result) => {
      this.#answered++;
      return result;
    });
  }

  /**
   * tools/call and ping requests answered with a result on this connection (a tool error
   * counts: the server answered). A host reads it as proof that the session is healthy.
   */
  get answeredCalls(): number {
    return this.#answered;
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
        { capability },
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

  /** Every page of a list, or the cached list while fresh (pagination.ts cachedPages). */
  #list<T>(method: string, key: string, options: ListOptions): Promise<T[]> {
    const { fresh, ...requestOptions } = options;
    return cachedPages<T>(
      this.#cache,
      `${this.#name}: ${method}`,
      method,
      key,
      (cursor) => this.request(method, cursor === undefined ? undefined : { cursor }, requestOptions),
      { fresh: fresh === true, maxPages: this.#options.maxPages ?? DEFAULT_MAX_PAGES },
    );
  }

  /**
   * Every tool, all pages followed. [] when the server has no tools capability. On the
   * 2026-07-28 wire a tool whose x-mcp-header annotations break the rules is left out, with
   * a problem event (spec 2026-07-28 streamable-http, "Custom Headers from Tool Parameters").
   */
  async listTools(options: ListOptions = {}): Promise<Tool[]> {
    if (this.#state === "ready" && !this.#has("tools")) return [];
    const listed = await this.#list<Tool>(LIST_KEYS.tools, "tools", options);
    const { tools, byName } = indexTools(this.#name, listed, this.#era === "modern", (message) => this.#problem(message));
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
   * so progress restarts the timeout and reaches onProgress. When the server runs the call
   * as a task (spec 2025-11-25 basic/utilities/tasks; the 2026-07-28 tasks extension) it is
   * polled to its final result; see CallOptions.task, onTaskStatus and timeoutMs.
   */
  callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolResult> {
    // The plain path (no async frame, no task code): the request straight to the peer (or the
    // 2026-07-28 request loop), the answer checked here. Tasks start only when the server
    // runs tools/call as tasks (2025-11-25), the tool requires one, or the answer is one.
    if (this.#state !== "ready") return Promise.reject(this.#refused("tools/call"));
    if (this.#init?.capabilities.tools === undefined) {
      return Promise.reject(new CapabilityError(`${this.#name} did not declare the "tools" capability, so it does not accept tools/call`, { capability: "tools" }));
    }
    if (this.#taskCalls || this.#tools.get(name)?.execution?.taskSupport === "required") return this.#tasks.call(name, args, options);
    const params: Params = { name, arguments: args };
    const requestOptions: RequestOptions = {
      timeoutMs: options.timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs,
      signal: options.signal,
      onProgress: options.onProgress,
      progress: true,
    };
    const modern = this.#modernWire;
    const started = modern === undefined ? 0 : Date.now();
    const sent = modern === undefined ? this.#peer!.request("tools/call", params, requestOptions) : modernRequest(modern, "tools/call", params, requestOptions);
    return sent.then(
      (result) => {
        this.#answered++;
        // tasks extension ("Task Creation"): the server chose to run the call as a task.
        if (modern !== undefined && result.resultType === "task") return this.#tasks.answered(name, result, options, started);
        const outputSchema = this.#structuredOutput ? this.#tools.get(name)?.outputSchema : undefined;
        const check = { server: this.#name, tool: name, outputSchema, validators: this.#validators, objectOnly: this.#objectOnly, onProblem: this.#reportProblem };
        if (outputSchema === undefined) return checkToolResult(result, check);
        return loadJsonSchema().then(() => checkToolResult(result, check)); // loads once per process
      },
      (error: unknown) => Promise.reject(explainMissingCapability(`${this.#name}: tools/call "${name}"`, error)),
    );
  }

  /** Starts a tool call and returns its task handle (or the direct answer as one: `direct`). */
  async startToolTask(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<ToolTask> {
    this.#requireCapability("tools", "tools/call");
    return await this.#tasks.start(name, args, options);
  }

  /** A handle on a task known by id (persisted by the host across a restart); `tool` checks its result's outputSchema. */
  resumeTask(taskId: string, options: { tool?: string } = {}): ToolTask {
    return this.#tasks.resume(taskId, options);
  }

  /** spec 2025-11-25 tasks ("Listing Tasks"); a TaskError `unsupported` on the 2026-07-28 wire. */
  listTasks(options: RequestOptions = {}): Promise<TaskInfo[]> {
    return this.#tasks.list(options);
  }

  /**
   * A tools/call answer checked: its shape, and structuredContent against the tool's
   * outputSchema. At once (no promise) unless an outputSchema needs the validator loaded first.
   */
  #toolResult(name: string | undefined, result: Params): CallToolResult | Promise<CallToolResult> {
    const structured = this.#structuredOutput;
    const objectOnly = this.#objectOnly;
    const onProblem = this.#reportProblem;
    if (name === undefined) {
      return checkToolResult(result, { server: this.#name, tool: "(resumed task)", outputSchema: undefined, validators: this.#validators, objectOnly, onProblem });
    }
    const outputSchema = structured ? this.#tools.get(name)?.outputSchema : undefined;
    const check = { server: this.#name, tool: name, outputSchema, validators: this.#validators, objectOnly, onProblem };
    if (outputSchema === undefined) return checkToolResult(result, check);
    return loadJsonSchema().then(() => checkToolResult(result, check)); // loads once per process
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
    const key = readKey(uri);
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
        (error.rpcCode === ErrorCode.ResourceNotFound || (this.#era === "modern" && error.rpcCode === ErrorCode.InvalidParams));
      if (!notFound) throw error;
      throw new ResourceNotFoundError(`${this.#name}: resources/read: no resource ${JSON.stringify(uri)}: ${error.message}`, error.rpcCode, { uri, data: error.data, cause: error });
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
        { capability: "resources.subscribe" },
      );
    }
    if (this.#era === "modern") {
      // spec 2026-07-28 subscriptions: no resources/subscribe; the URI joins the listen filter.
      this.#subscriptions.subscribe(uri);
      return;
    }
    await this.request("resources/subscribe", { uri }, options);
  }

  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    this.#requireCapability("resources", "resources/unsubscribe");
    if (this.#era === "modern") {
      this.#subscriptions.unsubscribe(uri);
      return;
    }
    await this.request("resources/unsubscribe", { uri }, options);
  }

  /** spec 2026-07-28 basic/patterns/subscriptions: the listen stream, unless the `listen` option is false. */
  #startListening(): void {
    if (this.#options.listen === false) return;
    this.#subscriptions.start(this.#init?.capabilities ?? {}, {
      name: this.#name,
      onProblem: (message) => this.#problem(message),
      open: (filter, signal, onId) =>
        this.request("subscriptions/listen", { notifications: filter }, { signal, onId, timeoutMs: Infinity, maxTotalTimeoutMs: Infinity }),
    });
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
      if (this.#modernWire !== undefined) this.#modernWire.meta = this.#requestMeta();
      return;
    }
    this.#requireCapability("logging", "logging/setLevel");
    await this.request("logging/setLevel", { level }, options);
  }

  /** Modern wire: the log level sent with each request, if one was set. */
  get loggingLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  /**
   * Replaces the static roots and tells the server — spec 2025-11-25 client/roots ("Root
   * List Changes"). Needs the roots capability (a `roots` list or handler at construction).
   */
  async setRoots(roots: RootInput[]): Promise<void> {
    if (this.#capabilities.roots === undefined) {
      throw new ClientStateError(
        "setRoots(): this client did not declare roots; pass `roots` or `handlers.roots` to new Client() to offer roots",
        "roots-not-declared",
        { state: this.#state },
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

/** 2025-11-25 tasks ("Server Capabilities"): whether the server runs tools/call as tasks at all. */
function declaresTaskCalls(init: InitializeResult): boolean {
  return isObject(init.capabilities?.tasks?.requests?.tools?.call);
}

/** What a listener threw, as text; never throws itself (a thrown value's toString may). */
function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return "a value that cannot be shown";
  }
}
