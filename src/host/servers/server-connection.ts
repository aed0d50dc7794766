// One supervised MCP server of a McpManager: connect (bounded by connect_timeout, retried
// with backoff unless the failure cannot fix itself: start-failure.ts), register its tools,
// reconnect after an unexpected disconnect, park and probe when the reconnect budget is
// spent, close. Nothing here knows of other servers.

import type { AuthEvent } from "../../auth/oauth-fetch.ts";
import { Client } from "../../client/client.ts";
import type { EraCache } from "../../client/era-cache.ts";
import type { ClientHandlers } from "../../client/handlers.ts";
import type { ProtocolEra } from "../../client/protocol-version.ts";
import type { JsonSchemaValidator } from "../../client/schema/schema-validator.ts";
import { SPAN_KIND, type Telemetry, type TelemetryContext, type TelemetryOptions } from "../../client/telemetry.ts";
import { startTelemetry } from "../../client/telemetry/telemetry-layer.ts";
import type { ClientCapabilities, Implementation } from "../../client/types.ts";
import { durationText } from "../../common/duration.ts";
import { messageOf } from "../../common/error-text.ts";
import type { Redactor } from "../../common/redact.ts";
import { type McpServerRegistration, registerMcpServer } from "../../registry/mcp-server.ts";
import type { ResultFiles } from "../../registry/result-files.ts";
import type { PinningMode, ToolPins } from "../../registry/tool-pins.ts";
import type { ToolRegistry } from "../../registry/tool-registry.ts";
import { showUrl } from "../../transport/http-errors.ts";
import type { TraceSink } from "../../transport/trace-event.ts";
import type { ServerConfig } from "../config/types.ts";
import { redactedCopy } from "../secrets.ts";
import { pinningOf } from "../store/pin-lock-file.ts";
import { backoffDelay, type BackoffOptions } from "./backoff.ts";
import { oauthSpan } from "./host-telemetry.ts";
import { ServerConnectionError, type ServerEvents, type ServerEventType, type ServerState, type ServerStatus, unavailableError } from "./server-status.ts";
import { ServerTrace } from "./server-trace.ts";
import { ServerTransports } from "./server-transport.ts";
import { sessionClientOptions } from "./session-client.ts";
import { type StartFailure, startFailure } from "./start-failure.ts";
import { detectedTransport, serverKeyOf } from "./transport-factory.ts";

/** How a ServerConnection supervises its server; McpManager fills in the defaults. */
export interface SupervisionOptions {
  clientInfo: Implementation;
  capabilities?: ClientCapabilities;
  /** Handlers for every server, or chosen per server. */
  handlers?: ClientHandlers | ((server: ServerConfig) => ClientHandlers | undefined);
  /** Delays between connect attempts (initial retries, reconnects). */
  backoff: BackoffOptions;
  /** Retries of the initial connect after the first attempt failed. */
  connectRetries: number;
  /** Reconnect attempts after an unexpected disconnect before the server is parked. */
  maxReconnectAttempts: number;
  /** Time between probes of a parked server. */
  probeIntervalMs: number;
  /** The manager's redactor: status texts and tool errors pass through it; OAuth tokens are added to it. */
  redactor: Redactor;
  /** Per server, where long results and binary content are saved (false or absent: nowhere). */
  resultFiles?: (server: ServerConfig) => ResultFiles | false;
  /** Where the era found under `protocol: auto` is remembered across runs (none: every connect probes). */
  eraCache?: EraCache;
  /** Trace every server (trace-event.ts): where events go and when the session started. Default: none. */
  trace?: { sink: TraceSink; startedAt: number };
  /** OpenTelemetry (host-telemetry.ts), its redactor the manager's: each client's spans, and reconnects as spans. Default: off. */
  telemetry?: TelemetryOptions;
  /** Tool pins, and each server's pinning mode (off: none). */
  pins?: { pins: ToolPins; mode: (server: ServerConfig) => PinningMode };
  /** Which JSON Schema validator each Client uses (ClientOptions.jsonSchema). Default: the runtime's. */
  jsonSchema?: JsonSchemaValidator;
  /** `false`: no tasks capability declared, no task run for a server (McpManagerOptions.taskReceiver). */
  taskReceiver?: false;
}

