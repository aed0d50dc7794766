// What a Client is made with: its options — spec 2025-11-25 basic/lifecycle ("Capability
// Negotiation"), client/sampling, client/elicitation, client/roots. The capabilities they
// declare: client-capabilities.ts.

import { optionNames } from "../common/options.ts";
import type { Progress, RequestOptions } from "../jsonrpc/peer.ts";
import type { ClientTransport } from "../transport/transport.ts";
import type { ClientState } from "./client-state.ts";
import type { ClientTraceOption } from "./client-trace.ts";
import type { EraCache } from "./era-cache.ts";
import type { ClientHandlers } from "./handlers.ts";
import type { ProtocolChoice } from "./protocol-version.ts";
import type { RootInput } from "./roots.ts";
import type { SamplingPolicy } from "./sampling.ts";
import type { JsonSchemaValidator } from "./schema/schema-validator.ts";
import type { TelemetryContext, TelemetryProvider } from "./telemetry.ts";
import type { ClientCapabilities, JsonObject, TaskReceiverOptions, TaskStatusUpdate } from "./types.ts";

/**
 * A client's extension choices: an identifier to the settings object it declares, `true`
 * for the default settings of an extension the client was given (`use`), `false` to turn one off.
 * The extensions given are on unless turned off here (extensions.ts).
 */
export type ExtensionOptions = Record<string, JsonObject | boolean>;

/**
 * An extension as ClientOptions.use takes it. Its whole interface is ClientExtension
 * (extension.ts), which these options cannot name (extension.ts imports the client's context,
 * which imports these options); every ClientExtension is one, and `new Client()` checks the rest.
 */
export interface ExtensionValue {
  /** Its identifier, the key in `capabilities.extensions`. */
  readonly id: string;
  /** What the client declares for it unless the `extensions` option says otherwise. */
  readonly settings: JsonObject;
  /** The requests it sends. */
  readonly methods: readonly string[];
}

/** Options of a Client: capabilities and their handlers, roots, sampling policy, the era to speak, timeouts, extensions. */
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
   * Over the legacy HTTP+SSE transport only the handshake is spoken (`auto` sends no probe).
   */
  protocol?: ProtocolChoice;
  /** How long `auto` waits for the server/discover probe before taking the server for legacy. Default 5 s. */
  discoverTimeoutMs?: number;
  /**
   * Where the era found under `protocol: auto` is remembered, by the `serverKey` given to
   * connect() (eraCacheKey() makes one; without it nothing is remembered) — spec 2026-07-28 basic/versioning: clients
   * SHOULD cache it, MAY persist it. A remembered legacy era goes straight to initialize; one
   * that fails is forgotten and the era found afresh. `modern` and `legacy` skip it. Default:
   * none (every connect probes); MemoryEraCache keeps eras for this process, the host's
   * FileEraCache across runs.
   */
  eraCache?: EraCache;
  /** Rounds of a multi round-trip request (input_required results) before giving up. Default 10. */
  maxInputRounds?: number;
  /**
   * Modern wire: keep a subscriptions/listen stream open for the list changes the server
   * declares (and the resources subscribed to). Default true.
   */
  listen?: boolean;
  /**
   * Extensions to declare or turn off — spec 2026-07-28 basic/versioning ("Extension
   * Negotiation"). Those given in `use` are on by default; `false` turns one off, a settings
   * object declares any extension as given.
   */
  extensions?: ExtensionOptions;
  /**
   * The extensions this client has (extension.ts): each is declared, and its links join the
   * connection's chain — `tasksExtension` (spec 2025-11-25 basic/utilities/tasks; the 2026-07-28
   * tasks extension), `skillsExtension`, `appsExtension`, or anyone's ClientExtension. Without
   * tasksExtension the client declares no tasks, a tool that requires a task fails its call with
   * a TaskError `unsupported`, and tasksOf() says what to import; a bundle that never meets an
   * extension carries none. McpManager gives every server's client all three.
   */
  use?: readonly ExtensionValue[];
  /**
   * The server's task-augmented sampling/elicitation requests (spec 2025-11-25
   * basic/utilities/tasks): how many tasks are kept and for how long. `false` declares no
   * `tasks` capability, so those requests are answered directly. On by default.
   */
  taskReceiver?: TaskReceiverOptions | false;
  /**
   * For a host that supervises the connection (reconnects, parks): why a request cannot go out
   * while this client is not ready, in the host's words (`server "x": reconnecting …`). Asked
   * only when the client is not ready; undefined leaves the client's own error.
   */
  unavailable?: (state: ClientState) => Error | undefined;
  /**
   * Trace this connection (transport/trace-event.ts): every message both ways as a `message`
   * event (a response naming the request it answers, with its latency), redacted, and the
   * client's `lifecycle` (connecting, the era and why, ready, failed, close). A sink, or
   * `{ sink, server }` to name the server in the events. connect() wraps the transport once;
   * unset, nothing is traced and nothing is added to a call.
   */
  trace?: ClientTraceOption;
  /**
   * OpenTelemetry (docs/telemetry.md): a client span per request with the trace context in its
   * `_meta` (and the HTTP `traceparent` header) — spec 2026-07-28 basic/index ("OpenTelemetry
   * trace context"). Code the client is given: `openTelemetry()` of `mcpwire/telemetry` (the global
   * tracer of @opentelemetry/api, loaded by connect(); a TelemetryError when it is not installed),
   * `openTelemetry({ tracer, capture })`; unset, nothing is loaded and a call runs no telemetry code.
   */
  telemetry?: TelemetryProvider;
  /**
   * Which JSON Schema validator checks outputSchemas and elicitation answers: `ajv` compiles
   * each schema to a function (needs code generation: `new Function`), `interpreting` walks the
   * schema (mcpwire's own interpreter; works under a Content-Security-Policy without 'unsafe-eval'
   * and in Cloudflare Workers). Default: `ajv` where code generation works (Node, Deno, Bun),
   * else `interpreting`; naming one skips that probe. Only the chosen one is loaded.
   */
  jsonSchema?: JsonSchemaValidator;
  /**
   * Join a Streamable HTTP session another client started (its MCP-Session-Id `id`, and the
   * `protocolVersion` its initialize settled, default 2025-11-25) instead of starting one: no
   * initialize is sent, so the server's capabilities and info stay unknown. For following
   * what an earlier client left running in that session (`Client.keepSession()`; a detached
   * task, which a server may keep per session). Needs a transport with sessions.
   */
  session?: JoinedSession;
}

