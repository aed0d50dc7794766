// The bridge's handlers (src/serve/) against real backends over stdio, called as the server half
// calls them: what a host of either era asks reaches the right backend, with the host's
// capabilities; names, routing, progress, logs and the backend's own requests come back.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { ServerConfig } from "../../src/host/config/types.ts";
import { RpcError } from "../../src/jsonrpc/errors.ts";
import { type Bridge, BridgeError, type BridgeEvents, createBridge } from "../../src/serve/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";
import { hostContext, hostIdentity, testSession } from "./host-context.ts";

const FAST = { reconnectDelay: { initialMs: 20, maxMs: 80, jitter: 0 }, connectRetries: 0, probeIntervalMs: 600_000 };

function asking(name: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return stdioServerConfig(name, [fixturePath("serve/asking-server.mjs"), name], overrides);
}

function bridgeOf(servers: ServerConfig[], extra: Partial<Parameters<typeof createBridge>[0]> = {}): Bridge {
  const bridge = createBridge({ config: configOf(...servers), manager: FAST, ...extra });
  after(() => bridge.close());
  return bridge;
}

function texts(result: unknown): string {
  return ((result as { content: { text: string }[] }).content ?? []).map((block) => block.text).join("\n");
}

describe("one backend, a handshake-era host", () => {
  const bridge = bridgeOf([asking("solo")]);
  const host = hostIdentity("legacy", { sampling: {}, elicitation: {}, roots: {} });
  const session = testSession(host);

  it("the backend sees the host's capabilities: it lists the tools it lists to such a host, under their own names", async () => {
    await bridge.handlers.capabilities(host);
    bridge.handlers.sessionOpened?.(session);
    const { tools } = await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
    const names = (tools as { name: string }[]).map((tool) => tool.name).sort();
    assert.deepEqual(names, ["ask_elicit", "ask_roots", "ask_sampling", "ask_then_cancel", "crash", "echo", "hang", "leak", "needs_sampling", "slow"]);
  });

  it("a backend's sampling, elicitation and roots go to the host request that called, and the answers come back", async () => {
    const answer = (method: string) =>
      method === "sampling/createMessage"
        ? { role: "assistant", content: { type: "text", text: "hi from the host" }, model: "test" }
        : method === "elicitation/create"
        ? { action: "accept", content: { name: "Ada" } }
        : { roots: [{ uri: "file:///work" }] };
    const sampling = hostContext(session, host, "tools/call", { answer });
    assert.equal(texts(await bridge.handlers.request("tools/call", { name: "ask_sampling", arguments: {} }, sampling)), "model said: hi from the host");
    assert.equal(sampling.asked[0]?.method, "sampling/createMessage");
    const elicit = hostContext(session, host, "tools/call", { answer });
    assert.equal(texts(await bridge.handlers.request("tools/call", { name: "ask_elicit", arguments: {} }, elicit)), "user said: accept Ada");
    const roots = hostContext(session, host, "tools/call", { answer });
    assert.equal(texts(await bridge.handlers.request("tools/call", { name: "ask_roots", arguments: {} }, roots)), "roots: file:///work");
  });

  it("a backend that cancels its own request to the host: the host's request is cancelled too", async () => {
    const context = hostContext(session, host, "tools/call", { answer: "wait" });
    const result = await hangGuard(bridge.handlers.request("tools/call", { name: "ask_then_cancel", arguments: {} }, context), 10_000, "ask_then_cancel");
    assert.equal(texts(result), "cancelled it");
    assert.deepEqual(context.cancelled, ["sampling/createMessage"]);
  });

  it("progress and log messages reach the host request; its traceparent reaches the backend", async () => {
    await bridge.handlers.request("logging/setLevel", { level: "debug" }, hostContext(session, host, "logging/setLevel"));
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const context = hostContext(session, host, "tools/call", { meta: { progressToken: "p1", traceparent } });
    const result = await bridge.handlers.request("tools/call", { name: "slow", arguments: {}, _meta: { progressToken: "p1", traceparent } }, context);
    assert.equal(texts(result), `slow done; traceparent ${traceparent}`);
    assert.deepEqual(context.progressed, [{ progress: 1, total: 2, message: "half" }]);
    assert.deepEqual(context.notified.map((each) => [each.method, each.params?.data]), [["notifications/message", "slow started"]]);
  });

  it("prompts, resources and completion pass through with their names and URIs", async () => {
    const context = () => hostContext(session, host, "x");
    const { prompts } = await bridge.handlers.request("prompts/list", {}, context());
    assert.deepEqual((prompts as { name: string }[]).map((prompt) => prompt.name), ["greet"]);
    const got = await bridge.handlers.request("prompts/get", { name: "greet", arguments: { who: "Bob" } }, context());
    assert.equal((got.messages as { content: { text: string } }[])[0]?.content.text, "solo greets Bob");
    const { resources } = await bridge.handlers.request("resources/list", {}, context());
    assert.deepEqual((resources as { uri: string }[]).map((resource) => resource.uri), ["fixture://solo/hello", "fixture://shared"]);
    const read = await bridge.handlers.request("resources/read", { uri: "fixture://solo/hello" }, context());
    assert.equal((read.contents as { text: string }[])[0]?.text, "solo has fixture://solo/hello");
    const completed = await bridge.handlers.request(
      "completion/complete",
      { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "Bo" } },
      context(),
    );
    assert.deepEqual((completed.completion as { values: string[] }).values, ["Bo-solo"]);
  });

  it("an unknown tool is -32602, an unserved method -32601", async () => {
    await assert.rejects(
      bridge.handlers.request("tools/call", { name: "nope", arguments: {} }, hostContext(session, host, "tools/call")),
      (error: unknown) => error instanceof RpcError && error.rpcCode === -32602,
    );
    await assert.rejects(
      bridge.handlers.request("sampling/createMessage", {}, hostContext(session, host, "x")),
      (error: unknown) => error instanceof RpcError && error.rpcCode === -32601,
    );
  });
});

