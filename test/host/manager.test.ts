// The server manager against real child processes: start, registration, reconnect after a
// kill, parking and probing, isolation between servers, connect_timeout, bounded close.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { CallToolResult } from "../../src/client/types.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError, type ServerConfig } from "../../src/host/config/types.ts";
import { type ManagerEvents, McpManager, type McpManagerOptions, type ServerState, ServerUnavailableError } from "../../src/host/servers/manager.ts";
import { ConnectionClosedError, type McpwireError, StdioTransport } from "../../src/mod.ts";
import { ToolCallError } from "../../src/registry/tool-call-error.ts";
import type { ToolsChange } from "../../src/registry/types.ts";
import { startEverything, startSseFixture } from "../fixtures/sse-servers.ts";
import { behaviour } from "../support/behaviour.ts";
import { EVERYTHING as everything } from "../support/everything-path.ts";
import { fixturePath as fixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";
import { isRunning } from "../support/processes.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

/** A stdio server config with the defaults parseConfig would fill in, running a fixture. */
function server(name: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return stdioServerConfig(name, [fixture("manager-server.mjs")], { env: { MANAGER_SERVER_NAME: name }, ...overrides });
}

/** Test timing: millisecond backoff, no jitter, probes only when a test asks for them. */
const FAST: McpManagerOptions = {
  reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 },
  connectRetries: 0,
  probeIntervalMs: 600_000,
};

/** Resolves with the next serverstate event of `server` that moves to `to`. */
function nextState(
  manager: McpManager,
  server: string,
  to: ServerState,
  ms = 10_000,
): Promise<ManagerEvents["serverstate"]> {
  let off = () => {};
  const event = new Promise<ManagerEvents["serverstate"]>((resolve) => {
    off = manager.on("serverstate", (change) => {
      if (change.server === server && change.to === to) resolve(change);
    });
  });
  return hangGuard(event, ms, `server "${server}" reaching ${to}`).finally(off);
}

/** Every serverstate event, as "server: from → to". */
function recordStates(manager: McpManager): string[] {
  const seen: string[] = [];
  manager.on("serverstate", ({ server, from, to }) => seen.push(`${server}: ${from} → ${to}`));
  return seen;
}

function statusOf(manager: McpManager, name: string) {
  const status = manager.status().find((entry) => entry.name === name);
  assert.ok(status, `a status for ${name}`);
  return status;
}

function pidOf(manager: McpManager, name: string): number {
  const transport = manager.client(name)?.transport;
  assert.ok(transport instanceof StdioTransport, `server "${name}" has a stdio transport`);
  assert.ok(transport.pid !== undefined);
  return transport.pid;
}

function textOf(result: unknown): string {
  const first = (result as CallToolResult).content[0] as { type: string; text: string };
  assert.equal(first.type, "text");
  return first.text;
}

/** Resolves with the first stderr line of `server` that matches. */
function stderrMatch(manager: McpManager, server: string, pattern: RegExp, ms = 10_000): Promise<RegExpMatchArray> {
  let off = () => {};
  const found = new Promise<RegExpMatchArray>((resolve) => {
    off = manager.on("stderr", (event) => {
      const match = event.server === server ? event.line.match(pattern) : null;
      if (match) resolve(match);
    });
  });
  return hangGuard(found, ms, `a stderr line of "${server}" matching ${pattern}`).finally(off);
}

