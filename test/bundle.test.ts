// The npm package as a bundler and a browser-like runtime meet it (issues 28 and 38): built as
// `npm run build` builds it (scripts/bundle-sizes.ts buildPackage, in a scratch directory),
// bundled by esbuild for a browser, for Cloudflare Workers and for Node with no externals (what a
// user's bundler makes: the docs tell users to set none), and loaded by Node under the `browser`
// condition. The browser and Worker bundles hold no node: module, no runtime module but web.js
// and no ajv (#json-schema gives them the interpreting validator); the Node bundle holds ajv,
// the default there; no bundle holds an import() a bundler cannot follow; the bundles keep to
// their budgets; where a runtime cannot start a process or a blocking worker, stdio and the sync
// bridge say so with an UnsupportedRuntimeError.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { BUDGETS, buildPackage, bundle, bundleCases, type BundleFigures, MEASURED } from "../scripts/bundle-sizes.ts";
import { startPortFixture } from "./support/fixture-process.ts";

const scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-bundle-test-"));
const figures = new Map<string, BundleFigures>();

before(async () => {
  buildPackage(scratch);
  for (const entry of bundleCases()) {
    if (!MEASURED.includes(entry.name)) continue; // SDK v2's, and figures printed beside the others
    figures.set(entry.name, await bundle(entry, scratch));
  }
});

