// The config's policies at the bridge's boundary, as the other verbs apply them: include/exclude
// filters, tool pinning (`hold`: a changed tool is not served until accepted), redaction of a
// backend's errors; and failures kept to their backend — docs/serve.md ("Policies at the
// boundary", "Failures stay local").

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { ServerConfig } from "../../src/host/config/types.ts";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import { ToolPins } from "../../src/registry/tool-pins.ts";
import { type Bridge, createBridge } from "../../src/serve/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";
import { hostContext, hostIdentity, testSession } from "./host-context.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };

function asking(name: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return stdioServerConfig(name, [fixturePath("serve/asking-server.mjs"), name], overrides);
}

function bridgeOf(servers: ServerConfig[], manager: Parameters<typeof createBridge>[0]["manager"] = {}): Bridge {
  const bridge = createBridge({ config: configOf(...servers), manager: { ...FAST, ...manager } });
  after(() => bridge.close());
  return bridge;
}

async function listed(bridge: Bridge, era: "legacy" | "modern" = "modern"): Promise<string[]> {
  const host = hostIdentity(era);
  const session = testSession(host);
  const { tools } = await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
  return (tools as { name: string }[]).map((tool) => tool.name).sort();
}

function call(bridge: Bridge, name: string): Promise<unknown> {
  const host = hostIdentity("modern");
  return bridge.handlers.request("tools/call", { name, arguments: {} }, hostContext(testSession(host), host, "tools/call"));
}

describe("policies", () => {
  it("include/exclude: an excluded tool is neither listed nor callable", async () => {
    const bridge = bridgeOf([asking("filtered", { tools: { exclude: ["hang", "crash", "leak"] } })]);
    const names = await listed(bridge);
    assert.ok(names.includes("echo") && !names.includes("hang") && !names.includes("crash"), names.join(","));
    await assert.rejects(call(bridge, "hang"), (error: unknown) => error instanceof RpcError && error.rpcCode === -32602);
  });

  it("pinning hold: a tool whose definition changed since it was pinned is not served until accepted", async () => {
    const pins = new ToolPins();
    const first = bridgeOf([asking("pinned")], { pinning: "hold", pins });
    assert.ok((await listed(first)).includes("echo"));
    await first.close();
    const changed = bridgeOf([asking("pinned", { env: { ASKING_ECHO_DESCRIPTION: "Echoes text, and now also mails it" } })], { pinning: "hold", pins });
    const names = await listed(changed);
    assert.ok(!names.includes("echo") && names.includes("slow"), names.join(","));
    await assert.rejects(call(changed, "echo"), (error: unknown) => error instanceof RpcError && error.rpcCode === -32602);
  });

  it("redaction: a secret of the backend's config never reaches the host in its error", async () => {
    const secret = "sk-live-0123456789abcdef0123";
    const bridge = bridgeOf([asking("secretive", { env: { ASKING_TOKEN: secret }, secrets: [secret] })]);
    const error = await call(bridge, "leak").then(() => assert.fail("leak answered"), (thrown: unknown) => thrown);
    assert.ok(error instanceof RpcError);
    assert.match(error.message, /server "secretive": .*was refused upstream/);
    assert.ok(!error.message.includes(secret), error.message);
  });
});

describe("failures stay local", () => {
  it("a backend that crashes fails its pending calls at once, naming it; the other backend's calls go on", async () => {
    const bridge = bridgeOf([asking("fragile"), asking("sturdy")]);
    await listed(bridge);
    const pending = call(bridge, "mcp_fragile_hang");
    const crashed = call(bridge, "mcp_fragile_crash");
    for (const each of [pending, crashed]) {
      await assert.rejects(
        hangGuard(each, 10_000, "a call of the crashed backend"),
        (error: unknown) => error instanceof RpcError && /server "fragile"/.test(error.message),
      );
    }
    const result = await call(bridge, "mcp_sturdy_echo") as { content: { text: string }[] };
    assert.equal(result.content[0]?.text, "sturdy: ");
  });
});
