// The MCP client: the lifecycle state machine, version negotiation and typed methods —
// spec 2025-11-25 basic/lifecycle, server/tools, server/resources, server/prompts,
// server/utilities/completion, server/utilities/logging; and what the server asks of the
// client — client/elicitation, client/sampling, client/roots.

import { type CloseDetails, ConnectionClosedError, describeClose, ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import { type IncomingRequestContext, type Params, Peer, type Progress, type RequestOptions } from "../jsonrpc/peer.ts";
import type { Transport } from "../transport/transport.ts";
import { canMove, type ClientState, type StateChange } from "./client-state.ts";
import {
  CapabilityError,
  ClientStateError,
  OutputValidationError,
  ProtocolError,
  ProtocolVersionError,
} from "./errors.ts";
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
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
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
  /** Timeout of the initialize handshake. Default: requestTimeoutMs. */
  initializeTimeoutMs?: number;
  /** Page cap when following list cursors. Default 1000. */
  maxPages?: number;
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
  /** Something odd that was survived: a skipped line, an unknown response id, … */
  problem: { message: string };
}

export type ClientEventType = keyof ClientEvents;

/**
 * The Event a Client dispatches; `detail` is exactly what was emitted. (Not CustomEvent:
 * Node turns an undefined detail into null, Deno keeps undefined.)
 */
export class ClientEvent<K extends ClientEventType = ClientEventType> extends Event {
  readonly detail: ClientEvents[K];
  constructor(type: K, detail: ClientEvents[K]) {
    super(type);
    this.detail = detail;
  }
}

/** Methods allowed while initializing — spec 2025-11-25 basic/lifecycle: only ping before the result. */
const ALLOWED_BEFORE_READY = new Set(["ping"]);

export class Client extends EventTarget {
  readonly clientInfo: Implementation;
  readonly #options: ClientOptions;
  #state: ClientState = "new";
  #failure: Error | undefined;
  #transport: Transport | undefined;
  #peer: Peer | undefined;
  #name = "server";
  #init: InitializeResult | undefined;
  #version: ProtocolVersion | undefined;
  /** The last full tool listing, by name: where outputSchemas are looked up. */
  #tools = new Map<string, Tool>();
  #closing: Promise<void> | undefined;
  readonly #validators = new OutputValidators((message) => this.#problem(`${this.#name}: ${message}`));
  readonly #capabilities: ClientCapabilities;
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

  /** The negotiated protocol version, once initialized. */
  get protocolVersion(): ProtocolVersion | undefined {
    return this.#version;
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

  /** Typed listener; returns a function that removes it. */
  on<K extends ClientEventType>(type: K, listener: (detail: ClientEvents[K]) => void): () => void {
    const wrapped = (event: Event) => listener((event as ClientEvent<K>).detail);
    this.addEventListener(type, wrapped);
    if (type !== "log") return () => this.removeEventListener(type, wrapped);
    this.#logListeners++;
    this.#replayEarlyLogs(listener as (detail: LogMessage) => void);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#logListeners--;
      this.removeEventListener(type, wrapped);
    };
  }

