// The server manager against hostile servers (issue 13): a listener that throws cannot crash
// the host, JSON nested 100,000 levels deep (serverInfo, log data, results) is shown bounded and
// marked, and the secrets in play (an env value, a configured header, an OAuth token) appear in
// no event, no status row and no dispatch string. Real child processes: the hand-written
// hostile-host-server.mjs (stdio) and hostile-host-http-server.mjs (Streamable HTTP on loopback).

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { FileTokenStore } from "../../src/auth/token-store.ts";
import type { CallToolResult } from "../../src/client/types.ts";
import { depthMarker } from "../../src/common/bounded.ts";
import { REDACTED } from "../../src/common/redact.ts";
import type { ServerConfig } from "../../src/host/config/types.ts";
import { type ManagerEvents, McpManager, type McpManagerOptions } from "../../src/host/servers/manager.ts";
import { ConnectionClosedError } from "../../src/jsonrpc/errors.ts";
import { ToolCallError } from "../../src/registry/tool-call-error.ts";
import { behaviour } from "../support/behaviour.ts";
import { fixturePath, startPortFixture } from "../support/fixture-process.ts";
import { waitUntil } from "../support/polling.ts";
import { configOf, serverConfig, stdioServerConfig } from "../support/server-config.ts";

const HOSTILE = fixturePath("hostile-host-server.mjs");

/** The secrets in play: each must never be seen in any output of the host. */
const ENV_SECRET = "env-secret-3f9a1c7e5b";
const HEADER_SECRET = "hdr-secret-8d2e4b6a1c";
const TOKEN_SECRET = "tok-secret-5e7c9a2b4d6f";

function stdioServer(name: string, env: Record<string, string> = {}): ServerConfig {
  return stdioServerConfig(name, [HOSTILE], { env });
}

/** No retries, no probes while a test runs: each failure is seen once. */
const QUIET: McpManagerOptions = {
  reconnectDelay: { initialMs: 50, maxMs: 50, jitter: 0 },
  connectRetries: 0,
  maxReconnectAttempts: 0,
  probeIntervalMs: 600_000,
};

type Seen = { [K in keyof ManagerEvents]: ManagerEvents[K][] };

/** Every event of every type the manager emits, in order. */
function record(manager: McpManager): Seen {
  const seen: Seen = { serverstate: [], connectfailed: [], log: [], stderr: [], problem: [], taskStatus: [], toolheld: [] };
  manager.on("serverstate", (detail) => seen.serverstate.push(detail));
  manager.on("connectfailed", (detail) => seen.connectfailed.push(detail));
  manager.on("log", (detail) => seen.log.push(detail));
  manager.on("stderr", (detail) => seen.stderr.push(detail));
  manager.on("problem", (detail) => seen.problem.push(detail));
  manager.on("taskStatus", (detail) => seen.taskStatus.push(detail));
  return seen;
}

/**
 * All the text a user or an embedder could print from a value: strings, and an Error's
 * message, stack and every own field (a close's stderr tail, a JSON-RPC error's data, its cause).
 */
function everyText(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 80) return out;
  if (typeof value === "string") out.push(value);
  else if (value instanceof Error) {
    out.push(value.message, value.stack ?? "");
    for (const key of Object.getOwnPropertyNames(value)) everyText((value as unknown as Record<string, unknown>)[key], out, depth + 1);
  } else if (value !== null && typeof value === "object") {
    for (const member of Object.values(value)) everyText(member, out, depth + 1);
  }
  return out;
}

function assertNoSecret(what: string, value: unknown, secrets: string[]): void {
  const texts = everyText(value);
  for (const secret of secrets) {
    const leak = texts.find((text) => text.includes(secret));
    assert.equal(leak, undefined, `${what} shows the secret ${secret}: ${leak?.slice(0, 300)}`);
  }
}

// --- listeners ---------------------------------------------------------------------------

