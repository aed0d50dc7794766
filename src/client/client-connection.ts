// A Client's connection: its state, connect and close, and what every request goes through —
// spec 2025-11-25 basic/lifecycle, spec 2026-07-28 basic/versioning (the era chosen per server).
// The Client (client.ts) is its public face and reads its fields on the plain tool call; its
// parts (resources.ts, prompts.ts, the extensions) see it as their ClientContext. Beside it:
// negotiation.ts (era, probe, handshake), modern-request.ts (the stateless request loop),
// server-requests.ts and server-notifications.ts (what the server asks and tells).

import { errorOf } from "../common/error-text.ts";
import { type CloseDetails, ConnectionClosedError, describeClose } from "../jsonrpc/errors.ts";
import { composeChain, type Middleware, type Send } from "../jsonrpc/middleware.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, type Params, Peer, type RequestOptions } from "../jsonrpc/peer.ts";
import { type ClientTransport, UndeliverableMessageError } from "../transport/transport.ts";
import { answersLink, checkToolResult } from "./answers.ts";
import { declaredCapabilities, modernCapabilities } from "./client-capabilities.ts";
import { type ClientContext, lacksCapability } from "./client-context.ts";
import type { EmitClientEvent } from "./client-events.ts";
import type { ClientOptions, ConnectOptions, ConnectSource, JoinedSession, ListOptions } from "./client-options.ts";
import { canMove, type ClientState, notReadyError } from "./client-state.ts";
import { ClientTrace } from "./client-trace.ts";
import { ClientStateError } from "./errors.ts";
import { EXTENSIONS, InstalledExtensions } from "./extension-negotiation.ts";
import { DEFAULT_MAX_INPUT_ROUNDS, type InputRequest } from "./input-requests.ts";
import { metaFields, modernLink, type ModernWire, setRequestMeta, withRequestMeta } from "./modern-request.ts";
import { DEFAULT_DISCOVER_TIMEOUT_MS, handshakeAgain, joinSession, Negotiation } from "./negotiation.ts";
import { featuresOf, LATEST_PROTOCOL_VERSION, type ProtocolChoice, type ProtocolEra, type ProtocolVersion } from "./protocol-version.ts";
import { requestHeaders } from "./request-headers.ts";
import type { RequestMeta } from "./request-meta.ts";
import { listCached, startListening } from "./resources.ts";
import { LIST_KEYS, ResultCache } from "./result-cache.ts";
import { toRoots } from "./roots.ts";
import { SamplingGate } from "./sampling.ts";
import { OutputValidators } from "./schema/output-validator.ts";
import { DEFAULT_LOG_BUFFER_SIZE, ServerNotifications } from "./server-notifications.ts";
import { ServerRequests } from "./server-requests.ts";
import { endListen, Subscriptions } from "./subscriptions.ts";
import type { Telemetry, TelemetryContext } from "./telemetry.ts";
import { indexTools } from "./tools.ts";
import type {
  CallToolResult,
  ClientCapabilities,
  Implementation,
  InitializeResult,
  JsonObject,
  LoggingLevel,
  Root,
  ServerCapabilities,
  Tool,
} from "./types.ts";

/** Methods allowed while initializing — spec 2025-11-25 basic/lifecycle: only ping before the result. */
const ALLOWED_BEFORE_READY = new Set(["ping"]);

/**
 * One client's connection. Its fields are plain (no getters) because Client.callTool reads them
 * on every call; only the connection itself writes them.
 */
