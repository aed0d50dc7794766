// mcpwire/serve: the bridge behind `mcpwire serve` — the configured servers as one MCP server,
// in both eras (docs/serve.md) — and the server half it stands on (src/server/: a Server
// answering hosts from ServerHandlers). createBridge() gives the handlers a Server serves; the
// CLI verb (src/cli/verbs/serve-verb.ts) puts a transport in front.

export { type BackendSetStatus, type Bridge, BridgeError, type BridgeErrorCode, type BridgeEvents, type BridgeOptions, createBridge } from "./bridge.ts";
export type { BackendManagerOptions, BridgeNaming, Collision, PoolLimits } from "./bridge.ts";
export { DEFAULT_IDLE_MS, DEFAULT_MAX_SHARED_SETS } from "./backend-pool.ts";
export { DEFAULT_HOLD_MS, DEFAULT_MAX_HELD } from "./held-calls.ts";
export type { PassThroughOptions } from "../client/client-options.ts";
export { Server, type ServerConnection, type ServerConnectOptions, type ServerOptions } from "../server/server.ts";
export { ServerError, type ServerErrorCode } from "../server/errors.ts";
export type { HostIdentity, HostSession, ListenFilter, ServerHandlers, ServerRequestContext } from "../server/server-handlers.ts";
