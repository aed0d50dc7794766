// `mcpwire run` as a real child process of the runtime under test: the OpenAI provider against
// a loopback fake OpenAI API, server-everything over stdio — tool calls, the --json transcript,
// approval without a terminal, hooks from the config, sampling through sampling.model, limits.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { before, describe, test } from "node:test";
import { parseConfig } from "../../src/host/config/parse.ts";
import { everythingYaml, mcpwire as runMcpwire, root, runtimeArgs, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { type FakeModelApi, type FakeStep, refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";
import { hasScript, shellQuote } from "../support/terminal.ts";

const scratch = scratchDir("mcpwire-run-");
let nowhere = "";

/** No key from the environment, and no Ollama to find: the config says everything. */
function childEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, OLLAMA_HOST: nowhere };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY"]) {
    delete env[name];
  }
  return env;
}

const mcpwire = (args: string[], input?: string, extraEnv: Record<string, string> = {}) => runMcpwire(args, { input, env: { ...childEnv(), ...extraEnv } });

/** A config with server-everything and the fake API as the openai provider. */
async function configFor(name: string, api: FakeModelApi | undefined, extra: string[] = [], serverExtra: string[] = []): Promise<string> {
  return await writeConfig(scratch.path, `${name}.yaml`, [
    ...(api === undefined ? [] : ["providers:", "  openai:", `    base_url: ${JSON.stringify(api.url)}`]),
    ...extra,
    "mcp_servers:",
    ...everythingYaml(),
    ...serverExtra,
  ]);
}

function lastToolResult(request: { toolResults: Array<{ content: string }> }): string {
  return request.toolResults.at(-1)?.content ?? "(no tool result)";
}

const SUM: FakeStep[] = [
  { toolCalls: [{ name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } }] },
  (request) => ({ text: `Done: ${lastToolResult(request)}` }),
];

before(async () => {
  nowhere = await refusedOrigin();
});