export class ClientConnection implements ClientContext {
  readonly clientInfo: Implementation;
  readonly options: ClientOptions;
  /** What this client declares in `initialize`: what its handlers answer, plus `capabilities`. */
  readonly capabilities: ClientCapabilities;
  /** The same, as the 2026-07-28 wire has them (client-capabilities.ts modernCapabilities). */
  readonly modernCapabilities: ClientCapabilities;
  readonly emit: EmitClientEvent;
  state: ClientState = "new";
  failure: Error | undefined;
  transport: ClientTransport | undefined;
  peer: Peer | undefined;
  name = "server";
  init: InitializeResult | undefined;
  version: ProtocolVersion | undefined;
  /** Which wire this connection speaks, once connect() has found out. */
  era: ProtocolEra | undefined;
  /** Modern wire: the level sent in each request's _meta (no logging/setLevel there). */
  logLevel: LoggingLevel | undefined;
  /** Modern wire: the listen stream and the resources subscribed to, which its filter carries (one per connection). */
  subscriptions = new Subscriptions();
  /** Results kept while their ttlMs says they are fresh (spec 2026-07-28 caching); emptied at each connect. */
  readonly cache = new ResultCache();
  /** The last full tool listing, by name: where outputSchemas are looked up. */
  tools = new Map<string, Tool>();
  readonly validators: OutputValidators;
  roots: Root[] | undefined;
  readonly serverNotifications: ServerNotifications;
  /** The 2026-07-28 request loop's view of this client, once connected on that wire. */
  modernWire: ModernWire | undefined;
  /** The extensions given (extension.ts), installed once: their links join the chain at each connect. */
  readonly extensions: InstalledExtensions;
  /** Whether this client has no tasks extension: callTool then refuses a call that needs a task. */
  readonly taskless: boolean;
  /** The chain's sending end while there is no connection: every request refused, saying why. */
  readonly #refuse: Send = (method) => Promise.reject(this.notReady(method));
  /**
   * The chain's sending end (docs/architecture.md, "The chain"): every request of this client
   * goes out here, through the links composed at connect; refused until the first connect.
   */
  send: Send = this.#refuse;
  /**
   * What a tool result is checked for at the negotiated version (#setVersion): whether an
   * outputSchema applies (2025-06-18 on), and the version when structuredContent must be an object.
   */
  structuredOutput = false;
  objectOnly: ProtocolVersion | undefined;
  /** tools/call and ping requests answered with a result (Client.answeredCalls). */
  answered = 0;
  /** problem() as a value, made once (handed to every tool result's check). */
  readonly reportProblem = (message: string): void => this.problem(message);
  /** URL-mode elicitation ids we saw and that have not completed. */
  readonly openElicitations = new Set<string>();
  readonly #serverRequests: ServerRequests;
  #closing: Promise<void> | undefined;
  /** ClientOptions.trace: the traced transport's events and the lifecycle events; undefined without it. */
  readonly #trace: ClientTrace | undefined;
  /** ClientOptions.telemetry, its API loaded by connect(); undefined when off (then no request runs telemetry code). */
  telemetry: Telemetry | undefined;
  /** With telemetry on, the connect span's context while connect() runs: the parent of the probe and the handshake. */
  connectContext: TelemetryContext | undefined;
  /** The era negotiation of connect(), while it runs. */
  #negotiation: Negotiation | undefined;
  /** What connect() was given to make the transport, when a function: a restart makes another with it. */
  #makeTransport: (() => ClientTransport) | undefined;
  /** Where requestHeaders finds a tool's x-mcp-header annotations: its inputSchema in the last tools/list. */
  readonly #toolSchema = (tool: string): unknown => this.tools.get(tool)?.inputSchema;
  /** The era asked for on this connection: ConnectOptions.protocol, else ClientOptions.protocol, else auto. */
  #choice: ProtocolChoice = "auto";
  /** How the connection ended while connect() ran: connect() fails with it, in its own words. */
  #lostWhileConnecting: CloseDetails | undefined;

