// The server manager: starts every configured MCP server in parallel, registers their tools
// in one ToolRegistry, supervises each one (reconnect, park, probe) and shuts them all down.
// Everything it hands out — events, status() — has passed through its redactor, and server
// data in it is a bounded copy; a listener that throws is reported, never uncaught.

import type { Client } from "../../client/client.ts";
import type { EraCache } from "../../client/era-cache.ts";
import type { ClientHandlers } from "../../client/handlers.ts";
import type { JsonSchemaValidator } from "../../client/schema/schema-validator.ts";
import type { TelemetryOption, TelemetryOptions } from "../../client/telemetry.ts";
import type { ClientCapabilities, Implementation } from "../../client/types.ts";
import { durationText } from "../../common/duration.ts";
import { messageOf } from "../../common/error-text.ts";
import { ContainedEventTarget, DetailEvent, type ListenerFailure } from "../../common/events.ts";
import { checkOptions, optionNames } from "../../common/options.ts";
import type { Redactor } from "../../common/redact.ts";
import { type PinningMode, ToolPins } from "../../registry/tool-pins.ts";
import { ToolRegistry } from "../../registry/tool-registry.ts";
import { runtime } from "../../runtime/mod.ts";
import type { TraceSink } from "../../transport/trace-event.ts";
import type { McpwireConfig, ServerConfig } from "../config/types.ts";
import { redactedCopy, redactError, redactorFor } from "../secrets.ts";
import { defaultEraCache } from "../store/file-era-cache.ts";
import { PinLockFile, pinLockFileOf } from "../store/pin-lock-file.ts";
import type { BackoffOptions } from "./backoff.ts";
import { hostTelemetry } from "./host-telemetry.ts";
import { resultFilesChooser } from "./result-settings.ts";
import { ServerConnection, type SupervisionOptions } from "./server-connection.ts";
import type { ServerEvents, ServerEventType, ServerStatus } from "./server-status.ts";

export { ServerUnavailableError } from "./server-status.ts";
export type { ServerEvents, ServerState, ServerStatus } from "./server-status.ts";

/** Options of an McpManager: the registry, handlers, timeouts, supervision, era cache and redactor. */
export interface McpManagerOptions {
  /** The registry MCP tools go into (beside your built-in tools). Default: a new one. */
  registry?: ToolRegistry;
  /** Sent as clientInfo in every initialize. */
  clientInfo?: Implementation;
  /** Capabilities every client declares. Default: none. */
  capabilities?: ClientCapabilities;
  /**
   * What answers the servers' requests (elicitation, sampling, roots): the same handlers for
   * every server, or a function choosing them per server (undefined: none for that one).
   * Each handler declares its capability; a server's `roots` and `sampling` config keys
   * supply the static roots list and the sampling policy.
   */
  handlers?: ClientHandlers | ((server: ServerConfig) => ClientHandlers | undefined);
  /** Delays between connect attempts. Default 1 s doubling to 60 s, ±20 % jitter. */
  reconnectDelay?: BackoffOptions;
  /** Retries of a server's initial connect after its first attempt failed. Default 3. */
  connectRetries?: number;
  /** Reconnect attempts after an unexpected disconnect before a server is parked. Default 5. */
  maxReconnectAttempts?: number;
  /** Time between probes of a parked server. Default 300 s. */
  probeIntervalMs?: number;
  /** Bound of close() over all servers. Default 10 s. */
  closeTimeoutMs?: number;
  /**
   * The redactor every output of this manager passes through; the config's secrets are added
   * to it. Default: a new one. Pass your own to share it with your own output paths.
   */
  redactor?: Redactor;
  /**
   * Save long results and binary content (images, audio, blobs) as files, as the config's
   * `results:` keys say (directory, per-server off switch): the model gets the head, the tail
   * and the path. Default false (`mcpwire run` and `chat` turn it on).
   */
  resultFiles?: boolean;
  /**
   * Where the era of each server found under `protocol: auto` is remembered (file-era-cache.ts),
   * so later runs skip the server/discover probe for a legacy server. Default: the file
   * `$XDG_CACHE_HOME/mcpwire/eras.json` (else `~/.cache/mcpwire/eras.json`), unless the
   * environment has MCPWIRE_ERA_CACHE=off; false: none (every connect probes).
   */
  eraCache?: EraCache | false;
  /**
   * Trace every server (trace-event.ts, version 1): each JSON-RPC message (answers naming their
   * request, with latency), HTTP exchange, process event and lifecycle step goes to this sink,
   * redacted like every other output (the config's secrets, tokens, credential shapes).
   * `t` counts from the manager's construction. Default: none, and nothing is traced.
   */
  trace?: TraceSink;
  /**
   * OpenTelemetry for every server (docs/telemetry.md): each client's requests in spans, their
   * trace context sent to the server, reconnects as spans; every attribute through this
   * manager's redactor. `true` uses the global tracer, options choose a tracer and what is
   * captured. Default: the config's `telemetry:` key; off when neither says, and then
   * @opentelemetry/api is never loaded.
   */
  telemetry?: TelemetryOption;
  /**
   * Tool pinning, trust on first use (registry/tool-pins.ts), where the config does not set it
   * (its `pinning:`, top level or per server, wins): `hold` (default) keeps a tool that is new
   * or changed since its server's tools were pinned out of the registry's list() and dispatch
   * until accepted; `warn` offers it; both say so as a "toolheld" event and a registry warning;
   * `off` records nothing.
   */
  pinning?: PinningMode;
  /**
   * Where the pins are kept. Default: the lock file `mcpwire.lock.json` beside a project's config
   * file, else under `$XDG_STATE_HOME/mcpwire/` (`~/.local/state/mcpwire/`), or the file the
   * environment's MCPWIRE_LOCK_FILE names (`off`: in memory, as when there is no home).
   */
  pins?: ToolPins;
  /**
   * Which JSON Schema validator checks every server's outputSchemas and elicitation answers
   * (ClientOptions.jsonSchema): `ajv` or `interpreting` (no code generation). Default: ajv
   * where code generation works.
   */
  jsonSchema?: JsonSchemaValidator;
  /**
   * `false`: the clients declare no `tasks` capability and run no task a server asks of them
   * (ClientOptions.taskReceiver), for a host that passes on another client's capabilities
   * exactly (mcpwire serve, when its host declared none). Default: declared.
   */
  taskReceiver?: false;
}