/** A flag file a fixture reads at start (see manager-server.mjs). */
function flagFile(): { path: string; set(value: string): void; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-manager-"));
  const path = join(dir, "flag");
  writeFileSync(path, "");
  return {
    path,
    set: (value) => writeFileSync(path, value),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// --- start ---------------------------------------------------------------------------

behaviour("start() connects every enabled server in parallel and registers its tools in toolset mcp-<server>", async () => {
  const manager = new McpManager(
    configOf(
      server("alpha"),
      server("everything", { args: [everything, "stdio"], env: {}, tools: { include: ["echo", "get-sum"] } }),
    ),
    FAST,
  );
  const states = recordStates(manager);
  const stderr: string[] = [];
  manager.on("stderr", ({ server, line }) => stderr.push(`${server}: ${line}`));
  try {
    assert.equal(statusOf(manager, "alpha").state, "connecting", "before start()");
    await hangGuard(manager.start(), 20_000, "start()");

    const alpha = statusOf(manager, "alpha");
    assert.equal(alpha.state, "ready");
    assert.equal(alpha.transport, "stdio");
    assert.equal(alpha.protocolVersion, "2025-11-25");
    assert.equal(alpha.serverInfo?.name, "alpha");
    assert.equal(alpha.tools, 5);
    assert.equal(alpha.reconnectAttempts, 0);
    assert.equal(alpha.lastError, undefined);
    assert.deepEqual(
      manager.registry.tools().filter((tool) => tool.toolset === "mcp-alpha").map((tool) => tool.name).sort(),
      ["mcp_alpha_echo", "mcp_alpha_hang", "mcp_alpha_log", "mcp_alpha_noise", "mcp_alpha_pid"],
    );
    assert.equal(textOf(await manager.registry.call("mcp_alpha_echo", { text: "through the registry" })), "through the registry");

    const ev = statusOf(manager, "everything");
    assert.equal(ev.state, "ready");
    assert.equal(ev.tools, 2, "include filters the server's tools");
    assert.ok(manager.registry.has("mcp_everything_echo"));
    assert.ok(!manager.registry.has("mcp_everything_get-env"));
    assert.match(await manager.registry.dispatch("mcp_everything_echo", { message: "hi" }), /hi/);

    assert.deepEqual(states.sort(), ["alpha: connecting → ready", "everything: connecting → ready"]);
    assert.ok(stderr.some((line) => /^alpha: manager fixture alpha started pid \d+$/.test(line)), "stderr lines are forwarded");
    assert.ok(manager.client("alpha"), "client(name) gives the session's client");
    await manager.client("alpha")!.ping();
    assert.equal(manager.client("nobody"), undefined);
  } finally {
    await manager.close();
  }
});

behaviour("server log messages and problems are events naming the server", async () => {
  const manager = new McpManager(configOf(server("alpha")), FAST);
  const logs: ManagerEvents["log"][] = [];
  const problems: ManagerEvents["problem"][] = [];
  manager.on("log", (event) => logs.push(event));
  manager.on("problem", (event) => problems.push(event));
  try {
    await manager.start();
    await manager.registry.call("mcp_alpha_log", { text: "disk almost full" });
    assert.deepEqual(logs, [{ server: "alpha", level: "warning", logger: "fixture", data: "disk almost full" }]);
    assert.equal(textOf(await manager.registry.call("mcp_alpha_noise", {})), "noisy", "a bad line is survived");
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.server, "alpha");
    assert.match(problems[0]!.message, /not JSON/i);
  } finally {
    await manager.close();
  }
});

behaviour("a server with a config error, a disabled one and an http one without a url stay disabled while the others start", async () => {
  const broken = server("broken", {
    enabled: false,
    error: new ConfigError('server "broken": env.API_KEY uses ${API_KEY}, which is not set; set it or give a default', "invalid-config", {
      server: "broken",
      key: "env.API_KEY",
    }),
  });
  const manager = new McpManager(
    configOf(
      broken,
      server("off", { enabled: false }),
      server("remote", { transport: "http", command: undefined, args: [], url: undefined }),
      server("alpha"),
    ),
    FAST,
  );
  const states = recordStates(manager);
  try {
    await manager.start();
    const [brokenStatus, off, remote, alpha] = manager.status();
    assert.ok(brokenStatus && off && remote && alpha);
    assert.equal(brokenStatus.state, "disabled");
    assert.match(brokenStatus.reason ?? "", /API_KEY.*not set/);
    assert.match(brokenStatus.lastError ?? "", /API_KEY/);
    assert.equal(off.state, "disabled");
    assert.match(off.reason ?? "", /disabled in the config \(enabled: false\)/);
    assert.equal(remote.state, "disabled");
    assert.equal(remote.lastError, 'server "remote": an http server needs a "url"; add one to its config');
    assert.equal(alpha.state, "ready");
    assert.deepEqual(states, ["alpha: connecting → ready"], "disabled servers never move");
    assert.equal(manager.client("broken"), undefined);
    assert.ok(!manager.registry.tools().some((tool) => tool.toolset !== "mcp-alpha"));
  } finally {
    await manager.close();
  }
});

behaviour("from a YAML config: a server whose ${VAR} is unset is disabled with the config error, the other starts", async () => {
  const yaml = [
    "mcp_servers:",
    "  good:",
    "    command: node",
    `    args: [${JSON.stringify(fixture("manager-server.mjs"))}]`,
    "    env: { MANAGER_SERVER_NAME: good }",
    "    tools: { include: [echo] }",
    "  needs-key:",
    "    command: node",
    `    args: [${JSON.stringify(fixture("manager-server.mjs"))}]`,
    '    env: { API_KEY: "${MCPWIRE_TEST_UNSET_KEY}" }',
    "",
  ].join("\n");
  const parsed = parseConfig(yaml, { file: "/virtual/mcpwire.yaml", env: { PATH: process.env.PATH } });
  const manager = new McpManager(parsed, FAST);
  try {
    await manager.start();
    const [good, needsKey] = manager.status();
    assert.ok(good && needsKey);
    assert.equal(good.state, "ready");
    assert.equal(good.tools, 1);
    assert.ok(manager.registry.has("mcp_good_echo"));
    assert.equal(needsKey.state, "disabled");
    assert.match(needsKey.reason ?? "", /MCPWIRE_TEST_UNSET_KEY/);
    assert.equal(needsKey.tools, 0);
  } finally {
    await manager.close();
  }
});

behaviour("a server that cannot start is retried with backoff, then parked; start() still resolves and the others run", async () => {
  // Its stderr differs at each start (its pid in letters): a failure that may pass, so it is retried (start-failure.ts).
  const dying = "process.stderr.write('no config here for ' + String(process.pid).replace(/\\d/g, (d) => 'abcdefghij'[d]) + '\\n'); process.exit(2)";
  const manager = new McpManager(
    configOf(server("alpha"), server("dead", { command: "node", args: ["-e", dying] })),
    { ...FAST, connectRetries: 2 },
  );
  const problems: string[] = [];
  manager.on("problem", ({ server, message }) => problems.push(`${server}: ${message}`));
  try {
    await hangGuard(manager.start(), 15_000, "start()");
    const dead = statusOf(manager, "dead");
    assert.equal(dead.state, "parked");
    assert.match(dead.reason ?? "", /could not start: 3 connect attempts failed; probing every/);
    assert.match(dead.lastError ?? "", /exited with code 2/);
    assert.match(dead.lastError ?? "", /no config here/, "the last error carries the server's stderr");
    assert.equal(dead.tools, 0);
    assert.deepEqual(
      problems.filter((line) => line.startsWith("dead: connect attempt")).map((line) => line.slice(0, 32)),
      ["dead: connect attempt 1 of 3 fai", "dead: connect attempt 2 of 3 fai", "dead: connect attempt 3 of 3 fai"],
    );
    assert.equal(statusOf(manager, "alpha").state, "ready");
    assert.equal(textOf(await manager.registry.call("mcp_alpha_echo", { text: "fine" })), "fine");
  } finally {
    await manager.close();
  }
});

behaviour("connect_timeout bounds a server that never answers initialize, and its process is ended", async () => {
  const manager = new McpManager(
    configOf(server("mute", { args: [fixture("manager-mute-server.mjs")], connectTimeoutMs: 400 })),
    FAST,
  );
  const pid = stderrMatch(manager, "mute", /^mute pid (\d+)$/);
  try {
    await hangGuard(manager.start(), 10_000, "start()");
    const status = statusOf(manager, "mute");
    assert.equal(status.state, "parked");
    assert.match(status.lastError ?? "", /server "mute" did not finish connecting \(spawn \+ initialize\) within 400 ms; raise connect_timeout/);
    assert.ok(!isRunning(Number((await pid)[1])), "the server that timed out was ended");
  } finally {
    await manager.close();
  }
});

// --- supervision ---------------------------------------------------------------------

behaviour("a killed server: its call in flight fails at once, its tools stay and fail as reconnecting, then it comes back", async () => {
  const flag = flagFile();
  const manager = new McpManager(
    configOf(server("alpha", { env: { MANAGER_SERVER_NAME: "alpha", MANAGER_FLAG_FILE: flag.path } })),
    { ...FAST, reconnectDelay: { initialMs: 800, jitter: 0 } },
  );
  const changes: ToolsChange[] = [];
  manager.registry.on("toolschange", (change) => changes.push(change));
  try {
    await manager.start();
    const firstPid = pidOf(manager, "alpha");
    flag.set("more"); // the restarted server has one more tool

    const inFlight = manager.registry.call("mcp_alpha_hang", {});
    const reconnecting = nextState(manager, "alpha", "reconnecting");
    await new Promise((resolve) => setTimeout(resolve, 50)); // the call is on the wire
    process.kill(firstPid, "SIGKILL");
    await assert.rejects(hangGuard(inFlight, 3000, "the call in flight"), (error: Error) => {
      assert.ok(error instanceof ToolCallError && error.code === "unavailable", `${error.name}: ${error.message}`);
      assert.ok(error.cause instanceof ConnectionClosedError, "the client failed it at once: the connection closed");
      assert.match(error.message, /^server "alpha", tool "hang": tools\/call failed: connection closed: .*SIGKILL/);
      return true;
    });
    const change = await reconnecting;
    assert.match(change.error?.message ?? "", /SIGKILL/);

    // During the backoff the tools stay registered and fail at once, naming the server.
    const during = statusOf(manager, "alpha");
    assert.equal(during.state, "reconnecting");
    assert.equal(during.reconnectAttempts, 1);
    assert.equal(during.tools, 5);
    assert.ok(manager.registry.has("mcp_alpha_echo"));
    await assert.rejects(manager.registry.call("mcp_alpha_echo", { text: "now?" }), (error: Error) => {
      assert.ok(error instanceof ToolCallError && error.code === "unavailable", `${error.name}: ${error.message}`);
      assert.ok(error.cause instanceof ServerUnavailableError);
      assert.equal(error.cause.serverState, "reconnecting");
      assert.equal(error.cause.code, "server-reconnecting");
      assert.match(
        error.message,
        /^server "alpha", tool "echo": reconnecting \(attempt 1 of 5\) after connection closed: .*SIGKILL.*; the call was not sent, try again shortly$/,
      );
      return true;
    });
    assert.match(await manager.registry.dispatch("mcp_alpha_echo", { text: "now?" }), /"error".*reconnecting/);

    await nextState(manager, "alpha", "ready");
    const secondPid = pidOf(manager, "alpha");
    assert.notEqual(secondPid, firstPid, "a new process");
    assert.equal(statusOf(manager, "alpha").reconnectAttempts, 1, "the budget is not reset until the session proves healthy");
    assert.equal(statusOf(manager, "alpha").tools, 6);
    assert.deepEqual(changes.at(-1), { server: "alpha", added: ["mcp_alpha_extra"], removed: [] }, "re-listed by difference");
    assert.equal(textOf(await manager.registry.call("mcp_alpha_pid", {})), String(secondPid));
    assert.equal(statusOf(manager, "alpha").reconnectAttempts, 0, "a successful call resets the budget");
  } finally {
    await manager.close();
    flag.remove();
  }
});

behaviour("the era found under protocol auto is kept: the reconnected session goes straight to initialize, no second probe", async () => {
  const manager = new McpManager(configOf(server("alpha", { env: { MANAGER_SERVER_NAME: "alpha", MANAGER_RECORD: "1" } })), FAST);
  try {
    await manager.start();
    const first = textOf(await manager.registry.call("mcp_alpha_received", {})).split(",");
    assert.deepEqual(first.slice(0, 2), ["server/discover", "initialize"], "the first session probes");
    assert.equal(statusOf(manager, "alpha").era, "legacy");
    process.kill(pidOf(manager, "alpha"), "SIGKILL");
    await nextState(manager, "alpha", "ready");
    const second = textOf(await manager.registry.call("mcp_alpha_received", {})).split(",");
    assert.equal(second[0], "initialize", `the reconnect probed again: ${second.join(",")}`);
    assert.ok(!second.includes("server/discover"));
  } finally {
    await manager.close();
  }
});

behaviour("a ping proves the session healthy too; the server keeps one Client across its sessions", async () => {
  const manager = new McpManager(configOf(server("alpha")), FAST);
  try {
    await manager.start();
    const earlier = manager.client("alpha")!;
    const firstTransport = earlier.transport;
    process.kill(pidOf(manager, "alpha"), "SIGKILL");
    await nextState(manager, "alpha", "ready");
    assert.equal(statusOf(manager, "alpha").reconnectAttempts, 1);
    const current = manager.client("alpha")!;
    // docs/architecture.md "Reusable clients": the same Client, connected again on a new transport.
    assert.equal(current, earlier);
    assert.notEqual(current.transport, firstTransport);
    await earlier.ping();
    assert.equal(statusOf(manager, "alpha").reconnectAttempts, 0);
  } finally {
    await manager.close();
  }
});

behaviour("when the reconnect budget is spent the server is parked and its tools withdrawn; a probe brings both back", async () => {
  const flag = flagFile();
  const manager = new McpManager(
    configOf(server("alpha", { env: { MANAGER_SERVER_NAME: "alpha", MANAGER_FLAG_FILE: flag.path } })),
    { ...FAST, maxReconnectAttempts: 3, probeIntervalMs: 300 },
  );
  const states = recordStates(manager);
  const problems: string[] = [];
  manager.on("problem", ({ message }) => problems.push(message));
  try {
    await manager.start();
    flag.set("fail"); // every restart exits at once
    const parked = new Promise<{ status: ReturnType<typeof statusOf>; hasTool: boolean; error?: Error }>((resolve) => {
      manager.on("serverstate", ({ to, error }) => {
        // Read at the moment of parking: the first probe comes 300 ms later.
        if (to === "parked") resolve({ status: statusOf(manager, "alpha"), hasTool: manager.registry.has("mcp_alpha_echo"), error });
      });
    });
    process.kill(pidOf(manager, "alpha"), "SIGKILL");
    const atPark = await hangGuard(parked, 10_000, "parking");
    assert.equal(atPark.status.state, "parked");
    assert.equal(atPark.status.reconnectAttempts, 3);
    assert.equal(atPark.status.tools, 0);
    assert.equal(atPark.hasTool, false, "its tools are withdrawn");
    assert.match(atPark.status.reason ?? "", /^gave up after 3 reconnect attempts; probing every 300 ms$/);
    assert.match(atPark.status.lastError ?? "", /exited with code 1.*told to fail at start/);
    assert.match(atPark.error?.message ?? "", /server "alpha" gave up after 3 reconnect attempts/);
    assert.equal((atPark.error as McpwireError | undefined)?.code, "server-parked", "the parked event's error has a code");
    assert.equal(problems.filter((message) => message.startsWith("reconnect attempt")).length, 3);
    assert.equal(manager.client("alpha"), undefined, "no client while parked");

    flag.set(""); // the next probe finds it healthy again
    await nextState(manager, "alpha", "ready");
    const back = statusOf(manager, "alpha");
    assert.equal(back.tools, 5);
    assert.equal(back.reconnectAttempts, 0, "a probe that succeeds starts a fresh budget");
    assert.equal(back.reason, undefined);
    assert.equal(textOf(await manager.registry.call("mcp_alpha_echo", { text: "back" })), "back");
    assert.deepEqual(states, [
      "alpha: connecting → ready",
      "alpha: ready → reconnecting",
      "alpha: reconnecting → parked",
      "alpha: parked → ready",
    ]);
  } finally {
    await manager.close();
    flag.remove();
  }
});

behaviour("one crashing server never affects another", async () => {
  const flag = flagFile();
  const manager = new McpManager(
    configOf(server("steady"), server("crashy", { env: { MANAGER_SERVER_NAME: "crashy", MANAGER_FLAG_FILE: flag.path } })),
    { ...FAST, maxReconnectAttempts: 2 },
  );
  const states = recordStates(manager);
  try {
    await manager.start();
    const steadyPid = pidOf(manager, "steady");
    flag.set("fail");
    const parked = nextState(manager, "crashy", "parked");
    process.kill(pidOf(manager, "crashy"), "SIGKILL");
    // The other server keeps answering while its neighbour reconnects and is parked.
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) calls.push(manager.registry.call("mcp_steady_echo", { text: `call ${i}` }));
    await parked;
    const answers = (await Promise.all(calls)).map(textOf);
    assert.deepEqual(answers, Array.from({ length: 10 }, (_, i) => `call ${i}`));
    assert.equal(textOf(await manager.registry.call("mcp_steady_pid", {})), String(steadyPid), "the same process all along");
    assert.equal(statusOf(manager, "steady").state, "ready");
    assert.equal(statusOf(manager, "steady").reconnectAttempts, 0);
    assert.ok(!states.some((line) => line.startsWith("steady:") && !line.endsWith("connecting → ready")));
    assert.ok(manager.registry.has("mcp_steady_echo"));
    assert.ok(!manager.registry.has("mcp_crashy_echo"));
  } finally {
    await manager.close();
    flag.remove();
  }
});

