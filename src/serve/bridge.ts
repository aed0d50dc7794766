// The bridge behind `mcpwire serve`: the configured servers as one MCP server, for the server
// half (src/server/) to serve to hosts of either era — docs/serve.md, docs/architecture.md
// ("src/serve/"). createBridge() makes the handlers (bridge-handlers.ts), the pool of backend
// sets (backend-pool.ts: a host's own McpManager), and the events a CLI or embedder reports.

import type { ProtocolEra } from "../client/protocol-version.ts";
import type { Implementation } from "../client/types.ts";
import { ContainedEventTarget, type ListenerFailure } from "../common/events.ts";
import { McpwireError } from "../common/mcpwire-error.ts";
import type { McpwireConfig } from "../host/config/types.ts";
import type { ManagerEvents, ServerStatus } from "../host/servers/manager.ts";
import { PinLockFile, pinLockFileOf } from "../host/store/pin-lock-file.ts";
import { namingFormatProblem } from "../registry/naming.ts";
import { acceptHint, heldSummary, ToolPins } from "../registry/tool-pins.ts";
import { runtime } from "../runtime/mod.ts";
import type { HostIdentity, ServerHandlers } from "../server/server-handlers.ts";
import { BackendPool, type PoolLimits } from "./backend-pool.ts";
import { type BackendManagerOptions, BackendSet } from "./backend-set.ts";
import { BridgeHandlers } from "./bridge-handlers.ts";
import { eraPreference } from "./era-preference.ts";
import { type BridgeNaming, type Collision, prefixes } from "./front-names.ts";
import { HeldCalls } from "./held-calls.ts";

export type { BackendManagerOptions } from "./backend-set.ts";
export type { PoolLimits } from "./backend-pool.ts";
export type { BridgeNaming, Collision } from "./front-names.ts";

/** Why a bridge cannot be made: a server named that the config lacks, none to serve, a naming format that cannot work. */
export type BridgeErrorCode = "unknown-server" | "no-servers" | "bad-naming";

/** A bridge that cannot be made as asked (createBridge). */
export class BridgeError extends McpwireError<BridgeErrorCode> {
  override readonly name: string = "BridgeError";
}

/** What createBridge takes. */
export interface BridgeOptions {
  /** The config (loadConfig of mcpwire/host): its servers are the backends, with their filters, pinning, sandbox, secrets. */
  config: McpwireConfig;
  /** Serve only these servers of the config (by name). Default: every enabled one. */
  servers?: readonly string[];
  /**
   * The front's serverInfo. Default: with one server served, that server's own (and its
   * instructions, unless `instructions` is given), as the host would see it directly; with
   * several, `{ name: "mcpwire-serve", version }` of this package.
   */
  serverInfo?: Implementation;
  /** Instructions for the host's model, in the front's first answer. */
  instructions?: string;
  /**
   * How names of several backends are told apart (front-names.ts): `auto` (default: one backend
   * keeps its names, several get the registry's, `mcp_{server}_{tool}` or the server's `naming`
   * key), `prefixed` (always the registry's), `plain` (never; a name two share is the first
   * server's, and reported as a "collision" event).
   */
  naming?: BridgeNaming;
  /** The options of each host's McpManager (trace, telemetry, pinning, pins, redactor, reconnect delays…). */
  manager?: BackendManagerOptions;
  /** Bounds of the pool of backend sets (backend-pool.ts). */
  pool?: PoolLimits;
  /**
   * A handshake-era backend asking a 2026-07-28 host (held-calls.ts): how long its call is held
   * for the host's retry (default 120 s) and how many are held at once (default 64).
   */
  hold?: { holdMs?: number; maxHeld?: number };
}

/** What a bridge reports. */
export interface BridgeEvents {
  /** A name (or URI) two backends offer: the first server keeps it, the second's is not served. */
  collision: Collision & { message: string };
  /** A registry warning of a backend set: a name skipped under the registry's naming, a filter that matched nothing. */
  warning: { message: string };
  /** A backend's tool does not match its pin (docs/pinning.md), once per tool and change: `message` says what and how to accept it. */
  toolheld: ManagerEvents["toolheld"] & { message: string };
  /** Something survived (a backend's problem, a listener that threw); its text is redacted. */
  problem: { message: string; error?: unknown };
}

/** One backend set as Bridge.status() reports it. */
export interface BackendSetStatus {
  /** The era of the host(s) it serves. */
  host: ProtocolEra;
  /** Host sessions that used it (one for a handshake-era session's own set). */
  sessions: number;
  /** Its servers, as McpManager.status() reports them (the era each speaks, its state, its tools). */
  servers: ServerStatus[];
}

/** What createBridge returns: the handlers for a Server of the server half, and the bridge's life. */
export interface Bridge {
  /** Give them to `new Server(handlers)` (src/server/server.ts). */
  readonly handlers: ServerHandlers;
  readonly events: ContainedEventTarget<BridgeEvents>;
  /**
   * Starts the backends once, for a 2026-07-28 host with no capabilities (the set later such
   * hosts share), so a backend that cannot start says so before any host asks, and collisions
   * are reported. Resolves when each backend is ready or has given up; never rejects for one.
   */
  start(): Promise<void>;
  /** Every live backend set: the era of the host(s) it serves, how many sessions, and its servers as its manager reports them. */
  status(): BackendSetStatus[];
  /** Closes every backend set (each backend's process ended as its manager ends it), bounded by the managers' closeTimeoutMs. */
  close(): Promise<void>;
}

