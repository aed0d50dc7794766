// The Client's lifecycle: states and their events, the initialize handshake, version
// negotiation, and what calls do before, during and after a connection — spec 2025-11-25
// basic/lifecycle. Hand-written servers: a stdio fixture process and in-process Peers.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { RequestAbortedError } from "../../src/jsonrpc/errors.ts";
import type { RequestHandler } from "../../src/jsonrpc/peer.ts";
import {
  CapabilityError,
  Client,
  type ClientState,
  ClientStateError,
  ConnectionClosedError,
  type JsonRpcMessage,
  MemoryTransport,
  type Params,
  Peer,
  ProtocolVersionError,
  RequestTimeoutError,
  type StateChange,
  StdioTransport,
  TransportError,
} from "../../src/mod.ts";
import { coreCapabilities } from "../support/capabilities.ts";
import { rejection } from "../support/rejection.ts";

const FIXTURE = fileURLToPath(new URL("../fixtures/client-lifecycle-server.mjs", import.meta.url));
const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

function fixtureTransport(...args: string[]): StdioTransport {
  return new StdioTransport({ command: "node", args: [FIXTURE, ...args] });
}

/** Records every state change of a client. */
function recordStates(client: Client): StateChange[] {
  const changes: StateChange[] = [];
  client.on("statechange", (change) => changes.push(change));
  return changes;
}

interface Observed {
  beforeInitResult: string[];
  afterInitResult: string[];
  initializeParams: Params;
  lastCallMeta: Params | undefined;
}

async function observed(client: Client): Promise<Observed> {
  const result = await client.callTool("observed");
  return result.structuredContent as unknown as Observed;
}

/** An in-process hand-written server: a Peer on the far end of a MemoryTransport pair. */
interface TestServer {
  clientEnd: MemoryTransport;
  peer: Peer;
  received: JsonRpcMessage[];
  /** Resolves when the server's end of the pair has closed. */
  closed: Promise<void>;
}

function testServer(initialize: RequestHandler, handlers: Record<string, RequestHandler> = {}): TestServer {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const peer = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  const received: JsonRpcMessage[] = [];
  let markClosed = () => {};
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  serverEnd.onmessage = (message) => {
    received.push(message);
    peer.receive(message);
  };
  serverEnd.onclose = (details) => {
    peer.close(details);
    markClosed();
  };
  peer.setRequestHandler("initialize", initialize);
  for (const [method, handler] of Object.entries(handlers)) peer.setRequestHandler(method, handler);
  void serverEnd.start();
  return { clientEnd, peer, received, closed };
}

function answer(protocolVersion: string, capabilities: Params = {}): RequestHandler {
  return () => ({ protocolVersion, capabilities, serverInfo: { name: "in-process", version: "0.0.1" } });
}

const never: RequestHandler = () => new Promise<Params>(() => {});

