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
import type { ClientCapabilities, Implementation } from "../client/types.ts";
import type { McpwireConfig, ServerConfig } from "../host/config/types.ts";
import { McpManager, type McpManagerOptions } from "../host/servers/manager.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { HostIdentity, HostSession } from "../server/server-handlers.ts";
import { capabilitiesBesideHandlers, forwardingHandlers, InFlight } from "./host-forwarders.ts";

/** The manager options a bridge passes on (it sets the host's own: capabilities, handlers, clientInfo, registry). */
export type BackendManagerOptions = Omit<McpManagerOptions, "capabilities" | "handlers" | "clientInfo" | "registry" | "taskReceiver">;

/** What a BackendSet tells the bridge. */
export interface BackendSetEvents {
  /** Something survived (a listener, a failed notification): the message names the server. */
  problem(message: string): void;
  /** A registry warning of this set (a name collision under the registry's naming, a filter that matched nothing). */
  warning(message: string): void;
}

/** Notifications a backend sends that the host gets as they are (spec 2025-11-25 server/*: list_changed, resources/updated). */
const CLIENT_NOTIFICATIONS = [
  ["resourceslistchanged", "notifications/resources/list_changed"],
  ["promptslistchanged", "notifications/prompts/list_changed"],
] as const;

/** One host's McpManager over the bridge's config, and where what the backends send goes. */
export class BackendSet {
  readonly manager: McpManager;
  readonly era: ProtocolEra;
  /** The host requests in flight per backend: where a backend's requests, logs and progress go. */
  readonly inFlight = new InFlight();
  /** The sessions this set's notifications go to: the one handshake session, or the 2026-07-28 connections that used it. */
  readonly sessions = new Set<HostSession>();
  /** Host requests being answered now (backend-pool.ts closes only an idle set). */
  active = 0;
  #starting: Promise<void> | undefined;
  readonly #watched = new WeakSet<Client>();

  constructor(config: McpwireConfig, host: HostIdentity, options: BackendManagerOptions, events: BackendSetEvents) {
    this.era = host.era;
    const clientInfo: Implementation = host.clientInfo ?? { name: "mcpwire-serve", version: "0" };
    const capabilities: ClientCapabilities = host.capabilities;
    this.manager = new McpManager(config, {
      ...options,
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

  /** Starts every backend (once); resolves when each is ready or has given up. */
  start(): Promise<void> {
    this.#starting ??= this.manager.start();
    return this.#starting;
  }

  /** The Client of a ready backend, else undefined. */
  client(server: string): Client | undefined {
    const status = this.manager.status().find((each) => each.name === server);
    return status?.state === "ready" ? this.manager.client(server) : undefined;
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