describe("mcpwire run", () => {
  test("add 2 and 40: the model's call goes through mcp_everything_get-sum and the answer with 42 is on stdout", async () => {
    const api = await startFakeModelApi("openai", SUM);
    try {
      const config = await configFor("sum", api);
      const { code, stdout, stderr } = await mcpwire(["run", "-p", "add 2 and 40 with the tool", "--model", "openai/any", "--config", config]);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^Done: .*The sum of 2 and 40 is 42/);
      assert.match(stderr, /→ mcp_everything_get-sum \{"a":2,"b":40\}/);
      assert.match(stderr, /← mcp_everything_get-sum \d+ ms/);
      assert.equal(api.requests.length, 2);
      assert.equal(api.requests[0]!.body.model, "any");
      const tools = api.requests[0]!.body.tools as Array<{ function: { name: string } }>;
      assert.ok(tools.some((tool) => tool.function.name === "mcp_everything_get-sum"));
    } finally {
      await api.close();
    }
  });

  test("the issue's check: examples/mcpwire.yaml with OPENAI_BASE_URL at an OpenAI-compatible server completes through get-sum", async () => {
    const api = await startFakeModelApi("openai", SUM);
    try {
      const { code, stdout, stderr } = await mcpwire(
        ["run", "-p", "add 2 and 40 with the tool", "--model", "openai/any", "--config", "examples/mcpwire.yaml"],
        undefined,
        { OPENAI_BASE_URL: api.url },
      );
      assert.equal(code, 0, stderr);
      assert.match(stdout, /The sum of 2 and 40 is 42/);
    } finally {
      await api.close();
    }
  });

  test("--json prints the whole transcript; model, system_prompt and max_steps come from the config", async () => {
    const api = await startFakeModelApi("openai", SUM);
    try {
      const config = await configFor("json", api, ["model: openai/from-config", "system_prompt: Be exact.", "max_steps: 4"]);
      const { code, stdout, stderr } = await mcpwire(["run", "--json", "--config", config, "add 2 and 40"]);
      assert.equal(code, 0, stderr);
      const transcript = JSON.parse(stdout) as {
        model: string;
        answer: string;
        systemPrompt: string;
        tools: Array<{ name: string; outcome: string }>;
        messages: Array<{ role: string }>;
      };
      assert.equal(transcript.model, "openai/from-config");
      assert.equal(transcript.systemPrompt, "Be exact.");
      assert.match(transcript.answer, /42/);
      assert.deepEqual(transcript.tools.map((tool) => [tool.name, tool.outcome]), [["mcp_everything_get-sum", "result"]]);
      assert.deepEqual(transcript.messages.map((message) => message.role), ["user", "assistant", "tool", "assistant"]);
      assert.equal(api.requests[0]!.body.model, "from-config");
      assert.deepEqual((api.requests[0]!.body.messages as Array<{ role: string; content: string }>)[0], { role: "system", content: "Be exact." });
    } finally {
      await api.close();
    }
  });

  test("without a terminal only read-only tools run; a refused call is reported and the model told; --yes runs it", async () => {
    const script = (): FakeStep[] => [
      { toolCalls: [{ name: "mcp_everything_toggle-simulated-logging", arguments: {} }] },
      (request) => ({ text: `tool said: ${lastToolResult(request)}` }),
    ];
    const api = await startFakeModelApi("openai", [...script(), ...script()]);
    try {
      const config = await configFor("approve", api);
      const refused = await mcpwire(["run", "-p", "toggle logging", "--model", "openai/any", "--config", config]);
      assert.equal(refused.code, 0, refused.stderr);
      assert.match(refused.stderr, /✗ mcp_everything_toggle-simulated-logging not run: the tool is not annotated readOnlyHint/);
      assert.match(refused.stdout, /the user declined this call/);
      const allowed = await mcpwire(["run", "-p", "toggle logging", "--yes", "--model", "openai/any", "--config", config]);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.match(allowed.stdout, /tool said: .*logging/i);
      assert.doesNotMatch(allowed.stdout, /declined/);
    } finally {
      await api.close();
    }
  });

  test("a PreToolUse hook from the config blocks with its stderr; --no-hooks skips it", async () => {
    const api = await startFakeModelApi("openai", [...SUM, ...SUM]);
    try {
      const config = await configFor("hooks", api, [
        "hooks:",
        "  PreToolUse:",
        '    - matcher: "get-sum"',
        "      command: \"echo 'no sums on Wednesdays' >&2; exit 2\"",
      ]);
      const blocked = await mcpwire(["run", "-p", "add", "--model", "openai/any", "--config", config]);
      assert.equal(blocked.code, 0, blocked.stderr);
      assert.match(blocked.stderr, /PreToolUse hook blocked mcp_everything_get-sum: no sums on Wednesdays/);
      assert.match(blocked.stdout, /no sums on Wednesdays/);
      const skipped = await mcpwire(["run", "-p", "add", "--no-hooks", "--model", "openai/any", "--config", config]);
      assert.equal(skipped.code, 0, skipped.stderr);
      assert.match(skipped.stdout, /is 42/);
    } finally {
      await api.close();
    }
  });

  test("a server's sampling request is answered by its sampling.model through the provider (with --yes)", async () => {
    const api = await startFakeModelApi("openai", [
      { toolCalls: [{ name: "mcp_everything_trigger-sampling-request", arguments: { prompt: "What is 6 x 7?" } }] },
      (request) => {
        const messages = JSON.stringify(request.body.messages);
        return { text: messages.includes("You are a helpful test server.") ? "sampled: 42" : "wrong request: expected the server's sampling" };
      },
      (request) => ({ text: `Final: ${lastToolResult(request)}` }),
    ]);
    try {
      const config = await configFor("sampling", api, [], ["    sampling:", "      model: openai/sampler", "      max_tokens: 100"]);
      const { code, stdout, stderr } = await mcpwire(["run", "-p", "sample", "--yes", "--model", "openai/any", "--config", config]);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /Final: .*sampled: 42/);
      assert.match(stdout, /sampler/);
      assert.equal(api.requests[1]!.body.model, "sampler");
    } finally {
      await api.close();
    }
  });

  test("--max-steps bounds the run: exit 1 with a message saying what to raise", async () => {
    const api = await startFakeModelApi("openai", SUM);
    try {
      const config = await configFor("steps", api);
      const { code, stdout, stderr } = await mcpwire(["run", "-p", "add", "--max-steps", "1", "--model", "openai/any", "--config", config]);
      assert.equal(code, 1, stderr);
      assert.equal(stdout, "");
      assert.match(stderr, /mcpwire run: the model was still calling tools after 1 steps .*--max-steps/);
    } finally {
      await api.close();
    }
  });

  test("no model configured and no Ollama answering: one error saying how to point at Ollama or a key, exit 2", async () => {
    const config = await configFor("nomodel", undefined);
    const { code, stdout, stderr } = await mcpwire(["run", "-p", "hi", "--config", config]);
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /no model configured .* no Ollama answering at http:\/\/127\.0\.0\.1:\d+.*ollama serve.*--model ollama\/qwen3.*OPENAI_API_KEY/);
    assert.doesNotMatch(stderr, /\[everything\]/, "no server is started for a run that cannot happen");
  });

  test("a hosted model without a key is a usage error naming the variable; a bad max_steps is positioned", async () => {
    const config = await configFor("nokey", undefined);
    const nokey = await mcpwire(["run", "-p", "hi", "--model", "anthropic/claude-sonnet-4-5", "--config", config]);
    assert.equal(nokey.code, 2);
    assert.match(nokey.stderr, /no API key .*ANTHROPIC_API_KEY/);
    const bad = await configFor("badsteps", undefined, ["max_steps: 0"]);
    const positioned = await mcpwire(["run", "-p", "hi", "--model", "openai/x", "--config", bad]);
    assert.equal(positioned.code, 2);
    assert.match(positioned.stderr, /badsteps\.yaml:1:12: "max_steps" must be a whole number of at least 1/);
  });
});

