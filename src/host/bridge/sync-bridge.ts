// The sync-facing bridge for hosts (docs/architecture.md "`dispatchSync`"): createSyncBridge
// runs an McpManager in a worker thread (bridge-worker.ts) and offers its tool registry to
// synchronous code. The blocking itself is src/registry/blocking-worker.ts.

import type { JsonObject } from "../../client/types.ts";
import { durationText } from "../../common/duration.ts";
import { checkOptions, optionNames } from "../../common/options.ts";
import { type SyncOutcome, SyncWorker } from "../../registry/blocking-worker.ts";
import { SyncBridgeError } from "../../registry/registry-errors.ts";
import type { LlmToolSchema, ToolCaller } from "../../registry/types.ts";
import { runtime } from "../../runtime/mod.ts";
import { ConfigError, type ConfigErrorCode, DEFAULT_TOOL_TIMEOUT_MS, type McpwireConfig, type ServerConfig } from "../config/types.ts";
import type { McpManagerOptions, ServerStatus } from "../servers/manager.ts";

export { SyncBridgeError } from "../../registry/registry-errors.ts";

/** Where the bridge's servers come from: a loaded config, or a file the worker loads. */
export type SyncBridgeSource = { config: McpwireConfig } | { configPath: string };

/** The manager options that can cross into the worker (no registry, no functions). */
export type SyncBridgeManagerOptions = Pick<
  McpManagerOptions,
  "clientInfo" | "capabilities" | "reconnectDelay" | "connectRetries" | "maxReconnectAttempts" | "probeIntervalMs" | "closeTimeoutMs"
>;

/** Options of createSyncBridge: timeouts, and the manager options passed to the worker. */
export interface SyncBridgeOptions {
  /**
   * Bound of createSyncBridge: the worker's start, loading the config and the manager's
   * start (every server ready or given up). Default 120 s.
   */
  startTimeoutMs?: number;
  /** dispatchSync's limit for a call that gives none. Default 300 s, the default tool timeout. */
  timeoutMs?: number;
  /** Bound of close(): the manager's close (10 s by default) and the worker's end. Default 15 s. */
  closeTimeoutMs?: number;
  manager?: SyncBridgeManagerOptions;
}

/** Options of `dispatchSync`: how long the caller blocks at most. */
export interface DispatchSyncOptions {
  /**
   * How long dispatchSync blocks, overall. When it passes the call is cancelled in the worker
   * (`notifications/cancelled` to the server) and an `{"error": …}` naming the limit returned.
   * The server's own `timeout` still applies inside. Default: the bridge's `timeoutMs`.
   */
  timeoutMs?: number;
  /**
   * Who the call is for (ToolRegistry's ToolCallContext.caller). Default "model": an app-only
   * tool (MCP Apps visibility ["app"]) is refused with an `{"error": …}`; a host calling it for
   * the server's app passes "app" (and `appServer`).
   */
  caller?: ToolCaller;
  /** With caller "app": the server whose app asks. */
  appServer?: string;
}

/** A tool registry run by a worker thread, called from synchronous code. */
export interface SyncBridge {
  /** The tools as an LLM function-calling API takes them (ToolRegistry.list()). Throws a SyncBridgeError once closed or dead. */
  listTools(): LlmToolSchema[];
  /**
   * ToolRegistry.dispatch, blocking: the same `{"result": …}` / `{"error": …}` string. Never
   * throws for anything a tool, a server or the bridge does: a timeout, a dead worker and a
   * closed bridge are `{"error": …}` strings too.
   */
  dispatchSync(name: string, args?: JsonObject | string, options?: DispatchSyncOptions): string;
  /** One entry per configured server (McpManager.status()). Throws a SyncBridgeError once closed or dead. */
  status(): ServerStatus[];
  /** Closes every server and ends the worker, bounded by closeTimeoutMs. Idempotent; never throws. */
  close(): void;
}

export const DEFAULT_BRIDGE_START_TIMEOUT_MS = 120_000;
export const DEFAULT_BRIDGE_CLOSE_TIMEOUT_MS = 15_000;
/** listTools() and status() only read the worker's registry; an answer takes milliseconds. */
const QUERY_TIMEOUT_MS = 10_000;

const workerUrl = new URL(import.meta.url.endsWith(".js") ? "./bridge-worker.js" : "./bridge-worker.ts", import.meta.url); // compiled (dist/) or source

/** Every option createSyncBridge reads, and those of its manager (checked before the worker starts). */
const SYNC_BRIDGE_OPTIONS = optionNames<SyncBridgeOptions>({ startTimeoutMs: true, timeoutMs: true, closeTimeoutMs: true, manager: true });
const SYNC_BRIDGE_MANAGER_OPTIONS = optionNames<SyncBridgeManagerOptions>({
  clientInfo: true,
  capabilities: true,
  reconnectDelay: true,
  connectRetries: true,
  maxReconnectAttempts: true,
  probeIntervalMs: true,
  closeTimeoutMs: true,
});

/**
 * Starts a worker thread running an McpManager over `source`, and blocks until the manager
 * has started (every server ready or given up; see status()). Throws a SyncBridgeError when
 * the config cannot be loaded, the worker fails, or starting takes longer than startTimeoutMs;
 * an UnsupportedRuntimeError (code "unsupported-runtime") in a browser or a Worker, which have
 * no worker thread that may block.
 */
