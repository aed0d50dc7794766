// Names taken from files and servers that are also Object.prototype's keys (`__proto__`,
// `constructor`, `prototype`, `toString`): servers, tools, variables and headers by those names
// are ordinary ones, in a config, in the manager and in the registry (issue 24 item 8).

import assert from "node:assert/strict";
import { test } from "node:test";
import { toGeminiParameters } from "../../src/agent/providers/gemini-schema.ts";
import { jsonDocument } from "../../src/cli/output.ts";
import { applyDefaults } from "../../src/client/elicitation.ts";
import { serverExtensions } from "../../src/client/extension-negotiation.ts";
import { fulfilInputRequests, readInputRequired } from "../../src/client/input-requests.ts";
import type { CallToolResult } from "../../src/client/types.ts";
import type { ElicitationSchema, ServerCapabilities } from "../../src/client/types.ts";
import { boundedCopy } from "../../src/common/bounded.ts";
import { redactHeaders, Redactor } from "../../src/common/redact.ts";
import { interpolate, InterpolationError } from "../../src/host/config/interpolate.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { childEnvironment } from "../../src/host/env.ts";
import { redactedCopy } from "../../src/host/secrets.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const NAMES = ["__proto__", "constructor", "prototype", "toString"];

function textOf(result: unknown): string {
  const first = (result as CallToolResult).content[0] as { type: string; text: string };
  return first.text;
}

/** An object with own properties of these names and values (a literal would set `__proto__` as the prototype). */
function own(entries: [string, string][]): Record<string, string> {
  return Object.fromEntries(entries);
}

test("servers named __proto__, constructor, prototype and toString in a JSON config are ordinary servers, with such env and header names kept", () => {
  const text = JSON.stringify({
    mcpServers: {
      ...Object.fromEntries(NAMES.map((name) => [name, { command: "node", args: [name] }])),
      vars: { command: "node", env: own([["__proto__", "p"], ["constructor", "c"]]) },
      web: { url: "http://127.0.0.1:1/mcp", headers: own([["__proto__", "h"], ["toString", "t"]]) },
    },
  });
  const config = parseConfig(text, { file: "mcp.json", env: {} });
  assert.deepEqual(config.errors, []);
  assert.deepEqual(config.servers.map((server) => [server.name, server.enabled, server.args]), [
    ...NAMES.map((name) => [name, true, [name]]),
    ["vars", true, []],
    ["web", true, []],
  ]);
  const vars = config.servers.find((server) => server.name === "vars")!;
  assert.deepEqual(Object.entries(vars.env), [["__proto__", "p"], ["constructor", "c"]]);
  assert.equal(Object.getPrototypeOf(vars.env), Object.prototype);
  const web = config.servers.find((server) => server.name === "web")!;
  assert.deepEqual(Object.entries(web.headers), [["__proto__", "h"], ["toString", "t"]]);
});

test("the same in YAML", () => {
  const yaml = `mcp_servers:\n${NAMES.map((name) => `  ${name}:\n    command: node\n`).join("")}` +
    `  vars:\n    command: node\n    env:\n      __proto__: p\n      constructor: c\n`;
  const config = parseConfig(yaml, { file: "mcpwire.yaml", env: {} });
  assert.deepEqual(config.errors, []);
  assert.deepEqual(config.servers.map((server) => server.name), [...NAMES, "vars"]);
  assert.deepEqual(Object.entries(config.servers.at(-1)!.env), [["__proto__", "p"], ["constructor", "c"]]);
});

test("${constructor} and ${toString} are unset variables, not Object.prototype's functions", () => {
  assert.throws(() => interpolate("a ${constructor} b", {}), (error: unknown) => {
    assert.ok(error instanceof InterpolationError);
    assert.equal(error.code, "unset-variable");
    assert.deepEqual(error.variables, ["constructor"]);
    return true;
  });
  assert.equal(interpolate("${toString:-none}", {}), "none");
  assert.equal(interpolate("${constructor}", own([["constructor", "set"]])), "set");
});

test("a child environment keeps a variable named __proto__ as a variable", () => {
  const env = childEnvironment(own([["__proto__", "p"], ["constructor", "c"]]), { PATH: "/bin" }, { windows: false });
  assert.deepEqual(Object.entries(env), [["PATH", "/bin"], ["__proto__", "p"], ["constructor", "c"]]);
});

