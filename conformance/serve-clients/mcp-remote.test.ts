// mcp-remote (npm `mcp-remote`: the common stdio → remote Streamable HTTP bridge, on the SDK v1,
// the handshake era up to 2025-11-25) as a stdio-only host uses it: the host (here the SDK v1
// client) launches `mcp-remote <url>` as its stdio server, and mcp-remote forwards to the URL —
// server-everything's own HTTP endpoint, then `mcpwire serve --listen` in front of it, without
// auth and with the bearer token a host passes in a header file (mcp-remote's --header-file,
// which keeps it out of the process list). Its HOME is a scratch directory (it keeps
// ~/.mcp-auth there).

import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { scratchDir } from "../../test/support/cli-runner.ts";
import { type Endpoint, firstText, serveMissing, startEverythingHttp, startServeHttp } from "./serve-front.ts";

const MCP_REMOTE = fileURLToPath(new URL("../../node_modules/mcp-remote/dist/proxy.js", import.meta.url));
const scratch = scratchDir("mcpwire-mcp-remote-");

/** The host's session through `mcp-remote <url> …extra`: list, call echo and get-sum, close. */
async function throughMcpRemote(endpoint: Endpoint, extra: string[] = []): Promise<void> {
  const transport = new StdioClientTransport({
    command: "node",
    // --allow-http: a loopback URL without TLS; http-only: Streamable HTTP, no SSE fallback
    args: [MCP_REMOTE, endpoint.url, "--allow-http", "--transport", "http-only", ...extra],
    env: { PATH: process.env.PATH ?? "", HOME: scratch.path },
    stderr: "ignore",
  });
  const host = new Client({ name: "stdio-only-host", version: "1.0.0" });
  try {
    await host.connect(transport, { timeout: 15_000 });
    assert.equal(host.getServerVersion()?.name, "mcp-servers/everything");
    const names = (await host.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("echo") && names.includes("get-sum"), `tools listed: ${names.join(", ")}`);
    assert.equal(firstText(await host.callTool({ name: "echo", arguments: { message: "via mcp-remote" } })), "Echo: via mcp-remote");
    assert.match(firstText(await host.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })), /\b5\b/);
  } finally {
    await host.close();
    await endpoint.stop();
  }
}

describe("mcp-remote → server-everything", () => {
  test("directly (server-everything's own Streamable HTTP endpoint)", async () => throughMcpRemote(await startEverythingHttp()));
  test("through mcpwire serve --listen --no-auth", { skip: serveMissing }, async () => throughMcpRemote(await startServeHttp()));
  test("through mcpwire serve --listen --token-file, the bearer token in mcp-remote's --header-file", { skip: serveMissing }, async () => {
    const token = "conformance-test-token-0123456789abcdef";
    const tokenFile = join(scratch.path, "serve-token");
    const headerFile = join(scratch.path, "headers.txt");
    await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
    await writeFile(headerFile, `Authorization: Bearer ${token}\n`, { mode: 0o600 });
    await throughMcpRemote(await startServeHttp(["--token-file", tokenFile]), ["--header-file", headerFile]);
  });
});
