// The MCP client: its public face — spec 2025-11-25 basic/lifecycle, server/tools,
// server/resources, server/prompts, server/utilities/completion, server/utilities/logging;
// client/roots (setRoots). Dual-era: the 2026-07-28 stateless wire (spec 2026-07-28
// basic/versioning, basic/patterns/subscriptions, server/utilities/caching) beside the
// initialize handshake, chosen per server.
//
// Reading order of src/client/ (docs/architecture.md, "The client's folders"): this file; then
// client-connection.ts (state, connect and close, and the chain every request passes); the
// chain's links in order — answers.ts (errors typed, tool results checked), modern-request.ts
// (the 2026-07-28 era link); negotiation.ts (the era probe and the handshake); what the server
// asks and tells (server-requests.ts, server-notifications.ts); resources.ts, prompts.ts;
// extension.ts and extension-negotiation.ts (what an extension is). Then the folders: schema/
// (the JSON Schema validators), tasks/, skills/, apps/ (the extensions a client is given),
// telemetry/ (openTelemetry), extensions/ (the mcpwire/extensions entry).

import { ContainedEventTarget, type ListenerFailure } from "../common/events.ts";
import { checkOptions } from "../common/options.ts";
import type { Params, RequestOptions } from "../jsonrpc/peer.ts";
import type { ClientTransport } from "../transport/transport.ts";
import { ClientConnection, type ConnectOptions } from "./client-connection.ts";
import { lacksCapability, requireCapability } from "./client-context.ts";
import type { ClientEvents, ClientEventType } from "./client-events.ts";
import { type CallOptions, CLIENT_OPTIONS, type ClientOptions, type JoinedSession, type ListOptions, type ToolCallOptions } from "./client-options.ts";
import type { ClientState } from "./client-state.ts";
import { CapabilityError, ClientStateError } from "./errors.ts";
import type { ClientExtension, ExtensionParts } from "./extension.ts";
import { missingTasks, negotiatedExtension } from "./extension-negotiation.ts";
import { setRequestMeta } from "./modern-request.ts";
import { complete, getPrompt, listPrompts } from "./prompts.ts";
import type { ProtocolEra, ProtocolVersion } from "./protocol-version.ts";
import { listCached, readResource, subscribeResource, unsubscribeResource } from "./resources.ts";
import { LIST_KEYS } from "./result-cache.ts";
import { type RootInput, toRoots } from "./roots.ts";
import { JSON_SCHEMA_VALIDATORS, unavailableValidator } from "./schema/json-schema.ts";
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteReference,
  CompleteResult,
  GetPromptResult,
  Implementation,
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

/**
 * An MCP client. Its events reach listeners through ContainedEventTarget: a listener that
 * throws is reported as a `problem` event naming the event and what it threw, and the next
 * listener still runs — it never becomes an uncaught exception of the host.
 */