behaviour("a listener that throws is a problem event carrying its error; the other listeners still get the event", async () => {
  const manager = new McpManager(configOf(stdioServer("alpha", { HOSTILE_SECRET: ENV_SECRET })), QUIET);
  const bug = new Error("listener bug: cannot read the line");
  manager.on("stderr", () => {
    throw bug;
  });
  // The plain EventTarget way of listening is contained too.
  manager.addEventListener("serverstate", () => {
    throw new TypeError("state listener bug");
  });
  const seen = record(manager);
  try {
    await manager.start();
    assert.equal(manager.status()[0]!.state, "ready");
    await waitUntil(() => seen.stderr.length > 0, "the stderr line at start", 15_000);
    const fromStderr = seen.problem.find((problem) => problem.error === bug);
    assert.ok(fromStderr, `no problem carries the stderr listener's error; problems: ${seen.problem.map((p) => p.message).join(" / ")}`);
    assert.equal(fromStderr.server, "alpha");
    assert.match(fromStderr.message, /^server "alpha": a "stderr" listener of the manager threw: listener bug: cannot read the line; /);
    assert.match(fromStderr.message, /fix the listener/);
    const fromState = seen.problem.find((problem) => problem.error instanceof TypeError);
    assert.ok(fromState, "no problem carries the serverstate listener's error");
    assert.match(fromState.message, /a "serverstate" listener of the manager threw: state listener bug/);
    // The other listener of the same event still got it, and the manager carries on.
    assert.ok(seen.serverstate.some((change) => change.server === "alpha" && change.to === "ready"));
    assert.equal(await manager.registry.dispatch("mcp_alpha_echo", { text: "still here" }), JSON.stringify({ result: "still here" }));
  } finally {
    await manager.close();
  }
});

behaviour("a problem listener that throws does not loop: the failure is dropped and the others still hear every problem", async () => {
  const manager = new McpManager(configOf(stdioServer("alpha")), QUIET);
  let thrown = 0;
  manager.on("problem", () => {
    thrown++;
    throw new Error("problem listener bug");
  });
  manager.on("stderr", () => {
    throw new Error("stderr listener bug");
  });
  const seen = record(manager);
  try {
    await manager.start();
    await waitUntil(() => seen.problem.length > 0, "the stderr listener's failure as a problem", 15_000);
    // The stderr listener's failure reached the problem listeners once; the throwing problem
    // listener's own failure was not reported again (that would loop).
    assert.equal(seen.problem.length, 1);
    assert.equal(thrown, 1);
    assert.match(seen.problem[0]!.message, /"stderr" listener of the manager threw: stderr listener bug/);
  } finally {
    await manager.close();
  }
});

// --- depth ---------------------------------------------------------------------------------

behaviour("a serverInfo nested 100,000 levels deep: status() gives every server its row, the deep part marked", async () => {
  const manager = new McpManager(configOf(stdioServer("deep", { HOSTILE_DEEP_INFO: "1" }), stdioServer("plain")), QUIET);
  try {
    await manager.start();
    const rows = manager.status();
    assert.deepEqual(rows.map((row) => [row.name, row.state]), [["deep", "ready"], ["plain", "ready"]]);
    const text = JSON.stringify(rows); // what `mcpwire servers --json` prints: it must not overflow
    assert.ok(text.includes(depthMarker(16)), `no depth marker in ${text.slice(0, 400)}`);
    assert.equal(rows[0]!.serverInfo?.name, "hostile");
    assert.equal(rows[0]!.serverInfo?.version, "6.6.6");
    assert.deepEqual(rows[1]!.serverInfo, { name: "hostile", version: "6.6.6" });
  } finally {
    await manager.close();
  }
});