// --- close ---------------------------------------------------------------------------

behaviour("close() is bounded with servers that ignore SIGTERM, and leaves no process behind", async () => {
  const manager = new McpManager(
    configOf(
      server("stubborn", { env: { MANAGER_SERVER_NAME: "stubborn", MANAGER_STUBBORN: "1" } }),
      // Never answers initialize; it and its grandchild ignore SIGTERM.
      server("deaf", { args: [fixture("stubborn-server.mjs")], connectTimeoutMs: 60_000 }),
      server("alpha"),
    ),
    FAST,
  );
  const deafPids = stderrMatch(manager, "deaf", /^pids (\d+) (\d+)$/);
  const started = manager.start();
  try {
    await waitUntil(() => statusOf(manager, "stubborn").state === "ready" && statusOf(manager, "alpha").state === "ready", "both ready");
    const pids = [pidOf(manager, "stubborn"), pidOf(manager, "alpha"), ...(await deafPids).slice(1).map(Number)];
    assert.ok(pids.every(isRunning));
    const toolsBefore = manager.registry.tools().length;
    assert.ok(toolsBefore > 0);

    const began = Date.now();
    await hangGuard(manager.close(), 12_000, "close()");
    const took = Date.now() - began;
    assert.ok(took < 10_000 + 1000, `close() took ${took} ms`);
    for (const pid of pids) assert.ok(!isRunning(pid), `process ${pid} is gone`);
    await hangGuard(started, 1000, "start() after close");
    assert.deepEqual(manager.status().map((status) => status.state), ["closed", "closed", "closed"]);
    assert.equal(manager.registry.tools().length, 0, "the tools are withdrawn");
    assert.equal(manager.client("alpha"), undefined);
  } finally {
    await manager.close();
  }
});

