// `--otel` on the session verbs: spans exported with OTLP/HTTP when the user installed the
// packages; without them, a message naming what to install (exit 2) before any server starts.
// The config's `telemetry:` key asks for the same. The endpoint follows the OpenTelemetry OTLP
// exporter variables.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { otlpTracesUrl } from "../../src/cli/otel-export.ts";
import { mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const dir = scratchDir("mcpwire-otel-cli-");
const FIXTURE = fixturePath("trace-echo-server.mjs");

/** Whether the OTLP exporter package is installed here (then the message cannot be seen). */
async function exporterInstalled(): Promise<boolean> {
  const name = "@opentelemetry/exporter-trace-otlp-http";
  try {
    await import(name);
    return true;
  } catch {
    return false;
  }
}

describe("mcpwire --otel", () => {
  test("without the exporter packages: exit 2 and the packages to install, before any server starts", async (t) => {
    if (await exporterInstalled()) return t.skip("@opentelemetry/exporter-trace-otlp-http is installed here");
    const outcome = await mcpwire(["tools", "--otel", "--stdio", `node ${FIXTURE}`]);
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.equal(outcome.stdout, "");
    assert.match(outcome.stderr, /--otel: exporting spans with OTLP\/HTTP needs @opentelemetry\/exporter-trace-otlp-http, which is not installed/);
    assert.match(outcome.stderr, /npm install @opentelemetry\/api @opentelemetry\/sdk-trace-base @opentelemetry\/exporter-trace-otlp-http/);
  });

  test("the config's telemetry: true asks for the same export", async (t) => {
    if (await exporterInstalled()) return t.skip("@opentelemetry/exporter-trace-otlp-http is installed here");
    const config = await writeConfig(dir.path, "otel.yaml", [
      "mcp_servers:",
      "  echo:",
      "    command: node",
      `    args: [${JSON.stringify(FIXTURE)}]`,
      "telemetry: true",
    ]);
    const outcome = await mcpwire(["tools", "--config", config]);
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

  test("the traces URL follows the OTLP exporter variables", () => {
    assert.equal(otlpTracesUrl({}), "http://localhost:4318/v1/traces");
    assert.equal(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }), "http://collector:4318/v1/traces");
    assert.equal(
      otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://traces:9999/x" }),
      "http://traces:9999/x",
    );
  });
});
