// The sync bridge (src/host/bridge/sync-bridge.ts) end to end: a worker thread running an McpManager
// over server-everything and a probe server (test/fixtures/bridge-probe-server.mjs), called
// from plain synchronous code; then a config file, a config that cannot load, and a host that
// forgets to close.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createSyncBridge, type SyncBridge, SyncBridgeError } from "../../src/host/bridge/sync-bridge.ts";
import type { McpwireConfig } from "../../src/host/config/types.ts";
import { EVERYTHING as everything } from "../support/everything-path.ts";
import { childProcesses, type Proc } from "../support/processes.ts";
import { stdioServerConfig } from "../support/server-config.ts";

const GUARD = { timeout: 30_000 };
const root = fileURLToPath(new URL("../..", import.meta.url));
const probe = fileURLToPath(new URL("../fixtures/bridge-probe-server.mjs", import.meta.url));

const stdioServer = (name: string, args: string[]) => stdioServerConfig(name, args, { timeoutMs: 30_000, connectTimeoutMs: 20_000 });

const config: McpwireConfig = {
  servers: [stdioServer("everything", [everything, "stdio"]), stdioServer("probe", [probe])],
  warnings: [],
};

/** Our server processes that are still alive (a zombie has ended; PID 1 here may never reap it). */
function liveServers(): Proc[] {
  return childProcesses().filter((child) => child.state !== "Z" && (child.cmdline.includes(everything) || child.cmdline.includes(probe)));
}

/** True when `pid` is gone or a zombie. */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** A plain synchronous function, as a synchronous plugin system would call tools. */
function echoAll(bridge: SyncBridge, count: number): string[] {
  const replies: string[] = [];
  for (let n = 1; n <= count; n++) replies.push(bridge.dispatchSync("mcp_everything_echo", { message: `message ${n}` }));
  return replies;
}

describe("a sync bridge over server-everything and a probe server", () => {
  let bridge: SyncBridge;
  before(() => {
    bridge = createSyncBridge({ config }, { manager: { connectRetries: 0 } });
  });
  after(() => bridge.close());

  test("listTools returns every server's tools as LLM function schemas", GUARD, () => {
    const tools = bridge.listTools();
    const echo = tools.find((tool) => tool.name === "mcp_everything_echo");
    assert.ok(echo, `mcp_everything_echo is listed among ${tools.map((tool) => tool.name).join(", ")}`);
    assert.equal(typeof echo.description, "string");
    assert.ok("message" in ((echo.parameters.properties ?? {}) as object));
    assert.ok(tools.some((tool) => tool.name === "mcp_probe_hang"));
  });

  test("status reports every server ready, with its tool count", GUARD, () => {
    const status = bridge.status();
    assert.deepEqual(status.map(({ name, state }) => ({ name, state })), [
      { name: "everything", state: "ready" },
      { name: "probe", state: "ready" },
    ]);
    assert.ok(status[0]!.tools > 0);
    assert.equal(status[1]!.tools, 2);
  });

  test("a plain synchronous function calls dispatchSync in a loop: 20 echoes, each with its own reply", GUARD, () => {
    const replies = echoAll(bridge, 20);
    assert.deepEqual(replies, Array.from({ length: 20 }, (_, n) => JSON.stringify({ result: `Echo: message ${n + 1}` })));
  });

  test("dispatchSync returns dispatch's strings: arguments as JSON text, an unknown tool, bad arguments", GUARD, () => {
    assert.equal(bridge.dispatchSync("mcp_everything_echo", '{"message":"as text"}'), JSON.stringify({ result: "Echo: as text" }));
    const unknown = JSON.parse(bridge.dispatchSync("mcp_nobody_nothing", {})) as { error: string };
    assert.match(unknown.error, /unknown tool "mcp_nobody_nothing"/);
    const invalid = JSON.parse(bridge.dispatchSync("mcp_everything_echo", "{not json")) as { error: string };
    assert.match(invalid.error, /not valid JSON/);
  });

  test("a hung tool times out naming the limit, the call is cancelled at the server, and the next call succeeds", GUARD, () => {
    const hung = bridge.dispatchSync("mcp_everything_trigger-long-running-operation", { duration: 10, steps: 10 }, { timeoutMs: 1000 });
    assert.equal(
      hung,
      JSON.stringify({
        error: "tool mcp_everything_trigger-long-running-operation timed out after 1 s (dispatchSync timeoutMs); " +
          "the call was cancelled; pass a larger timeoutMs if the tool needs longer",
      }),
    );
    assert.equal(bridge.dispatchSync("mcp_everything_echo", { message: "after the timeout" }), JSON.stringify({ result: "Echo: after the timeout" }));

    // The probe server records what reaches it: the timeout became notifications/cancelled.
    const never = JSON.parse(bridge.dispatchSync("mcp_probe_hang", {}, { timeoutMs: 300 })) as { error: string };
    assert.match(never.error, /^tool mcp_probe_hang timed out after 300 ms \(dispatchSync timeoutMs\)/);
    const seen = JSON.parse(bridge.dispatchSync("mcp_probe_cancellations", {})) as { result: string };
    const cancellations = JSON.parse(seen.result) as { requestId: number; reason?: string }[];
    assert.equal(cancellations.length, 1);
    assert.equal(typeof cancellations[0]!.requestId, "number");
    assert.deepEqual(echoAll(bridge, 2), [JSON.stringify({ result: "Echo: message 1" }), JSON.stringify({ result: "Echo: message 2" })]);
  });

  test("close() ends every server process; afterwards dispatchSync returns an error string and queries throw", GUARD, () => {
    const servers = liveServers();
    assert.equal(servers.length, 2, `two live servers before close: ${JSON.stringify(childProcesses())}`);
    bridge.close();
    assert.deepEqual(liveServers(), []);
    for (const server of servers) assert.ok(ended(server.pid), `server ${server.pid} has ended`);
    assert.equal(
      bridge.dispatchSync("mcp_everything_echo", { message: "too late" }),
      JSON.stringify({ error: "tool mcp_everything_echo was not called: the sync bridge is closed; create a new bridge" }),
    );
    assert.throws(() => bridge.listTools(), (error: unknown) => error instanceof SyncBridgeError && /after close\(\)/.test(error.message));
    assert.throws(() => bridge.status(), SyncBridgeError);
    bridge.close(); // again: harmless
  });
});