behaviour("close() during a reconnect backoff stops the reconnect and its timer; a second close() is the same", async () => {
  const manager = new McpManager(configOf(server("alpha")), { ...FAST, reconnectDelay: { initialMs: 60_000 } });
  try {
    await manager.start();
    const pid = pidOf(manager, "alpha");
    const reconnecting = nextState(manager, "alpha", "reconnecting");
    process.kill(pid, "SIGKILL");
    await reconnecting;
    const first = manager.close();
    assert.equal(manager.close(), first, "idempotent");
    await hangGuard(first, 5000, "close()");
    assert.equal(statusOf(manager, "alpha").state, "closed");
    // Under Deno the sanitizers prove the 60 s backoff timer did not outlive close().
  } finally {
    await manager.close();
  }
});

behaviour("close() before start() and start() after close() do nothing harmful", async () => {
  const manager = new McpManager(configOf(server("alpha")), FAST);
  await manager.close();
  await hangGuard(manager.start(), 2000, "start() after close()");
  assert.equal(statusOf(manager, "alpha").state, "closed");
  assert.equal(manager.registry.tools().length, 0);
});

// --- HTTP servers ----------------------------------------------------------------------

behaviour("http, sse and url-only servers from a YAML config: each connects with its transport; status shows the one used", async () => {
  const [sse, streamable] = await Promise.all([startEverything("sse"), startEverything("streamableHttp")]);
  const yaml = [
    "mcp_servers:",
    "  legacy:",
    "    transport: sse",
    "    url: ${SSE_ORIGIN}/sse",
    "    tools: { include: [echo] }",
    "  modern:",
    "    type: http",
    "    url: ${HTTP_ORIGIN}/mcp",
    "    tools: { include: [echo] }",
    "  guess-sse:",
    "    url: ${SSE_ORIGIN}/sse",
    "    tools: { include: [echo] }",
    "  guess-http:",
    "    url: ${HTTP_ORIGIN}/mcp",
    '    headers: { X-Api-Key: "${API_KEY}" }',
    "    tools: { include: [echo] }",
    "",
  ].join("\n");
  const parsed = parseConfig(yaml, {
    file: "/virtual/mcpwire.yaml",
    env: { SSE_ORIGIN: sse.origin, HTTP_ORIGIN: streamable.origin, API_KEY: "k-123" },
  });
  assert.deepEqual(parsed.errors, []);
  assert.deepEqual(parsed.servers.map((entry) => entry.transport), ["sse", "http", "auto", "auto"]);
  assert.deepEqual(parsed.servers[3]!.headers, { "X-Api-Key": "k-123" });
  const manager = new McpManager(parsed, FAST);
  try {
    assert.deepEqual(manager.status().map((status) => status.transport), ["sse", "http", "auto", "auto"], "before start: as configured");
    await hangGuard(manager.start(), 30_000, "start()");
    const statuses = manager.status();
    assert.deepEqual(statuses.map((status) => [status.name, status.state, status.transport]), [
      ["legacy", "ready", "sse"],
      ["modern", "ready", "http"],
      ["guess-sse", "ready", "sse"],
      ["guess-http", "ready", "http"],
    ], JSON.stringify(statuses));
    for (const status of statuses) {
      assert.equal(status.serverInfo?.name, "mcp-servers/everything");
      assert.equal(status.tools, 1);
      assert.match(await manager.registry.dispatch(`mcp_${status.name}_echo`, { message: `via ${status.name}` }), new RegExp(`Echo: via ${status.name}`));
    }
  } finally {
    await manager.close();
    await Promise.all([sse.stop(), streamable.stop()]);
  }
});

