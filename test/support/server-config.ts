// Test helper: host server configs as parseConfig would fill them in (defaults for every field
// a test does not care about), for tests that build a McpManager or a sync bridge directly.

import "./test-env.ts"; // the era cache off (test-env.ts)
import type { McpwireConfig, ServerConfig } from "../../src/host/config/types.ts";

/** A server config: `fields` over parseConfig's defaults, with 10 s timeouts. */
export function serverConfig(fields: Pick<ServerConfig, "name" | "transport"> & Partial<ServerConfig>): ServerConfig {
  return { args: [], env: {}, headers: {}, tools: {}, enabled: true, timeoutMs: 10_000, connectTimeoutMs: 10_000, ...fields };
}

/** A stdio server config running `node <args>`. */
export function stdioServerConfig(name: string, args: string[], overrides: Partial<ServerConfig> = {}): ServerConfig {
  return serverConfig({ name, transport: "stdio", command: "node", args, ...overrides });
}

/** A whole config of these servers, without warnings. */
export function configOf(...servers: ServerConfig[]): McpwireConfig {
  return { servers, warnings: [] };
}
