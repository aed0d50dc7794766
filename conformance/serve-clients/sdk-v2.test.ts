// The official TypeScript SDK v2 client (@modelcontextprotocol/client 2.x) in both eras: the
// handshake era (its default, `versionNegotiation` "legacy"), and the 2026-07-28 stateless era
// (pinned: `server/discover`, per-request `_meta`). server-everything speaks the handshake era
// only, so the pinned client reaches it only through `mcpwire serve`, which translates (issue 40:
// a host's era is translated for a backend that does not speak it); "auto" against
// server-everything directly negotiates down to the handshake. The pinned client's own
// 2026-07-28 path is shown against conformance/fixtures/modern-server.ts. Over stdio and
// Streamable HTTP. Spec 2026-07-28 server/discover, basic/versioning.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { modernServerArgs, startModernHttp } from "../fixtures/modern-server-launch.ts";
import { type Endpoint, everythingStdio, firstText, serveMissing, serveStdio, startEverythingHttp, startServeHttp } from "./serve-front.ts";

const MODERN = "2026-07-28";
type Mode = "legacy" | "auto" | "modern";
type Transport = StdioClientTransport | StreamableHTTPClientTransport;

function client(mode: Mode): Client {
  const versionNegotiation = mode === "modern" ? { mode: { pin: MODERN } } : { mode };
  return new Client({ name: "sdk-v2-host", version: "2.0.0" }, { versionNegotiation });
}

/** Connect, check the era agreed, list tools, call echo (and get-sum on server-everything), list resources and prompts. */
async function exercise(transport: Transport, mode: Mode, backend: "everything" | "modern-fixture"): Promise<void> {
  const host = client(mode);
  try {
    await host.connect(transport, { timeout: 15_000 });
    const version = host.getNegotiatedProtocolVersion();
    if (mode === "modern") assert.equal(version, MODERN);
    else assert.notEqual(version, MODERN, `the handshake era was expected, not ${version}`);
    const names = (await host.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.includes("echo"), `tools listed: ${names.join(", ")}`);
    const echoed = firstText(await host.callTool({ name: "echo", arguments: { message: "hi from sdk v2" } }));
    assert.equal(echoed, backend === "everything" ? "Echo: hi from sdk v2" : "hi from sdk v2");
    if (backend === "everything") assert.match(firstText(await host.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })), /\b5\b/);
    assert.ok((await host.listResources()).resources.length > 0, "resources listed");
    assert.ok((await host.listPrompts()).prompts.length > 0, "prompts listed");
  } finally {
    await host.close();
  }
}

async function overHttp(start: () => Promise<Endpoint>, mode: Mode, backend: "everything" | "modern-fixture" = "everything"): Promise<void> {
  const endpoint = await start();
  try {
    await exercise(new StreamableHTTPClientTransport(new URL(endpoint.url)), mode, backend);
  } finally {
    await endpoint.stop();
  }
}

const stdio = (server: { command: string; args: string[] }) => new StdioClientTransport({ ...server, stderr: "ignore" });

describe("SDK v2 client, handshake era → server-everything", () => {
  test("directly, over stdio", () => exercise(stdio(everythingStdio), "legacy", "everything"));
  test("directly, over Streamable HTTP", () => overHttp(startEverythingHttp, "legacy"));
  test("directly, negotiating (auto) over stdio: settles on the handshake", () => exercise(stdio(everythingStdio), "auto", "everything"));
  test("through mcpwire serve, stdio front", { skip: serveMissing }, () => exercise(stdio(serveStdio()), "legacy", "everything"));
  test("through mcpwire serve, Streamable HTTP front", { skip: serveMissing }, () => overHttp(startServeHttp, "legacy"));
});

describe("SDK v2 client, 2026-07-28 (pinned)", () => {
  test("directly → the 2026-07-28 fixture, over stdio", () =>
    exercise(stdio({ command: "node", args: modernServerArgs("--stdio", "--era", "modern") }), "modern", "modern-fixture"));
  test("directly → the 2026-07-28 fixture, over Streamable HTTP", () => overHttp(() => startModernHttp("modern"), "modern", "modern-fixture"));
  test("through mcpwire serve → server-everything, stdio front", { skip: serveMissing }, () => exercise(stdio(serveStdio()), "modern", "everything"));
  test("through mcpwire serve → server-everything, Streamable HTTP front", { skip: serveMissing }, () => overHttp(startServeHttp, "modern"));
});