/** How much of a server's `serverInfo` status() copies: an Implementation is a few short fields. */
export const SERVER_INFO_BOUNDS = { maxDepth: 16, maxNodes: 1_000 } as const;

/**
 * Closes a client's connection and waits until its transport has reaped what the server left
 * behind. The transport is read at once: the same client may connect again meanwhile.
 */
async function endClient(client: Client): Promise<void> {
  const transport = client.transport;
  await client.close().catch(() => {});
  await transport?.close().catch(() => {});
}

/**
 * One configured server: its sessions (one Client, connected again after each loss: docs/architecture.md
 * "Reusable clients"), supervised at the connection level —
 * the client's state changes say when a session is lost, its answered tools/call and ping
 * (Client.answeredCalls) that it proved healthy, and its `unavailable` option lets a call on
 * it fail at once with a clear error while the server is reconnecting or parked (the registry
 * keeps calling the client it holds, and that is where it learns why).
 */
export class ServerConnection {
  readonly config: ServerConfig;
  readonly #registry: ToolRegistry;
  readonly #options: SupervisionOptions;
  readonly #emit: <K extends ServerEventType>(type: K, detail: ServerEvents[K]) => void;

  #state: ServerState;
  #reason: string | undefined;
  #lastError: string | undefined;
  #reconnectAttempts = 0;
  /** For an `auto` server: what the last session that connected turned out to use. */
  #detected: "http" | "sse" | undefined;
  /** The era the last session found under `protocol: auto`; a reconnect speaks it without probing. */
  #foundEra: ProtocolEra | undefined;
  /** The current session (during a reconnect: the one that was lost). */
  #client: Client | undefined;
  /** This server's one Client, made at the first connect with its listeners; each session connects it again. */
  #sessions: Client | undefined;
  /** The current session's answeredCalls when it became current: more means it proved healthy. */
  #answeredAtStart = 0;
  /** A client being connected or registered, not yet the current session. */
  #opening: Client | undefined;
  #registration: McpServerRegistration | undefined;
  /** Lost sessions whose transports are still reaping their processes. */
  readonly #ending = new Set<Promise<void>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #wake: ((proceed: boolean) => void) | undefined;
  #starting: Promise<void> | undefined;
  /** The reconnect or probe loop under way, if any. */
  #supervising: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closed = false;
  /** This server's trace, when the manager traces (trace-event.ts). */
  readonly #trace: ServerTrace | undefined;
  /** Its transport for each connect (server-transport.ts), and what the last start's sandbox was. */
  readonly #transports: ServerTransports;
  /** Connects made so far (a trace's `connecting` events count them). */
  #connects = 0;

