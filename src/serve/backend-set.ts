// The configured servers as one host sees them: an McpManager over the bridge's config whose
// clients declare that host's capabilities and clientInfo (not the bridge's), answer what the
// backends ask with forwarders to that host, and tell that host when something changed.
// docs/serve.md ("The backend sees the host"); spec 2025-11-25 basic/lifecycle ("Capability
// Negotiation"), spec 2026-07-28 basic/index ("Per-request protocol fields").
//
// Why a manager per host and not one for all: a server lists tools, and refuses requests
// (-32021), by what its client declared; it asks sampling/elicitation/roots of the session that
// called; its handshake session holds a log level and resource subscriptions. One manager per
// host makes each of those the host's own. backend-pool.ts decides which hosts share one.

import type { Client } from "../client/client.ts";
import type { ProtocolEra } from "../client/protocol-version.ts";
import type { Telemetry, TelemetryContext } from "../client/telemetry.ts";
import { startTelemetry } from "../client/telemetry/telemetry-layer.ts";
import { remoteParent } from "../client/telemetry/trace-context.ts";
import type { ClientCapabilities, Implementation, JsonObject } from "../client/types.ts";
import type { McpwireConfig, ServerConfig } from "../host/config/types.ts";
import { type ManagerEvents, McpManager, type McpManagerOptions } from "../host/servers/manager.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { HostIdentity, HostSession } from "../server/server-handlers.ts";
import type { TraceSink } from "../transport/trace-event.ts";
import type { EraPreference } from "./era-preference.ts";
import { capabilitiesBesideHandlers, forwardingHandlers, InFlight } from "./host-forwarders.ts";

/** The manager options a bridge passes on (it sets the host's own: capabilities, handlers, clientInfo, registry). */
export type BackendManagerOptions = Omit<McpManagerOptions, "capabilities" | "handlers" | "clientInfo" | "registry" | "taskReceiver" | "eraCache">;

/** What a BackendSet tells the bridge. */
export interface BackendSetEvents {
  /** Something survived (a listener, a failed notification): the message names the server. */
  problem(message: string): void;
  /** A registry warning of this set (a name collision under the registry's naming, a filter that matched nothing). */
  warning(message: string): void;
  /** A tool does not match its pin (McpManager "toolheld"): held back under `hold`, offered with a warning under `warn`. */
  held(detail: ManagerEvents["toolheld"]): void;
}

/** Notifications a backend sends that the host gets as they are (spec 2025-11-25 server/*: list_changed, resources/updated). */
const CLIENT_NOTIFICATIONS = [
  ["resourceslistchanged", "notifications/resources/list_changed"],
  ["promptslistchanged", "notifications/prompts/list_changed"],
] as const;

/** `sink` with each event's `t` moved from a manager made now to a timeline that began at `origin` (performance.now()). */
function onTimeline(sink: TraceSink, origin: number): TraceSink {
  const offset = performance.now() - origin;
  return (event) => sink({ ...event, t: Math.round((event.t + offset) * 10) / 10 });
}

/** One host's McpManager over the bridge's config, and where what the backends send goes. */
export class BackendSet {
  readonly manager: McpManager;
  readonly era: ProtocolEra;
  /** The host requests in flight per backend: where a backend's requests, logs and progress go. */
  readonly inFlight: InFlight;
  /** The sessions this set's notifications go to: the one handshake session, or the 2026-07-28 connections that used it. */
  readonly sessions = new Set<HostSession>();
  /** Host requests being answered now (backend-pool.ts closes only an idle set). */
  active = 0;
  #starting: Promise<void> | undefined;
  #telemetry: Promise<Telemetry | undefined> | undefined;
  readonly #watched = new WeakSet<Client>();