behaviour("an sse server whose stream ends mid-call: the call fails at once, the server reconnects and its tools work again", async () => {
  const fixtureServer = await startSseFixture("good");
  const manager = new McpManager(
    configOf(server("legacy", { transport: "sse", command: undefined, args: [], url: `${fixtureServer.origin}/sse` })),
    FAST,
  );
  try {
    await hangGuard(manager.start(), 10_000, "start()");
    assert.equal(statusOf(manager, "legacy").state, "ready");
    const back = nextState(manager, "legacy", "ready");
    const cut = await hangGuard(manager.registry.dispatch("mcp_legacy_cut", {}), 5000, "the cut call");
    assert.match(cut, /the server ended the SSE stream/);
    await back;
    assert.equal(textOf(await manager.registry.call("mcp_legacy_echo", { text: "back again" })), "back again");
    assert.equal(statusOf(manager, "legacy").transport, "sse");
  } finally {
    await manager.close();
    await fixtureServer.stop();
  }
});

behaviour("connect_timeout bounds an sse server that never sends its endpoint; the error names the transport and URL", async () => {
  const fixtureServer = await startSseFixture("no-endpoint");
  const manager = new McpManager(
    configOf(server("mute", { transport: "sse", command: undefined, args: [], url: `${fixtureServer.origin}/sse`, connectTimeoutMs: 400 })),
    FAST,
  );
  try {
    await hangGuard(manager.start(), 10_000, "start()");
    const status = statusOf(manager, "mute");
    assert.equal(status.state, "parked");
    assert.ok(
      status.lastError?.startsWith(`server "mute" did not finish connecting (initialize over sse to ${fixtureServer.origin}/sse) within 400 ms`),
      status.lastError,
    );
  } finally {
    await manager.close();
    await fixtureServer.stop();
  }
});

