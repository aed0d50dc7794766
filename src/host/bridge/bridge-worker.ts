// The sync bridge's worker thread, started by createSyncBridge (sync-bridge.ts): loads the
// config, runs an McpManager, and answers listTools, dispatch, status and close.

import { serveSyncWorker } from "../../registry/blocking-worker.ts";
import { SyncBridgeError } from "../../registry/registry-errors.ts";
import { ConfigError, type McpwireConfig } from "../config/types.ts";
import type { McpManager } from "../servers/manager.ts";
import { type BridgeRequest, type BridgeStart, configFromWire } from "./sync-bridge.ts";

let manager: McpManager | undefined;
let closing = false;

/** `file:line:col: message`, as far as a ConfigError knows its place. */
function describe(error: unknown): unknown {
  if (!(error instanceof ConfigError) || error.file === undefined || error.message.includes(error.file)) return error;
  const place = [error.file, error.line, error.column].filter((part) => part !== undefined).join(":");
  const { file, line, column, server, key, variable } = error;
  return new ConfigError(`${place}: ${error.message}`, error.code, { file, line, column, server, key, variable, cause: error });
}

serveSyncWorker({
  async start(data: unknown) {
    const start = data as BridgeStart;
    // Imported here rather than above: a module that fails to load is then an error the
    // caller reads in createSyncBridge's exception, not a worker that dies before it can say so.
    const [{ McpManager }, { loadConfig }] = await Promise.all([import("../servers/manager.ts"), import("../config/load.ts")]);
    let config: McpwireConfig;
    try {
      config = start.config !== undefined ? configFromWire(start.config) : await loadConfig({ path: start.configPath });
    } catch (error) {
      throw describe(error);
    }
    if (closing) return;
    manager = new McpManager(config, start.manager);
    await manager.start();
  },

  call(body: unknown, signal: AbortSignal) {
    const request = body as BridgeRequest;
    if (manager === undefined) {
      throw new SyncBridgeError("the bridge worker's server manager is not running (the bridge is closing); create the bridge again", "closed");
    }
    switch (request.op) {
      case "list":
        return manager.registry.list();
      case "status":
        return manager.status();
      case "dispatch":
        // The caller's timeout bounds the call; the abort it sends on a timeout cancels it here.
        return manager.registry.dispatch(request.name, request.args, {
          signal,
          ...(request.caller !== undefined ? { caller: request.caller } : {}),
          ...(request.appServer !== undefined ? { appServer: request.appServer } : {}),
        });
    }
  },

  async close() {
    closing = true;
    await manager?.close();
  },
});