  /**
   * `timeline`: `performance.now()` when the bridge was made; with `options.trace`, every set's
   * events count `t` from it (a manager counts from its own construction), so the backends of
   * every host are on one timeline in one trace.
   */
  constructor(
    config: McpwireConfig,
    host: HostIdentity,
    options: BackendManagerOptions,
    events: BackendSetEvents,
    eras: EraPreference,
    timeline: number,
  ) {
    this.era = host.era;
    this.inFlight = new InFlight(host.era === "legacy");
    const clientInfo: Implementation = host.clientInfo ?? { name: "mcpwire-serve", version: "0" };
    const capabilities: ClientCapabilities = host.capabilities;
    this.manager = new McpManager(config, {
      ...options,
      ...(options.trace === undefined ? {} : { trace: onTimeline(options.trace, timeline) }),
      // The host's era first, where the backend speaks it (era-preference.ts); the caller's own cache is not written with a bridge's choices.
      eraCache: eras[host.era],
      clientInfo,
      capabilities: capabilitiesBesideHandlers(capabilities),
      handlers: (server: ServerConfig) => forwardingHandlers(server.name, capabilities, this.inFlight),
      // spec 2025-11-25 basic/utilities/tasks ("Client Capabilities"): `tasks` only when the host declared it.
      ...(capabilities.tasks === undefined ? { taskReceiver: false as const } : {}),
    });
    const { manager } = this;
    manager.registry.on("toolschange", () => this.#tell("notifications/tools/list_changed"));
    manager.registry.on("warning", ({ message }) => events.warning(message));
    manager.on("problem", ({ message }) => events.problem(message));
    manager.on("toolheld", (detail) => events.held(detail));
    manager.on("serverstate", ({ server, from, to }) => {
      if (to === "ready") this.#watch(server);
      // A backend lost or back: its tools leave or return (spec 2025-11-25 server/tools "List Changed Notification").
      if (from === "ready" || to === "ready") this.#tell("notifications/tools/list_changed");
    });
    manager.on("log", ({ server, level, logger, data }) => {
      // spec 2025-11-25 server/utilities/logging: tied to the host request it came during, when there is one.
      const params: Params = logger === undefined ? { level, data: data as Params["data"] } : { level, logger, data: data as Params["data"] };
      const caller = this.inFlight.current(server)?.context();
      if (caller !== undefined) void caller.notify("notifications/message", params);
      else if (this.era === "legacy") this.#tell("notifications/message", params);
    });
  }

  /**
   * With the managers' telemetry on: the OpenTelemetry context a host request's `_meta`
   * traceparent names (W3C Trace Context), the parent of the backend call's client span — so the
   * host's trace goes on through the bridge into the backend (docs/telemetry.md). Undefined when
   * telemetry is off or the host sent no (valid) traceparent: then the host's `_meta` trace
   * fields pass to the backend as they came (forwarding.ts passedMeta).
   */
  async traceParent(meta: JsonObject | undefined): Promise<TelemetryContext | undefined> {
    this.#telemetry ??= startTelemetry(this.manager.telemetry, "mcpwire serve", (text) => this.manager.redactor.redact(text)).catch(() => undefined);
    const telemetry = await this.#telemetry;
    return telemetry === undefined ? undefined : remoteParent(telemetry.api, meta, telemetry.api.ROOT_CONTEXT);
  }

  /** Whether traceParent() has anything to find for this `_meta` (checked first, so a plain call does not wait for it). */
  traced(meta: JsonObject | undefined): boolean {
    return this.manager.telemetry !== undefined && meta?.traceparent !== undefined;
  }

  /** Starts every backend (once); resolves when each is ready or has given up. */
  start(): Promise<void> {
    this.#starting ??= this.manager.start();
    return this.#starting;
  }

  /** The Client of a ready backend, else undefined. */
  client(server: string): Client | undefined {
    // The client of a server that is ready, or reconnecting (then not ready itself: a call fails at once).
    const client = this.manager.client(server);
    return client?.state === "ready" ? client : undefined;
  }

  close(): Promise<void> {
    this.sessions.clear();
    return this.manager.close();
  }

  /** A notification not tied to a request, to every session of this set. Never rejects. */
  #tell(method: string, params?: Params): void {
    for (const session of this.sessions) void session.notify(method, params);
  }

  /** A backend's Client, once per Client: its list_changed and resources/updated go to the host. */
  #watch(server: string): void {
    const client = this.manager.client(server);
    if (client === undefined || this.#watched.has(client)) return;
    this.#watched.add(client);
    for (const [event, method] of CLIENT_NOTIFICATIONS) client.on(event, () => this.#tell(method));
    // spec 2025-11-25 server/resources ("Subscriptions"): the URI is the backend's, kept as it is.
    client.on("resourceupdated", ({ uri }) => this.#tell("notifications/resources/updated", { uri }));
  }
}