describe("mcpwire chat", () => {
  test("prompts from stdin keep one conversation; /tools, /save and /quit work; the answer is streamed to stdout", async () => {
    const api = await startFakeModelApi("openai", [
      ...SUM,
      (request) => ({ text: `You asked ${(request.body.messages as unknown[]).length} messages ago… still 42` }),
    ]);
    try {
      const config = await configFor("chat", api);
      const saved = join(scratch.path, "chat.json");
      const input = ["add 2 and 40", "/tools", "and again?", `/save ${saved}`, "/quit", "never sent"].join("\n") + "\n";
      const { code, stdout, stderr } = await mcpwire(["chat", "--model", "openai/any", "--config", config], input);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /mcpwire chat with openai\/any/);
      assert.match(stdout, /Done: .*The sum of 2 and 40 is 42/);
      assert.match(stdout, /^mcp_everything_get-sum\s+Returns the sum of two numbers/m);
      assert.match(stdout, /still 42/);
      assert.equal(api.requests.length, 3, "the line after /quit is not sent");
      // The second prompt carries the first exchange: user, assistant+call, tool, assistant, user (+ system: none).
      assert.equal((api.requests[2]!.body.messages as unknown[]).length, 5);
      const history = JSON.parse(await readFile(saved, "utf8")) as { format: string; messages: Array<{ role: string }> };
      assert.equal(history.format, "mcpwire-history");
      assert.deepEqual(history.messages.map((message) => message.role), ["user", "assistant", "tool", "assistant", "user", "assistant"]);
    } finally {
      await api.close();
    }
  });
});

