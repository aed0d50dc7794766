// What a model is offered of a huge tool (issue 24, item 15): a real stdio server whose
// `query_warehouse` definition is about 880 KB (test/fixtures/huge-tool-server.mjs) and a scripted
// model that records every request. The model gets the description cut at 2 KB (at a character
// boundary, marked) and the schema reduced to fit 16 KB, in the plain offer and once tool search
// found it, with one warning per tool; the config's `tool_definitions:` changes the caps; the
// registry keeps the definition whole, and the tool stays callable.

import assert from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import type { ChatRequest } from "../../src/agent/providers/types.ts";
import { Runner, type RunnerEvent } from "../../src/agent/runner.ts";
import { ToolDefinitionCap } from "../../src/agent/tool-definition-cap.ts";
import { TOOL_SEARCH_NAME } from "../../src/agent/tool-search.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError, type McpwireConfig } from "../../src/host/config/types.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import type { LlmToolSchema } from "../../src/registry/types.ts";
import { mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const HUGE = fixturePath("huge-tool-server.mjs");
const TOOL = "mcp_huge_query_warehouse";
const encoder = new TextEncoder();

function bytes(text: string): number {
  return encoder.encode(text).length;
}

function offered(request: ChatRequest, name: string = TOOL): LlmToolSchema {
  const tool = request.tools.find((entry) => entry.name === name);
  assert.ok(tool, `${name} not offered: ${request.tools.map((entry) => entry.name).join(", ")}`);
  return tool;
}

function warningsOf(events: RunnerEvent[]): string[] {
  return events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
}

/** The head of the description as offered: before the marker, without the schema note. */
function headOf(description: string): string {
  return description.slice(0, description.indexOf(" … [description cut at"));
}

function yaml(text: string): McpwireConfig {
  return parseConfig(`mcp_servers: {a: {command: x}}\n${text}\n`, { file: "/etc/mcpwire/mcpwire.yaml", displayName: "mcpwire.yaml", env: {} });
}

describe("a server with an 880 KB tool definition", () => {
  let manager: McpManager;
  before(async () => {
    manager = new McpManager(configOf(stdioServerConfig("huge", [HUGE])));
    await hangGuard(manager.start(), 20_000, "manager.start()");
  });
  after(() => manager.close());

  test("the plain offer: description cut at 2 KB, schema reduced to names and types, one warning; the tool is still called", async () => {
    const events: RunnerEvent[] = [];
    const provider = new ScriptedProvider([
      callTools({ name: TOOL, arguments: { sql: "SELECT 1", database: "sales", filter_007: { op: "eq", value: 3 } } }),
      answer((request) => toolResults(request).at(-1)!),
    ]);
    const runner = new Runner({ provider, registry: manager.registry, onEvent: (event) => events.push(event) });
    const text = await hangGuard(runner.run("count the orders"), 20_000, "run()");
    assert.equal(text, '{"result":"ran \\"SELECT 1\\" in sales"}');

    for (const request of provider.requests) {
      const tool = offered(request);
      // The description: its head within 2 KB with the marker, cut between characters; then the schema note.
      assert.ok(tool.description.startsWith("QUERY-HEAD Runs a read-only SQL query"));
      assert.ok(!tool.description.includes("QUERY-TAIL"));
      assert.match(tool.description, / … \[description cut at 2 KB by mcpwire; the whole is 547\.6 KB\]\n/);
      assert.ok(bytes(tool.description.slice(0, tool.description.indexOf("]\n") + 1)) <= 2048, "head and marker within 2 KB");
      assert.ok(!headOf(tool.description).includes("\uFFFD") && !/[\uD800-\uDBFF]$/.test(headOf(tool.description)), "no character split");
      assert.match(
        tool.description,
        /\[input schema reduced by mcpwire to fit 16 KB: only the parameter names, their types and which are required are shown; the arguments are still checked against the full schema/,
      );
      // The schema: every parameter by name and type, nested structure and annotations gone, within 16 KB.
      const schema = tool.parameters as { type: string; properties: Record<string, unknown>; required: string[] };
      assert.ok(bytes(JSON.stringify(schema)) <= 16_384, `schema of ${bytes(JSON.stringify(schema))} bytes`);
      assert.equal(schema.type, "object");
      assert.deepEqual(schema.required, ["sql", "database"]);
      assert.equal(Object.keys(schema.properties).length, 305);
      assert.deepEqual(schema.properties.filter_007, { type: "object" });
      assert.deepEqual(schema.properties.tags, { type: "array", items: { type: "string" } });
      assert.ok(Object.hasOwn(schema.properties, "description") && Object.hasOwn(schema.properties, "__proto__"), "names, not keywords");
      assert.ok(bytes(JSON.stringify(request.tools)) < 20_000, `the whole offer is ${bytes(JSON.stringify(request.tools))} bytes`);
      // A small tool is offered as it is.
      assert.deepEqual(offered(request, "mcp_huge_ping"), {
        name: "mcp_huge_ping",
        description: "Answers pong.",
        parameters: { type: "object", properties: {} },
      });
    }
    const warnings = warningsOf(events);
    assert.equal(warnings.length, 1, "once per tool, not per request");
    assert.match(
      warnings[0]!,
      /^server "huge", tool "query_warehouse": the model is offered its description of 547\.6 KB cut to 2 KB and its input schema of 315\.1 KB reduced to [\d.]+ KB \(only the parameter names, their types and which are required are shown\); raise tool_definitions\.max_description_bytes \/ max_schema_bytes/,
    );
    // The registry keeps the definition whole.
    const whole = manager.registry.list().find((tool) => tool.name === TOOL)!;
    assert.ok(whole.description.endsWith("QUERY-TAIL") && bytes(whole.description) > 500_000);
    assert.ok(bytes(JSON.stringify(whole.parameters)) > 300_000);
  });

  test("arguments are still checked against the full schema: a mismatch is explained to the model", async () => {
    const provider = new ScriptedProvider([
      callTools({ name: TOOL, arguments: { sql: "SELECT 1", database: "sales", filter_001: { op: "between", value: 1 } } }),
      answer("ok"),
    ]);
    const runner = new Runner({ provider, registry: manager.registry });
    await hangGuard(runner.run("go"), 20_000, "run()");
    assert.match(
      toolResults(provider.requests[1]!).at(-1)!,
      /the arguments do not match its inputSchema: .*filter_001\/op.*must be equal to one of the allowed values/,
    );
  });

  test("tool search: the search answer is short, the tool found is offered capped, and the warning comes with the search", async () => {
    const events: RunnerEvent[] = [];
    const provider = new ScriptedProvider([
      callTools({ name: TOOL_SEARCH_NAME, arguments: { query: "warehouse query" } }),
      answer("found"),
    ]);
    const runner = new Runner({ provider, registry: manager.registry, toolSearch: { mode: "always" }, onEvent: (event) => events.push(event) });
    await hangGuard(runner.run("find the warehouse tool"), 20_000, "run()");
    const [first, second] = provider.requests;
    assert.deepEqual(first!.tools.map((tool) => tool.name), [TOOL_SEARCH_NAME], "nothing offered before the search");
    const found = toolResults(second!).at(-1)!;
    assert.ok(bytes(found) < 1_000, `the search answer is ${bytes(found)} bytes`);
    assert.match(found, /- mcp_huge_query_warehouse \(server huge\): QUERY-HEAD Runs a read-only SQL query.*…/);
    assert.match(found, /\[parameters: sql, database, description, __proto__, tags, filter_000, .*filter_014, … \(305 in all\)\]/);
    const tool = offered(second!);
    assert.ok(bytes(tool.description) < 2_400 && bytes(JSON.stringify(tool.parameters)) <= 16_384);
    const warnings = warningsOf(events);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^server "huge", tool "query_warehouse": the model is offered its description of 547\.6 KB cut to 2 KB/);
    assert.equal(events.findIndex((event) => event.type === "warning") < events.findIndex((event) => event.type === "request" && event.step === 2), true);
  });

  test("tool_definitions in the config changes the caps; false offers the whole definition", async () => {
    const config = yaml("tool_definitions:\n  max_description_bytes: 512\n  max_schema_bytes: 2048");
    assert.deepEqual(config.toolDefinitions, { maxDescriptionBytes: 512, maxSchemaBytes: 2048 });
    const events: RunnerEvent[] = [];
    const provider = new ScriptedProvider([answer("ok")]);
    const runner = new Runner({ provider, registry: manager.registry, toolDefinitions: config.toolDefinitions!, onEvent: (event) => events.push(event) });
    await hangGuard(runner.run("hi"), 20_000, "run()");
    const tool = offered(provider.requests[0]!);
    assert.match(tool.description, / … \[description cut at 512 bytes by mcpwire; the whole is 547\.6 KB\]\n/);
    assert.ok(bytes(tool.description.slice(0, tool.description.indexOf("]\n") + 1)) <= 512);
    // 305 names do not fit 2 KB: only the required ones, with their types.
    assert.deepEqual(tool.parameters, { type: "object", properties: { sql: { type: "string" }, database: { type: "string" } }, required: ["sql", "database"] });
    assert.match(tool.description, /\[input schema reduced by mcpwire to fit 2 KB: only the required parameters and their types are shown;/);
    assert.match(warningsOf(events)[0]!, /description of 547\.6 KB cut to 512 bytes and its input schema of 315\.1 KB reduced to \d+ bytes/);

    const whole = new ScriptedProvider([answer("ok")]);
    const uncapped: Runner = new Runner({
      provider: whole,
      registry: manager.registry,
      toolDefinitions: yaml("tool_definitions: false").toolDefinitions!,
      toolSearch: false,
    });
    await hangGuard(uncapped.run("hi"), 20_000, "run()");
    assert.ok(offered(whole.requests[0]!).description.endsWith("QUERY-TAIL"));
  });
});

describe("ToolDefinitionCap", () => {
  test("a description of two-byte and four-byte characters is cut between characters, within the cap", () => {
    const cap = new ToolDefinitionCap({ maxDescriptionBytes: 300 });
    for (const unit of ["é", "🚀", "aé🚀"]) {
      const description = unit.repeat(1000);
      const { description: cut } = cap.apply({ name: `t${unit.length}${unit}`, description, parameters: { type: "object" } });
      assert.ok(bytes(cut) <= 300, `${bytes(cut)} bytes`);
      const head = headOf(cut);
      assert.ok(description.startsWith(head) && head.length > 0);
      assert.ok(!/[\uD800-\uDBFF]$/.test(head), "no lone high surrogate at the cut");
    }
  });

  test("within the caps a tool is offered as it is (the same object); a changed definition is cut again", () => {
    const cap = new ToolDefinitionCap();
    const small = { name: "s", description: "small", parameters: { type: "object" } };
    assert.equal(cap.apply(small), small);
    const big = { name: "s", description: "x".repeat(5000), parameters: small.parameters };
    const first = cap.apply(big);
    assert.equal(cap.apply({ ...big }), first, "the same definition gives the same offered object");
    assert.equal(cap.warningOnce("s", 'tool "s"')?.startsWith('tool "s": the model is offered its description of 4.9 KB cut to 2 KB'), true);
    assert.equal(cap.warningOnce("s", 'tool "s"'), undefined, "once per tool");
  });

  test("annotations are left out at every depth when that is enough; a property named like a keyword stays", () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) {
      properties[`p${i}`] = { type: "object", description: "d".repeat(200), properties: { title: { type: "string", title: "T", examples: ["x"] } } };
    }
    const cap = new ToolDefinitionCap({ maxSchemaBytes: 4096 });
    const { parameters } = cap.apply({ name: "a", description: "", parameters: { type: "object", properties, description: "top" } });
    assert.deepEqual(parameters.properties && (parameters.properties as Record<string, unknown>).p3, {
      type: "object",
      properties: { title: { type: "string" } },
    });
    assert.equal(parameters.description, undefined);
    assert.equal(cap.cutOf("a")?.schema?.reduction, "annotations");
  });

  for (
    const [what, limits, message] of [
      ["a description cap under 256", { maxDescriptionBytes: 100 }, /maxDescriptionBytes must be a whole number of bytes, at least 256 \(got 100\)/],
      ["a fractional schema cap", { maxSchemaBytes: 1000.5 }, /maxSchemaBytes must be a whole number of bytes, at least 256/],
    ] as const
  ) {
    test(`new ToolDefinitionCap refuses ${what}`, () => {
      assert.throws(() => new ToolDefinitionCap(limits), message);
    });
  }
});