describe("Client lifecycle against a stdio fixture server", () => {
  test("a connection moves new → connecting → initializing → ready → closing → closed, with a statechange event for each", async () => {
    const client = new Client(CLIENT_INFO);
    const changes = recordStates(client);
    assert.equal(client.state, "new");
    await client.connect(fixtureTransport());
    assert.equal(client.state, "ready");
    assert.deepEqual(client.serverInfo, { name: "client-lifecycle-fixture", version: "1.0.0" });
    assert.equal(client.protocolVersion, "2025-11-25");
    assert.deepEqual(client.serverCapabilities, { tools: {} });
    assert.equal(client.instructions, "a fixture for the client lifecycle tests");
    await client.close();
    assert.equal(client.state, "closed");
    assert.deepEqual(
      changes.map(({ from, to }) => `${from}→${to}`),
      ["new→connecting", "connecting→initializing", "initializing→ready", "ready→closing", "closing→closed"],
    );
    assert.ok(changes.every((change) => change.cause === undefined));
  });

  test("initialize offers 2025-11-25 with clientInfo; notifications/initialized is the first thing sent after the result", async () => {
    const client = new Client(CLIENT_INFO, { capabilities: { roots: { listChanged: true } } });
    await client.connect(fixtureTransport());
    try {
      const seen = await observed(client);
      assert.equal(seen.initializeParams.protocolVersion, "2025-11-25");
      assert.deepEqual(seen.initializeParams.clientInfo, CLIENT_INFO);
      assert.deepEqual(coreCapabilities(seen.initializeParams.capabilities), { roots: { listChanged: true } });
      // protocol auto: the server/discover probe first (spec 2026-07-28 stdio "Backward
      // Compatibility"); this legacy fixture refuses it, so the handshake follows, once.
      assert.deepEqual(seen.beforeInitResult, ["server/discover", "initialize"]);
      assert.deepEqual(seen.afterInitResult, ["notifications/initialized", "tools/call"]);
    } finally {
      await client.close();
    }
  });

  test("callTool always attaches a progress token in _meta, with or without onProgress", async () => {
    const client = new Client(CLIENT_INFO);
    await client.connect(fixtureTransport());
    try {
      const plain = await observed(client);
      assert.ok(["number", "string"].includes(typeof plain.lastCallMeta?.progressToken), "no progressToken without onProgress");
      const withProgress = await client.callTool("observed", {}, { onProgress: () => {} });
      const meta = (withProgress.structuredContent as unknown as Observed).lastCallMeta;
      assert.ok(["number", "string"].includes(typeof meta?.progressToken), "no progressToken with onProgress");
      assert.notEqual(meta?.progressToken, plain.lastCallMeta?.progressToken, "progress tokens must be unique per request");
    } finally {
      await client.close();
    }
  });

  test("only ping may be sent before the initialize result: other calls reject at once and never reach the server", async () => {
    const client = new Client(CLIENT_INFO, { initializeTimeoutMs: 10_000 }); // hang guard
    const early: { ping?: Promise<void>; listTools?: Promise<Error>; callTool?: Promise<Error>; notify?: Promise<Error> } = {};
    client.on("statechange", ({ to }) => {
      if (to !== "initializing") return;
      early.ping = client.ping();
      early.listTools = rejection(client.listTools());
      early.callTool = rejection(client.callTool("echo", { message: "too early" }));
      early.notify = rejection(client.notify("notifications/roots/list_changed"));
    });
    // --hold-init: the fixture answers initialize only after the ping, so it is in flight.
    await client.connect(fixtureTransport("--hold-init"));
    try {
      await early.ping; // answered while initialize was still pending
      for (const pending of [early.listTools, early.callTool, early.notify]) {
        const error = await pending!;
        assert.ok(error instanceof ClientStateError);
        assert.equal(error.state, "initializing");
        assert.equal(error.code, "connecting");
        assert.match(error.message, /while it is initializing/);
        assert.match(error.message, /only ping may go before the initialize result/);
      }
      const seen = await observed(client);
      assert.deepEqual(seen.beforeInitResult, ["server/discover", "initialize", "ping"]);
      assert.equal(seen.afterInitResult[0], "notifications/initialized");
    } finally {
      await client.close();
    }
  });

  test("a server that exits fails the client with the cause; its pending call rejects, later calls reject at once", async () => {
    const client = new Client(CLIENT_INFO, { name: "crashy" });
    const changes = recordStates(client);
    await client.connect(fixtureTransport());
    const crash = await rejection(client.callTool("crash"));
    assert.ok(crash instanceof ConnectionClosedError, `got ${crash.name}: ${crash.message}`);
    assert.match(crash.message, /server "crashy"/);
    assert.match(crash.message, /exited with code 3/);
    assert.match(crash.message, /crashing on purpose/); // the server's stderr tail

    assert.equal(client.state, "failed");
    assert.deepEqual(changes.map(({ to }) => to), ["connecting", "initializing", "ready", "failed"]);
    const failed = changes.at(-1)!;
    assert.equal(failed.to, "failed");
    assert.ok(failed.cause instanceof ConnectionClosedError);
    assert.equal(client.failure, failed.cause);
    assert.match(failed.cause.message, /exited with code 3/);

    const later = await rejection(client.listTools());
    assert.ok(later instanceof ClientStateError);
    assert.equal(later.state, "failed");
    assert.match(later.message, /cannot send tools\/list/);
    assert.match(later.message, /exited with code 3/);
    assert.equal(later.cause, client.failure);
    await client.close(); // nothing left to close; resolves
    assert.equal(client.state, "failed");
  });

  test('bad output from the server is reported as "problem" events and survived', async () => {
    const client = new Client(CLIENT_INFO, { name: "noisy" });
    const problems: string[] = [];
    client.on("problem", ({ message }) => problems.push(message));
    await client.connect(fixtureTransport());
    try {
      const result = await client.callTool("noise");
      assert.deepEqual(result.content, [{ type: "text", text: "after the noise" }]);
      assert.equal(problems.length, 2, problems.join("\n"));
      assert.match(problems[0]!, /client-lifecycle-server\.mjs.*stdout/);
      assert.match(problems[1]!, /server "noisy": response for unknown request id 999999; ignored/);
      assert.equal(client.state, "ready");
      await client.ping();
    } finally {
      await client.close();
    }
  });

  test("calls on a closed client reject at once with a ClientStateError naming the method and the state", async () => {
    const client = new Client(CLIENT_INFO, { name: "fixture" });
    await client.connect(fixtureTransport());
    await client.close();
    const calls: [string, () => Promise<unknown>][] = [
      ["tools/list", () => client.listTools()],
      ["tools/call", () => client.callTool("echo", { message: "hi" })],
      ["ping", () => client.ping()],
      ["resources/list", () => client.listResources()],
      ["prompts/get", () => client.getPrompt("p")],
      ["logging/setLevel", () => client.setLoggingLevel("info")],
    ];
    for (const [method, call] of calls) {
      const error = await rejection(call());
      assert.ok(error instanceof ClientStateError, `${method}: got ${error.name}`);
      assert.equal(error.state, "closed");
      assert.equal(error.code, "closed");
      assert.equal(error.message, `cannot send ${method}: the connection to server "fixture" is closed`);
    }
  });

  test("calls before connect() reject at once, telling the caller to connect first", async () => {
    const client = new Client(CLIENT_INFO);
    const error = await rejection(client.callTool("echo"));
    assert.ok(error instanceof ClientStateError);
    assert.equal(error.state, "new");
    assert.equal(error.code, "not-connected");
    assert.match(error.message, /call connect\(\) first/);
  });

  test("connect() twice is refused without touching the first connection", async () => {
    const client = new Client(CLIENT_INFO);
    await client.connect(fixtureTransport());
    try {
      const second = fixtureTransport();
      const error = await rejection(client.connect(second));
      assert.ok(error instanceof ClientStateError);
      assert.match(error.message, /while the client is ready; close\(\) it first/);
      assert.equal(client.state, "ready");
      assert.equal((await client.callTool("echo", { message: "still here" })).content[0]?.type, "text");
    } finally {
      await client.close();
    }
  });

  test("a closed client connects again, to the same server and to another; its listeners stay wired (docs/architecture.md, Reusable clients)", async () => {
    const client = new Client(CLIENT_INFO);
    const changes = recordStates(client);
    try {
      await client.connect(fixtureTransport());
      const first = client.transport;
      assert.equal((await client.listTools()).some((tool) => tool.name === "echo"), true);
      assert.equal(client.answeredCalls, 0);
      await client.callTool("echo", { message: "one" });
      assert.equal(client.answeredCalls, 1);
      await client.close();
      assert.equal(client.state, "closed");
      // The same server again, on a new transport: what the last connection learned is forgotten.
      await client.connect(fixtureTransport());
      assert.equal(client.state, "ready");
      assert.notEqual(client.transport, first);
      assert.equal(client.knownTools.size, 0, "the tool list of the closed connection was kept");
      assert.equal(client.answeredCalls, 0);
      assert.equal((await client.callTool("echo", { message: "two" })).content[0]?.type, "text");
      await client.close();
      // Another server after that (the fixture answering 2025-06-18): the version is negotiated afresh.
      await client.connect(fixtureTransport("--version", "2025-06-18"));
      assert.equal(client.protocolVersion, "2025-06-18");
      assert.equal((await client.callTool("echo", { message: "three" })).content[0]?.type, "text");
      assert.deepEqual(
        changes.map(({ from, to }) => `${from}>${to}`),
        [
          "new>connecting",
          "connecting>initializing",
          "initializing>ready",
          "ready>closing",
          "closing>closed",
          "closed>connecting",
          "connecting>initializing",
          "initializing>ready",
          "ready>closing",
          "closing>closed",
          "closed>connecting",
          "connecting>initializing",
          "initializing>ready",
        ],
      );
    } finally {
      await client.close();
    }
  });

  test("a failed client connects again; what the old transport reports later does not touch the new connection", async () => {
    const client = new Client(CLIENT_INFO, { initializeTimeoutMs: 5_000 });
    const refused = new StdioTransport({ command: "node", args: ["-e", "process.exit(3)"] });
    await rejection(client.connect(refused));
    assert.equal(client.state, "failed");
    await client.connect(fixtureTransport());
    assert.equal(client.state, "ready");
    assert.equal(client.failure, undefined);
    await refused.close(); // the old transport, closed again: no effect on the new connection
    assert.equal(client.state, "ready");
    assert.equal((await client.callTool("echo", { message: "after a failure" })).content[0]?.type, "text");
    await client.close();
  });

  test("close() twice: both calls resolve once the connection is closed, and closing/closed are emitted once", async () => {
    const client = new Client(CLIENT_INFO);
    await client.connect(fixtureTransport());
    const changes = recordStates(client);
    const first = client.close();
    const second = client.close();
    await second;
    assert.equal(client.state, "closed", "the second close() resolved before the connection was closed");
    await first;
    await client.close();
    assert.deepEqual(changes.map(({ to }) => to), ["closing", "closed"]);
  });

  test("a command that cannot be started fails the client with the transport's error", async () => {
    const client = new Client(CLIENT_INFO);
    const changes = recordStates(client);
    const error = await rejection(client.connect(new StdioTransport({ command: "mcpwire-no-such-command-for-tests" })));
    assert.ok(error instanceof TransportError);
    assert.equal(error.code, "ENOENT");
    assert.equal(client.state, "failed");
    assert.equal(client.failure, error);
    assert.deepEqual(changes.map(({ to }) => to), ["connecting", "failed"]);
  });
});

