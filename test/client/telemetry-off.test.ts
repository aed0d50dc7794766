// Telemetry off costs no import: a fresh process using the root entry (connect, list, call, read)
// never asks for @opentelemetry/api; turned on where the package cannot be found, connect() fails
// with a TelemetryError naming the package to install. The probe runs in this test's runtime with
// @opentelemetry/* made unresolvable and every attempt logged: on Node through a module resolve
// hook (fixtures/telemetry/otel-blocker.mjs), on Deno through an import map (otel-blocked.json).

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fixturePath } from "../support/fixture-process.ts";

const isDeno = "Deno" in globalThis;
/** Bun runs neither Node's resolve hooks (module.register) nor Deno's import maps: the probe would see nothing. */
const BUN_SKIP = typeof (process.versions as Record<string, string | undefined>).bun === "string"
  ? "Bun has no module resolve hooks, so the probe cannot see what loads (Node and Deno run this file)"
  : false;

/** Runs the probe (with `--on` when asked); its output line and what tried to load @opentelemetry/*. */
async function probe(on: boolean): Promise<{ output: string; loads: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-otel-"));
  const log = join(dir, "loads.txt");
  const script = fixturePath("telemetry/telemetry-probe.ts");
  const runtimeArgs = isDeno
    ? ["run", "-A", `--import-map=${fixturePath("telemetry/otel-blocked.json")}`, script]
    : ["--import", "tsx", "--import", fixturePath("telemetry/otel-blocker.mjs"), script];
  try {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [...runtimeArgs, ...(on ? ["--on"] : [])],
        { timeout: 30_000, env: { ...process.env, OTEL_PROBE_LOG: log } },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out.trim())),
      );
    });
    return { output, loads: existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("telemetry off", () => {
  test(
    "a process using the root entry without telemetry never loads @opentelemetry/api (nor, on Node, mcpwire's telemetry layer)",
    { skip: BUN_SKIP },
    async () => {
      const { output, loads } = await probe(false);
      assert.equal(output, "DONE");
      assert.deepEqual(loads, []);
    },
  );

  test("telemetry: openTelemetry() without @opentelemetry/api fails connect() with a message naming the package to install", { skip: BUN_SKIP }, async () => {
    const { output, loads } = await probe(true);
    // The blocker saw the attempt: the test would notice a load (Node also logs the layer, imported with mcpwire/telemetry).
    assert.deepEqual(loads, isDeno ? ["@opentelemetry/api"] : ["telemetry-layer", "@opentelemetry/api"]);
    assert.match(output, /^ERROR telemetry-unavailable /);
    assert.match(output, /telemetry is on, but @opentelemetry\/api could not be loaded/);
    assert.match(output, /npm install @opentelemetry\/api/);
  });
});