after(async () => {
  await esbuild.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** The figures of one bundle, with what is in it when a check fails. */
function figuresOf(name: string): BundleFigures {
  const found = figures.get(name);
  assert.ok(found, `no ${name} bundle was made`);
  return found;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const biggest = (figure: BundleFigures) => figure.biggest.map((input) => `${input.path} ${input.bytes}`).join(", ");

describe("bundles of the root entry", () => {
  for (const name of ["browser", "workerd"]) {
    test(`the ${name} bundle of Client + StreamableHttpTransport holds no node: module, and of our runtime modules web.js alone`, () => {
      const figure = figuresOf(name);
      assert.deepEqual(figure.nodeImports, [], `node: modules in the ${name} bundle`);
      assert.deepEqual(figure.runtimeModules, ["dist/runtime/web.js"]);
    });
  }

  test("the Node bundle of Client + StdioTransport takes node.js, not deno.js or web.js", () => {
    assert.deepEqual(figuresOf("node").runtimeModules, ["dist/runtime/node.js"]);
  });

  for (const name of ["browser", "node"]) {
    test(`the ${name} bundle takes the runtime's core alone: none of the files, listener, stdin or worker threads of the host and the CLI`, () => {
      assert.deepEqual(figuresOf(name).hostRuntimeMembers, []);
    });
  }

  // The budgets of issues 28 and 38, with no externals: met since tasks became code a Client is
  // given (use: [tasksExtension]) and the validators are chosen by package condition (#json-schema).
  for (const name of ["browser", "workerd"]) {
    const budget = BUDGETS[name]!;
    test(`the ${name} bundle is at most ${kb(budget)} gzipped`, () => {
      const figure = figuresOf(name);
      assert.ok(figure.gzip <= budget, `${name}: ${kb(figure.gzip)} gzipped (${kb(figure.raw)} raw) is over ${kb(budget)}; biggest: ${biggest(figure)}`);
    });
  }

  for (const name of ["browser", "workerd"]) {
    test(`the ${name} bundle holds no ajv: #json-schema gives it the interpreting validator`, () => {
      const figure = figuresOf(name);
      assert.equal(figure.ajv, false, `${name}: ajv in the bundle; biggest: ${biggest(figure)}`);
      assert.equal(figure.interpretingValidator, true);
    });
  }

  test("the Node bundle holds ajv, the default validator on Node", () => {
    assert.equal(figuresOf("node").ajv, true);
  });

  test("no bundle holds an import() whose specifier is not a literal (a bundler could not follow it)", () => {
    for (const name of MEASURED) assert.deepEqual(figuresOf(name).computedImports, [], name);
  });

  test("a Client bundle holds no telemetry code nor @opentelemetry/api unless mcpwire/telemetry is imported", async () => {
    for (const name of MEASURED) assert.equal(figuresOf(name).telemetry, false, `${name}: telemetry code in a bundle that never imports openTelemetry`);
    const withTelemetry = await bundle(bundleCases().find((entry) => entry.name === "browser-telemetry")!, scratch);
    assert.equal(withTelemetry.telemetry, true);
    assert.deepEqual(withTelemetry.computedImports, []);
  });

  test("a Client bundle holds no task code unless tasksExtension is imported", async () => {
    for (const name of ["browser", "workerd", "node"]) {
      assert.equal(figuresOf(name).tasks, false, `${name}: task code in a bundle that never imports tasksExtension`);
    }
    const withTasks = await bundle(bundleCases().find((entry) => entry.name === "browser-tasks")!, scratch);
    assert.equal(withTasks.tasks, true);
    assert.ok(withTasks.gzip > figuresOf("browser").gzip);
  });
});

/** Runs `script` (written into the scratch directory, beside node_modules/mcpwire) with Node under `conditions`; its last stdout line as JSON. */
function runScript(script: string, conditions: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const file = join(scratch, `check-${conditions.join("-") || "none"}.mjs`);
  writeFileSync(file, script);
  // Under Deno the test itself runs on deno: the package is loaded by Node from PATH either way.
  const node = "Deno" in globalThis ? "node" : process.execPath;
  const args = [...conditions.map((condition) => `--conditions=${condition}`), file];
  return new Promise((resolve, reject) => {
    execFile(node, args, { cwd: scratch, env: { PATH: process.env.PATH ?? "", ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null) return reject(new Error(`node ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
      const last = stdout.trim().split("\n").at(-1) ?? "";
      resolve(JSON.parse(last) as Record<string, unknown>);
    });
  });
}

const BIN = join(fileURLToPath(new URL("..", import.meta.url)), "node_modules", ".bin");

/** Runs `command args` in the scratch directory; its stdout, trimmed. */
function output(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: scratch, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? scratch }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout.trim());
      },
    );
  });
}

describe("#runtime resolved by each runtime, from the built package", () => {
  /** A module inside the package that prints the name of the runtime module #runtime gave it. */
  const probe = () => {
    const file = join(scratch, "node_modules", "mcpwire", "dist", "probe.mjs");
    writeFileSync(file, `import { runtime } from "./runtime/mod.js";\nconsole.log(runtime.name);\n`);
    return file;
  };
  const node = "Deno" in globalThis ? "node" : process.execPath;

  test("Node takes node.js; under the browser or workerd condition, web.js", async () => {
    assert.equal(await output(node, [probe()]), "node");
    assert.equal(await output(node, ["--conditions=browser", probe()]), "web");
    assert.equal(await output(node, ["--conditions=workerd", probe()]), "web");
  });

  test("Deno takes deno.js", async () => {
    writeFileSync(join(scratch, "deno.json"), `{ "nodeModulesDir": "manual" }\n`);
    assert.equal(await output(join(BIN, "deno"), ["run", "-A", probe()]), "deno");
  });

  test("Bun takes node.js", { skip: existsSync(join(BIN, "bun")) ? false : "bun is not installed (node_modules/.bin/bun)" }, async () => {
    assert.equal(await output(join(BIN, "bun"), [probe()]), "node");
  });
});

describe("#json-schema resolved by each runtime, from the built package", () => {
  /** A module inside the package that prints the validators #json-schema gave it: the preferred one, then all. */
  const probe = () => {
    const file = join(scratch, "node_modules", "mcpwire", "dist", "validators-probe.mjs");
    writeFileSync(
      file,
      `import { validatorTable } from "./client/schema/validators.js";\nconsole.log([validatorTable.preferred, ...Object.keys(validatorTable.load)].join(" "));\n`,
    );
    return file;
  };
  const node = "Deno" in globalThis ? "node" : process.execPath;

  test("Node takes ajv (and the interpreting validator); under the browser or workerd condition, the interpreting validator alone", async () => {
    assert.equal(await output(node, [probe()]), "ajv ajv interpreting");
    assert.equal(await output(node, ["--conditions=browser", probe()]), "interpreting interpreting");
    assert.equal(await output(node, ["--conditions=workerd", probe()]), "interpreting interpreting");
  });

  test("Deno takes ajv", async () => {
    writeFileSync(join(scratch, "deno.json"), `{ "nodeModulesDir": "manual" }\n`);
    assert.equal(await output(join(BIN, "deno"), ["run", "-A", probe()]), "ajv ajv interpreting");
  });

  test("Bun takes ajv", { skip: existsSync(join(BIN, "bun")) ? false : "bun is not installed (node_modules/.bin/bun)" }, async () => {
    assert.equal(await output(join(BIN, "bun"), [probe()]), "ajv ajv interpreting");
  });
});

const CHECK_SCRIPT = `import { Client, StdioTransport, StreamableHttpTransport } from "mcpwire";
import { createSyncBridge } from "mcpwire/host";
const described = (error) => ({ name: error?.name, code: error?.code, capability: error?.capability, message: error?.message });
const result = {};
const stdio = new StdioTransport({ command: "node", args: ["--version"] });
try {
  await stdio.start();
  result.stdio = "started";
  await stdio.close();
} catch (error) {
  result.stdio = described(error);
}
try {
  createSyncBridge({ configPath: "mcpwire.yaml" });
  result.bridge = "started";
} catch (error) {
  result.bridge = described(error);
}
const client = new Client({ name: "bundle-test", version: "1.0.0" });
await client.connect(new StreamableHttpTransport({ url: process.env.MCP_URL }));
result.tools = (await client.listTools()).map((tool) => tool.name);
result.echo = (await client.callTool("echo", { text: "hi" })).content;
await client.close();
console.log(JSON.stringify(result));
`;

describe("the package under the browser condition (Node resolving as a bundler for a browser would)", () => {
  test("stdio and the sync bridge fail with an UnsupportedRuntimeError when started; a Client over Streamable HTTP works", async () => {
    const server = await startPortFixture("http-mcp-server.mjs");
    try {
      const result = await runScript(CHECK_SCRIPT, ["browser"], { MCP_URL: `${server.origin}/json/bundle/mcp` });
      const stdio = result.stdio as { name: string; code: string; capability: string; message: string };
      assert.equal(stdio.name, "UnsupportedRuntimeError");
      assert.equal(stdio.code, "unsupported-runtime");
      assert.equal(stdio.capability, "processes");
      assert.match(stdio.message, /stdio "node --version"/);
      assert.match(stdio.message, /needs Node, Deno or Bun/);
      assert.match(stdio.message, /StreamableHttpTransport/);
      const bridge = result.bridge as { code: string; capability: string; message: string };
      assert.equal(bridge.code, "unsupported-runtime");
      assert.equal(bridge.capability, "workers");
      assert.match(bridge.message, /^createSyncBridge: /);
      assert.match(bridge.message, /dispatchSync/);
      assert.ok((result.tools as string[]).includes("echo"), JSON.stringify(result.tools));
      assert.deepEqual(result.echo, [{ type: "text", text: "echo: hi" }]);
    } finally {
      await server.stop();
    }
  });

  test("without a condition Node takes node.js: the same script starts stdio", async () => {
    const server = await startPortFixture("http-mcp-server.mjs");
    try {
      const script = CHECK_SCRIPT.replace(/try \{\n {2}createSyncBridge[\s\S]*?\n\}\n/, "");
      const result = await runScript(script, [], { MCP_URL: `${server.origin}/json/bundle2/mcp` });
      assert.equal(result.stdio, "started");
    } finally {
      await server.stop();
    }
  });
});