  #emit<K extends ClientEventType>(type: K, detail: ClientEvents[K]): void {
    this.dispatchEvent(new ClientEvent(type, detail));
  }

  #problem(message: string): void {
    this.#emit("problem", { message });
  }

  #move(to: ClientState, cause?: Error): void {
    const from = this.#state;
    if (from === to || !canMove(from, to)) return;
    this.#state = to;
    if (to === "failed") this.#failure = cause;
    this.#emit("statechange", cause ? { from, to, cause } : { from, to });
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
    const peer = new Peer({
      name: this.#name,
      send: (message) => transport.send(message),
      defaultTimeoutMs: this.#options.requestTimeoutMs,
      maxTotalTimeoutMs: this.#options.maxTotalTimeoutMs,
      onProblem: (message) => this.#problem(message),
    });
    this.#peer = peer;
    this.#installNotificationHandlers(peer);
    this.#installRequestHandlers(peer);
    transport.onmessage = (message) => peer.receive(message);
    transport.onerror = (error) => this.#problem(error.message);
    transport.onclose = (details) => this.#onTransportClose(details);
    transport.onsessionexpired = () => this.#startNewSession(peer, transport);

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

    // spec 2025-11-25 basic/lifecycle: initialization MUST be the first interaction. The
    // request is on its way before `initializing` is announced, so a ping sent from a
    // statechange listener cannot overtake it.
    const initialize = peer.request(
      "initialize",
      this.#initializeParams(),
      { timeoutMs: this.#options.initializeTimeoutMs, signal: options.signal },
    );
    this.#move("initializing");
    try {
      const result = await initialize;
      this.#init = this.#checkInitializeResult(result);
      this.#version = this.#init.protocolVersion as ProtocolVersion;
      // spec 2025-11-25 basic/transports (Protocol Version Header): HTTP sends it from now on.
      transport.setProtocolVersion?.(this.#version);
      // spec 2025-11-25 basic/lifecycle: after a successful initialize the client MUST send initialized.
      await peer.notify("notifications/initialized");
    } catch (error) {
      // close() during the handshake is the caller's choice, not a failure: it ends `closed`.
      if (this.#closing !== undefined) {
        await this.#closing.catch(() => {});
        throw this.#closedWhileConnecting();
      }
      const cause = error instanceof Error ? error : new Error(String(error));
      this.#move("failed", cause);
      peer.close({ reason: `initialize failed: ${cause.message}` });
      await transport.close().catch(() => {});
      throw cause;
    }
    if (this.#closing !== undefined) throw this.#closedWhileConnecting();
    this.#move("ready");
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

  #closedWhileConnecting(): ClientStateError {
    return new ClientStateError(`connect() to ${this.#name} did not finish: close() was called while it was connecting`, this.#state);
  }

  #checkInitializeResult(result: Params): InitializeResult {
    const version = result.protocolVersion;
    // spec 2025-11-25 basic/lifecycle: if the client does not support the server's version it SHOULD disconnect.
    if (!isSupportedProtocolVersion(version)) {
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
      throw new ProtocolError(`${this.#name}: initialize result has no "capabilities" object`);
    }
    if (typeof serverInfo !== "object" || serverInfo === null || typeof (serverInfo as JsonObject).name !== "string") {
      throw new ProtocolError(`${this.#name}: initialize result has no "serverInfo" with a name`);
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
    this.#peer?.close({ reason: "closed by the client" });
    try {
      await transport.close();
    } finally {
      this.#move("closed");
    }
  }

  #onTransportClose(details: CloseDetails): void {
    this.#peer?.close(details);
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
    return this.#peer!.request(method, params, options).catch((error: unknown) => {
      throw this.#surfaceUrlElicitation(method, error);
    });
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
    await this.request("ping", undefined, options);
  }

  /** Every tool, all pages followed. [] when the server has no tools capability. */
  async listTools(options: RequestOptions = {}): Promise<Tool[]> {
    if (this.#state === "ready" && !this.#has("tools")) return [];
    const tools = await collectPages<Tool>(
      `${this.#name}: tools/list`,
      "tools",
      (cursor) => this.request("tools/list", cursor === undefined ? undefined : { cursor }, options),
      this.#options.maxPages ?? DEFAULT_MAX_PAGES,
    );
    const byName = new Map<string, Tool>();
    for (const tool of tools) {
      if (typeof tool?.name !== "string") throw new ProtocolError(`${this.#name}: tools/list returned a tool without a name`);
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
    if (result.content === undefined) {
      result.content = []; // lenient: some servers send only structuredContent
    } else if (!Array.isArray(result.content)) {
      throw new ProtocolError(`${this.#name}: tools/call "${name}" returned "content" that is not an array`);
    }
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
      );
    }
    const failures = this.#validators.check(name, schema, checked.structuredContent);
    if (failures !== undefined) {
      throw new OutputValidationError(
        `${this.#name}: tool "${name}" returned structuredContent that does not match its outputSchema: ` +
          failures.map((failure) => failure.message).join("; "),
        name,
        failures,
      );
    }
    return checked;
  }

  /** spec 2025-11-25 server/resources ("Listing Resources"). [] without the resources capability. */
  listResources(options: RequestOptions = {}): Promise<Resource[]> {
    if (this.#state === "ready" && !this.#has("resources")) return Promise.resolve([]);
    return collectPages<Resource>(
      `${this.#name}: resources/list`,
      "resources",
      (cursor) => this.request("resources/list", cursor === undefined ? undefined : { cursor }, options),
      this.#options.maxPages ?? DEFAULT_MAX_PAGES,
    );
  }

  /** spec 2025-11-25 server/resources ("Resource Templates"). */
  listResourceTemplates(options: RequestOptions = {}): Promise<ResourceTemplate[]> {
    if (this.#state === "ready" && !this.#has("resources")) return Promise.resolve([]);
    return collectPages<ResourceTemplate>(
      `${this.#name}: resources/templates/list`,
      "resourceTemplates",
      (cursor) => this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options),
      this.#options.maxPages ?? DEFAULT_MAX_PAGES,
    );
  }

  /** spec 2025-11-25 server/resources ("Reading Resources"). Not found is RpcError -32002. */
  async readResource(uri: string, options: RequestOptions = {}): Promise<ReadResourceResult> {
    this.#requireCapability("resources", "resources/read");
    const result = await this.request("resources/read", { uri }, options);
    if (!Array.isArray(result.contents)) {
      throw new ProtocolError(`${this.#name}: resources/read "${uri}" returned no "contents" array`);
    }
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
    await this.request("resources/subscribe", { uri }, options);
  }

  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    this.#requireCapability("resources", "resources/unsubscribe");
    await this.request("resources/unsubscribe", { uri }, options);
  }

  /** spec 2025-11-25 server/prompts ("Listing Prompts"). [] without the prompts capability. */
  listPrompts(options: RequestOptions = {}): Promise<Prompt[]> {
    if (this.#state === "ready" && !this.#has("prompts")) return Promise.resolve([]);
    return collectPages<Prompt>(
      `${this.#name}: prompts/list`,
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
      throw new ProtocolError(`${this.#name}: prompts/get "${name}" returned no "messages" array`);
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
      throw new ProtocolError(`${this.#name}: completion/complete returned no "completion.values" array`);
    }
    return completion;
  }

  /** spec 2025-11-25 server/utilities/logging ("Setting Log Level"). */
  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    this.#requireCapability("logging", "logging/setLevel");
    await this.request("logging/setLevel", { level }, options);
  }

  // --- what the server sends us --------------------------------------------------------

  #installNotificationHandlers(peer: Peer): void {
    peer.setNotificationHandler("notifications/tools/list_changed", () => this.#emit("toolslistchanged", undefined));
    peer.setNotificationHandler("notifications/resources/list_changed", () => this.#emit("resourceslistchanged", undefined));
    peer.setNotificationHandler("notifications/prompts/list_changed", () => this.#emit("promptslistchanged", undefined));
    peer.setNotificationHandler("notifications/resources/updated", (params) => {
      if (typeof params?.uri === "string") this.#emit("resourceupdated", { uri: params.uri });
      else this.#problem(`${this.#name}: notifications/resources/updated without a "uri"; ignored`);
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
      this.#emit("log", message);
    });
    peer.setNotificationHandler("notifications/elicitation/complete", (params) => {
      const id = params?.elicitationId;
      // spec 2025-11-25 client/elicitation ("Completion Notifications"): MUST ignore unknown or completed ids.
      if (typeof id !== "string" || !this.#openElicitations.delete(id)) return;
      this.#emit("elicitationcomplete", { elicitationId: id });
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
        this.#problem(`${this.#name}: a log listener threw: ${String(error)}`);
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
      peer.setRequestHandler("roots/list", async (_params, context) => {
        // spec 2025-11-25 client/roots ("Listing Roots").
        const roots = handlers.roots !== undefined ? toRoots(await handlers.roots(this.#context(context))) : this.#roots ?? [];
        return { roots };
      });
    }
  }

  async #elicit(params: Params | undefined, context: IncomingRequestContext): Promise<Params> {
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
      if (typeof elicitationId !== "string") throw new RpcError(ErrorCode.InvalidParams, `${who}: url mode needs an "elicitationId"`);
      this.#openElicitations.add(elicitationId);
      // spec 2025-11-25 client/elicitation ("Safe URL Handling"): nothing is prefetched; the handler gets the full URL.
      const result = this.#checkedElicitResult(who, await handlers.url!({ url, host: new URL(url).host, message, elicitationId }, this.#context(context)));
      if (result.action !== "accept") this.#openElicitations.delete(elicitationId);
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
    if (this.#state === "ready") await this.notify("notifications/roots/list_changed");
  }

  /** The static roots list (what roots/list answers without a roots handler). */
  get roots(): readonly Root[] | undefined {
    return this.#roots;
  }
}

export const DEFAULT_LOG_BUFFER_SIZE = 1000;

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
