// The config's two validators agree: the interpreting one (client/schema/json-schema-interpreter.ts) decides whether
// a config is valid, and ajv is compiled only for one it refuses (host/config/validate.ts). A
// config the first accepted but ajv would refuse would lose its messages, so the verdicts are
// compared on the example config and on configs generated from the schema's own keys, with
// values of every JSON type.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parse } from "yaml";
import { CONFIG_SCHEMA } from "../../src/host/config/schema.ts";
import { isValidConfig, validate } from "../../src/host/config/validate.ts";
import "../../src/host/config/parse.ts"; // validate() with ajv's findings set
import { schemaErrors } from "../../src/host/config/schema-errors.ts";

/** Every property name the schema spells out, at any depth. */
function schemaKeys(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) { for (const each of node) schemaKeys(each, into); }
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && typeof value === "object" && value !== null) { for (const name of Object.keys(value)) into.add(name); }
      schemaKeys(value, into);
    }
  }
  return into;
}

const KEYS = [...schemaKeys(CONFIG_SCHEMA), "not_a_key"];

const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("", 0, -1, 1.5, "stdio", "http", "auto", "modern", "info", "hold", "{tool}", "mcp_{server}_{tool}", "ollama/qwen3", "*"),
  fc.integer({ min: -3, max: 400 }),
  fc.double({ min: -2, max: 2, noNaN: true }),
  fc.boolean(),
  fc.constant(null),
);

/** Values shaped like configs: objects keyed by the schema's names, arrays, and leaves. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 4 }),
  ),
})).node;

/** A server that is valid as it stands, to which a change or two is made. */
const baseServer = fc.constantFrom<Record<string, unknown>>(
  { command: "node", args: ["server.js"] },
  { url: "http://127.0.0.1:3000/mcp" },
  { command: "npx", env: { A: "1" }, tools: { include: ["a*"] } },
);

/** A config: servers by name, each a valid one with up to two keys set to anything, plus a top-level key. */
const config = fc.record({
  mcp_servers: fc.dictionary(
    fc.constantFrom("a", "b"),
    fc.tuple(baseServer, fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 2 })).map(([base, change]) => ({ ...base, ...change })),
    { maxKeys: 2 },
  ),
  rest: fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 1 }),
}).map(({ mcp_servers, rest }) => ({ ...rest, mcp_servers }));

describe("the config's validators", () => {
  test("the example config is valid by both", () => {
    const example = parse(readFileSync(new URL("../../examples/mcpwire.yaml", import.meta.url), "utf8")) as unknown;
    assert.equal(isValidConfig(example), true);
    assert.deepEqual(schemaErrors(example), []);
  });

  test("a refused config gets ajv's findings", () => {
    const bad = { mcp_servers: { a: { command: 3, timeout: -1 } } };
    assert.equal(isValidConfig(bad), false);
    const findings = validate(bad);
    assert.ok(findings.some((finding) => finding.instancePath === "/mcp_servers/a/command"), JSON.stringify(findings));
  });

  test("a key holding a lone surrogate is valid by both, not thrown", () => {
    const config = { mcp_servers: { "\ud800": { command: "node" } } };
    assert.equal(isValidConfig(config), true);
    assert.deepEqual(validate(config), []);
  });

  test("agree on generated configs", () => {
    fc.assert(
      fc.property(config, (generated) => {
        const quick = isValidConfig(generated);
        const findings = schemaErrors(generated);
        assert.equal(quick, findings.length === 0, `${JSON.stringify(generated)}: ajv found ${JSON.stringify(findings.slice(0, 3))}`);
      }),
      { numRuns: 10_000 },
    );
  });

  test("agree on generated values of any shape", () => {
    fc.assert(fc.property(value, (generated) => isValidConfig(generated) === (schemaErrors(generated).length === 0)), { numRuns: 2000 });
  });
});
