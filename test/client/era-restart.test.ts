// A stdio server that exits on the server/discover probe is a legacy server: under protocol auto
// the Client starts it again, once, and runs the initialize handshake (spec 2026-07-28
// basic/transports/stdio "Backward Compatibility"; rmcp servers exit when the first message is not
// initialize). And a server that dies at start is reported by its exit and stderr, not as a probe.

import assert from "node:assert/strict";
import process from "node:process";
import { describe, test } from "node:test";
import { Client, ClientStateError, ConnectionClosedError, type StateChange, StdioTransport } from "../../src/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { methodLog } from "../support/method-log.ts";
import { rejection } from "../support/rejection.ts";

const FIXTURE = fixturePath("initialize-first-server.mjs");
const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

describe("a stdio server that exits on the server/discover probe", () => {
  test("protocol auto starts it again once and speaks the handshake: connect, list, call and close work", async () => {
    const log = methodLog("mcpwire-era-restart-");
    const stderr: string[] = [];
    // connect() is given a function that makes the transport: the Client calls it again to start the server again.
    const made: StdioTransport[] = [];
    const transport = () => {
      made.push(new StdioTransport({ command: "node", args: [FIXTURE, "--log", log.path], onStderr: (line) => stderr.push(line) }));
      return made.at(-1)!;
    };
    const client = new Client(CLIENT_INFO, { name: "rusty" });
    const states: StateChange[] = [];
    client.on("statechange", (change) => states.push(change));
    try {
      await client.connect(transport);
      assert.equal(client.state, "ready");
      assert.equal(client.era, "legacy");
      assert.equal(client.serverInfo?.name, "initialize-first");
      assert.equal(made.length, 2, "one transport per process");
      assert.equal(client.transport, made[1], "the client holds the transport of the second process");
      const tools = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ["echo"]);
      const result = await client.callTool("echo", { text: "hello" });
      assert.deepEqual(result.content, [{ type: "text", text: "echo: hello" }]);
      await client.close();
      assert.equal(client.state, "closed");
      assert.deepEqual(states.map(({ to }) => to), ["connecting", "initializing", "ready", "closing", "closed"]);
      // The first process got the probe and exited; the second one the handshake and the calls.
      assert.deepEqual(log.methods(), ["server/discover", "initialize", "notifications/initialized", "tools/list", "tools/call"]);
    } finally {
      await client.close();
      log.remove();
    }
    // The stderr listener heard the first process say why it exited.
    assert.ok(stderr.some((line) => line.includes("expect initialized request, but received")), stderr.join("\n"));
  });

  test("given one transport (not a function that makes one), the Client cannot start it again: connect fails saying what to give", async () => {
    const log = methodLog("mcpwire-era-restart-");
    const client = new Client(CLIENT_INFO, { name: "rusty" });
    try {
      const error = await rejection(client.connect(new StdioTransport({ command: "node", args: [FIXTURE, "--log", log.path] })));
      assert.ok(error instanceof ConnectionClosedError, `${error}`);
      assert.match(error.message, /^server "rusty" stopped on server\/discover/);
      assert.match(error.message, /set protocol: legacy for this server, or give connect\(\) a function that makes the transport$/);
      assert.equal(client.state, "failed");
      assert.deepEqual(log.methods(), ["server/discover"], "no second process");
    } finally {
      await client.close();
      log.remove();
    }
  });

  test("protocol modern does not start it again, and says the probe is the likely cause", async () => {
    const log = methodLog("mcpwire-era-restart-");
    const client = new Client(CLIENT_INFO, { name: "rusty", protocol: "modern" });
    try {
      const error = await rejection(client.connect(() => new StdioTransport({ command: "node", args: [FIXTURE, "--log", log.path] })));
      assert.ok(error instanceof ConnectionClosedError, `${error}`);
      assert.match(error.message, /^server "rusty" stopped on server\/discover.*exited with code 1/);
      assert.match(error.message, /expect initialized request/);
      assert.match(error.message, /set protocol: legacy \(or auto\) for this server/);
      assert.equal(client.state, "failed");
      assert.deepEqual(log.methods(), ["server/discover"]);
    } finally {
      await client.close();
      log.remove();
    }
  });
});

describe("closing around the restart", () => {
  test("close() as the first process exits ends the client closed, with no process left", async () => {
    const client = new Client(CLIENT_INFO, { name: "rusty" });
    const onStderr = (line: string) => {
      if (line.includes("expect initialized request")) void client.close();
    };
    const states: StateChange[] = [];
    client.on("statechange", (change) => states.push(change));
    const error = await rejection(client.connect(() => new StdioTransport({ command: "node", args: [FIXTURE], onStderr })));
    assert.ok(error instanceof ClientStateError, `${error}`);
    assert.equal(client.state, "closed");
    assert.deepEqual(states.map(({ to }) => to), ["connecting", "closing", "closed"]);
    const pid = (client.transport as StdioTransport).pid;
    if (pid !== undefined) assert.throws(() => process.kill(pid, 0), "the server process is gone");
  });
});

describe("a server that exits at start", () => {
  test("is reported by its exit code and stderr, without naming the probe", async () => {
    const client = new Client(CLIENT_INFO, { name: "broken" });
    const states: StateChange[] = [];
    client.on("statechange", (change) => states.push(change));
    const error = await rejection(client.connect(() => new StdioTransport({ command: "node", args: [fixturePath("exit-at-start-server.mjs")] })));
    assert.ok(error instanceof ConnectionClosedError, `${error}`);
    assert.match(
      error.message,
      /^server "broken" stopped during the initialize handshake: server process exited with code 1; last stderr: fatal: no API key set$/,
    );
    assert.doesNotMatch(error.message, /server\/discover/);
    assert.equal(client.state, "failed");
    assert.equal(client.failure, error);
    assert.deepEqual(states.map(({ to }) => to), ["connecting", "initializing", "failed"]);
    await client.close();
  });
});
