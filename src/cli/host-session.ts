// What the host verbs (servers, tools, call) share: load the config, start the manager,
// show what the servers say on stderr, and always shut everything down.

import type { Implementation } from "../client/types.ts";
import { loadConfig } from "../host/config.ts";
import { ConfigError, type McpwireConfig } from "../host/config-types.ts";
import { McpManager } from "../host/manager.ts";
import { runtime } from "../runtime/mod.ts";
import { VERSION } from "./version.ts";

export const CLI_CLIENT_INFO: Implementation = { name: "mcpwire", title: "mcpwire CLI", version: VERSION };

export function stderrLine(text: string): void {
  void runtime.write("stderr", text + "\n");
}

/** `file:line:col: message`, as far as the error knows its place. */
export function describeConfigError(error: ConfigError): string {
  if (error.file === undefined) return error.message;
  if (error.message.includes(error.file)) return error.message;
  const place = [error.file, error.line, error.column].filter((part) => part !== undefined).join(":");
  return `${place}: ${error.message}`;
}

/** The problems that disabled servers, in file order. */
export function configErrors(config: McpwireConfig): ConfigError[] {
  return config.errors ?? config.servers.flatMap((server) => (server.error ? [server.error] : []));
}

export interface SessionOptions {
  configPath?: string;
  /** Print server log notifications and stderr-worthy events. Default true. */
  showLogs?: boolean;
}

/**
 * Loads the config (ConfigError propagates: exit 2), starts every enabled server, runs
 * `body`, and closes the manager whatever happens. Config warnings go to stderr.
 */
export async function withManager<T>(options: SessionOptions, body: (manager: McpManager, config: McpwireConfig) => Promise<T>): Promise<T> {
  const config = await loadConfig({ path: options.configPath });
  for (const warning of config.warnings) stderrLine(`warning: ${describeConfigError(warning)}`);
  // Per-server problems disable only that server; the others still start.
  for (const error of configErrors(config)) {
    stderrLine(`error: ${describeConfigError(error)}${error.server ? ` (server "${error.server}" is disabled)` : ""}`);
  }
  const manager = new McpManager(config, { clientInfo: CLI_CLIENT_INFO });
  if (options.showLogs !== false) {
    manager.on("log", ({ server, level, logger, data }) =>
      stderrLine(`[${server}] ${level}${logger ? ` ${logger}` : ""}: ${typeof data === "string" ? data : JSON.stringify(data)}`)
    );
  }
  manager.registry.on("warning", ({ message }) => stderrLine(`warning: ${message}`));
  let interrupted = false;
  runtime.onInterrupt(() => {
    if (interrupted) runtime.exit(130);
    interrupted = true;
    void manager.close().finally(() => runtime.exit(130));
  });
  try {
    await manager.start();
    return await body(manager, config);
  } finally {
    await manager.close();
  }
}
