// mcpwire/serve: the bridge behind `mcpwire serve` — the configured servers as one MCP server,
// in both eras (docs/serve.md). createBridge() gives the handlers a Server of the server half
// (src/server/) serves; the CLI verb (src/cli/verbs/serve-verb.ts) puts a transport in front.

export { type BackendSetStatus, type Bridge, BridgeError, type BridgeErrorCode, type BridgeEvents, type BridgeOptions, createBridge } from "./bridge.ts";
export type { BackendManagerOptions, BridgeNaming, Collision, PoolLimits } from "./bridge.ts";
export { DEFAULT_IDLE_MS, DEFAULT_MAX_SHARED_SETS } from "./backend-pool.ts";
export type { PassThroughOptions } from "../client/client-options.ts";
export type { HostIdentity, HostSession, ServerHandlers, ServerRequestContext } from "../server/server-handlers.ts";
