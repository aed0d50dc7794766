// The legacy HTTP+SSE transport (spec 2024-11-05 basic/transports "HTTP with SSE") speaks the
// handshake era only: `protocol: auto` over it sends no server/discover probe and runs the
// initialize handshake; a pinned `modern` fails at once with a ProtocolVersionError saying why —
// spec 2026-07-28 basic/versioning ("Backward Compatibility"). Against the hand-written legacy
// server test/fixtures/sse-legacy-server.mjs, over real HTTP on loopback.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AutoHttpTransport,
  Client,
  type ClientOptions,
  type JsonRpcMessage,
  ProtocolVersionError,
  SseLegacyTransport,
  TracingTransport,
  type Transport,
} from "../../src/mod.ts";
import { type HttpServerProcess, startSseFixture } from "../fixtures/sse-servers.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { rejection } from "../support/rejection.ts";

const INFO = { name: "mcpwire-sse-era-test", version: "1.0.0" };
const HANG_GUARD_MS = 20_000;

/** `transport` with every method the client sends recorded, in order. */
function recorded(transport: Transport): { transport: Transport; sent: string[] } {
  const sent: string[] = [];
  const traced = new TracingTransport(transport, (direction, message: JsonRpcMessage) => {
    if (direction === "send" && "method" in message) sent.push(message.method);
  });
  return { transport: traced, sent };
}

/**
 * Runs body with the legacy SSE fixture and a client of these options (its problems
 * collected), closing the client and stopping the fixture afterwards whatever happens.
 */
async function withLegacyServer(
  options: ClientOptions,
  body: (server: HttpServerProcess, client: Client, problems: string[]) => Promise<void>,
): Promise<void> {
  const server = await startSseFixture("good");
  const client = new Client(INFO, { discoverTimeoutMs: 5000, ...options });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  try {
    await body(server, client, problems);
  } finally {
    await client.close();
    await server.stop();
  }
}

test("protocol auto over SseLegacyTransport: no server/discover, the initialize handshake first, the legacy era", async () => {
  await withLegacyServer({ protocol: "auto" }, async (server, made, problems) => {
    const { transport, sent } = recorded(new SseLegacyTransport({ url: `${server.origin}/sse` }));
    await hangGuard(made.connect(transport), HANG_GUARD_MS, "connect");
    assert.equal(made.era, "legacy");
    assert.equal(made.protocolVersion, "2024-11-05");
    assert.equal(sent[0], "initialize");
    assert.ok(!sent.includes("server/discover"), `server/discover went over the legacy transport: ${sent.join(", ")}`);
    assert.ok((await made.listTools()).some((tool) => tool.name === "echo"));
    assert.deepEqual(problems, []);
  });
});

test("protocol modern over SseLegacyTransport fails with a ProtocolVersionError naming the transport; nothing is sent", async () => {
  await withLegacyServer({ protocol: "modern" }, async (server, made) => {
    const { transport, sent } = recorded(new SseLegacyTransport({ url: `${server.origin}/sse` }));
    const error = await hangGuard(rejection(made.connect(transport)), HANG_GUARD_MS, "connect");
    assert.ok(error instanceof ProtocolVersionError, `not a ProtocolVersionError: ${error}`);
    assert.match(error.message, /legacy HTTP\+SSE transport/);
    assert.match(error.message, /protocol: auto \(or legacy\)/);
    assert.equal(made.state, "failed");
    assert.deepEqual(sent, []);
  });
});

test("protocol auto over AutoHttpTransport to a legacy SSE server: sse is chosen by initialize, the legacy era", async () => {
  await withLegacyServer({ protocol: "auto" }, async (server, made, problems) => {
    const auto = new AutoHttpTransport({ url: `${server.origin}/sse` });
    await hangGuard(made.connect(auto), HANG_GUARD_MS, "connect");
    assert.equal(auto.kind, "sse");
    assert.ok(auto.inner instanceof SseLegacyTransport);
    assert.equal(made.era, "legacy");
    assert.equal(made.protocolVersion, "2024-11-05");
    assert.deepEqual(problems, []);
  });
});

test("protocol modern over AutoHttpTransport to a legacy SSE server fails with a ProtocolVersionError", async () => {
  await withLegacyServer({ protocol: "modern" }, async (server, made) => {
    const auto = new AutoHttpTransport({ url: `${server.origin}/sse` });
    const error = await hangGuard(rejection(made.connect(auto)), HANG_GUARD_MS, "connect");
    assert.ok(error instanceof ProtocolVersionError, `not a ProtocolVersionError: ${error}`);
    assert.match(error.message, /protocol: legacy \(or auto\)/);
    assert.equal(made.state, "failed");
    assert.notEqual(auto.kind, "sse", "the 2026-07-28 wire must not be carried over the legacy transport");
  });
});
