// `mcpwire run` as a task receiver — spec 2025-11-25 basic/utilities/tasks: the model calls
// server-everything's trigger-sampling-request-async and trigger-elicitation-request-async;
// the server's task-augmented request is answered by run's own handlers (sampling.model through
// the provider, --elicit prompt on stdin) as a task the server polls. A real child process of
// the runtime under test, the OpenAI provider against a loopback fake OpenAI API.

import assert from "node:assert/strict";
import process from "node:process";
import { before, describe, test } from "node:test";
import { everythingYaml, mcpwire as runMcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { type FakeModelApi, refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";

const scratch = scratchDir("mcpwire-task-receiver-run-");
let nowhere = "";

/** No key from the environment, and no Ollama to find: the config says everything. */
function childEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, OLLAMA_HOST: nowhere };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY"]) {
    delete env[name];
  }
  return env;
}

const mcpwire = (args: string[], input?: string) => runMcpwire(args, { input, env: childEnv() });

async function configFor(name: string, api: FakeModelApi, serverExtra: string[] = []): Promise<string> {
  return await writeConfig(scratch.path, `${name}.yaml`, [
    "providers:",
    "  openai:",
    `    base_url: ${JSON.stringify(api.url)}`,
    "mcp_servers:",
    ...everythingYaml(),
    ...serverExtra,
  ]);
}

function lastToolResult(request: { toolResults: Array<{ content: string }> }): string {
  return request.toolResults.at(-1)?.content ?? "(no tool result)";
}

before(async () => {
  nowhere = await refusedOrigin();
});

describe("mcpwire run serves the server's tasks", () => {
  test("trigger-sampling-request-async: the sampling.model answers inside a task the server polls to completed", async () => {
    const api = await startFakeModelApi("openai", [
      { toolCalls: [{ name: "mcp_everything_trigger-sampling-request-async", arguments: { prompt: "What is 6 x 7?" } }] },
      (request) => {
        const messages = JSON.stringify(request.body.messages);
        return { text: messages.includes("You are a helpful test server.") ? "sampled in a task: 42" : "wrong request: expected the server's sampling" };
      },
      (request) => ({ text: `Final: ${lastToolResult(request)}` }),
    ]);
    try {
      const config = await configFor("sampling", api, ["    sampling:", "      model: openai/sampler", "      max_tokens: 100"]);
      const { code, stdout, stderr } = await mcpwire(["run", "-p", "sample in a task", "--yes", "--model", "openai/any", "--config", config]);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /Final: .*\[COMPLETED\] Async sampling completed!/);
      assert.match(stdout, /Poll \d+: completed/);
      assert.match(stdout, /sampled in a task: 42/);
      assert.equal(api.requests[1]!.body.model, "sampler", "the server's sampling went to its sampling.model");
    } finally {
      await api.close();
    }
  });

  test("trigger-elicitation-request-async: --elicit prompt asks on stdin and the answers reach the server through tasks/result", async () => {
    const api = await startFakeModelApi("openai", [
      { toolCalls: [{ name: "mcp_everything_trigger-elicitation-request-async", arguments: {} }] },
      (request) => ({ text: `Final: ${lastToolResult(request)}` }),
    ]);
    try {
      const config = await configFor("elicitation", api);
      const { code, stdout, stderr } = await mcpwire(
        ["run", "-p", "ask me in a task", "--yes", "--elicit", "prompt", "--model", "openai/any", "--config", config],
        ["Ada Lovelace", "2", "y", ""].join("\n") + "\n",
      );
      assert.equal(code, 0, stderr);
      assert.match(stderr, /server "everything" asks: Please provide inputs for the following fields \(async task demo\):/);
      assert.match(stdout, /User provided the requested information!/);
      assert.match(stdout, /- Name: Ada Lovelace/);
      assert.match(stdout, /- Favorite Color: Blue/);
      assert.match(stdout, /- Agreed to terms: true/);
    } finally {
      await api.close();
    }
  });
});
