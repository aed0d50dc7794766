// The client as a task receiver under `mcpwire run`'s own handlers — spec 2025-11-25
// basic/utilities/tasks: a Runner driven by a scripted model calls server-everything's
// trigger-sampling-request-async through the manager; the server's task-augmented sampling
// request is answered by run's samplingFor (the server's sampling.model, a second scripted
// model) as a task the server polls. In process: the models are scripts, the server is real.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { NO_HOOKS } from "../../src/agent/hooks.ts";
import { Runner } from "../../src/agent/runner.ts";
import { type HostSetup, samplingFor } from "../../src/cli/session/agent-session.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { EVERYTHING } from "../support/everything.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const ASYNC_TOOL = "mcp_everything_trigger-sampling-request-async";

describe("mcpwire run's handlers serve a task-augmented sampling request", () => {
  const sampler = new ScriptedProvider([(request) => ({
    text: request.system === "You are a helpful test server." ? "sampled by the script in a task" : "wrong request",
    toolCalls: [],
    stopReason: "stop",
  })]);
  const setup: HostSetup = {
    modelString: "scripted/any",
    provider: sampler,
    makeProvider: () => sampler,
    policy: "all",
    approve: () => true,
    hooks: NO_HOOKS,
  };
  const server = stdioServerConfig("everything", [EVERYTHING, "stdio"], { timeoutMs: 30_000, connectTimeoutMs: 20_000, samplingModel: "scripted/sampler" });
  const manager = new McpManager(configOf(server), {
    connectRetries: 0,
    handlers: (config) => ({ sampling: samplingFor(config, () => setup, "all") }),
  });
  before(() => manager.start());
  after(() => manager.close());

  test("the model's tool call completes through a task the client ran with the server's sampling.model", async () => {
    for (let attempt = 0; attempt < 50 && !manager.registry.has(ASYNC_TOOL); attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(manager.registry.has(ASYNC_TOOL), "the async tool is offered: the client declared tasks for sampling");
    const model = new ScriptedProvider([
      callTools({ name: ASYNC_TOOL, arguments: { prompt: "what is 6 x 7?" } }),
      answer((request) => `Final: ${toolResults(request).at(-1) ?? "(none)"}`),
    ]);
    const text = await new Runner({ provider: model, registry: manager.registry }).run("sample in a task");
    assert.match(text, /\[COMPLETED\] Async sampling completed!/);
    assert.match(text, /Poll \d+: completed/);
    assert.match(text, /sampled by the script in a task/);
    assert.equal(sampler.requests.length, 1, "the server's request reached the sampling model once");
  });
});