/** The bridge's events, contained (a listener that throws is a "problem"). */
class BridgeEventTarget extends ContainedEventTarget<BridgeEvents> {
  fire<K extends keyof BridgeEvents>(type: K, detail: BridgeEvents[K]): void {
    this.emit(type, detail);
  }
  protected override listenerFailed({ type, error }: ListenerFailure): void {
    this.emit("problem", { message: `mcpwire serve: a "${type}" listener threw; the bridge carries on`, error });
  }
}

/** The identity start() warms the backends with: a 2026-07-28 host that declared nothing. */
const WARM_HOST: HostIdentity = { era: "modern", protocolVersion: "2026-07-28", capabilities: {}, clientInfo: undefined, logLevel: undefined };

/** The pins a manager would make for this config (manager.ts defaultPins): its lock file, or memory when there is no place for one. */
function bridgePins(config: McpwireConfig): ToolPins {
  const file = pinLockFileOf(config, runtime.env());
  return new ToolPins(file === undefined ? {} : { store: new PinLockFile(file) });
}

/** Makes a bridge over the config's servers. Throws a BridgeError for a server named that the config lacks, or none to serve. */
export function createBridge(options: BridgeOptions): Bridge {
  const { config } = options;
  const enabled = config.servers.filter((server) => server.enabled);
  let servers = enabled;
  if (options.servers !== undefined && options.servers.length > 0) {
    const unknown = options.servers.filter((name) => !config.servers.some((server) => server.name === name));
    if (unknown.length > 0) {
      throw new BridgeError(
        `mcpwire serve: no server ${unknown.map((name) => JSON.stringify(name)).join(", ")} in the config (it has ${
          config.servers.map((server) => JSON.stringify(server.name)).join(", ") || "none"
        }); check the name`,
        "unknown-server",
      );
    }
    servers = enabled.filter((server) => options.servers!.includes(server.name));
  }
  if (servers.length === 0) {
    throw new BridgeError("mcpwire serve: no enabled server to serve; add one to the config or name one with --stdio / --http", "no-servers");
  }
  for (const server of servers) {
    const problem = server.naming === undefined ? undefined : namingFormatProblem(server.naming);
    if (problem !== undefined) throw new BridgeError(`mcpwire serve: server "${server.name}": ${problem}`, "bad-naming");
  }
  const served: McpwireConfig = { ...config, servers };
  const events = new BridgeEventTarget();
  // One ToolPins for every backend set (as one McpManager has one): the lock file read and written in one place, a held tool said once.
  const managerOptions: BackendManagerOptions = { ...options.manager, pins: options.manager?.pins ?? bridgePins(config) };
  const eras = eraPreference();
  const timeline = performance.now();
  const saidHeld = new Set<string>();
  const pool = new BackendPool((host) =>
    new BackendSet(
      served,
      host,
      managerOptions,
      {
        problem: (message) => events.fire("problem", { message }),
        warning: (message) => events.fire("warning", { message }),
        held: (held) => {
          // Every host's set reviews the same tools against the same pins: said once per tool and change.
          const key = JSON.stringify([held.server, held.tool, held.change, held.fields]);
          if (saidHeld.has(key)) return;
          saidHeld.add(key);
          const what = held.offered ? "offered with this warning (pinning: warn)" : "not served until it is accepted (pinning: hold)";
          events.fire("toolheld", {
            ...held,
            message: `mcpwire serve: ${heldSummary({ ...held, source: "", rejected: false })}; ${what}; ${acceptHint(held)}`,
          });
        },
      },
      eras,
      timeline,
    ), options.pool);
  const held = new HeldCalls(options.hold);
  const handlers = new BridgeHandlers({
    serverInfo: options.serverInfo ?? { name: "mcpwire-serve", version: "0.2.0" },
    passIdentity: servers.length === 1 && options.serverInfo === undefined,
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    pool,
    servers,
    prefixed: prefixes(options.naming ?? "auto", servers.length),
    held,
    reported: new Set(),
    collision: (collision) =>
      events.fire("collision", {
        ...collision,
        message: `mcpwire serve: servers "${collision.servers[0]}" and "${collision.servers[1]}" both offer the ${collision.kind} ${
          JSON.stringify(collision.name)
        }; "${collision.servers[0]}"'s is served (name them apart with naming: prefixed)`,
      }),
  });
  let starting: Promise<void> | undefined;
  return {
    handlers,
    events,
    start() {
      starting ??= (async () => {
        // Listing everything finds (and reports) the collisions at start.
        await handlers.survey(WARM_HOST);
      })();
      return starting;
    },
    status: () => pool.sets().map((set) => ({ host: set.era, sessions: set.sessions.size, servers: set.manager.status() })),
    close: () => {
      held.close();
      return pool.close();
    },
  };
}
