// The registry layer's error model (issue 25 "One error model"): ToolCallError, RegistrationError,
// ResultFileError and SyncBridgeError are each an McpwireError whose `code` (one of RegistryErrorCode) names the
// situation, reached through the real paths: a registry call that fails each way (built-in tools
// and a hand-written in-process MCP server), a results directory that cannot be used, a blocking
// worker that cannot start and a sync bridge used after close().

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, describe, test } from "node:test";
import { createSyncBridge } from "../../src/host/bridge/sync-bridge.ts";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import { Client } from "../../src/mod.ts";
import { serveSyncWorker, SyncWorker } from "../../src/registry/blocking-worker.ts";
import { registerMcpServer } from "../../src/registry/mcp-server.ts";
import { RegistrationError, ResultFileError, SyncBridgeError } from "../../src/registry/registry-errors.ts";
import { ResultFiles } from "../../src/registry/result-files.ts";
import { ToolCallError } from "../../src/registry/tool-call-error.ts";
import { ToolRegistry } from "../../src/registry/tool-registry.ts";
import { coded, thrown } from "../support/coded-error.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { inProcessServer } from "../support/in-process-server.ts";

const POSIX = process.platform !== "win32";
const GUARD = { timeout: 30_000 };

/** What `promise` rejected with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return await promise.then(() => assert.fail("resolved, expected a rejection"), (error: unknown) => error);
}

describe("ToolCallError: an McpwireError whose code says why call() failed", () => {
  const registry = new ToolRegistry();
  registry.register({ name: "ok", handler: () => "fine" });
  registry.register({
    name: "broken",
    handler: () => {
      throw new Error("the disk is full");
    },
  });
  registry.register({ name: "slow", handler: () => new Promise((resolve) => setTimeout(() => resolve("late"), 2_000)) });
  registry.register({ name: "off", toolset: "spare", handler: () => "never" });
  registry.disableToolset("spare");

  test("unknown tool", async () => {
    const error = await rejection(registry.call("nope"));
    coded(error, ToolCallError, "unknown-tool");
    assert.equal((error as ToolCallError).tool, "nope");
  });

  test("disabled toolset", async () => {
    coded(await rejection(registry.call("off")), ToolCallError, "disabled");
  });

  test("arguments that are not an object", async () => {
    coded(await rejection(registry.call("ok", [] as never)), ToolCallError, "invalid-arguments");
  });

  test("a handler that throws: failed, with the handler's error as cause", async () => {
    const error = await rejection(registry.call("broken"));
    coded(error, ToolCallError, "failed");
    assert.equal(((error as ToolCallError).cause as Error).message, "the disk is full");
    assert.deepEqual((error as ToolCallError).origin, { kind: "builtin" });
  });

  test("a built-in past context.timeoutMs", async () => {
    coded(await rejection(registry.call("slow", {}, { timeoutMs: 20 })), ToolCallError, "timeout");
  });

  test("an aborted signal", async () => {
    coded(await rejection(registry.call("ok", {}, { signal: AbortSignal.abort("stop") })), ToolCallError, "cancelled");
  });

  test("an MCP server's JSON-RPC error, an app-only tool called for a model, a server no longer connected", GUARD, async () => {
    const server = inProcessServer({ tools: {} }, {
      "tools/list": () => ({
        tools: [
          { name: "refuse", inputSchema: { type: "object" } },
          { name: "panel", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["app"] } } },
        ],
      }),
      "tools/call": () => {
        throw new RpcError("no such record", -32602);
      },
    });
    const client = new Client({ name: "mcpwire-error-codes-tests", version: "1.0.0" }, { name: "db", protocol: "legacy", requestTimeoutMs: 10_000 });
    await hangGuard(client.connect(server.clientEnd), 15_000, "connect");
    const mcp = new ToolRegistry();
    try {
      await registerMcpServer(mcp, "db", client);
      const rpc = await rejection(mcp.call("mcp_db_refuse"));
      coded(rpc, ToolCallError, "rpc");
      assert.ok((rpc as ToolCallError).cause instanceof RpcError);
      assert.deepEqual((rpc as ToolCallError).origin, { kind: "mcp", server: "db", tool: "refuse" });
      coded(await rejection(mcp.call("mcp_db_panel", {}, { caller: "model" })), ToolCallError, "not-visible");
    } finally {
      await client.close();
    }
    coded(await rejection(mcp.call("mcp_db_refuse")), ToolCallError, "unavailable");
  });
});

describe("RegistrationError: an McpwireError whose code says why a server's tools were not registered", () => {
  test("a naming format without {tool}, a second registration of a name, a first tools/list that fails, a refresh after unregister()", GUARD, async () => {
    let listing = 0;
    const server = inProcessServer({ tools: {} }, {
      "tools/list": () => {
        if (++listing === 1) throw new RpcError("the catalogue is down", -32603);
        return { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
      },
    });
    const client = new Client({ name: "mcpwire-error-codes-tests", version: "1.0.0" }, { name: "db", protocol: "legacy", requestTimeoutMs: 10_000 });
    await hangGuard(client.connect(server.clientEnd), 15_000, "connect");
    const registry = new ToolRegistry();
    try {
      coded(await rejection(registerMcpServer(registry, "db", client, { naming: "{server}" })), RegistrationError, "invalid-naming");
      const failed = coded(await rejection(registerMcpServer(registry, "db", client)), RegistrationError, "list-failed");
      assert.ok(failed.cause instanceof RpcError, "the list's error is the cause");
      assert.match(failed.message, /server "db": tools\/list failed, so none of its tools were registered: .*the catalogue is down/);
      const registration = await registerMcpServer(registry, "db", client);
      coded(await rejection(registerMcpServer(registry, "db", client)), RegistrationError, "already-registered");
      registration.unregister();
      coded(await rejection(registration.refresh()), RegistrationError, "unregistered");
    } finally {
      await client.close();
    }
  });
});

describe("ResultFileError: an McpwireError whose code says why a result file was not saved", () => {
  const root = mkdtempSync(join(tmpdir(), "mcpwire-error-codes-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  test("data that is not base64", async () => {
    const error = await rejection(new ResultFiles({ directory: join(root, "data") }).saveBase64("@@not base64@@", "image/png", "t"));
    coded(error, ResultFileError, "invalid-data");
  });

  test("a directory that cannot be made (under a file)", { skip: !POSIX }, async () => {
    const file = join(root, "a-file");
    writeFileSync(file, "x");
    const error = await rejection(new ResultFiles({ directory: join(file, "results") }).saveText("x", "t"));
    coded(error, ResultFileError, "unwritable");
    assert.ok((error as ResultFileError).cause !== undefined, "the underlying error is kept");
  });

  test("a directory that is a symbolic link", { skip: !POSIX }, async () => {
    const directory = join(root, "link");
    symlinkSync(root, directory);
    coded(await rejection(new ResultFiles({ directory }).saveText("x", "t")), ResultFileError, "unsafe-directory");
  });

  test("no directory at all: neither XDG_CACHE_HOME nor HOME", { skip: !POSIX }, async () => {
    const saved = { HOME: process.env.HOME, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
    delete process.env.HOME;
    delete process.env.XDG_CACHE_HOME;
    let files: ResultFiles;
    try {
      files = new ResultFiles();
    } finally {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
    assert.equal(files.directory, undefined);
    coded(await rejection(files.saveText("x", "t")), ResultFileError, "no-directory");
  });
});

describe("SyncBridgeError: an McpwireError whose code says why the blocking worker or the bridge failed", () => {
  const testWorker = new URL("../fixtures/bridge-test-worker.ts", import.meta.url);

  test("serveSyncWorker outside a worker", () => {
    coded(thrown(() => serveSyncWorker({ call: () => 1 })), SyncBridgeError, "not-in-worker");
  });

  test("a worker whose start() throws", GUARD, () => {
    const error = thrown(() => SyncWorker.start(testWorker, { label: "test worker", data: { failStart: "config file is missing" } }));
    coded(error, SyncBridgeError, "start-failed");
  });

  test("a worker slower to start than startTimeoutMs", GUARD, () => {
    const error = thrown(() => SyncWorker.start(testWorker, { label: "test worker", data: { startDelayMs: 5_000 }, startTimeoutMs: 300 }));
    coded(error, SyncBridgeError, "timeout");
  });

  test("a bridge queried after close()", GUARD, () => {
    const bridge = createSyncBridge({ config: { servers: [], warnings: [] } });
    bridge.close();
    coded(thrown(() => bridge.listTools()), SyncBridgeError, "closed");
  });
});