// --- client features from config: handlers, roots, sampling policy, log_level --------

behaviour("handlers chosen per server, config roots and the sampling policy reach server-everything; log_level is sent where logging is declared", async () => {
  const asked: string[] = [];
  const maxTokens: number[] = [];
  const manager = new McpManager(
    configOf(
      server("everything", {
        args: [everything, "stdio"],
        env: {},
        tools: { include: ["get-roots-list", "trigger-sampling-request"] },
        logLevel: "error",
        roots: ["/projects/alpha", "file:///projects/beta"],
        sampling: { maxTokens: 7 },
      }),
      server("alpha", { logLevel: "debug" }),
    ),
    {
      ...FAST,
      handlers: (serverConfig) => {
        asked.push(serverConfig.name);
        if (serverConfig.name !== "everything") return undefined;
        return {
          sampling: async (request) => {
            maxTokens.push(request.maxTokens);
            return { role: "assistant", content: { type: "text", text: "from the host's model" }, model: "fixed" };
          },
        };
      },
    },
  );
  const problems: string[] = [];
  manager.on("problem", ({ server, message }) => problems.push(`${server}: ${message}`));
  try {
    await hangGuard(manager.start(), 20_000, "start()");
    assert.deepEqual(asked.sort(), ["alpha", "everything"], "the handlers function is asked once per server session");
    // server-everything registers its capability-dependent tools after `initialized` (list_changed).
    await waitUntil(() => manager.registry.has("mcp_everything_trigger-sampling-request"), "the sampling tool to appear");
    await waitUntil(() => manager.registry.has("mcp_everything_get-roots-list"), "the roots tool to appear");
    const roots = textOf(await manager.registry.call("mcp_everything_get-roots-list", {}));
    assert.match(roots, /file:\/\/\/projects\/alpha/);
    assert.match(roots, /file:\/\/\/projects\/beta/);
    const sampled = textOf(await manager.registry.call("mcp_everything_trigger-sampling-request", { prompt: "hi", maxTokens: 100 }));
    assert.match(sampled, /from the host's model/);
    assert.deepEqual(maxTokens, [7], "the config's max_tokens caps the request");
    assert.ok(!problems.some((problem) => problem.startsWith("everything:") && /log_level|setLevel/.test(problem)), problems.join("\n"));
    assert.ok(
      problems.includes('alpha: log_level "debug" is ignored: the server does not declare the logging capability'),
      problems.join("\n"),
    );
  } finally {
    await manager.close();
  }
});
