// docs/telemetry.md's example runs as written: its code block (the imports pointed at this
// checkout, "server.mjs" at the trace-echo fixture) in a fresh process of this test's runtime,
// printing the spans of one tool call from the in-memory exporter.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fixturePath } from "../support/fixture-process.ts";

const PAGE = fileURLToPath(new URL("../../docs/telemetry.md", import.meta.url));
const MOD = pathToFileURL(fileURLToPath(new URL("../../src/mod.ts", import.meta.url))).href;
const TELEMETRY = pathToFileURL(fileURLToPath(new URL("../../src/client/telemetry/mod.ts", import.meta.url))).href;
const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));
const isDeno = "Deno" in globalThis;

/** The ```ts block under the "## Example" heading. */
function exampleOf(page: string): string {
  const section = page.slice(page.indexOf("## Example"));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match === null) throw new Error("docs/telemetry.md: no ```ts block under ## Example");
  return match[1]!;
}

describe("docs/telemetry.md", () => {
  test("the in-memory exporter example prints the spans of one tool call", async () => {
    // Under Node the package is named by its resolved file; Deno resolves the bare name through this
    // checkout's deno.json and package.json.
    const sdk = isDeno ? "@opentelemetry/sdk-trace-base" : import.meta.resolve("@opentelemetry/sdk-trace-base");
    const code = exampleOf(readFileSync(PAGE, "utf8"))
      .replace(`from "mcpwire"`, `from ${JSON.stringify(MOD)}`)
      .replace(`from "mcpwire/telemetry"`, `from ${JSON.stringify(TELEMETRY)}`)
      .replace(`from "@opentelemetry/sdk-trace-base"`, `from ${JSON.stringify(sdk)}`)
      .replace(`"server.mjs"`, JSON.stringify(fixturePath("trace-echo-server.mjs")));
    // Inside the checkout (the ignored .test-build/), so that Deno finds deno.json and node_modules
    // for the example's bare imports as it does for the repository's own files.
    const builds = fileURLToPath(new URL("../../.test-build/", import.meta.url));
    mkdirSync(builds, { recursive: true });
    const dir = mkdtempSync(join(builds, "docs-otel-"));
    const file = join(dir, "example.mts");
    writeFileSync(file, code);
    try {
      const output = await new Promise<string>((resolve, reject) => {
        const args = isDeno ? ["run", "-A", "--config", CONFIG, file] : ["--import", import.meta.resolve("tsx"), file];
        execFile(process.execPath, args, { timeout: 30_000 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
      });
      const lines = output.trim().split("\n");
      assert.ok(lines.some((line) => /^mcp connect \[-\] span [0-9a-f]{16}$/.test(line)), output);
      assert.ok(lines.some((line) => /^tools\/call echo \[tools\/call\] span [0-9a-f]{16}$/.test(line)), output);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
