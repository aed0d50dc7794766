// Closing a client connected to a 2026-07-28 server whose listen stream is open reports nothing:
// the close was the user's, so no "could not send notifications/cancelled"; a server that dies
// under an open stream fails the client without that report either — spec 2026-07-28
// basic/patterns/subscriptions (the listen request lives as long as the connection) and
// basic/lifecycle (stdio shutdown: close stdin). Against the reference fixture
// conformance/fixtures/modern-server.ts over stdio and Streamable HTTP.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type ModernHttpServer, modernServerArgs, startModernHttp } from "../../conformance/fixtures/modern-server-launch.ts";
import {
  Client,
  ConnectionClosedError,
  type JsonRpcMessage,
  StdioTransport,
  StreamableHttpTransport,
  TracingTransport,
  type Transport,
} from "../../src/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INFO = { name: "mcpwire-quiet-close-test", version: "1.0.0" };
const HANG_GUARD_MS = 30_000;

/** Resolves once `sent` holds a subscriptions/listen request (the stream the close must end quietly). */
async function listenSent(sent: string[]): Promise<void> {
  const until = Date.now() + HANG_GUARD_MS;
  while (!sent.includes("subscriptions/listen")) {
    if (Date.now() > until) assert.fail(`no subscriptions/listen was sent; sent: ${sent.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Connects over `transport`, lets the listen stream open, closes, and returns every problem reported. */
async function problemsOfAClose(transport: Transport): Promise<{ problems: string[]; states: string[] }> {
  const sent: string[] = [];
  const traced = new TracingTransport(transport, (direction, message: JsonRpcMessage) => {
    if (direction === "send" && "method" in message) sent.push(message.method);
  });
  const client = new Client(INFO);
  const problems: string[] = [];
  const states: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  client.on("statechange", ({ to }) => states.push(to));
  try {
    await hangGuard(client.connect(traced), HANG_GUARD_MS, "connect");
    assert.equal(client.era, "modern");
    assert.equal(client.serverCapabilities?.tools?.listChanged, true, "the fixture should declare tools.listChanged");
    await listenSent(sent);
    // Let the listen request reach the server and its stream open.
    await hangGuard(client.listTools(), HANG_GUARD_MS, "tools/list");
  } finally {
    await hangGuard(client.close(), HANG_GUARD_MS, "close");
  }
  // A failed send would be reported when its write or POST is refused: give it time to show.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { problems, states };
}

describe("a 2026-07-28 connection whose listen stream is open ends without a false report of a cancel", { timeout: 120_000 }, () => {
  test("over stdio: close() reports no problem (no failed notifications/cancelled) and ends closed", async () => {
    const transport = new StdioTransport({ command: "node", args: modernServerArgs("--stdio", "--era", "modern"), cwd: ROOT });
    const { problems, states } = await problemsOfAClose(transport);
    assert.deepEqual(problems, []);
    assert.deepEqual(states.slice(-2), ["closing", "closed"]);
  });

  test("over Streamable HTTP: close() reports no problem and ends closed", async () => {
    const server: ModernHttpServer = await startModernHttp("modern");
    try {
      const { problems, states } = await problemsOfAClose(new StreamableHttpTransport({ url: server.url }));
      assert.deepEqual(problems, []);
      assert.deepEqual(states.slice(-2), ["closing", "closed"]);
    } finally {
      await server.stop();
    }
  });

  test("over stdio, a server that dies with the stream open: failed with ConnectionClosedError, no failed cancel reported", async () => {
    const sent: string[] = [];
    const stdio = new StdioTransport({ command: "node", args: modernServerArgs("--stdio", "--era", "modern"), cwd: ROOT });
    const client = new Client(INFO);
    const problems: string[] = [];
    client.on("problem", ({ message }) => problems.push(message));
    const failed = new Promise<Error | undefined>((resolve) => client.on("statechange", ({ to, cause }) => to === "failed" && resolve(cause)));
    try {
      await hangGuard(
        client.connect(
          new TracingTransport(stdio, (direction, message) => {
            if (direction === "send" && "method" in message) sent.push(message.method);
          }),
        ),
        HANG_GUARD_MS,
        "connect",
      );
      await listenSent(sent);
      await hangGuard(client.listTools(), HANG_GUARD_MS, "tools/list");
      process.kill(stdio.pid!, "SIGKILL");
      const cause = await hangGuard(failed, HANG_GUARD_MS, "the failed state");
      assert.ok(cause instanceof ConnectionClosedError, `not a ConnectionClosedError: ${cause}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(problems.filter((problem) => problem.includes("notifications/cancelled")), []);
    } finally {
      await hangGuard(client.close(), HANG_GUARD_MS, "close");
    }
  });
});

describe("closing a 2026-07-28 stdio connection ends its listen stream first", { timeout: 60_000 }, () => {
  test("close() sends notifications/cancelled naming the listen request before stdin closes; the server exits at once, unsignalled", async () => {
    // spec 2026-07-28 basic/patterns/subscriptions ("Cancellation"): on stdio the client ends a
    // listen with notifications/cancelled; basic/transports/stdio ("Shutdown"): then stdin closes.
    const dir = mkdtempSync(join(tmpdir(), "mcpwire-listen-close-"));
    const events = join(dir, "events");
    try {
      const stdio = new StdioTransport({ command: "node", args: [fixturePath("listen-hold-server.mjs"), events], shutdownTimeoutMs: 4000 });
      const client = new Client(INFO);
      const problems: string[] = [];
      const states: string[] = [];
      client.on("problem", ({ message }) => problems.push(message));
      client.on("statechange", ({ to }) => states.push(to));
      const sent: string[] = [];
      try {
        await hangGuard(
          client.connect(
            new TracingTransport(stdio, (direction, message) => {
              if (direction === "send" && "method" in message) sent.push(message.method);
            }),
          ),
          HANG_GUARD_MS,
          "connect",
        );
        assert.equal(client.era, "modern");
        await listenSent(sent);
        await hangGuard(client.listTools(), HANG_GUARD_MS, "tools/list"); // the listen request has reached the server
      } finally {
        await hangGuard(client.close(), HANG_GUARD_MS, "close");
      }
      const lines = readFileSync(events, "utf8").trim().split("\n");
      const listen = lines.find((line) => line.startsWith("listen "));
      assert.ok(listen !== undefined, `the server saw no listen: ${lines.join(", ")}`);
      const id = listen.slice("listen ".length);
      assert.deepEqual(lines, [`listen ${id}`, `cancelled ${id}`, "stdin-end", "exit 0"], "cancel, then EOF, then a clean exit (no SIGTERM)");
      assert.deepEqual(problems, [], "a close the user asked for reports nothing");
      assert.deepEqual(states.slice(-2), ["closing", "closed"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