/** A Streamable HTTP session to join (ClientOptions.session), as Client.keepSession() gives it. */
export interface JoinedSession {
  id: string;
  protocolVersion?: string;
}

/** Every option a Client reads (its constructor checks them). */
export const CLIENT_OPTIONS = optionNames<ClientOptions>({
  name: true,
  capabilities: true,
  handlers: true,
  roots: true,
  sampling: true,
  logBufferSize: true,
  requestTimeoutMs: true,
  maxTotalTimeoutMs: true,
  initializeTimeoutMs: true,
  maxPages: true,
  protocol: true,
  discoverTimeoutMs: true,
  maxInputRounds: true,
  listen: true,
  extensions: true,
  use: true,
  taskReceiver: true,
  eraCache: true,
  unavailable: true,
  trace: true,
  telemetry: true,
  jsonSchema: true,
  session: true,
});

/** Options of the list methods: `fresh` skips a cached result still within its ttlMs. */
export interface ListOptions extends RequestOptions {
  fresh?: boolean;
}

/** Options of `callTool` and `startToolTask`: timeouts, cancellation, progress, and the task a call may run as. */
export interface CallOptions {
  /**
   * Idle timeout of the request. When the server runs the call as a task, the bound of the
   * task's whole life (then the task is cancelled); without it a task lives up to maxTotalTimeoutMs.
   */
  timeoutMs?: number;
  maxTotalTimeoutMs?: number;
  /** Aborts the call; for a task that sends tasks/cancel (never notifications/cancelled). */
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /**
   * spec 2025-11-25 basic/utilities/tasks: ask for a task when the tool's taskSupport is
   * "optional" (a `required` tool is always one), with the wanted ttl. The 2026-07-28 server decides alone.
   */
  task?: boolean | { ttlMs?: number };
  /** Each status change of the call's task (status, statusMessage). */
  onTaskStatus?: (update: TaskStatusUpdate) => void;
  /** Upper bound of a task's polling interval, whatever the server suggests. Default 10 s. */
  maxPollIntervalMs?: number;
  /** With telemetry on: the OpenTelemetry Context the call's spans are children of. Default: the context active at the call. */
  traceContext?: TelemetryContext;
}

/**
 * The RequestOptions of a tools/call as callTool sends it down the chain: `call` carries the
 * caller's CallOptions for the links that read them (the tasks link: `task`, onTaskStatus).
 */
export interface ToolCallOptions extends RequestOptions {
  call?: CallOptions;
}

/**
 * Client.request's options for a bridge (src/serve/) that passes a request on for a host.
 * `inputRequired: "return"`: on the 2026-07-28 wire an `input_required` result (spec 2026-07-28
 * basic/patterns/mrtr) is returned as it came — its `inputRequests` and opaque `requestState`
 * untouched — instead of being fulfilled by this client's handlers and retried; the host
 * answers it and sends the retry (its `inputResponses` and `requestState` ride in the params as
 * given). Default `"fulfil"`.
 */
export interface PassThroughOptions extends RequestOptions {
  inputRequired?: "fulfil" | "return";
}

/** What Client.connect takes: a transport, or a function that makes one (called again to start the server again). */
export type ConnectSource = ClientTransport | (() => ClientTransport);

/** Client.connect's options. */
export interface ConnectOptions {
  /** Aborting it gives up connecting. */
  signal?: AbortSignal;
  /** With telemetry on: the parent of the connect span. */
  traceContext?: TelemetryContext;
  /**
   * The era to speak on this connection, in place of ClientOptions.protocol (a host that
   * reconnects speaks the era the server spoke last time without probing again).
   */
  protocol?: ProtocolChoice;
  /**
   * Names the server in ClientOptions.eraCache, across connections and processes
   * (eraCacheKey() makes one: a command line and its directory, or a URL's origin and path);
   * without it the era cache is not used.
   */
  serverKey?: string;
}