describe("tool_definitions in the config", () => {
  for (
    const [what, text, message] of [
      [
        "a number",
        "tool_definitions: 3",
        /mcpwire\.yaml:2:19: "tool_definitions" must be false or a mapping with max_description_bytes, max_schema_bytes; it is the number 3/,
      ],
      [
        "a small max_description_bytes",
        "tool_definitions: {max_description_bytes: 10}",
        /"tool_definitions\.max_description_bytes" must be a whole number of at least 256; it is the number 10/,
      ],
      [
        "a fractional max_schema_bytes",
        "tool_definitions: {max_schema_bytes: 1.5}",
        /"tool_definitions\.max_schema_bytes" must be a whole number of at least 256/,
      ],
    ] as const
  ) {
    test(`bad input: ${what} is a ConfigError at its key`, () => {
      assert.throws(() => yaml(text), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }

  test("an unknown key is a warning with a suggestion; absent: the Runner's defaults", () => {
    const config = yaml("tool_definitions: {max_description_byte: 1000}");
    assert.match(
      config.warnings.map((warning) => warning.message).join("\n"),
      /unknown key "tool_definitions\.max_description_byte" is ignored; did you mean "max_description_bytes"\?/,
    );
    assert.deepEqual(config.toolDefinitions, {});
    assert.equal(yaml("").toolDefinitions, undefined);
  });
});

describe("mcpwire run with the huge tool (a loopback fake OpenAI API)", () => {
  const scratch = scratchDir("mcpwire-tool-cap-cli-");
  let nowhere = "";
  before(async () => {
    nowhere = await refusedOrigin();
  });

  async function runWith(extra: string[]) {
    const api = await startFakeModelApi("openai", [
      { toolCalls: [{ name: "mcp_huge_query_warehouse", arguments: { sql: "SELECT 2", database: "ops" } }] },
      { text: "done" },
    ]);
    try {
      const config = await writeConfig(scratch.path, `case-${extra.length}.yaml`, [
        "providers:",
        "  openai:",
        `    base_url: ${JSON.stringify(api.url)}`,
        ...extra,
        "mcp_servers:",
        "  huge:",
        "    command: node",
        `    args: [${JSON.stringify(HUGE)}]`,
      ]);
      const env: Record<string, string | undefined> = { ...process.env, OLLAMA_HOST: nowhere, XDG_CACHE_HOME: join(scratch.path, "cache") };
      for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"]) delete env[name];
      const outcome = await mcpwire(["run", "-p", "query the warehouse", "--model", "openai/any", "--yes", "--config", config], { env });
      return { ...outcome, requests: api.requests };
    } finally {
      await api.close();
    }
  }

  const toolIn = (body: Record<string, unknown>) =>
    (body.tools as Array<{ function: { name: string; description: string; parameters: Record<string, unknown> } }>)
      .find((tool) => tool.function.name === TOOL)!.function;

  test("the request carries the capped definition; stderr has the warning once; tool_definitions changes the cap", async () => {
    const first = await runWith([]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.requests.length, 2);
    for (const request of first.requests) {
      const tool = toolIn(request.body);
      assert.match(tool.description, /^QUERY-HEAD .* … \[description cut at 2 KB by mcpwire; the whole is 547\.6 KB\]\n\[input schema reduced/s);
      assert.ok(bytes(JSON.stringify(request.body)) < 30_000, `a request of ${bytes(JSON.stringify(request.body))} bytes`);
    }
    assert.match(first.requests[1]!.toolResults.at(-1)!.content, /ran \\"SELECT 2\\" in ops/);
    const lines = first.stderr.split("\n").filter((line) => line.includes("the model is offered its description"));
    assert.equal(lines.length, 1, first.stderr);
    assert.match(lines[0]!, /^mcpwire: warning: server "huge", tool "query_warehouse": the model is offered its description of 547\.6 KB cut to 2 KB/);

    const second = await runWith(["tool_definitions:", "  max_description_bytes: 1024"]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(toolIn(second.requests[0]!.body).description, / … \[description cut at 1 KB by mcpwire; the whole is 547\.6 KB\]/);
  });
});