describe("a host without sampling", () => {
  const bridge = bridgeOf([asking("plain")]);

  for (const era of ["legacy", "modern"] as const) {
    it(`(${era}) is not offered what needs it, and a call that needs it is refused -32021 by the backend`, async () => {
      const host = hostIdentity(era, {});
      await bridge.handlers.capabilities(host);
      const session = testSession(host);
      bridge.handlers.sessionOpened?.(session);
      const { tools } = await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
      assert.ok(!(tools as { name: string }[]).some((tool) => tool.name.startsWith("ask_")));
      await assert.rejects(
        bridge.handlers.request("tools/call", { name: "needs_sampling", arguments: {} }, hostContext(session, host, "tools/call")),
        (error: unknown) => error instanceof RpcError && error.rpcCode === -32021 && /server "plain"/.test(error.message),
      );
    });
  }
});

describe("several backends", () => {
  const collisions: BridgeEvents["collision"][] = [];
  const bridge = bridgeOf([asking("alpha"), asking("beta")]);
  bridge.events.on("collision", (collision) => collisions.push(collision));
  const host = hostIdentity("modern", {});
  const session = testSession(host);

  it("start() reports a URI two backends serve, naming both", async () => {
    await hangGuard(bridge.start(), 20_000, "bridge.start()");
    assert.deepEqual(collisions.map(({ kind, name, servers }) => ({ kind, name, servers })), [
      { kind: "resource", name: "fixture://shared", servers: ["alpha", "beta"] },
    ]);
    assert.match(collisions[0]!.message, /"alpha" and "beta"/);
  });

  it("tools and prompts are told apart as the registry names them, and calls reach their own backend", async () => {
    const { tools } = await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
    const names = (tools as { name: string }[]).map((tool) => tool.name);
    assert.ok(names.includes("mcp_alpha_echo") && names.includes("mcp_beta_echo"), names.join(","));
    const result = await bridge.handlers.request("tools/call", { name: "mcp_beta_echo", arguments: { text: "x" } }, hostContext(session, host, "tools/call"));
    assert.equal(texts(result), "beta: x");
    const { prompts } = await bridge.handlers.request("prompts/list", {}, hostContext(session, host, "prompts/list"));
    assert.deepEqual((prompts as { name: string }[]).map((prompt) => prompt.name), ["mcp_alpha_greet", "mcp_beta_greet"]);
    const read = await bridge.handlers.request("resources/read", { uri: "fixture://beta/hello" }, hostContext(session, host, "resources/read"));
    assert.equal((read.contents as { text: string }[])[0]?.text, "beta has fixture://beta/hello");
    const completed = await bridge.handlers.request(
      "completion/complete",
      { ref: { type: "ref/resource", uri: "fixture://beta/{item}" }, argument: { name: "item", value: "x" } },
      hostContext(session, host, "completion/complete"),
    );
    assert.deepEqual((completed.completion as { values: string[] }).values, ["x-beta"], "the template's own backend completes it");
  });

  it("a backend that crashes takes only its own tools away, says so, and its call fails naming it", async () => {
    const other = testSession(host);
    await bridge.handlers.request("tools/list", {}, hostContext(other, host, "tools/list"));
    await assert.rejects(
      hangGuard(bridge.handlers.request("tools/call", { name: "mcp_alpha_crash", arguments: {} }, hostContext(other, host, "tools/call")), 15_000, "crash"),
      (error: unknown) => error instanceof RpcError && /server "alpha"/.test(error.message),
    );
    assert.ok(other.told.some((told) => told.method === "notifications/tools/list_changed"));
    const result = await bridge.handlers.request("tools/call", { name: "mcp_beta_echo", arguments: { text: "still" } }, hostContext(other, host, "tools/call"));
    assert.equal(texts(result), "beta: still");
  });

  it("a hung call ends at once when the host cancels it", async () => {
    const controller = new AbortController();
    const call = bridge.handlers.request(
      "tools/call",
      { name: "mcp_beta_hang", arguments: {} },
      hostContext(session, host, "tools/call", { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(hangGuard(call, 10_000, "cancelled call"));
  });
});

describe("a 2026-07-28 host, a handshake-era backend that asks", () => {
  const bridge = bridgeOf([asking("held")], { hold: { holdMs: 300 } });
  const host = hostIdentity("modern", { sampling: {} });
  const session = testSession(host);

  it("the host's request is answered input_required; its retry's answer reaches the held backend request", async () => {
    const first = await bridge.handlers.request("tools/call", { name: "ask_sampling", arguments: {} }, hostContext(session, host, "tools/call"));
    assert.equal(first.resultType, "input_required");
    const requests = first.inputRequests as Record<string, { method: string; params: { maxTokens: number } }>;
    const [key] = Object.keys(requests);
    assert.equal(requests[key!]?.method, "sampling/createMessage");
    assert.equal(requests[key!]?.params.maxTokens, 10);
    const retry = {
      name: "ask_sampling",
      arguments: {},
      inputResponses: { [key!]: { role: "assistant", content: { type: "text", text: "held answer" }, model: "m" } },
      requestState: first.requestState,
    };
    assert.equal(texts(await bridge.handlers.request("tools/call", retry, hostContext(session, host, "tools/call"))), "model said: held answer");
  });

  it("a retry after the hold ran out is refused -32602, saying to call again", async () => {
    const first = await bridge.handlers.request("tools/call", { name: "ask_sampling", arguments: {} }, hostContext(session, host, "tools/call"));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await assert.rejects(
      bridge.handlers.request(
        "tools/call",
        { name: "ask_sampling", arguments: {}, inputResponses: {}, requestState: first.requestState },
        hostContext(session, host, "tools/call"),
      ),
      (error: unknown) => error instanceof RpcError && error.rpcCode === -32602 && /without requestState/.test(error.message),
    );
  });
});

describe("naming: plain, several backends", () => {
  const collisions: BridgeEvents["collision"][] = [];
  const bridge = bridgeOf([asking("first"), asking("second")], { naming: "plain" });
  bridge.events.on("collision", (collision) => collisions.push(collision));

  it("keeps names as they are; a name both offer is the first server's, and the collision is said once at start", async () => {
    await hangGuard(bridge.start(), 20_000, "bridge.start()");
    const tools = collisions.filter((collision) => collision.kind === "tool").map(({ name, servers }) => `${name}: ${servers.join(" over ")}`);
    assert.ok(tools.includes("echo: first over second"), tools.join("; "));
    assert.ok(collisions.some((collision) => collision.kind === "prompt" && collision.name === "greet"));
    const count = collisions.length;
    const host = hostIdentity("modern", {});
    const session = testSession(host);
    const { tools: listed } = await bridge.handlers.request("tools/list", {}, hostContext(session, host, "tools/list"));
    assert.equal((listed as { name: string }[]).filter((tool) => tool.name === "echo").length, 1);
    assert.equal(collisions.length, count, "said once");
    const result = await bridge.handlers.request("tools/call", { name: "echo", arguments: { text: "which" } }, hostContext(session, host, "tools/call"));
    assert.equal(texts(result), "first: which");
  });
});

describe("createBridge", () => {
  it("refuses a naming format that cannot work, naming the server", () => {
    assert.throws(
      () => createBridge({ config: configOf(asking("a", { naming: "{server}" })) }),
      (error: unknown) => error instanceof BridgeError && error.code === "bad-naming" && /server "a"/.test(error.message),
    );
  });

  it("refuses a server the config lacks, naming it", () => {
    assert.throws(
      () => createBridge({ config: configOf(asking("a")), servers: ["b"] }),
      (error: unknown) => error instanceof BridgeError && error.code === "unknown-server" && /"b"/.test(error.message),
    );
  });
});
