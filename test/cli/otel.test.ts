// `--otel` on the session verbs: spans exported with OTLP/HTTP when the user installed the
// packages (test/cli/otel-export.test.ts); without them, a message naming what to install (exit 2)
// before any server starts. The config's `telemetry:` key asks for the same. The endpoint and the
// resource follow the OpenTelemetry SDK variables.
//
// The exporter is a dev dependency here, so the message is seen by a copy of src/ in a scratch
// directory whose node_modules holds mcpwire's dependencies and @opentelemetry/api and
// sdk-trace-base, not the exporter.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { otlpResourceAttributes, otlpTracesUrl } from "../../src/cli/trace/otel-export.ts";
import { VERSION } from "../../src/cli/version.ts";
import { mcpwire, type Outcome, root, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const dir = scratchDir("mcpwire-otel-cli-");
const FIXTURE = fixturePath("trace-echo-server.mjs");
const isDeno = "Deno" in globalThis;
const EXPORTER = "@opentelemetry/exporter-trace-otlp-http";
/** What the copy's node_modules links to (the checkout's): everything the CLI loads on the way to --otel's check. */
const LINKED = ["ajv", "yaml", "smol-toml", "@opentelemetry/api", "@opentelemetry/sdk-trace-base"];

/** Runs `runtime <args>` in `cwd` to its end. */
function run(args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** The runtime's arguments to run `script` of the copy at `base`. */
function scriptArgs(base: string, script: string): string[] {
  return isDeno ? ["run", "-A", "--config", join(base, "deno.json"), join(base, script)] : ["--import", import.meta.resolve("tsx"), join(base, script)];
}

let copy: Promise<{ base: string } | { skip: string }> | undefined;

/**
 * The CLI without the exporter: src/ copied beside package.json and deno.json, its node_modules
 * linking LINKED; a skip reason when the exporter is found from there all the same (a
 * node_modules in a directory above the scratch directory).
 */
function cliWithoutExporter(): Promise<{ base: string } | { skip: string }> {
  copy ??= (async () => {
    const base = join(dir.path, "no-exporter");
    await cp(join(root, "src"), join(base, "src"), { recursive: true });
    for (const file of ["package.json", "deno.json", "tsconfig.json"]) await cp(join(root, file), join(base, file));
    for (const name of LINKED) {
      const target = join(base, "node_modules", name);
      await mkdir(dirname(target), { recursive: true });
      await symlink(await realpath(join(root, "node_modules", name)), target, "dir");
    }
    await writeFile(join(base, "probe.mjs"), `try { await import(${JSON.stringify(EXPORTER)}); console.log("found"); } catch { console.log("missing"); }\n`);
    const probe = await run(scriptArgs(base, "probe.mjs"), base);
    if (probe.stdout.trim() !== "missing") return { skip: `${EXPORTER} is found from ${base} (${probe.stdout.trim() || probe.stderr.trim()})` };
    return { base };
  })();
  return copy;
}

/** `mcpwire <args>` run by the copy without the exporter. */
async function mcpwireWithoutExporter(args: string[]): Promise<Outcome | { skip: string }> {
  const found = await cliWithoutExporter();
  if ("skip" in found) return found;
  return await run([...scriptArgs(found.base, "src/cli/run.ts"), ...args], found.base);
}

describe("mcpwire --otel", () => {
  test("without the exporter packages: exit 2 and the packages to install, before any server starts", async (t) => {
    const outcome = await mcpwireWithoutExporter(["tools", "--otel", "--stdio", `node ${FIXTURE}`]);
    if ("skip" in outcome) return t.skip(outcome.skip);
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.equal(outcome.stdout, "");
    assert.match(outcome.stderr, /--otel: exporting spans with OTLP\/HTTP needs @opentelemetry\/exporter-trace-otlp-http, which is not installed/);
    assert.match(outcome.stderr, /npm install @opentelemetry\/api @opentelemetry\/sdk-trace-base @opentelemetry\/exporter-trace-otlp-http/);
  });

  test("the config's telemetry: true asks for the same export", async (t) => {
    const config = await writeConfig(dir.path, "otel.yaml", [
      "mcp_servers:",
      "  echo:",
      "    command: node",
      `    args: [${JSON.stringify(FIXTURE)}]`,
      "telemetry: true",
    ]);
    const outcome = await mcpwireWithoutExporter(["tools", "--config", config]);
    if ("skip" in outcome) return t.skip(outcome.skip);
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.match(outcome.stderr, /the config's telemetry: key: exporting spans with OTLP\/HTTP needs/);
  });

  test("every session verb's help names --otel and where spans go", async () => {
    for (const verb of ["tools", "call", "run", "servers"]) {
      const outcome = await mcpwire(["help", verb]);
      assert.equal(outcome.code, 0, outcome.stderr);
      assert.match(outcome.stdout, /--otel +OpenTelemetry/, verb);
      assert.match(outcome.stdout, /OTEL_EXPORTER_OTLP_ENDPOINT/, verb);
    }
  });

  test("the resource: OTEL_RESOURCE_ATTRIBUTES, then OTEL_SERVICE_NAME over its service.name, else mcpwire; service.version", () => {
    assert.deepEqual(otlpResourceAttributes({}), { "service.name": "mcpwire", "service.version": VERSION });
    assert.deepEqual(otlpResourceAttributes({ OTEL_SERVICE_NAME: " agent " }), { "service.name": "agent", "service.version": VERSION });
    assert.deepEqual(
      otlpResourceAttributes({ OTEL_RESOURCE_ATTRIBUTES: "service.name=svc, team=a%2Cb ,broken,=x,bad=%E0%A4%A,service.version=9" }),
      { "service.name": "svc", team: "a,b", "service.version": "9" },
    );
    assert.equal(otlpResourceAttributes({ OTEL_RESOURCE_ATTRIBUTES: "service.name=svc", OTEL_SERVICE_NAME: "wins" })["service.name"], "wins");
  });

  test("the traces URL follows the OTLP exporter variables", () => {
    assert.equal(otlpTracesUrl({}), "http://localhost:4318/v1/traces");
    assert.equal(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }), "http://collector:4318/v1/traces");
    assert.equal(
      otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:9999/x" }),
      "http://traces:9999/x",
    );
  });
});