export const DEFAULT_CONNECT_RETRIES = 3;
export const DEFAULT_MAX_RECONNECT_ATTEMPTS = 5;
export const DEFAULT_PROBE_INTERVAL_MS = 300_000;
export const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
/** clientInfo when none is given (the CLI passes its own); test/docs/changelog.test.ts keeps its version equal to package.json's. */
export const DEFAULT_MANAGER_CLIENT_INFO: Implementation = { name: "mcpwire", version: "0.2.0" };

/** The events a McpManager emits; listen with `manager.on(type, listener)`. */
export type ManagerEvents = ServerEvents;
/** The name of an event of an McpManager. */
export type ManagerEventType = ServerEventType;

/** The Event a McpManager dispatches; `detail` is exactly what was emitted. */
export class ManagerEvent<K extends ManagerEventType = ManagerEventType> extends DetailEvent<ManagerEvents[K]> {
  constructor(type: K, detail: ManagerEvents[K]) {
    super(type, detail);
  }
}

/** How deep and how large a log's `data` forwarded in a "log" event may be; the rest is marked. */
export const LOG_DATA_BOUNDS = { maxDepth: 64, maxNodes: 100_000 } as const;

/** Every option an McpManager reads (its constructor checks them). */
const MANAGER_OPTIONS = optionNames<McpManagerOptions>({
  registry: true,
  clientInfo: true,
  capabilities: true,
  handlers: true,
  reconnectDelay: true,
  connectRetries: true,
  maxReconnectAttempts: true,
  probeIntervalMs: true,
  closeTimeoutMs: true,
  redactor: true,
  resultFiles: true,
  eraCache: true,
  trace: true,
  telemetry: true,
  pinning: true,
  pins: true,
  jsonSchema: true,
  taskReceiver: true,
});

/**
 * Runs the configured servers and puts their tools in one registry. Its events reach listeners
 * contained: a listener that throws is reported as a "problem" event (with the listener's
 * error) and the other listeners still get the event.
 */