  constructor(clientInfo: Implementation, options: ClientOptions, emit: EmitClientEvent, listenerFailed: (error: unknown) => void) {
    this.clientInfo = clientInfo;
    this.options = options;
    this.emit = emit;
    this.validators = new OutputValidators((message) => this.problem(`${this.name}: ${message}`), options.jsonSchema);
    this.roots = options.roots === undefined ? undefined : toRoots(options.roots);
    this.capabilities = declaredCapabilities(options);
    this.modernCapabilities = modernCapabilities(this.capabilities);
    this.#trace = options.trace === undefined ? undefined : new ClientTrace(options.trace, options.name);
    const sampling = options.handlers?.sampling;
    const name = () => this.name;
    this.#serverRequests = new ServerRequests({
      handlers: options.handlers ?? {},
      capabilities: this.capabilities,
      sampling: sampling === undefined ? undefined : new SamplingGate(sampling, options.sampling),
      roots: () => this.roots,
      name,
      openElicitations: this.openElicitations,
      onProblem: (message) => this.problem(message),
      jsonSchema: options.jsonSchema,
    });
    this.serverNotifications = new ServerNotifications({
      emit,
      name,
      cache: this.cache,
      listen: () => this.subscriptions.stream,
      openElicitations: this.openElicitations,
      ready: () => this.state === "ready",
      logBufferSize: options.logBufferSize ?? DEFAULT_LOG_BUFFER_SIZE,
      listenerFailed,
    });
    this.extensions = new InstalledExtensions(this, options.use ?? []);
    this.taskless = !this.extensions.has(EXTENSIONS.tasks);
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.init?.capabilities;
  }

  problem(message: string): void {
    this.emit("problem", { message });
  }

  #move(to: ClientState, cause?: Error): void {
    const from = this.state;
    if (from === to || !canMove(from, to)) return;
    this.state = to;
    if (to === "failed") this.failure = cause;
    this.#trace?.moved(to, cause, this.era, this.version, this.#choice);
    this.emit("statechange", cause ? { from, to, cause } : { from, to });
  }

  // --- connect and close ---------------------------------------------------------------

  /**
   * Client.connect: the transport started, the era settled, the client `ready`. `source` is a
   * transport, or a function that makes one: then a server that exits on the era probe is
   * started again on a new one. `serverKey` names the server in the eraCache.
   */
  async connect(source: ConnectSource, options: ConnectOptions): Promise<void> {
    if (this.state !== "new" && this.state !== "closed" && this.state !== "failed") {
      throw new ClientStateError(
        `connect() was called while the client is ${this.state}; close() it first (a closed or failed client connects again)`,
        "already-connected",
        { state: this.state },
      );
    }
    const given = typeof source === "function" ? source() : source;
    // ClientOptions.telemetry: the code the user gave (openTelemetry of mcpwire/telemetry) loads @opentelemetry/api first, once.
    if (this.options.telemetry !== undefined && this.telemetry === undefined) this.telemetry = await this.options.telemetry.start(given.description);
    if (this.state !== "new" && this.state !== "closed" && this.state !== "failed") {
      throw new ClientStateError(`connect() was called twice at once (state: ${this.state}); wait for the first one`, "already-connected", {
        state: this.state,
      });
    }
    this.#reset();
    this.#choice = options.protocol ?? this.options.protocol ?? "auto";
    // ClientOptions.trace: traced once, here; unset, the transport is the caller's own.
    const transport = this.#trace === undefined ? given : this.#trace.wrap(given);
    this.name = this.options.name !== undefined ? `server "${this.options.name}"` : transport.description;
    // The span of connect(): the era probe, its fallback to the handshake and initialize are its children.
    const connectSpan = this.telemetry?.connectSpan(
      transport,
      { "mcp.server": this.name, "mcp.protocol.choice": this.#choice },
      options.traceContext,
    );
    this.connectContext = connectSpan?.context;
    this.transport = transport;
    if (typeof source === "function") this.#makeTransport = source;
    const peer = this.#attach(transport);
    // initializeTimeoutMs bounds the whole connect; each step gets what is left of it.
    const budgetMs = this.options.initializeTimeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const negotiation = new Negotiation({
      name: this.name,
      peer,
      send: (method, params, options) => this.send(method, params, options),
      transport,
      choice: this.#choice,
      eraCache: this.options.eraCache !== undefined && options.serverKey !== undefined ? { cache: this.options.eraCache, key: options.serverKey } : undefined,
      discoverTimeoutMs: this.options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS,
      budgetMs,
      deadline: Date.now() + budgetMs,
      signal: options.signal,
      closing: () => this.#closing !== undefined,
      proceed: () => this.#proceed(),
      modernParams: (version) => withRequestMeta(undefined, { ...this.requestMeta(), protocolVersion: version }),
      initializeParams: this.#initializeParams(),
      canRestart: typeof source === "function",
      restart: () => this.#restart(),
      found: (init) => this.#found(init),
      handshaking: () => {
        this.era = "legacy";
        // The era probe fell back (or the era was pinned or remembered): the handshake follows.
        connectSpan?.event("handshake", { "mcp.protocol.choice": this.#choice });
        this.#move("initializing");
      },
      onProblem: (message) => this.problem(message),
    });

    this.#move("connecting");
    this.#negotiation = negotiation;
    const joined = this.options.session;
    let started = false;
    try {
      if (joined !== undefined) this.#setVersion(joinSession(this.name, transport, joined));
      await transport.start();
      started = true;
      // close() may have been called while the transport was starting, or the server died.
      this.#proceed();
      this.era = joined === undefined ? await negotiation.run() : "legacy";
      this.#proceed();
    } catch (error) {
      // close() while connecting is the caller's choice, not a failure: it ends `closed`.
      if (this.#closing !== undefined) {
        await this.#closing.catch(() => {});
        throw new ClientStateError(`connect() to ${this.name} did not finish: close() was called while it was connecting`, "closed-while-connecting", {
          state: this.state,
        });
      }
      const cause = errorOf(error);
      // After a restart (negotiation.ts) the peer and transport are the new ones.
      this.peer?.close({ reason: started ? `${negotiation.step} failed: ${cause.message}` : `could not start: ${cause.message}` });
      this.#move("failed", cause);
      if (started) await this.transport?.close().catch(() => {});
      connectSpan?.fail(cause);
      throw cause;
    } finally {
      this.#negotiation = undefined;
      this.connectContext = undefined;
    }
    connectSpan?.end({ "mcp.era": this.era, "mcp.protocol.version": this.version, "mcp.session.id": (this.transport as { sessionId?: string }).sessionId });
    if (this.era === "modern") {
      // The era is settled: the chain again, with the 2026-07-28 era link in it.
      this.modernWire = this.#modernWireOf();
      this.#compose(this.peer!);
    }
    this.#move("initializing");
    this.#move("ready");
    if (this.era === "modern") startListening(this);
  }

  /**
   * Client.keepSession(): closing leaves the transport's session open (no DELETE), and what a
   * later client needs to join it (ClientOptions.session); undefined when there is no session.
   */
  keepSession(): JoinedSession | undefined {
    const id = this.transport?.keepSession?.();
    return id === undefined || this.version === undefined ? undefined : { id, protocolVersion: this.version };
  }

  /** The server's initialize result (or discover result): its capabilities and version. */
  #found(init: InitializeResult): void {
    this.init = init;
    this.#setVersion(init.protocolVersion as ProtocolVersion);
  }

  /** The negotiated version, and what it says about tool results (read on every call). */
  #setVersion(version: ProtocolVersion): void {
    this.version = version;
    // Structured output came with 2025-06-18; before it an outputSchema means nothing.
    const features = featuresOf(version);
    this.structuredOutput = features.structuredToolOutput === true;
    this.objectOnly = this.structuredOutput && !features.anyJsonStructuredContent ? version : undefined;
    if (this.modernWire !== undefined) setRequestMeta(this.modernWire, this.requestMeta());
  }

  /** The per-request protocol fields of the 2026-07-28 wire, as they are now. */
  requestMeta(): RequestMeta {
    return { protocolVersion: this.version!, capabilities: this.modernCapabilities, clientInfo: this.clientInfo, logLevel: this.logLevel };
  }

  /** What the 2026-07-28 request loop (modern-request.ts) needs of this client. */
  #modernWireOf(): ModernWire {
    const meta = this.requestMeta();
    return {
      name: this.name,
      maxInputRounds: this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      meta,
      fields: metaFields(meta),
      retryWith: (version) => {
        this.#setVersion(version);
        this.transport?.setProtocolVersion?.(version);
      },
      relistTools: () => this.listTools({ fresh: true }),
      idempotentTool: (tool) => this.tools.get(tool)?.annotations?.idempotentHint === true,
      fulfil: (who, request, key, signal) => this.fulfil(who, request, key, signal),
      onProblem: (message) => this.problem(message),
      // tasks extension ("Supported Methods"): a task result only for tools/call, only when declared.
      taskMethods: this.extensions.resultMethods(this.capabilities.extensions),
      // spec 2026-07-28 streamable-http ("Request Metadata", "Custom Headers from Tool Parameters"):
      // Mcp-Method, Mcp-Name and the x-mcp-header parameters of the tools of the last tools/list,
      // made here and handed to a transport that sends headers with each request.
      headers: this.transport?.sendsHeaders === true ? (method, params) => requestHeaders(method, params, this.#toolSchema) : undefined,
    };
  }

  /** A new Peer on `transport`, with this client's handlers and the transport's events wired to it. */
  #attach(transport: ClientTransport): Peer {
    const peer = new Peer({
      name: this.name,
      // The transport's own send, bound: no closure of ours between the peer and the transport.
      send: transport.send.bind(transport),
      defaultTimeoutMs: this.options.requestTimeoutMs,
      maxTotalTimeoutMs: this.options.maxTotalTimeoutMs,
      onProblem: (message) => this.problem(message),
    });
    this.peer = peer;
    this.#compose(peer);
    transport.onmessage = peer.receive.bind(peer);
    // What an earlier connection's transport still reports is not this connection's business.
    transport.onerror = (error) => {
      if (this.peer !== peer) return;
      // A response the transport could not deliver fails its request now, with the reason.
      if (error instanceof UndeliverableMessageError) peer.undeliverable(error.response);
      else this.problem(error.message);
    };
    transport.onclose = (details) => {
      if (this.peer === peer) this.#onTransportClose(details);
      else peer.close(details);
    };
    transport.onsessionexpired = () => this.#startNewSession(peer, transport);
    return peer;
  }

  /**
   * The connection's chain (docs/architecture.md, "The chain"), composed on `peer`: the
   * extensions' links in the order given, the answers link (errors typed, tool results checked),
   * the era's link (2026-07-28 only, once the era is settled), telemetry's (when on); then the
   * Peer. Incoming requests and notifications pass the same links' receiving sides, then this
   * client's handlers (server-requests.ts) and events (server-notifications.ts).
   */
  #compose(peer: Peer): void {
    const links: Middleware[] = [...this.extensions.middleware(), answersLink(this)];
    if (this.modernWire !== undefined) links.push(modernLink(this.modernWire));
    const telemetry = this.telemetry?.link(this);
    if (telemetry !== undefined) links.push(telemetry);
    const chain = composeChain(links, {
      send: peer.request.bind(peer),
      receive: this.#serverRequests.receive.bind(this.#serverRequests),
      hear: this.serverNotifications.hear.bind(this.serverNotifications),
    });
    this.send = chain.send;
    peer.setReceiver(chain.receive, chain.hear);
  }

  /**
   * A new connection of this client (connect() after close, or after a failure): what the last
   * one learned is forgotten; the options, listeners, extensions and validators stay.
   */
  #reset(): void {
    this.failure = undefined;
    this.peer = undefined;
    this.transport = undefined;
    this.init = undefined;
    this.version = undefined;
    this.era = undefined;
    this.modernWire = undefined;
    this.tools = new Map();
    this.structuredOutput = false;
    this.objectOnly = undefined;
    this.answered = 0;
    this.cache.clear();
    this.subscriptions = new Subscriptions();
    this.openElicitations.clear();
    this.#closing = undefined;
    this.#makeTransport = undefined;
    this.#lostWhileConnecting = undefined;
    this.send = this.#refuse;
  }

  /**
   * The server exited on the server/discover probe (negotiation.ts): the same server on a fresh
   * transport, with a new Peer. The new transport is this client's at once, so a close() from
   * now on closes it (and a start() after that close is refused).
   */
  async #restart(): Promise<{ peer: Peer; transport: ClientTransport }> {
    const old = this.transport!;
    const made = this.#makeTransport?.();
    if (made === undefined) {
      // Not reached through Negotiation (it restarts only when connect() was given a function).
      throw new ClientStateError(`${this.name}: connect() was given one transport, which cannot start the server again`, "cannot-restart", {
        state: this.state,
      });
    }
    const transport = this.#trace === undefined ? made : this.#trace.wrap(made);
    old.onmessage = undefined;
    old.onerror = undefined;
    old.onclose = undefined;
    this.transport = transport;
    const peer = this.#attach(transport);
    await old.close().catch(() => {}); // reaps what the exited process left behind
    this.#proceed();
    await transport.start();
    return { peer, transport };
  }

  /** Throws when connect() cannot go on: close() was called, or the connection ended under it. */
  #proceed(): void {
    if (this.#closing !== undefined) {
      throw new ClientStateError(`close() was called while connecting to ${this.name}`, "closed-while-connecting", { state: this.state });
    }
    if (this.state !== "connecting" && this.state !== "initializing") throw this.notReady("initialize");
    const lost = this.#lostWhileConnecting;
    if (lost !== undefined) throw new ConnectionClosedError(`${this.name}: connection closed: ${describeClose(lost)}`, { details: lost });
  }

  /** The params of the initialize request (spec 2025-11-25 basic/lifecycle "Initialization"). */
  #initializeParams(): Params {
    return { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: this.capabilities, clientInfo: this.clientInfo };
  }

  /**
   * The server ended the session (HTTP 404): run the handshake again on a new one — spec
   * 2025-11-25 basic/transports ("Session Management" 4). The transport holds every other
   * send until this settles, and closes if it rejects.
   */
  async #startNewSession(peer: Peer, transport: ClientTransport): Promise<void> {
    if (this.state !== "ready") {
      throw new ClientStateError(`${this.name} ended the session while the client was ${this.state}`, "session-ended", { state: this.state });
    }
    this.problem(`${this.name}: the server ended the session; starting a new one (initialize again)`);
    this.#found(await handshakeAgain(this.name, this.send, peer, transport, this.#initializeParams(), this.options.initializeTimeoutMs));
  }

  /** Client.close: bounded; a second call resolves when the first one has finished. */
  close(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    if (this.state === "closed" || this.state === "failed") return Promise.resolve();
    this.#closing = this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const transport = this.transport;
    if (transport === undefined) {
      this.#move("closed");
      return;
    }
    this.#move("closing");
    await endListen(this.subscriptions, this.era === "modern" ? this.peer : undefined);
    // The peer closes next: every pending request, the listen request included, ends here,
    // so stopping the listen stream sends no second notifications/cancelled into a transport
    // that is closing (a close the user asked for reports nothing).
    this.peer?.close({ reason: "closed by the client" });
    this.extensions.close("the client closed the connection");
    await this.subscriptions.stop();
    try {
      await transport.close();
    } finally {
      this.#move("closed");
    }
  }

  #onTransportClose(details: CloseDetails): void {
    // The transport is gone: close the peer before the listen stream, which then has nothing to cancel.
    this.peer?.close(details);
    const connecting = this.#negotiation !== undefined && this.#closing === undefined &&
      (this.state === "connecting" || this.state === "initializing");
    // The server exited on the era probe: the negotiation starts it again, the connect goes on.
    if (connecting && this.#negotiation?.restartsOnClose === true) return;
    this.extensions.close(`the connection closed (${describeClose(details)})`);
    void this.subscriptions.stop();
    if (connecting) {
      // connect() fails with the step that met the close (negotiation.ts says how the server ended).
      this.#lostWhileConnecting = details;
      return;
    }
    if (this.state === "closing" || this.state === "closed" || this.state === "failed") return;
    this.#move("failed", new ConnectionClosedError(`${this.name}: connection closed: ${describeClose(details)}`, { details }));
  }

  // --- requests ------------------------------------------------------------------------

  notReady(method: string): Error {
    return notReadyError(method, this.state, this.name, this.failure);
  }

  /** Why a request cannot go out now: the host's reason (ClientOptions.unavailable) if it has one, else the client's. */
  refused(method: string): Error {
    return (this.state !== "ready" ? this.options.unavailable?.(this.state) : undefined) ?? this.notReady(method);
  }

  /** Client.request: any request, once ready (ping while initializing too). */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Params> {
    const ready = this.state === "ready" || (this.state === "initializing" && ALLOWED_BEFORE_READY.has(method));
    if (!ready) return Promise.reject(this.refused(method));
    // With telemetry on, the parent is read once here: MRTR retries share it.
    if (this.telemetry !== undefined && options?.traceContext === undefined) options = { ...options, traceContext: this.telemetry.active() };
    // Through the chain: its answers link types the errors and counts the answers.
    return this.send(method, params, options ?? {});
  }

  /** Sends a notification on the current connection (the tasks link's status notifications). */
  notify(method: string, params?: Params): Promise<void> {
    if (this.peer === undefined) return Promise.reject(this.notReady(method));
    return this.peer.notify(method, params);
  }

  fulfil(who: string, request: InputRequest, key: string, signal: AbortSignal | undefined): Promise<JsonObject> {
    const answer = () => this.#serverRequests.fulfil(who, request, key, signal);
    // Telemetry on: an input request (2026-07-28 mrtr, a task's input) is handled like a server's request.
    return this.telemetry?.tracedInput(request, this.version, answer) ?? answer();
  }

  tool(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Client.listTools: every tool, all pages followed, indexed by name. */
  async listTools(options: ListOptions = {}): Promise<Tool[]> {
    if (lacksCapability(this, "tools")) return [];
    const listed = await listCached<Tool>(this, LIST_KEYS.tools, "tools", options);
    const { tools, byName } = indexTools(this.name, listed, this.era === "modern", (message) => this.problem(message));
    this.tools = byName;
    this.validators.retain(new Set(byName.keys()));
    return tools;
  }

  /** A tools/call answer checked (answers.ts checkToolResult): for a task's final result. */
  toolResult(result: Params, name: string | undefined): CallToolResult | Promise<CallToolResult> {
    return checkToolResult(this, result, name);
  }
}

export type { ConnectOptions, ConnectSource } from "./client-options.ts";