describe("mcpwire run on a terminal", () => {
  test("a tool not annotated read-only is asked for (y/N); yes runs it", { skip: hasScript() ? false : "no util-linux script(1) here" }, async () => {
    const api = await startFakeModelApi("openai", [
      { toolCalls: [{ name: "mcp_everything_toggle-simulated-logging", arguments: {} }] },
      (request) => ({ text: `tool said: ${lastToolResult(request)}` }),
    ]);
    try {
      const config = await configFor("tty", api);
      const command = [process.execPath, ...runtimeArgs, "run", "-p", "toggle logging", "--model", "openai/any", "--config", config]
        .map(shellQuote).join(" ");
      const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: root, stdio: ["pipe", "pipe", "pipe"], env: childEnv() });
      let screen = "";
      let answered = false;
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.stdout!.on("data", (chunk: Uint8Array) => {
        screen += new TextDecoder().decode(chunk);
        if (!answered && /allow mcp_everything_toggle-simulated-logging \(not marked read-only\) \{\}\? \[y\/N\] $/.test(screen.replaceAll("\r", ""))) {
          answered = true;
          child.stdin!.write("y\r");
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(timer);
      child.stdin!.destroy();
      const text = screen.replaceAll("\r", "");
      assert.equal(code, 0, text);
      assert.ok(answered, text);
      assert.match(text, /← mcp_everything_toggle-simulated-logging/);
      assert.match(text, /tool said: .*logging/i);
    } finally {
      await api.close();
    }
  });
});

describe("the config keys of mcpwire run and chat", () => {
  const parse = (text: string, env: Record<string, string> = {}) => parseConfig(text, { file: "/cfg/mcpwire.yaml", displayName: "mcpwire.yaml", env });

  test("model, providers (with ${VAR}), system_prompt, max_steps, hooks and sampling.model load", () => {
    const config = parse(
      [
        "model: openai/gpt-4o",
        "providers:",
        '  openai: { base_url: "${BASE:-http://127.0.0.1:1234/v1}", api_key: "${KEY}", timeout: 90 }',
        "system_prompt: Be brief.",
        "max_steps: 7",
        "hooks:",
        '  PreToolUse: [{ matcher: "get-sum", command: "exit 2", timeout: 3 }]',
        "  Stop: [{ command: ./done.sh }]",
        "mcp_servers:",
        "  e: { command: node, sampling: { model: ollama/qwen3, max_tokens: 10 } }",
      ].join("\n"),
      { KEY: "sk-test" },
    );
    assert.deepEqual(config.warnings, []);
    assert.equal(config.model, "openai/gpt-4o");
    assert.deepEqual(config.providers, { openai: { baseUrl: "http://127.0.0.1:1234/v1", apiKey: "sk-test", timeoutMs: 90_000 } });
    assert.equal(config.systemPrompt, "Be brief.");
    assert.equal(config.maxSteps, 7);
    assert.deepEqual(config.hooks, {
      PreToolUse: [{ matcher: "get-sum", command: "exit 2", timeoutMs: 3000 }],
      Stop: [{ command: "./done.sh" }],
    });
    assert.equal(config.servers[0]!.samplingModel, "ollama/qwen3");
    assert.deepEqual(config.servers[0]!.sampling, { maxTokens: 10 });
  });

  test("unknown keys and an unset ${VAR} in api_key are positioned warnings (the latter for run / chat); bad values are positioned errors", () => {
    const config = parse([
      "providers:",
      '  openai: { api_key: "${NOPE}", base_ulr: x }',
      "hooks:",
      "  PreToolUs: []",
      "mcp_servers: {}",
    ].join("\n"));
    // The unset variable is said by run / chat only (config.hostProblems), which use providers.
    assert.deepEqual(config.hostProblems?.warnings.map((warning) => warning.message), [
      'mcpwire.yaml:2:22: "providers.openai.api_key": ${NOPE} is not set; set it in the environment, or give a default with ${NOPE:-default}; it is left unset',
    ]);
    assert.deepEqual(config.warnings.map((warning) => warning.message), [
      'mcpwire.yaml:2:33: unknown key "providers.openai.base_ulr" is ignored; did you mean "base_url"?',
      'mcpwire.yaml:4:3: unknown key "hooks.PreToolUs" is ignored; did you mean "PreToolUse"?',
    ]);
    assert.throws(
      () => parse('hooks:\n  Stop: [{ matcher: "(", command: x }]\nmcp_servers: {}'),
      /mcpwire.yaml:2:21: "hooks.Stop\[0\].matcher" is not a regular expression/,
    );
    assert.throws(
      () => parse("providers: { openai: { base_url: localhost:1234 } }\nmcp_servers: {}"),
      /"providers.openai.base_url" must be an http:\/\/ or https:\/\/ URL/,
    );
    assert.throws(() => parse("model: 42\nmcp_servers: {}"), /mcpwire.yaml:1:8: "model" must be a model string/);
  });
});