export class McpManager extends ContainedEventTarget<ManagerEvents> {
  readonly registry: ToolRegistry;
  /** Knows the config's secrets (and tokens as they are obtained): pass any output through `redact()`. */
  readonly redactor: Redactor;
  /** The telemetry its clients report with (the option, else the config's key; attributes through `redactor`); undefined when off. A Runner over its registry can take it. */
  readonly telemetry: TelemetryOptions | undefined;
  readonly #connections: ServerConnection[];
  readonly #closeTimeoutMs: number;
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** The server of the event being dispatched, to name it when a listener throws. */
  #dispatching: string | undefined;
  readonly #unsubscribeHeld: () => void;

  constructor(config: McpwireConfig, options: McpManagerOptions = {}) {
    super();
    checkOptions("McpManager", options, MANAGER_OPTIONS);
    this.registry = options.registry ?? new ToolRegistry();
    this.redactor = redactorFor(config, options.redactor);
    this.#closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    const supervision: SupervisionOptions = {
      clientInfo: options.clientInfo ?? DEFAULT_MANAGER_CLIENT_INFO,
      capabilities: options.capabilities,
      handlers: options.handlers,
      backoff: options.reconnectDelay ?? {},
      connectRetries: options.connectRetries ?? DEFAULT_CONNECT_RETRIES,
      maxReconnectAttempts: options.maxReconnectAttempts ?? DEFAULT_MAX_RECONNECT_ATTEMPTS,
      probeIntervalMs: options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS,
      redactor: this.redactor,
      ...(options.resultFiles === true ? { resultFiles: resultFilesChooser(config) } : {}),
      eraCache: options.eraCache === false ? undefined : options.eraCache ?? defaultEraCache(),
      ...(options.trace === undefined ? {} : { trace: { sink: options.trace, startedAt: performance.now() } }),
      ...hostTelemetry(options.telemetry, config, this.redactor),
      pins: { pins: options.pins ?? defaultPins(config), mode: (server) => server.pinning ?? config.pinning ?? options.pinning ?? "hold" },
      ...(options.jsonSchema === undefined ? {} : { jsonSchema: options.jsonSchema }),
      ...(options.taskReceiver === false ? { taskReceiver: false as const } : {}),
    };
    this.telemetry = supervision.telemetry;
    const emit = <K extends ManagerEventType>(type: K, detail: ManagerEvents[K]) => this.emit(type, detail);
    this.#connections = config.servers.map((server) => new ServerConnection(server, this.registry, supervision, emit));
    const names = new Set(config.servers.map((server) => server.name));
    this.#unsubscribeHeld = this.registry.on("toolheld", ({ server, tool, name, change, fields, renamedFrom, offered }) => {
      if (!names.has(server)) return;
      this.emit("toolheld", { server, tool, name, change, fields, ...(renamedFrom !== undefined ? { renamedFrom } : {}), offered });
    });
  }

  /**
   * Every event goes out here: its text through the redactor (the config's secrets, tokens,
   * credential shapes), a log's data as a bounded copy; then to the listeners, contained.
   */
  protected override emit<K extends ManagerEventType>(type: K, detail: ManagerEvents[K]): void {
    const outer = this.#dispatching;
    this.#dispatching = detail.server;
    try {
      this.dispatchEvent(new ManagerEvent(type, this.#redacted(type, detail)));
    } finally {
      this.#dispatching = outer;
    }
  }

  #redacted<K extends ManagerEventType>(type: K, detail: ManagerEvents[K]): ManagerEvents[K] {
    const redactor = this.redactor;
    // One case per event type; the casts say what `type` already proved.
    switch (type) {
      case "problem": {
        const problem = detail as ManagerEvents["problem"];
        // `error` is what a listener threw: the embedder's own value, handed back as it was.
        return { ...problem, message: redactor.redact(problem.message) } as ManagerEvents[K];
      }
      case "connectfailed": {
        const failed = detail as ManagerEvents["connectfailed"];
        const final = failed.final === undefined ? {} : { final: redactor.redact(failed.final) };
        return { ...failed, message: redactor.redact(failed.message), ...final } as ManagerEvents[K];
      }
      case "stderr": {
        const { server, line } = detail as ManagerEvents["stderr"];
        return { server, line: redactor.redact(line) } as ManagerEvents[K];
      }
      case "log": {
        const { server, level, logger, data } = detail as ManagerEvents["log"];
        const out: ManagerEvents["log"] = { server, level, data: redactedCopy(data, redactor, LOG_DATA_BOUNDS) };
        if (logger !== undefined) out.logger = redactor.redact(logger);
        return out as ManagerEvents[K];
      }
      case "taskStatus": {
        // The status message is the server's text.
        const update = detail as ManagerEvents["taskStatus"];
        if (update.statusMessage === undefined) return detail;
        return { ...update, statusMessage: redactor.redact(update.statusMessage) } as ManagerEvents[K];
      }
      case "toolheld": {
        // Tool names are the server's text.
        const held = detail as ManagerEvents["toolheld"];
        const renamedFrom = held.renamedFrom === undefined ? {} : { renamedFrom: redactor.redact(held.renamedFrom) };
        return { ...held, tool: redactor.redact(held.tool), name: redactor.redact(held.name), ...renamedFrom } as ManagerEvents[K];
      }
      case "serverstate": {
        const change = detail as ManagerEvents["serverstate"];
        if (change.error === undefined) return detail;
        return { ...change, error: redactError(change.error, redactor) } as ManagerEvents[K];
      }
      default:
        return detail;
    }
  }

  /** A listener threw: a "problem" naming the server of the event, with the listener's error. */
  protected override listenerFailed({ type, error }: ListenerFailure): void {
    const server = this.#dispatching ?? "";
    const message = messageOf(error);
    this.emit("problem", {
      server,
      message: `${server === "" ? "" : `server "${server}": `}a "${type}" listener of the manager threw: ${message}; ` +
        "the other listeners still got the event; fix the listener (the manager carries on)",
      error,
    });
  }

  /**
   * Starts every enabled server in parallel; each registers its tools as soon as it is
   * ready. Resolves once every server is ready or has given up (see status()); never
   * rejects because of a server. Calling it again returns the same promise.
   */
  start(): Promise<void> {
    this.#starting ??= Promise.all(this.#connections.map((connection) => connection.start())).then(() => {});
    return this.#starting;
  }

  /**
   * Starts one server, leaving the others as they are (not started, unless start() or
   * startServer() started them): for a host that needs one server's tools and should not
   * wait for, or spawn, the rest. Resolves once that server is ready or has given up (see
   * status()); never rejects because of the server; a name the config does not hold rejects.
   * Calling it again returns the same promise.
   */
  startServer(name: string): Promise<void> {
    const connection = this.#connections.find((each) => each.name === name);
    if (connection === undefined) {
      const names = this.#connections.map((each) => `"${each.name}"`).join(", ");
      // A name the config does not hold is the calling program's mistake: a RangeError (docs/errors.md).
      return Promise.reject(new RangeError(`McpManager.startServer: no server "${name}" is configured (configured: ${names === "" ? "none" : names})`));
    }
    return connection.start();
  }

  /** One entry per configured server, in config order. */
  status(): ServerStatus[] {
    // Each row is built from bounded, redacted copies (server-connection.ts): one server's data cannot break another's row.
    return this.#connections.map((connection) => connection.status());
  }

  /**
   * The client of a server's current session, for what the registry does not cover
   * (resources, prompts, ping). Undefined unless the server is ready or reconnecting.
   */
  client(name: string): Client | undefined {
    return this.#connections.find((connection) => connection.name === name)?.client;
  }

  /**
   * Closes every server in parallel — tools withdrawn, timers cleared, processes ended —
   * bounded by closeTimeoutMs overall. Idempotent: a second call returns the same promise.
   */
  close(): Promise<void> {
    this.#unsubscribeHeld();
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pending = new Set(this.#connections);
    const all = Promise.all(this.#connections.map((connection) => connection.close().finally(() => pending.delete(connection))));
    const bound = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.#closeTimeoutMs)));
    const finished = await Promise.race([all.then(() => true), bound]);
    clearTimeout(timer);
    if (!finished) {
      for (const connection of pending) {
        this.emit("problem", {
          server: connection.name,
          message: `server "${connection.name}" did not finish closing within ${durationText(this.#closeTimeoutMs)}; gave up waiting for it`,
        });
      }
    }
  }
}

/** The manager's default pins: the config's lock file (pin-lock-file.ts), or memory when there is no place for one. */
function defaultPins(config: McpwireConfig): ToolPins {
  const file = pinLockFileOf(config, runtime.env());
  return new ToolPins(file === undefined ? {} : { store: new PinLockFile(file) });
}