describe("protocol version negotiation", () => {
  for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
    test(`a server answering ${version} is accepted and the client speaks ${version}`, async () => {
      const client = new Client(CLIENT_INFO);
      await client.connect(fixtureTransport("--version", version));
      try {
        assert.equal(client.state, "ready");
        assert.equal(client.protocolVersion, version);
        assert.equal((await client.callTool("echo", { message: "hi" })).content.length, 1);
      } finally {
        await client.close();
      }
    });
  }

  test("any other version closes the connection with a ProtocolVersionError naming both versions", async () => {
    const server = testServer(answer("2099-01-01", { tools: {} }));
    const client = new Client(CLIENT_INFO, { name: "future" });
    const changes = recordStates(client);
    const error = await rejection(client.connect(server.clientEnd));
    assert.ok(error instanceof ProtocolVersionError, `got ${error.name}: ${error.message}`);
    assert.match(error.message, /server "future"/);
    assert.match(error.message, /"2099-01-01"/);
    assert.match(error.message, /offered 2025-11-25/);
    assert.equal(error.offered, "2025-11-25");
    assert.equal(error.received, "2099-01-01");
    await server.closed; // the client hung up
    assert.equal(client.state, "failed");
    assert.equal(client.failure, error);
    assert.equal(changes.at(-1)?.cause, error);
    assert.ok(!server.received.some((message) => "method" in message && message.method === "notifications/initialized"));
  });

  test("with 2024-11-05 the client adapts: structuredContent is not validated and completion needs no capability", async () => {
    const server = testServer(answer("2024-11-05", { tools: {}, prompts: {} }), {
      "tools/list": () => ({
        tools: [{ name: "typed", inputSchema: { type: "object" }, outputSchema: { type: "object", required: ["n"] } }],
      }),
      "tools/call": () => ({ content: [], structuredContent: { not: "n" } }),
      "completion/complete": () => ({ completion: { values: ["alpha"] } }),
    });
    const client = new Client(CLIENT_INFO);
    await client.connect(server.clientEnd);
    try {
      await client.listTools();
      const result = await client.callTool("typed");
      assert.deepEqual(result.structuredContent, { not: "n" });
      const completion = await client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "al" });
      assert.deepEqual(completion.values, ["alpha"]);
    } finally {
      await client.close();
    }
  });

  test("with 2025-03-26 and later, completion without the completions capability is a CapabilityError", async () => {
    const server = testServer(answer("2025-03-26", { prompts: {} }), {
      "completion/complete": () => ({ completion: { values: [] } }),
    });
    const client = new Client(CLIENT_INFO);
    await client.connect(server.clientEnd);
    try {
      const error = await rejection(client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" }));
      assert.ok(error instanceof CapabilityError);
      assert.equal(error.capability, "completions");
      assert.ok(!server.received.some((message) => "method" in message && message.method === "completion/complete"));
    } finally {
      await client.close();
    }
  });
});