test("servers named __proto__ and constructor whose tools are named __proto__, constructor, prototype, toString register and dispatch", async () => {
  const servers = ["__proto__", "constructor"].map((name) => stdioServerConfig(name, [fixturePath("names-server.mjs")]));
  const manager = new McpManager(configOf(...servers), { connectRetries: 0, probeIntervalMs: 600_000 });
  try {
    await hangGuard(manager.start(), 20_000, "start()");
    assert.deepEqual(manager.status().map((status) => [status.name, status.state]), [["__proto__", "ready"], ["constructor", "ready"]]);
    for (const server of ["__proto__", "constructor"]) {
      assert.ok(manager.client(server) !== undefined, `client of "${server}"`);
      for (const tool of [...NAMES, "hasOwnProperty"]) {
        const name = `mcp_${server}_${tool}`;
        assert.ok(manager.registry.has(name), `${name} registered`);
        assert.equal(textOf(await manager.registry.call(name, {})), `called ${tool}`);
        assert.deepEqual(JSON.parse(await manager.registry.dispatch(name, {})), { result: `called ${tool}` });
      }
    }
    assert.ok(!manager.registry.has("mcp_constructor_valueOf"), "an inherited name is no tool");
    assert.match(await manager.registry.dispatch("mcp_constructor_valueOf", {}), /"error"/);
  } finally {
    await manager.close();
  }
});

test("a server's input requests keyed __proto__ and constructor are each asked and answered under their keys", async () => {
  const result = JSON.parse(
    `{"resultType": "input_required", "inputRequests": {"__proto__": {"method": "roots/list"}, "constructor": {"method": "roots/list"}}}`,
  );
  const { inputRequests } = readInputRequired('server "s": tools/call', result);
  assert.deepEqual(Object.keys(inputRequests!), ["__proto__", "constructor"]);
  const responses = await fulfilInputRequests(inputRequests!, async (_request, key) => ({ roots: [{ uri: `file:///${key}` }] }));
  assert.deepEqual(Object.entries(responses).map(([key, value]) => [key, (value.roots as { uri: string }[])[0]!.uri]), [
    ["__proto__", "file:///__proto__"],
    ["constructor", "file:///constructor"],
  ]);
});

test("copies of server data (bounded, redacted) and redacted headers keep a __proto__ key as a key", () => {
  const data = JSON.parse(`{"__proto__": {"polluted": true}, "constructor": "c"}`);
  for (const copy of [boundedCopy(data), redactedCopy(data, new Redactor())]) {
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.equal((copy as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.keys(copy), ["__proto__", "constructor"]);
  }
  const headers = redactHeaders(own([["__proto__", "x"], ["authorization", "Bearer abc"]]));
  assert.deepEqual(Object.entries(headers), [["__proto__", "x"], ["authorization", "Bearer [redacted]"]]);
});

test("elicitation defaults fill fields named __proto__ and constructor", () => {
  const schema = JSON.parse(
    `{"type": "object", "properties": {"__proto__": {"type": "string", "default": "p"}, "constructor": {"type": "string", "default": "c"}}}`,
  ) as ElicitationSchema;
  assert.deepEqual(Object.entries(applyDefaults(schema, {})), [["__proto__", "p"], ["constructor", "c"]]);
});

test("a server's extension named __proto__ is an extension id, not the table's prototype", () => {
  const capabilities = JSON.parse(`{"extensions": {"__proto__": {"x": 1}, "io.example/y": {}}}`) as ServerCapabilities;
  const extensions = serverExtensions(capabilities);
  assert.deepEqual(Object.keys(extensions), ["__proto__", "io.example/y"]);
  assert.equal(Object.getPrototypeOf(extensions), Object.prototype);
});

test("Gemini parameters named __proto__ and constructor are kept, also through allOf", () => {
  const tool = JSON.parse(`{"type": "object", "properties": {"__proto__": {"type": "string"}, "constructor": {"type": "number"}}, "required": ["__proto__"]}`);
  const gemini = toGeminiParameters(tool)!;
  assert.deepEqual(Object.keys(gemini.properties ?? {}), ["__proto__", "constructor"]);
  assert.deepEqual(gemini.required, ["__proto__"]);
  const merged = toGeminiParameters(JSON.parse(`{"allOf": [{"type": "object", "properties": {"constructor": {"type": "string"}}}]}`))!;
  assert.deepEqual(Object.keys(merged.properties ?? {}), ["constructor"]);
});

test("--json output keeps a __proto__ member of a result", () => {
  assert.deepEqual(JSON.parse(jsonDocument(JSON.parse(`{"__proto__": {"a": 1}, "b": 2}`))), JSON.parse(`{"__proto__": {"a": 1}, "b": 2}`));
});