export function createSyncBridge(source: SyncBridgeSource, options: SyncBridgeOptions = {}): SyncBridge {
  checkOptions("createSyncBridge", options, SYNC_BRIDGE_OPTIONS);
  checkOptions("createSyncBridge: manager", options.manager, SYNC_BRIDGE_MANAGER_OPTIONS);
  runtime.ensure("workers", "createSyncBridge: cannot start the sync bridge's worker");
  const start: BridgeStart = "config" in source
    ? { config: configToWire(source.config), manager: options.manager ?? {} }
    : { configPath: source.configPath, manager: options.manager ?? {} };
  const worker = SyncWorker.start(workerUrl, {
    data: start,
    startTimeoutMs: options.startTimeoutMs ?? DEFAULT_BRIDGE_START_TIMEOUT_MS,
    label: "sync bridge",
  });
  return new WorkerBridge(worker, options);
}

class WorkerBridge implements SyncBridge {
  readonly #worker: SyncWorker;
  readonly #timeoutMs: number;
  readonly #closeTimeoutMs: number;

  constructor(worker: SyncWorker, options: SyncBridgeOptions) {
    this.#worker = worker;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.#closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_BRIDGE_CLOSE_TIMEOUT_MS;
  }

  listTools(): LlmToolSchema[] {
    return this.#query({ op: "list" }, "listTools()") as LlmToolSchema[];
  }

  status(): ServerStatus[] {
    return this.#query({ op: "status" }, "status()") as ServerStatus[];
  }

  dispatchSync(name: string, args: JsonObject | string = {}, options: DispatchSyncOptions = {}): string {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    if (!(timeoutMs > 0)) throw new RangeError(`dispatchSync: timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`);
    const request: BridgeRequest = { op: "dispatch", name, args };
    if (options.caller !== undefined) request.caller = options.caller;
    if (options.appServer !== undefined) request.appServer = options.appServer;
    const outcome = this.#worker.call(request, {
      timeoutMs,
      cancelReason: `dispatchSync timeoutMs (${durationText(timeoutMs)}) passed`,
      // JsonObject arguments or a JSON string: plain JSON, so the call may cross in shared memory.
      json: true,
    });
    switch (outcome.kind) {
      case "reply":
        return outcome.value as string;
      case "timeout":
        return errorString(
          `tool ${name} timed out after ${durationText(timeoutMs)} (dispatchSync timeoutMs); the call was cancelled; ` +
            "pass a larger timeoutMs if the tool needs longer",
        );
      case "ended":
        return errorString(`tool ${name} was not answered: the sync bridge's worker thread ended (${outcome.message}); create a new bridge`);
      case "closed":
        return errorString(`tool ${name} was not called: the sync bridge is closed; create a new bridge`);
      case "failed":
        return errorString(`tool ${name}: the sync bridge could not pass the call: ${outcome.message}`);
    }
  }

  close(): void {
    this.#worker.close(this.#closeTimeoutMs);
  }

  #query(request: BridgeRequest, what: string): unknown {
    const outcome: SyncOutcome = this.#worker.call(request, { timeoutMs: QUERY_TIMEOUT_MS });
    switch (outcome.kind) {
      case "reply":
        return outcome.value;
      case "timeout":
        throw new SyncBridgeError(`sync bridge: ${what} got no answer within ${durationText(outcome.timeoutMs)}; its worker thread is stuck`, "timeout");
      case "ended":
        throw new SyncBridgeError(`sync bridge: ${what}: the worker thread ended (${outcome.message}); create a new bridge`, "worker-ended");
      case "closed":
        throw new SyncBridgeError(`sync bridge: ${what} after close(); create a new bridge`, "closed");
      case "failed":
        throw new SyncBridgeError(`sync bridge: ${what} failed: ${outcome.message}`, "failed");
    }
  }
}

function errorString(message: string): string {
  return JSON.stringify({ error: message });
}

// ---- What crosses into the worker (bridge-worker.ts); not part of the public API. ----

/** The calls the worker answers. */
export type BridgeRequest =
  | { op: "list" }
  | { op: "status" }
  | { op: "dispatch"; name: string; args: JsonObject | string; caller?: ToolCaller; appServer?: string };

/** The worker's start data. */
export type BridgeStart =
  & { manager: SyncBridgeManagerOptions }
  & ({ config: WireConfig; configPath?: undefined } | { configPath: string; config?: undefined });

/** A ConfigError as plain data: structured cloning keeps an Error's message, not its fields. */
interface WireConfigError {
  message: string;
  code?: ConfigErrorCode;
  file?: string;
  line?: number;
  column?: number;
  server?: string;
  key?: string;
}

type WireServerConfig = Omit<ServerConfig, "error"> & { error?: WireConfigError };

export interface WireConfig {
  servers: WireServerConfig[];
  file?: string;
  warnings: WireConfigError[];
}

function errorToWire(error: ConfigError): WireConfigError {
  const { message, code, file, line, column, server, key } = error;
  return { message, code, file, line, column, server, key };
}

function errorFromWire(wire: WireConfigError): ConfigError {
  const { message, code, ...where } = wire;
  return new ConfigError(message, code ?? "invalid-config", where);
}

export function configToWire(config: McpwireConfig): WireConfig {
  return {
    file: config.file,
    warnings: config.warnings.map(errorToWire),
    servers: config.servers.map(({ error, ...server }) => ({ ...server, ...(error ? { error: errorToWire(error) } : {}) })),
  };
}

export function configFromWire(wire: WireConfig): McpwireConfig {
  return {
    file: wire.file,
    warnings: wire.warnings.map(errorFromWire),
    servers: wire.servers.map(({ error, ...server }) => ({ ...server, ...(error ? { error: errorFromWire(error) } : {}) })),
  };
}