describe("handshakes that do not finish", () => {
  test("an initialize that gets no answer times out and fails the client", async () => {
    const server = testServer(never);
    const client = new Client(CLIENT_INFO, { name: "silent", initializeTimeoutMs: 100 });
    const error = await rejection(client.connect(server.clientEnd));
    assert.ok(error instanceof RequestTimeoutError, `got ${error.name}: ${error.message}`);
    assert.match(error.message, /server "silent": initialize timed out/);
    assert.equal(client.state, "failed");
    await server.closed;
    // spec 2025-11-25 basic/utilities/cancellation: initialize is never cancelled.
    assert.ok(!server.received.some((message) => "method" in message && message.method === "notifications/cancelled"));
  });

  test("aborting connect()'s signal ends the handshake and fails the client with the reason", async () => {
    const server = testServer(never);
    const client = new Client(CLIENT_INFO);
    const controller = new AbortController();
    client.on("statechange", ({ to }) => {
      if (to === "initializing") controller.abort(new Error("the user gave up"));
    });
    const error = await rejection(client.connect(server.clientEnd, { signal: controller.signal }));
    assert.ok(error instanceof RequestAbortedError, `got ${error.name}: ${error.message}`);
    assert.match(error.message, /: initialize was cancelled by the caller: the user gave up$/);
    assert.equal(client.state, "failed");
    await server.closed;
  });

  test("close() while the server process is still starting ends closed, and connect() rejects saying so", async () => {
    const client = new Client(CLIENT_INFO);
    const changes = recordStates(client);
    const connecting = rejection(client.connect(fixtureTransport()));
    assert.equal(client.state, "connecting");
    await client.close();
    const error = await connecting;
    assert.ok(error instanceof ClientStateError, `got ${error.name}: ${error.message}`);
    assert.equal(error.code, "closed-while-connecting");
    assert.match(error.message, /close\(\) was called while it was connecting/);
    assert.equal(client.state, "closed");
    assert.deepEqual(changes.map(({ to }) => to), ["connecting", "closing", "closed"]);
  });

  test("close() during the handshake ends closed, not failed, and connect() rejects saying so", async () => {
    const server = testServer(never);
    const client = new Client(CLIENT_INFO, { name: "slow" });
    const states: ClientState[] = [];
    let closing: Promise<void> | undefined;
    client.on("statechange", ({ to }) => {
      states.push(to);
      if (to === "initializing") closing = client.close();
    });
    const error = await rejection(client.connect(server.clientEnd));
    await closing;
    assert.ok(error instanceof ClientStateError, `got ${error.name}: ${error.message}`);
    assert.equal(error.code, "closed-while-connecting");
    assert.match(error.message, /close\(\) was called while it was connecting/);
    assert.equal(client.state, "closed");
    assert.deepEqual(states, ["connecting", "initializing", "closing", "closed"]);
    await server.closed;
  });
});
