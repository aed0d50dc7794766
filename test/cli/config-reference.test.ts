// mcpwire config schema (the config's JSON Schema, providers and the other host keys complete)
// and mcpwire help config (every key, its type, default and an example, from that schema).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { SCHEMA_FILE, schemaText } from "../../scripts/config-schema.ts";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../../src/agent/providers/http.ts";
import { PROVIDER_NAMES } from "../../src/agent/providers/model-string.ts";
import { CONFIG_SCHEMA, HOOK_KEYS, HOST_KEYS, PROVIDER_KEYS, SCHEMA_PROVIDER_NAMES, SERVER_KEYS, TOOL_SEARCH_KEYS } from "../../src/host/config/schema.ts";
import { mcpwire, root } from "../support/cli-runner.ts";

describe("mcpwire config schema / help config", () => {
  test("schema/mcpwire.schema.json is what config schema prints (npm run schema), and the example config names it for editors", async () => {
    assert.equal(readFileSync(SCHEMA_FILE, "utf8"), schemaText(), "schema/mcpwire.schema.json is out of date: run npm run schema");
    const outcome = await mcpwire(["config", "schema"]);
    assert.equal(outcome.stdout, schemaText());
    const first = readFileSync(join(root, "examples/mcpwire.yaml"), "utf8").split("\n")[0];
    assert.equal(first, "# yaml-language-server: $schema=../schema/mcpwire.schema.json");
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] };
    assert.ok(pkg.files.includes("schema/"), "the npm package holds the schema");
  });

  test("config schema prints a JSON Schema that accepts the example config and checks providers", async () => {
    const outcome = await mcpwire(["config", "schema"]);
    assert.equal(outcome.code, 0, outcome.stderr);
    const schema = JSON.parse(outcome.stdout);
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    const provider = schema.properties.providers.additionalProperties;
    assert.deepEqual(Object.keys(provider.properties), [...PROVIDER_KEYS]);
    assert.deepEqual(schema.properties.providers.propertyNames.enum, [...PROVIDER_NAMES]);
    for (const key of HOST_KEYS) assert.notDeepEqual(schema.properties[key], {}, key);
    const validate = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(schema);
    const example = parse(readFileSync(join(root, "examples/mcpwire.yaml"), "utf8"));
    assert.equal(validate(example), true, JSON.stringify(validate.errors));
    const good = {
      mcp_servers: { a: { command: "node" } },
      model: "openai/gpt-4o",
      providers: { openai: { base_url: "http://127.0.0.1:1234/v1", api_key: "${KEY}", timeout: 30 } },
      hooks: { PreToolUse: [{ matcher: "^mcp_", command: "true", timeout: 5 }] },
      tool_search: { mode: "auto", max_tools: 10 },
    };
    assert.equal(validate(good), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...good, providers: { openai: { base_uri: "x" } } }), false);
    assert.equal(validate({ ...good, providers: { mistral: {} } }), false);
    assert.equal(validate({ ...good, hooks: { PreToolUse: [{ matcher: "x" }] } }), false);
    // Claude Code's nested form is accepted beside ours.
    const nested = { matcher: "Bash", hooks: [{ type: "command", command: "./check.sh", timeout: 5 }] };
    assert.equal(validate({ ...good, hooks: { PreToolUse: [nested] } }), true, JSON.stringify(validate.errors));
  });

  test("the schema's provider names and timeout are the providers' own", () => {
    assert.deepEqual([...SCHEMA_PROVIDER_NAMES], [...PROVIDER_NAMES]);
    const providers = CONFIG_SCHEMA.properties.providers.additionalProperties;
    assert.equal(providers.properties.timeout.default, DEFAULT_PROVIDER_TIMEOUT_MS / 1000);
  });

  test("help config prints every key with its type, and defaults and examples", async () => {
    const outcome = await mcpwire(["help", "config"]);
    assert.equal(outcome.code, 0, outcome.stderr);
    const text = outcome.stdout;
    for (const key of SERVER_KEYS) assert.match(text, new RegExp(`^  ${key}: `, "m"), key);
    for (const key of HOST_KEYS) assert.match(text, new RegExp(`^  ${key}: `, "m"), key);
    for (const key of PROVIDER_KEYS) assert.match(text, new RegExp(`providers\\.NAME\\.${key}: `), key);
    for (const key of HOOK_KEYS) assert.match(text, new RegExp(`hooks\\.NAME\\[\\]\\.${key}: `), key);
    for (const key of TOOL_SEARCH_KEYS) assert.match(text, new RegExp(`tool_search\\.${key}: `), key);
    assert.match(text, /providers\.NAME\.timeout: number > 0\n.*\n\s+default: 300\n\s+example: providers\.NAME\.timeout: 600/);
    assert.match(text, /max_steps: whole number ≥ 1\n.*\n\s+default: 20/);
    assert.match(text, /example: command: "npx"/);
    assert.doesNotMatch(text, /redacted/);
  });

  test("config without schema is a usage error", async () => {
    for (const args of [["config"], ["config", "show"]]) {
      const outcome = await mcpwire(args);
      assert.equal(outcome.code, 2);
      assert.match(outcome.stderr, /mcpwire config schema/);
    }
  });
});
