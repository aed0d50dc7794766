// Test helper: where the reference server @modelcontextprotocol/server-everything lives, and
// the tools it lists for every client (others appear only with client capabilities), both from
// everything-path.ts, and a client of it or a registry of its tools for a describe block.

import "./test-env.ts"; // the era cache off (test-env.ts)
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { Client, type ClientOptions, StdioTransport } from "../../src/mod.ts";
import { registerMcpServer } from "../../src/registry/mcp-server.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import { EVERYTHING } from "./everything-path.ts";

export { ALWAYS_LISTED, EVERYTHING } from "./everything-path.ts";

/**
 * For a describe block: a client of server-everything over stdio, connected before its tests
 * and closed after them, its tools registered as server "everything" in a fresh registry.
 */
export function everythingRegistry(): { client: Client; registry: ToolRegistry } {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything", requestTimeoutMs: 20_000 });
  const registry = new ToolRegistry();

  before(async () => {
    await client.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"] }));
    await registerMcpServer(registry, "everything", client);
  });

  after(async () => {
    await client.close();
  });
  return { client, registry };
}

/**
 * For a describe block: a client of server-everything over stdio with these options (named
 * "everything", 20 s a request, the server's stderr dropped), connected before its tests and
 * closed after them.
 */
export function everythingClient(options: ClientOptions = {}): Client {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "everything", requestTimeoutMs: 20_000, ...options });
  before(async () => {
    await client.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: () => {} }));
  });
  after(() => client.close());
  return client;
}

/**
 * Waits (5 s at most) until `client`'s server lists `tool`: server-everything lists its
 * trigger tools only once it has seen the client's capabilities, a moment after connecting.
 */
export async function untilListed(client: Client, tool: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await client.listTools()).some((listed) => listed.name === tool)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`server-everything never listed ${tool}`);
}