  constructor(
    config: ServerConfig,
    registry: ToolRegistry,
    options: SupervisionOptions,
    emit: <K extends ServerEventType>(type: K, detail: ServerEvents[K]) => void,
  ) {
    this.config = config;
    this.#registry = registry;
    this.#options = options;
    this.#emit = emit;
    const unusable = this.#whyUnusable();
    this.#state = unusable === undefined ? "connecting" : "disabled";
    this.#reason = unusable;
    // `enabled: false` is a choice, not an error; everything else that keeps a server off is one.
    if (unusable !== undefined && (config.error !== undefined || config.enabled)) this.#lastError = unusable;
    const trace = options.trace;
    this.#trace = trace === undefined ? undefined : new ServerTrace({ ...trace, server: config.name }, config.transport, options.redactor);
    this.#transports = new ServerTransports(config, {
      redactor: options.redactor,
      trace: this.#trace,
      stderr: (detail) => this.#emit("stderr", detail),
      problem: (detail) => this.#emit("problem", detail),
      // Telemetry on: each OAuth step a span (host-telemetry.ts), under the reconnect when one runs.
      ...(options.telemetry !== undefined
        ? { authEvent: (event: AuthEvent) => this.#telemetry && oauthSpan(this.#telemetry, this.name, event, this.#reconnectContext) }
        : {}),
    });
  }

  get name(): string {
    return this.config.name;
  }

  get state(): ServerState {
    return this.#state;
  }

  /** The client of the current session; during a reconnect the lost one (its calls fail at once). */
  get client(): Client | undefined {
    return this.#state === "ready" || this.#state === "reconnecting" ? this.#client : undefined;
  }

  status(): ServerStatus {
    this.#settleHealth();
    const status: ServerStatus = {
      name: this.name,
      transport: this.config.transport === "auto" ? this.#detected ?? "auto" : this.config.transport,
      state: this.#state,
      tools: this.#registration?.names().length ?? 0,
      reconnectAttempts: this.#reconnectAttempts,
    };
    if (this.config.transport === "stdio" && this.config.sandbox !== undefined) {
      status.sandbox = { profile: this.config.sandbox.profile, ...this.#transports.sandbox };
    }
    const client = this.#client;
    if (client?.protocolVersion !== undefined) status.protocolVersion = client.protocolVersion;
    if (client?.era !== undefined) status.era = client.era;
    const redactor = this.#options.redactor;
    // A server decides how deep its serverInfo is (structuredClone of 100,000 levels overflows the stack).
    if (client?.serverInfo !== undefined) status.serverInfo = redactedCopy(client.serverInfo, redactor, SERVER_INFO_BOUNDS);
    if (this.#lastError !== undefined) status.lastError = redactor.redact(this.#lastError);
    if (this.#reason !== undefined && (this.#state === "disabled" || this.#state === "parked" || this.#state === "closed")) {
      status.reason = redactor.redact(this.#reason);
    }
    return status;
  }

  #whyUnusable(): string | undefined {
    const { config } = this;
    if (config.error !== undefined) return config.error.message;
    if (!config.enabled) return `server "${config.name}" is disabled in the config (enabled: false)`;
    if (config.transport !== "stdio") {
      if (config.url === undefined || config.url === "") {
        return `server "${config.name}": an ${config.transport} server needs a "url"; add one to its config`;
      }
      if (!URL.canParse(config.url) || !/^https?:$/.test(new URL(config.url).protocol)) {
        return `server "${config.name}": "url" must be an http:// or https:// URL, not ${JSON.stringify(config.url)}; fix its config`;
      }
      return undefined;
    }
    if (config.command === undefined || config.command === "") {
      return `server "${config.name}": a stdio server needs a "command"; add one to its config`;
    }
    return undefined;
  }

  #move(to: ServerState, error?: Error): void {
    const from = this.#state;
    if (from === to) return;
    this.#state = to;
    this.#emit("serverstate", error === undefined ? { server: this.name, from, to } : { server: this.name, from, to, error });
  }

  #problem(message: string): void {
    this.#emit("problem", { server: this.name, message });
  }

  // --- supervision of a session ------------------------------------------------------

  /** Why a call on `client` (which is not ready) cannot go out now, if the manager knows better than the client. */
  #unavailable(client: Client): Error | undefined {
    return unavailableError({
      server: this.name,
      serverState: this.#state,
      clientState: client.state,
      attempt: this.#reconnectAttempts,
      maxAttempts: this.#options.maxReconnectAttempts,
      reason: this.#reason,
      // This error goes to whoever called the client (the registry, an embedder): its text is redacted too.
      lastError: this.#lastError === undefined ? undefined : this.#options.redactor.redact(this.#lastError),
    });
  }

  /** The budget resets once the current session proves healthy: a tools/call or ping answered while it is ready. */
  #settleHealth(): void {
    if (this.#state === "ready" && this.#client !== undefined && this.#client.answeredCalls > this.#answeredAtStart) this.#reconnectAttempts = 0;
  }

  // --- connecting ----------------------------------------------------------------------

  /**
   * The initial connect, retried with backoff — unless a failure cannot fix itself (a missing
   * command, a package npm does not have, the same exit twice before a word: start-failure.ts).
   * Resolves when ready or given up; never rejects.
   */
  start(): Promise<void> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    if (this.#state !== "connecting" || this.#closed) return;
    await this.#tracing(); // telemetry on: the API loaded before the first connect (OAuth steps are reported synchronously)
    const attempts = 1 + Math.max(0, this.#options.connectRetries);
    let previousExit: string | undefined;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const failure = await this.#attempt();
      if (failure === undefined) return;
      const final = failure.final ??
        (failure.exit !== undefined && failure.exit === previousExit ? "it exited the same way twice before it answered" : undefined);
      previousExit = failure.exit;
      const retryInMs = final === undefined && attempt < attempts ? backoffDelay(attempt, this.#options.backoff) : undefined;
      const outcome = final !== undefined ? `, not retried (${final}, which no retry can change)` : "";
      this.#problem(`connect attempt ${attempt} of ${attempts} failed${outcome}: ${this.#lastError}`);
      this.#emit("connectfailed", {
        server: this.name,
        attempt,
        attempts,
        message: this.#lastError ?? "",
        ...(retryInMs === undefined ? {} : { retryInMs }),
        ...(final === undefined ? {} : { final }),
      });
      if (final !== undefined) {
        this.#park(`could not start: ${final}, which no retry can change`);
        return;
      }
      if (retryInMs !== undefined && !(await this.#sleep(retryInMs))) return;
    }
    this.#park(`could not start: ${attempts} connect attempt${attempts === 1 ? "" : "s"} failed`);
  }

  /** How the connect of the attempt under way failed (#open), for #start to judge whether to retry. */
  #failure: StartFailure = {};

  /**
   * One try at a session (#establish). Undefined when it is ready, or when the connection was
   * closed meanwhile (either way the caller's loop is over); after a failure, which is kept as
   * the last error, what start-failure.ts makes of it.
   */
  async #attempt(): Promise<StartFailure | undefined> {
    this.#failure = {};
    try {
      await this.#establish();
      return undefined;
    } catch (error) {
      if (this.#closed) return undefined;
      this.#lastError = messageOf(error);
      return this.#failure;
    }
  }

  /** A try at a session for the reconnect and probe loops: true when it is ready or closed; a failure is reported in the words of `failed`. */
  async #retry(failed: (error: string) => string): Promise<boolean> {
    if ((await this.#attempt()) === undefined) return true;
    this.#problem(failed(this.#lastError ?? ""));
    return false;
  }

  /** Spawns and initializes a new session, bounded by connect_timeout (spawn + initialize). */
  async #open(): Promise<Client> {
    const timeoutMs = this.config.connectTimeoutMs;
    const { protocol } = this.config;
    const client = this.#sessions ??= this.#makeClient();
    // spec 2026-07-28 basic/versioning: the era is a property of the server; clients SHOULD
    // cache it. Under auto, a reconnect speaks the era found last time, and probes again
    // if that fails.
    const cachedEra = protocol === undefined || protocol === "auto" ? this.#foundEra : undefined;
    if (this.#trace !== undefined) {
      const pinned = protocol === "modern" || protocol === "legacy" ? `pinned by the config (protocol: ${protocol})` : undefined;
      this.#trace.watch(client, ++this.#connects, pinned ?? (cachedEra === undefined ? undefined : "the era this server spoke on its last connection"));
    }
    this.#opening = client;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void client.close();
    }, timeoutMs);
    try {
      // stdio: a function, so that a server that exits on the era probe is started again; the key names it in the era cache.
      const transport = this.config.transport === "stdio" ? () => this.#transports.make() : this.#transports.make();
      await client.connect(transport, { traceContext: this.#reconnectContext, serverKey: serverKeyOf(this.config), protocol: cachedEra ?? protocol ?? "auto" });
      if (protocol === undefined || protocol === "auto") this.#foundEra = client.era;
      await this.#applyLogLevel(client);
      return client;
    } catch (error) {
      this.#foundEra = undefined; // the cached era (if any) is re-probed next time
      this.#failure = timedOut ? {} : startFailure(error);
      await endClient(client);
      if (this.#opening === client) this.#opening = undefined;
      if (timedOut) {
        const child = client.transport?.serverProcess;
        if (child === undefined) {
          throw new ServerConnectionError(
            `server "${this.name}" did not finish connecting (initialize over ${this.config.transport} to ${showUrl(new URL(this.config.url!))}) ` +
              `within ${durationText(timeoutMs)}; raise connect_timeout or check that the server is up`,
            "connect-timeout",
            { server: this.name },
          );
        }
        const tail = child.stderrTail.slice(-3);
        throw new ServerConnectionError(
          `server "${this.name}" did not finish connecting (spawn + initialize) within ${durationText(timeoutMs)}; ` +
            `raise connect_timeout or check the server's stderr` + (tail.length > 0 ? ` (last stderr: ${tail.join(" | ")})` : ""),
          "connect-timeout",
          { server: this.name },
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Config key `log_level` — spec 2025-11-25 server/utilities/logging ("Setting Log Level"):
   * sent only to a server that declares logging; a refusal is reported, not fatal.
   */
  async #applyLogLevel(client: Client): Promise<void> {
    const level = this.config.logLevel;
    if (level === undefined) return;
    if (client.serverCapabilities?.logging === undefined) {
      this.#problem(`log_level "${level}" is ignored: the server does not declare the logging capability`);
      return;
    }
    try {
      await client.setLoggingLevel(level);
    } catch (error) {
      this.#problem(`logging/setLevel "${level}" failed: ${messageOf(error)}; the server keeps its own level`);
    }
  }

  /** This server's Client, made once: its options and listeners stay across sessions. */
  #makeClient(): Client {
    const options = sessionClientOptions(this.config, this.#options);
    // A call while the server reconnects or is parked fails at once, saying so.
    options.unavailable = () => this.#unavailable(client);
    const client: Client = new Client(this.#options.clientInfo, options);
    client.on(
      "log",
      ({ level, logger, data }) => this.#emit("log", logger === undefined ? { server: this.name, level, data } : { server: this.name, level, logger, data }),
    );
    client.on("problem", ({ message }) => this.#problem(message));
    client.on(
      "taskStatus",
      ({ taskId, status, statusMessage }) =>
        this.#emit("taskStatus", statusMessage === undefined ? { server: this.name, taskId, status } : { server: this.name, taskId, status, statusMessage }),
    );
    client.on("statechange", ({ to, cause }) => {
      if (to === "failed" && client === this.#client) this.#lost(cause);
    });
    return client;
  }

  /** Opens a session, registers (or re-lists) its tools and makes it current; `ready` after. */
  async #establish(): Promise<void> {
    const client = await this.#open();
    try {
      if (this.#closed) throw new ServerConnectionError(`server "${this.name}" was closed while connecting`, "closed-while-connecting", { server: this.name });
      const { tools, naming, timeoutMs, tasks } = this.config;
      if (this.#registration === undefined) {
        this.#registration = await registerMcpServer(this.#registry, this.name, client, {
          include: tools.include,
          exclude: tools.exclude,
          naming,
          timeoutMs,
          ...(tasks !== undefined ? { tasks } : {}),
          redactor: this.#options.redactor,
          ...(this.#options.resultFiles !== undefined ? { resultFiles: this.#options.resultFiles(this.config) } : {}),
          ...pinningOf(this.config, this.#options.pins, this.#options.redactor),
        });
      } else {
        // After a reconnect the tool set is re-listed and changed by difference.
        await this.#registration.replaceClient(client);
      }
      if (this.#closed) {
        throw new ServerConnectionError(`server "${this.name}" was closed while its tools were being registered`, "closed-while-connecting", {
          server: this.name,
        });
      }
      if (client.state !== "ready") {
        throw client.failure ??
          new ServerConnectionError(`server "${this.name}": the connection ended while its tools were being listed`, "connection-closed", {
            server: this.name,
          });
      }
    } catch (error) {
      if (this.#closed) {
        this.#registration?.unregister();
        this.#registration = undefined;
      }
      this.#opening = undefined;
      await endClient(client);
      throw error;
    }
    this.#opening = undefined;
    this.#client = client;
    this.#answeredAtStart = client.answeredCalls;
    this.#detected = detectedTransport(client.transport) ?? this.#detected;
    if (this.#state === "parked") this.#reconnectAttempts = 0; // a probe brought it back: a fresh budget
    this.#reason = undefined;
    this.#move("ready");
  }

  // --- supervision ---------------------------------------------------------------------

  /** With telemetry on, while a reconnect runs: its span's context (the parent of each attempt's connect span). */
  #reconnectContext: TelemetryContext | undefined;
  /** With telemetry on: the host's Telemetry, loaded once (#tracing); undefined when off or not loaded. */
  #telemetry: Telemetry | undefined;
  #telemetryLoading: Promise<Telemetry | undefined> | undefined;

  /** The host's Telemetry when telemetry is on (loaded once; a load that fails is the clients' to report). */
  #tracing(): Promise<Telemetry | undefined> {
    if (this.#options.telemetry === undefined) return Promise.resolve(undefined);
    this.#telemetryLoading ??= startTelemetry(this.#options.telemetry, `server "${this.name}"`).then(
      (telemetry) => (this.#telemetry = telemetry),
      () => undefined,
    );
    return this.#telemetryLoading;
  }

  /** The current session ended without our asking. Its pending calls have already failed. */
  #lost(cause: Error | undefined): void {
    if (this.#closed || this.#state !== "ready") return;
    this.#settleHealth();
    const lost = this.#client;
    if (lost !== undefined) this.#track(endClient(lost));
    this.#lastError = cause?.message ?? `server "${this.name}": the connection was lost`;
    this.#move("reconnecting", cause);
    this.#trace?.reconnect(this.#lastError);
    this.#supervising = this.#reconnect();
  }

  #track(ending: Promise<void>): void {
    this.#ending.add(ending);
    void ending.finally(() => this.#ending.delete(ending));
  }

  /**
   * With telemetry on, the reconnect is a span: its attempts' connect spans are its children, it
   * ends failed when the server is parked — OpenTelemetry semantic conventions for MCP.
   */
  async #reconnect(): Promise<void> {
    const telemetry = await this.#tracing();
    if (telemetry === undefined) return await this.#reconnectLoop();
    const span = telemetry.start("mcp reconnect", SPAN_KIND.internal, { "mcp.server": this.name });
    telemetry.event(span, "connection lost", { "exception.message": this.#lastError });
    this.#reconnectContext = telemetry.within(undefined, span);
    try {
      await this.#reconnectLoop();
    } finally {
      this.#reconnectContext = undefined;
      span.setAttribute("mcp.reconnect.attempts", this.#reconnectAttempts);
      if (this.#state === "ready" || this.#closed) span.end();
      else {
        const message = `server "${this.name}": ${this.#state} after ${this.#reconnectAttempts} reconnect attempts: ${this.#lastError ?? ""}`;
        telemetry.fail(span, new ServerConnectionError(message, "server-parked", { server: this.name }));
      }
    }
  }

  async #reconnectLoop(): Promise<void> {
    const max = this.#options.maxReconnectAttempts;
    while (!this.#closed) {
      if (this.#reconnectAttempts >= max) {
        this.#park(`gave up after ${max} reconnect attempt${max === 1 ? "" : "s"}`);
        return;
      }
      this.#reconnectAttempts += 1;
      const delayMs = backoffDelay(this.#reconnectAttempts, this.#options.backoff);
      if (!(await this.#sleep(delayMs))) return;
      if (await this.#retry((error) => `reconnect attempt ${this.#reconnectAttempts} of ${max} failed: ${error}`)) return;
    }
  }

  /** Gives up for now: withdraws the tools and probes every probeIntervalMs. */
  #park(why: string): void {
    if (this.#closed) return;
    this.#registration?.unregister();
    this.#registration = undefined;
    this.#reason = `${why}; probing every ${durationText(this.#options.probeIntervalMs)}`;
    const message = `server "${this.name}" ${this.#reason}; last error: ${this.#lastError ?? "none"}`;
    this.#move("parked", new ServerConnectionError(message, "server-parked", { server: this.name }));
    this.#supervising = this.#probeLoop();
  }

  async #probeLoop(): Promise<void> {
    while (!this.#closed && this.#state === "parked") {
      if (!(await this.#sleep(this.#options.probeIntervalMs))) return;
      if (await this.#retry((error) => `probe failed: ${error}; next probe in ${durationText(this.#options.probeIntervalMs)}`)) return;
    }
  }

  /** Waits ms; resolves false at once if the connection is closed meanwhile. */
  #sleep(ms: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.#wake = resolve;
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#wake = undefined;
        resolve(!this.#closed);
      }, ms);
    });
  }

  // --- closing -------------------------------------------------------------------------

  /** Withdraws the tools, stops every timer and ends the server's process. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#wake?.(false);
    this.#wake = undefined;
    this.#registration?.unregister();
    this.#registration = undefined;
    const clients = [...new Set([this.#client, this.#opening])].filter((client): client is Client => client !== undefined);
    this.#move("closed");
    await Promise.all([...clients.map(endClient), ...this.#ending, this.#starting, this.#supervising]);
  }
}
