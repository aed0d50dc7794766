// A config key that is valid but unused by the verb run is not an error (issue 27, "The config
// documented where people look"): a config with every top-level key of host/config/schema.ts
// (providers, model, hooks in both forms, results, tool_search, …) and every server key
// (sampling, roots, results, extensions, tasks, an http server's auth, …) loads without a
// warning or an error under each family of verbs that do not use most of them. The servers are
// test/fixtures/subscriptions-server.mjs (2026-07-28), run as child processes.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { CONFIG_SCHEMA, SERVER_KEYS } from "../../src/host/config/schema.ts";
import { mcpwire, type Outcome, scratchDir } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const SERVER = fixturePath("subscriptions-server.mjs");
const scratch = scratchDir("mcpwire-config-keys-");
const home = join(scratch.path, "home");
const project = join(scratch.path, "project");
mkdirSync(home, { recursive: true });
mkdirSync(project, { recursive: true });
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), CODEX_HOME: undefined, OPENAI_API_KEY: undefined };

/** Every top-level key, and every server key between the two servers (one stdio, one http left disabled). */
const FULL = `$schema: ../schema/mcpwire.schema.json
model: ollama/qwen3
providers:
  openai:
    base_url: http://127.0.0.1:9/v1
    api_key: \${OPENAI_API_KEY:-none}
    timeout: 60
  ollama:
    base_url: http://127.0.0.1:9
system_prompt: You are terse.
max_steps: 5
hooks:
  PreToolUse:
    - matcher: "^mcp_"
      command: "true"
      timeout: 5
  PostToolUse:
    - matcher: ".*"
      hooks:
        - type: command
          command: "true"
  UserPromptSubmit:
    - command: "true"
  Stop:
    - command: "true"
tool_search:
  mode: auto
  max_tools: 60
tool_definitions:
  max_description_bytes: 4096
results:
  directory: results
  max_files: 50
  max_age_days: 3
extensions:
  apps: false
imports: []
pinning: warn
telemetry:
  enabled: false
  capture_arguments: true
  capture_results: false
mcp_servers:
  subs:
    command: node
    args: [${JSON.stringify(SERVER)}]
    env:
      MODE: test
    cwd: .
    tools:
      include: [echo]
    timeout: 30
    connect_timeout: 20
    naming: "mcp_{server}_{tool}"
    log_level: warning
    roots: [.]
    sampling:
      model: ollama/qwen3
      max_tokens: 100
      requests_per_minute: 5
      models: [qwen3]
      timeout: 30
      tools: false
    protocol: auto
    results:
      enabled: true
      directory: subs-results
    extensions:
      skills: false
    tasks: auto
    pinning: hold
    sandbox: false
    enabled: true
  remote:
    url: http://127.0.0.1:9/mcp
    type: http
    headers:
      X-Team: blue
    auth:
      client_id: abc
      redirect_port: 8765
    enabled: false
`;
const config = join(project, "full.yaml");
writeFileSync(config, FULL);

function run(args: string[], cwd = project): Promise<Outcome> {
  return mcpwire(args, { env, cwd });
}

/** No line of the config's warnings (`warning: …`) or errors (`error: …`, `mcpwire: …`). */
function assertQuiet(outcome: Outcome, what: string): void {
  assert.equal(outcome.code, 0, `${what}: ${outcome.stderr}`);
  assert.doesNotMatch(outcome.stderr, /^(warning|error|mcpwire):/m, `${what}: ${outcome.stderr}`);
}

describe("a config with every key loads quietly under the verbs that do not use them", () => {
  test("the config used holds every top-level key and every server key of the schema", () => {
    const topLevel = Object.keys(CONFIG_SCHEMA.properties).filter((key) => key !== "mcpServers");
    for (const key of topLevel) assert.match(FULL, new RegExp(`^${key.replace("$", "\\$")}:`, "m"), key);
    for (const key of SERVER_KEYS.filter((key) => key !== "transport")) assert.match(FULL, new RegExp(`^    ${key}:`, "m"), key);
  });

  test("servers and tools", async () => {
    const servers = await run(["servers", "--config", config]);
    assertQuiet(servers, "servers");
    assert.match(servers.stdout, /subs/);
    const tools = await run(["tools", "--config", config]);
    assertQuiet(tools, "tools");
    assert.match(tools.stdout, /^mcp_subs_echo\s/m);
  });

  test("call", async () => {
    const outcome = await run(["call", "mcp_subs_echo", "message=hi", "--config", config]);
    assertQuiet(outcome, "call");
    assert.match(outcome.stdout, /echo: hi/);
  });

  test("resources, read and watch", async () => {
    const resources = await run(["resources", "--config", config]);
    assertQuiet(resources, "resources");
    assert.match(resources.stdout, /note:\/\/a/);
    const read = await run(["read", "subs", "note://a", "--config", config]);
    assertQuiet(read, "read");
    assert.equal(read.stdout, "text of note://a\n");
    const watch = await run(["watch", "subs", "note://a", "--count", "1", "--config", config]);
    assertQuiet(watch, "watch");
    assert.match(watch.stdout, /updated note:\/\/a$/m);
  });

  test("prompts, prompt and complete", async () => {
    const prompts = await run(["prompts", "--config", config]);
    assertQuiet(prompts, "prompts");
    const prompt = await run(["prompt", "subs", "greet", "who=you", "--config", config]);
    assertQuiet(prompt, "prompt");
    assert.match(prompt.stdout, /Hello, you!/);
    const complete = await run(["complete", "subs", "--prompt", "greet", "who=w", "--config", config]);
    assertQuiet(complete, "complete");
    assert.equal(complete.stdout, "world\n");
  });

  test("inspect, in a directory whose mcpwire.yaml has every key (inspect reads no config)", async () => {
    const dir = join(scratch.path, "inspect");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "mcpwire.yaml"), FULL);
    const outcome = await run(["inspect", "--stdio", `node ${SERVER}`], dir);
    assertQuiet(outcome, "inspect");
    assert.match(outcome.stdout, /echo/);
  });

  test("export: only the fields the app cannot hold are named, no config warning", async () => {
    const outcome = await run(["export", "--to", "claude-code", "--config", config]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.doesNotMatch(outcome.stderr, /^(warning|error|mcpwire):/m, outcome.stderr);
    for (const line of outcome.stderr.trimEnd().split("\n")) assert.match(line, /^mcpwire export: warning: server "(subs|remote)": /);
    assert.deepEqual(Object.keys(JSON.parse(outcome.stdout).mcpServers), ["subs"]);
  });

  test("an unset ${VAR} in providers or results.directory is nothing to call; run still stops on it", async () => {
    const unset = join(project, "unset.yaml");
    writeFileSync(
      unset,
      FULL.replace("${OPENAI_API_KEY:-none}", "${OPENAI_API_KEY}").replace("directory: results", "directory: ${MCPWIRE_TEST_RESULTS_DIR}"),
    );
    const call = await run(["call", "mcp_subs_echo", "message=hi", "--config", unset]);
    assertQuiet(call, "call");
    assert.match(call.stdout, /echo: hi/);
    const ran = await run(["run", "-p", "hi", "--config", unset]);
    assert.equal(ran.code, 2, ran.stderr);
    assert.match(ran.stderr, /unset\.yaml:\d+:\d+: "results\.directory": \$\{MCPWIRE_TEST_RESULTS_DIR\} is not set/);
  });
});