behaviour("log data nested 100,000 levels deep reaches listeners as a bounded copy they can print", async () => {
  const manager = new McpManager(configOf(stdioServer("deep")), QUIET);
  const printed: string[] = [];
  manager.on("log", ({ server, data }) => printed.push(`${server}: ${JSON.stringify(data)}`));
  const seen = record(manager);
  try {
    await manager.start();
    assert.equal(await manager.registry.dispatch("mcp_deep_deep_log", {}), JSON.stringify({ result: "logged" }));
    await waitUntil(() => printed.length > 0, "the deep log message", 15_000);
    assert.match(printed[0]!, /^deep: \{"a":\{"a":/);
    assert.ok(printed[0]!.includes(depthMarker(64)), `no depth marker in ${printed[0]!.slice(0, 300)}`);
    assert.equal(seen.log[0]!.logger, "deep");
    assert.deepEqual(seen.problem, []);
  } finally {
    await manager.close();
  }
});

behaviour("a result nested 100,000 levels deep: dispatch gives a marked, shortened rendering naming the server and tool", async () => {
  const manager = new McpManager(configOf(stdioServer("deep")), QUIET);
  try {
    await manager.start();
    const result = JSON.parse(await manager.registry.dispatch("mcp_deep_deep_result", {})) as { result: string };
    assert.ok(result.result.startsWith('deep\n{"a":{"a":'), result.result.slice(0, 100));
    assert.ok(result.result.includes(depthMarker(64)));
    assert.ok(
      result.result.endsWith('[server "deep", tool "deep_result": structuredContent is nested deeper than 64 levels; the levels past 64 were left out]'),
      result.result.slice(-200),
    );
    assert.ok(result.result.length < 2_000, `the rendering is ${result.result.length} characters`);

    const error = JSON.parse(await manager.registry.dispatch("mcp_deep_deep_error", {})) as { error: string };
    assert.ok(error.error.startsWith('server "deep", tool "deep_error" returned an error: {"a":'), error.error.slice(0, 100));
    assert.ok(error.error.includes(depthMarker(64)));

    // The typed result is the server's, whole: the bound is on the text, not on the data.
    const typed = await manager.registry.call("mcp_deep_deep_result", {}) as CallToolResult;
    assert.equal(typed.content[0]!.type, "text");
    assert.equal(typeof typed.structuredContent, "object");
  } finally {
    await manager.close();
  }
});

behaviour("a tool whose inputSchema is nested 100,000 levels deep is skipped with a warning; the server's other tools stay", async () => {
  const manager = new McpManager(configOf(stdioServer("deep", { HOSTILE_DEEP_SCHEMA: "1" })), QUIET);
  const warnings: string[] = [];
  manager.registry.on("warning", ({ message }) => warnings.push(message));
  try {
    await manager.start();
    assert.deepEqual(warnings, [
      'server "deep": tool "deep_schema" is skipped: its inputSchema is nested deeper than 128 levels, too deep to hand to a model; ' +
      "fix the tool's schema on the server, or exclude the tool",
    ]);
    assert.equal(manager.registry.has("mcp_deep_deep_schema"), false);
    assert.ok(manager.registry.has("mcp_deep_echo"));
    // What a model provider does with the list: it can be written as JSON.
    assert.ok(JSON.stringify(manager.registry.list()).includes('"mcp_deep_echo"'));
  } finally {
    await manager.close();
  }
});

// --- secrets ---------------------------------------------------------------------------------

behaviour("an env value given to a stdio server appears in no event, status row, dispatch string or call error", async () => {
  // One reconnect attempt, far off: after the exit the server stays "reconnecting" while the test looks.
  const manager = new McpManager(configOf(stdioServer("leaky", { HOSTILE_SECRET: ENV_SECRET })), {
    ...QUIET,
    maxReconnectAttempts: 1,
    reconnectDelay: { initialMs: 600_000, maxMs: 600_000, jitter: 0 },
  });
  const seen = record(manager);
  const secrets = [ENV_SECRET];
  const outputs: { what: string; value: unknown }[] = [];
  try {
    await manager.start();
    await waitUntil(() => seen.stderr.length > 0, "the stderr line at start", 15_000);
    for (const tool of ["leak_log", "leak_tool_error", "leak_rpc_error", "leak_stderr"]) {
      outputs.push({ what: `dispatch ${tool}`, value: await manager.registry.dispatch(`mcp_leaky_${tool}`, {}) });
    }
    const callError = await manager.registry.call("mcp_leaky_leak_rpc_error", {}).then(() => undefined, (error: unknown) => error);
    assert.ok(callError instanceof ToolCallError, String(callError));
    assert.equal(callError.code, "rpc");
    outputs.push({ what: "call() error", value: callError.message });
    await waitUntil(() => seen.log.length > 0 && seen.stderr.length >= 2, "the leaked log message and stderr line", 15_000);
    // Last words on stderr, then the process exits: the connection is lost.
    outputs.push({ what: "dispatch leak_exit", value: await manager.registry.dispatch("mcp_leaky_leak_exit", {}) });
    await waitUntil(() => manager.status()[0]!.state === "reconnecting", "the server reconnecting", 15_000);
    // A call meanwhile is refused with the last error quoted (ServerUnavailableError).
    outputs.push({ what: "dispatch while reconnecting", value: await manager.registry.dispatch("mcp_leaky_echo", { text: "hi" }) });
    outputs.push({ what: "status()", value: manager.status() });
  } finally {
    await manager.close();
  }
  // What was there to leak was seen — redacted, not missing.
  assert.match(String(outputs[1]!.value), /refused: my environment holds \[redacted\]/);
  assert.match(String(outputs[2]!.value), /JSON-RPC error -32000: internal error with \[redacted\]/);
  assert.ok(seen.stderr.some(({ line }) => line === `hostile fixture started; my secret is ${REDACTED}`));
  assert.deepEqual(seen.log[0]!.data, { message: `the secret is ${REDACTED}`, nested: [{ value: REDACTED }] });
  assert.equal(seen.log[0]!.logger, `logger ${REDACTED}`);
  const lost = seen.serverstate.find((change) => change.to === "reconnecting");
  assert.ok(lost?.error, "the lost connection carries its error");
  assert.match(lost.error.message, /dying with \[redacted\] in my last words/);
  assert.ok(lost.error instanceof ConnectionClosedError, `the redacted error keeps its class: ${lost.error.name}`);
  assert.match((lost.error as ConnectionClosedError).details.stderrTail?.join(" | ") ?? "", /dying with \[redacted\]/);
  assert.match(String(outputs.at(-2)!.value), /reconnecting \(attempt 1 of 1\) after .*dying with \[redacted\] in my last words.*; the call was not sent/);
  const status = outputs.at(-1)!.value as ReturnType<McpManager["status"]>;
  assert.match(status[0]!.lastError ?? "", /dying with \[redacted\]/);
  // And nowhere in full.
  for (const { what, value } of outputs) assertNoSecret(what, value, secrets);
  for (const [type, details] of Object.entries(seen)) assertNoSecret(`a "${type}" event`, details, secrets);
});

behaviour("a configured header and a stored OAuth token, echoed back by an HTTP server, appear in no event, status row or dispatch string", async () => {
  const home = mkdtempSync(join(tmpdir(), "mcpwire-hostile-"));
  const before = process.env.XDG_CONFIG_HOME;
  // The host's token store lives under XDG_CONFIG_HOME; the token is loaded from there, as after `mcpwire auth login`.
  process.env.XDG_CONFIG_HOME = home;
  const http = await startPortFixture("hostile-host-http-server.mjs", { env: process.env, stopWith: "SIGTERM", startLimitMs: 15_000 });
  const echoUrl = `${http.origin}/echo/mcp`;
  const failUrl = `${http.origin}/fail/mcp`;
  const store = new FileTokenStore({ directory: join(home, "mcpwire", "auth") });
  for (const url of [echoUrl, failUrl]) {
    await store.setTokens(url, http.origin, { accessToken: TOKEN_SECRET, tokenType: "Bearer", raw: {} });
  }
  const httpServer = (name: string, url: string) => serverConfig({ name, transport: "http", url, headers: { "X-Api-Key": HEADER_SECRET } });
  const manager = new McpManager(configOf(httpServer("echo", echoUrl), httpServer("fail", failUrl)), QUIET);
  const seen = record(manager);
  const secrets = [HEADER_SECRET, TOKEN_SECRET];
  const outputs: { what: string; value: unknown }[] = [];
  try {
    await manager.start();
    outputs.push({ what: "status()", value: manager.status() });
    outputs.push({ what: "dispatch whoami", value: await manager.registry.dispatch("mcp_echo_whoami", {}) });
    outputs.push({ what: "dispatch whoami_tool", value: await manager.registry.dispatch("mcp_echo_whoami_tool", {}) });
    const callError = await manager.registry.call("mcp_echo_whoami", {}).then(() => undefined, (error: unknown) => error);
    outputs.push({ what: "call() error", value: (callError as Error).message });
  } finally {
    await manager.close();
    await http.stop();
    if (before === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = before;
    rmSync(home, { recursive: true, force: true });
  }
  const status = outputs[0]!.value as ReturnType<McpManager["status"]>;
  assert.deepEqual(status.map((row) => [row.name, row.state]), [["echo", "ready"], ["fail", "parked"]]);
  // The server did get both credentials, and quoted them: what we show has them redacted.
  assert.match(String(outputs[1]!.value), /you sent authorization=Bearer \[redacted\] x-api-key=\[redacted\]/);
  assert.match(String(outputs[2]!.value), /returned an error: you sent authorization=Bearer \[redacted\] x-api-key=\[redacted\]/);
  assert.match(status[1]!.lastError ?? "", /500/);
  assert.ok(seen.problem.some(({ server, message }) => server === "fail" && /connect attempt 1 of 1 failed/.test(message)));
  for (const { what, value } of outputs) assertNoSecret(what, value, secrets);
  for (const [type, details] of Object.entries(seen)) assertNoSecret(`a "${type}" event`, details, secrets);
  assert.ok(manager.redactor.redact(`x ${TOKEN_SECRET} y`) === `x ${REDACTED} y`, "the loaded token was added to the manager's redactor");
});