export class Client extends ContainedEventTarget<ClientEvents> {
  readonly clientInfo: Implementation;
  /** The connection's state and lifecycle; also the context the client's parts and extensions see. */
  readonly #c: ClientConnection;

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    super();
    checkOptions("Client", options, CLIENT_OPTIONS);
    if (options.jsonSchema !== undefined && !JSON_SCHEMA_VALIDATORS.includes(options.jsonSchema)) {
      throw new TypeError(
        `new Client: jsonSchema must be ${JSON_SCHEMA_VALIDATORS.map((name) => `"${name}"`).join(" or ")} (got ${JSON.stringify(options.jsonSchema)})`,
      );
    }
    const lacking = options.jsonSchema === undefined ? undefined : unavailableValidator(options.jsonSchema, "new Client");
    if (lacking !== undefined) throw lacking;
    if (options.telemetry !== undefined && typeof (options.telemetry as { start?: unknown } | null)?.start !== "function") {
      throw new TypeError(
        `new Client: telemetry must be made by openTelemetry() of mcpwire/telemetry (got ${
          typeof options.telemetry === "object" ? "an object without start()" : String(options.telemetry)
        }); ` +
          `write telemetry: openTelemetry() for true, openTelemetry({ tracer }) for options`,
      );
    }
    this.clientInfo = clientInfo;
    this.#c = new ClientConnection(clientInfo, options, (type, detail) => this.emit(type, detail), (error) => this.listenerFailed({ type: "log", error }));
  }

  /** What this client declares in `initialize`: what its handlers answer, plus `capabilities`. */
  get capabilities(): ClientCapabilities {
    return this.#c.capabilities;
  }

  // --- state -------------------------------------------------------------------------

  get state(): ClientState {
    return this.#c.state;
  }

  /** What ended the connection, when state is `failed`. */
  get failure(): Error | undefined {
    return this.#c.failure;
  }

  get serverInfo(): Implementation | undefined {
    return this.#c.init?.serverInfo;
  }

  /** The negotiated protocol version, once initialized (or discovered, on the modern wire). */
  get protocolVersion(): ProtocolVersion | undefined {
    return this.#c.version;
  }

  /** `modern` (2026-07-28, stateless) or `legacy` (the initialize handshake), once connected. */
  get era(): ProtocolEra | undefined {
    return this.#c.era;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#c.init?.capabilities;
  }

  /**
   * The server's settings of an extension when both sides declared it, else undefined —
   * spec 2026-07-28 basic/versioning ("Extension Negotiation"). See `EXTENSIONS`.
   */
  extension(id: string): JsonObject | undefined {
    return negotiatedExtension(this.#c.capabilities.extensions ?? {}, this.#c.init?.capabilities, id);
  }

  get instructions(): string | undefined {
    return this.#c.init?.instructions;
  }

  /** The transport this client was connected with. */
  get transport(): ClientTransport | undefined {
    return this.#c.transport;
  }

  /**
   * Typed listener; returns a function that removes it. The first `log` listener also gets
   * the log messages that arrived before `ready` while nobody listened.
   */
  override on<K extends ClientEventType>(type: K, listener: (detail: ClientEvents[K]) => void): () => void {
    const off = super.on(type, listener);
    if (type !== "log") return off;
    const removed = this.#c.serverNotifications.logListenerAdded(listener as (detail: LogMessage) => void);
    return () => {
      removed();
      off();
    };
  }

  /** A listener threw: reported as a problem, never thrown into the transport or the host. */
  protected override listenerFailed({ type, error }: ListenerFailure): void {
    this.emit("problem", { message: `${this.#c.name}: a "${type}" event listener threw: ${describeThrown(error)}`, cause: error });
  }

  // --- connect and close ---------------------------------------------------------------

  /**
   * Starts the transport and settles the era: the server/discover probe and, for a server of
   * the handshake era, the initialize handshake — spec 2025-11-25 basic/lifecycle
   * ("Initialization"), spec 2026-07-28 basic/versioning. Resolves once the client is `ready`.
   * A close() while connecting ends it `closed` and rejects with a ClientStateError.
   *
   * `transport` is a transport, or a function that makes one (`() => new StdioTransport(…)`):
   * only with a function can a stdio server that exits on the server/discover probe (a legacy
   * server, spec 2026-07-28 basic/transports/stdio "Backward Compatibility") be started again.
   * `options.serverKey` names the server in ClientOptions.eraCache (eraCacheKey() of mcpwire/host makes one);
   * without it the era is not remembered; `options.protocol` chooses the era of this connection.
   * A client that is closed or failed connects again (docs/architecture.md, "Reusable clients"):
   * what the last connection learned is forgotten, its listeners and extensions stay.
   */
  connect(transport: ClientTransport | (() => ClientTransport), options: ConnectOptions = {}): Promise<void> {
    return this.#c.connect(transport, options);
  }

  /**
   * Leave the Streamable HTTP session open when this client closes: spec 2025-11-25
   * basic/transports (Session Management 5) has a client end a session it no longer needs, and
   * one holding a detached task is still needed. Returns what another client passes as
   * ClientOptions.session to join it; undefined when the connection has no session (stdio,
   * the stateless 2026-07-28 wire).
   */
  keepSession(): JoinedSession | undefined {
    return this.#c.keepSession();
  }

  /**
   * Ends the connection (stdio: close stdin, SIGTERM, SIGKILL). Bounded; safe to call twice:
   * a second call resolves when the first one has finished.
   */
  close(): Promise<void> {
    return this.#c.close();
  }

  // --- requests ------------------------------------------------------------------------

  /** Sends any request; for methods the typed helpers do not cover. */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Params> {
    return this.#c.request(method, params, options);
  }

  /**
   * tools/call and ping requests answered with a result on this connection (a tool error
   * counts: the server answered). A host reads it as proof that the session is healthy.
   */
  get answeredCalls(): number {
    return this.#c.answered;
  }

  /** Sends any notification. */
  notify(method: string, params?: Params): Promise<void> {
    if (this.#c.state !== "ready") return Promise.reject(this.#c.notReady(method));
    return this.#c.notify(method, params);
  }

  /** spec 2025-11-25 basic/utilities/ping. Allowed while initializing. */
  async ping(options?: RequestOptions): Promise<void> {
    // spec 2026-07-28 changelog: no ping on the modern wire; server/discover, which every
    // modern server MUST answer, tells the same thing.
    await this.#c.request(this.#c.era === "modern" ? "server/discover" : "ping", undefined, options);
  }

  /**
   * Every tool, all pages followed. [] when the server has no tools capability. On the
   * 2026-07-28 wire a tool whose x-mcp-header annotations break the rules is left out, with
   * a problem event (spec 2026-07-28 streamable-http, "Custom Headers from Tool Parameters").
   */
  listTools(options: ListOptions = {}): Promise<Tool[]> {
    return this.#c.listTools(options);
  }

  /** The tools of the last listTools(), by name. */
  get knownTools(): ReadonlyMap<string, Tool> {
    return this.#c.tools;
  }

  /**
   * spec 2025-11-25 server/tools ("Calling Tools"). A tool error is a result with
   * `isError: true`; a protocol error throws RpcError. Always carries a progress token,
   * so progress restarts the timeout and reaches onProgress. When the server runs the call
   * as a task (spec 2025-11-25 basic/utilities/tasks; the 2026-07-28 tasks extension) it is
   * polled to its final result; see CallOptions.task, onTaskStatus and timeoutMs.
   */
  callTool(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<CallToolResult> {
    // The plain path: no async frame; the request goes down the chain composed at connect (the
    // extensions' links, the answers link that checks the result, the era's link, the Peer).
    const c = this.#c;
    if (c.state !== "ready") return Promise.reject(c.refused("tools/call"));
    if (c.init?.capabilities.tools === undefined) {
      return Promise.reject(new CapabilityError(`${c.name} did not declare the "tools" capability, so it does not accept tools/call`, { capability: "tools" }));
    }
    if (c.taskless && (options.task === true || typeof options.task === "object" || c.tools.get(name)?.execution?.taskSupport === "required")) {
      return Promise.reject(taskNeeded(c.name, name, options.task));
    }
    // The RequestOptions of the call, built once: `call` carries the CallOptions to the links that read them (tasks).
    const requestOptions: ToolCallOptions = {
      timeoutMs: options.timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs,
      signal: options.signal,
      onProgress: options.onProgress,
      progress: true,
      // With telemetry on, the parent is read once here: MRTR retries and task polls share it.
      traceContext: c.telemetry === undefined ? undefined : options.traceContext ?? c.telemetry.active(),
      call: options,
    };
    return c.send("tools/call", { name, arguments: args }, requestOptions) as Promise<CallToolResult>;
  }

  /**
   * What `extension`'s install() gave this client, if it was given that extension in
   * ClientOptions.use; else undefined. An extension's own helpers read it (tasksOf(client)).
   */
  installed<Api extends ExtensionParts>(extension: ClientExtension<Api>): Api | undefined {
    return this.#c.extensions.api(extension);
  }

  /** spec 2025-11-25 server/resources ("Listing Resources"). [] without the resources capability. */
  listResources(options: ListOptions = {}): Promise<Resource[]> {
    if (lacksCapability(this.#c, "resources")) return Promise.resolve([]);
    return listCached<Resource>(this.#c, LIST_KEYS.resources, "resources", options);
  }

  /** spec 2025-11-25 server/resources ("Resource Templates"). */
  listResourceTemplates(options: ListOptions = {}): Promise<ResourceTemplate[]> {
    if (lacksCapability(this.#c, "resources")) return Promise.resolve([]);
    return listCached<ResourceTemplate>(this.#c, LIST_KEYS.templates, "resourceTemplates", options);
  }

  /**
   * spec 2025-11-25 server/resources ("Reading Resources"). Not found is ResourceNotFoundError
   * (code -32002 in the handshake era, -32602 on the 2026-07-28 wire). Cached while fresh
   * (ttlMs) unless `fresh`; a notifications/resources/updated for the URI makes it stale.
   */
  readResource(uri: string, options: ListOptions = {}): Promise<ReadResourceResult> {
    return readResource(this.#c, uri, options);
  }

  /** spec 2025-11-25 server/resources ("Subscriptions"). */
  subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    return subscribeResource(this.#c, uri, options);
  }

  unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    return unsubscribeResource(this.#c, uri, options);
  }

  /** spec 2025-11-25 server/prompts ("Listing Prompts"). [] without the prompts capability. */
  listPrompts(options: RequestOptions = {}): Promise<Prompt[]> {
    return listPrompts(this.#c, options);
  }

  /** spec 2025-11-25 server/prompts ("Getting a Prompt"). Argument values are strings. */
  getPrompt(name: string, args: Record<string, string> = {}, options: RequestOptions = {}): Promise<GetPromptResult> {
    return getPrompt(this.#c, name, args, options);
  }

  /**
   * spec 2025-11-25 server/utilities/completion. `context.arguments` carries values already
   * chosen for other arguments.
   */
  complete(
    ref: CompleteReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: RequestOptions = {},
  ): Promise<CompleteResult> {
    return complete(this.#c, ref, argument, context, options);
  }

  /** spec 2025-11-25 server/utilities/logging ("Setting Log Level"). */
  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    const c = this.#c;
    if (c.era === "modern") {
      // spec 2026-07-28 server/utilities/logging: no logging/setLevel; the level travels in
      // every request's _meta (io.modelcontextprotocol/logLevel) from now on.
      c.logLevel = level;
      if (c.modernWire !== undefined) setRequestMeta(c.modernWire, c.requestMeta());
      return;
    }
    requireCapability(c, "logging", "logging/setLevel");
    await c.request("logging/setLevel", { level }, options);
  }

  /** Modern wire: the log level sent with each request, if one was set. */
  get loggingLevel(): LoggingLevel | undefined {
    return this.#c.logLevel;
  }

  /**
   * Replaces the static roots and tells the server — spec 2025-11-25 client/roots ("Root
   * List Changes"). Needs the roots capability (a `roots` list or handler at construction).
   */
  async setRoots(roots: RootInput[]): Promise<void> {
    if (this.#c.capabilities.roots === undefined) {
      throw new ClientStateError(
        "setRoots(): this client did not declare roots; pass `roots` or `handlers.roots` to new Client() to offer roots",
        "roots-not-declared",
        { state: this.#c.state },
      );
    }
    this.#c.roots = toRoots(roots);
    // spec 2026-07-28 changelog: no roots list_changed on the modern wire; servers ask again (MRTR).
    if (this.#c.state === "ready" && this.#c.era !== "modern") await this.notify("notifications/roots/list_changed");
  }

  /** The static roots list (what roots/list answers without a roots handler). */
  get roots(): readonly Root[] | undefined {
    return this.#c.roots;
  }
}

/** What a listener threw, as text; never throws itself (a thrown value's toString may). */
function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return "a value that cannot be shown";
  }
}

/**
 * A call that needs a task, in a client without the tasks extension: spec 2025-11-25
 * basic/utilities/tasks ("Tool-Level Negotiation"): a tool whose taskSupport is "required" MUST be
 * invoked as a task, which this client cannot do; a `task` option asks for what it cannot follow.
 */
function taskNeeded(who: string, tool: string, option: CallOptions["task"]): Error {
  return option === true || typeof option === "object"
    ? missingTasks(who, `tools/call "${tool}" with the task option`)
    : missingTasks(who, `tools/call "${tool}" (the tool requires a task: execution.taskSupport "required", spec 2025-11-25 basic/utilities/tasks)`);
}
