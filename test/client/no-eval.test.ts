// Schema checks where code generation is refused (a page whose Content-Security-Policy lacks
// 'unsafe-eval', Cloudflare Workers): the interpreting validator is the default there and
// checks outputSchemas and elicitation answers as ajv does; naming it loads no ajv at all. Each
// case is a fresh process of this runtime (test/fixtures/no-eval-client.ts), so that `Function`
// can be replaced before mcpwire is imported and the module cache shows what was loaded.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { fixturePath } from "../support/fixture-process.ts";

type Report = {
  validator: string;
  matched: unknown;
  mismatch?: { code: string; message: string };
  elicitation?: string;
  problems: string[];
  ajvModules: number;
};

type Mode = "refuse-eval" | "interpreting" | "default" | "manager";

/** What `command args` printed (one JSON line). */
function report(args: string[], what: string): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null) return reject(new Error(`${what} failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as Report);
    });
  });
}

/**
 * What no-eval-client.ts printed in `mode`, run by this runtime (TypeScript through tsx under
 * Node); with `refuseCodeGeneration`, V8 itself refuses `new Function` and `eval`
 * (--disallow-code-generation-from-strings: the setting Cloudflare's workerd runs V8 with).
 */
function run(mode: Mode, refuseCodeGeneration = false): Promise<Report> {
  const script = fixturePath("no-eval-client.ts");
  const v8 = refuseCodeGeneration
    ? ["Deno" in globalThis ? "--v8-flags=--disallow-code-generation-from-strings" : "--disallow-code-generation-from-strings"]
    : [];
  const args = "Deno" in globalThis
    ? ["run", ...v8, "-A", "--config", fileURLToPath(new URL("../../deno.json", import.meta.url)), script, mode]
    : [...v8, "--import", import.meta.resolve("tsx"), script, mode];
  return report(args, `no-eval-client.ts ${mode}`);
}

const MISMATCH = /^server "in-process": tool "weather" returned structuredContent that does not match its outputSchema: /;

describe("schema checks without code generation", () => {
  test("with Function and eval replaced by ones that throw (as under a CSP without 'unsafe-eval'), the default is the interpreting validator; results and answers are still checked, and ajv is never loaded", async () => {
    const report = await run("refuse-eval");
    assert.equal(report.validator, "interpreting");
    assert.deepEqual(report.matched, { temperature: 21.5, conditions: "sunny" });
    assert.equal(report.mismatch?.code, "output-mismatch");
    assert.match(report.mismatch?.message ?? "", MISMATCH);
    assert.match(report.mismatch?.message ?? "", /\/temperature must be number/);
    assert.match(report.mismatch?.message ?? "", /must have required property 'conditions'/);
    assert.match(report.mismatch?.message ?? "", /must NOT have additional properties \(wind\)/);
    assert.match(report.elicitation ?? "", /the client's answer does not match the requestedSchema \("email" must match format "email"\); it was not sent/);
    assert.equal(report.ajvModules, 0);
  });

  test("with V8 refusing code generation (as in workerd), the default is the interpreting validator and checks; ajv is never loaded", async () => {
    const report = await run("default", true);
    assert.equal(report.validator, "interpreting");
    assert.deepEqual(report.matched, { temperature: 21.5, conditions: "sunny" });
    assert.equal(report.mismatch?.code, "output-mismatch");
    assert.match(report.mismatch?.message ?? "", /\/temperature must be number/);
    assert.match(report.elicitation ?? "", /"email" must match format "email"/);
    assert.equal(report.ajvModules, 0);
  });

  test('jsonSchema: "interpreting" where code generation works: the same checks, and ajv is never loaded', async () => {
    const report = await run("interpreting");
    assert.equal(report.validator, "ajv", "the runtime's default is still ajv");
    assert.match(report.mismatch?.message ?? "", MISMATCH);
    assert.match(report.elicitation ?? "", /"email" must match format "email"/);
    assert.equal(report.ajvModules, 0);
  });

  test("McpManager's jsonSchema reaches every server's client: a stdio server's result is checked, and ajv is never loaded", async () => {
    const report = await run("manager");
    assert.equal(report.mismatch?.code, "output-mismatch");
    assert.match(
      report.mismatch?.message ?? "",
      /^server "sc": tool "typed-array" returned structuredContent that does not match its outputSchema: \(root\) must be object/,
    );
    assert.equal(report.ajvModules, 0);
  });

  test("a bundle that leaves ajv out (its imports external, resolving nowhere) still loads; unnamed, the validator falls back to the interpreting one", async () => {
    const directory = await mkdtemp(join(tmpdir(), "mcpwire-no-ajv-"));
    try {
      // ajv left out, as a web bundle would: its imports point at a package that exists nowhere
      // (a plain --external:ajv could still find ajv in a node_modules above the temp directory).
      const bundle = join(directory, "no-eval-client.mjs");
      await build({
        entryPoints: [fixturePath("no-eval-client.ts")],
        bundle: true,
        format: "esm",
        platform: "node",
        outfile: bundle,
        logLevel: "silent",
        plugins: [{
          name: "leave-out-ajv",
          setup: (esbuild) => esbuild.onResolve({ filter: /^ajv(\/|$)/ }, () => ({ path: "mcpwire-test-no-such-package", external: true })),
        }],
      });
      const result = await report("Deno" in globalThis ? ["run", "-A", bundle, "default"] : [bundle, "default"], "the bundle without ajv");
      assert.equal(result.validator, "interpreting");
      assert.equal(result.mismatch?.code, "output-mismatch");
      assert.match(result.mismatch?.message ?? "", /\/temperature must be number/);
      assert.match(result.elicitation ?? "", /"email" must match format "email"/);
      assert.equal(result.ajvModules, 0);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  test("by default where code generation works, ajv checks (and the module cache shows it loaded: the probe above can see it)", async () => {
    const report = await run("default");
    assert.equal(report.validator, "ajv");
    assert.match(report.mismatch?.message ?? "", MISMATCH);
    assert.ok(report.ajvModules > 0);
  });
});