describe("a sync bridge over a hostile server", () => {
  const hostile = fileURLToPath(new URL("../fixtures/hostile-host-server.mjs", import.meta.url));
  const secret = "bridge-secret-7a5c3e1f9d";

  test("a serverInfo nested 100,000 levels deep still gives every server its status row, and dispatchSync's errors are redacted", GUARD, () => {
    const bridge = createSyncBridge({
      config: {
        servers: [
          { ...stdioServer("deep", [hostile]), env: { HOSTILE_DEEP_INFO: "1", HOSTILE_SECRET: secret } },
          stdioServer("probe", [probe]),
        ],
        warnings: [],
      },
    });
    try {
      const rows = bridge.status();
      assert.deepEqual(rows.map((row) => [row.name, row.state]), [["deep", "ready"], ["probe", "ready"]]);
      assert.match(JSON.stringify(rows[0]!.serverInfo), /nested deeper than 16 levels: not shown/);
      const error = bridge.dispatchSync("mcp_deep_leak_tool_error", {});
      assert.equal(error, JSON.stringify({ error: 'server "deep", tool "leak_tool_error" returned an error: refused: my environment holds [redacted]' }));
      const answer = bridge.dispatchSync("mcp_deep_deep_result", {});
      const deep = JSON.parse(answer) as { result?: string };
      assert.match(
        deep.result ?? "",
        /\[server "deep", tool "deep_result": structuredContent is nested deeper than 64 levels; the levels past 64 were left out\]$/,
        answer.slice(0, 500),
      );
    } finally {
      bridge.close();
    }
  });
});

describe("a sync bridge and MCP Apps visibility", () => {
  const apps = fileURLToPath(new URL("../fixtures/apps-server.mjs", import.meta.url));

  test("dispatchSync refuses an app-only tool unless the caller is the app; a tool for model and app runs", GUARD, () => {
    const bridge = createSyncBridge({ config: { servers: [stdioServer("apps", [apps])], warnings: [] } });
    try {
      const refused = JSON.parse(bridge.dispatchSync("mcp_apps_refresh_dashboard", {})) as { error?: string };
      assert.match(refused.error ?? "(no error)", /^server "apps", tool "refresh_dashboard": the tool is for its server's app only/);
      assert.equal(
        bridge.dispatchSync("mcp_apps_refresh_dashboard", {}, { caller: "app", appServer: "apps" }),
        JSON.stringify({ result: "dashboard refreshed" }),
      );
      assert.doesNotMatch(bridge.dispatchSync("mcp_apps_show_dashboard", {}), /"error"/);
    } finally {
      bridge.close();
    }
  });
});

describe("a sync bridge from a config file", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-bridge-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("{ configPath } loads the YAML file in the worker, and its server's tools answer", GUARD, () => {
    const file = join(dir, "mcpwire.yaml");
    writeFileSync(file, `mcp_servers:\n  probe:\n    command: node\n    args: [${JSON.stringify(probe)}]\n`);
    const bridge = createSyncBridge({ configPath: file });
    try {
      assert.deepEqual(bridge.listTools().map((tool) => tool.name), ["mcp_probe_hang", "mcp_probe_cancellations"]);
      assert.equal(bridge.dispatchSync("mcp_probe_cancellations", {}), JSON.stringify({ result: "[]" }));
    } finally {
      bridge.close();
    }
  });

  test("a config file that cannot be loaded makes createSyncBridge throw, naming the file", GUARD, () => {
    const missing = join(dir, "missing.yaml");
    assert.throws(
      () => createSyncBridge({ configPath: missing }),
      (error: unknown) => error instanceof SyncBridgeError && /^sync bridge could not start: /.test(error.message) && error.message.includes(missing),
    );
  });

  test("a host that ends without close() still exits, and its server processes end with it", GUARD, async () => {
    const host = fileURLToPath(new URL("../fixtures/bridge-forgetful-host.ts", import.meta.url));
    const runtimeArgs = "Deno" in globalThis ? ["run", "-A", host] : ["--import", "tsx", host];
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, runtimeArgs, { cwd: root, timeout: 25_000 }, (error, out, err) => {
        if (error) reject(new Error(`the forgetful host failed: ${error.message}\n${err}`));
        else resolve(out);
      });
    });
    const { reply, servers } = JSON.parse(stdout) as { reply: string; servers: number[] };
    try {
      assert.equal(reply, JSON.stringify({ result: "[]" }));
      assert.equal(servers.length, 1);
      for (const pid of servers) assert.ok(ended(pid), `server ${pid} of the forgetful host has ended`);
    } finally {
      for (const pid of servers) if (!ended(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
