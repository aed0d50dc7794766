// The client in Cloudflare's Workers runtime (issue 28): workerd (the `workerd` npm package)
// runs a Worker module, bundled by esbuild with wrangler's conditions (workerd, worker, browser)
// from the package built as `npm run build` builds it (scripts/bundle-sizes.ts buildPackage:
// only the built package has the package.json "imports" conditions that give a Worker web.js),
// that on a fetch connects a Client over Streamable HTTP to server-everything on loopback and
// answers with the tool list and what a few calls gave. The config (Cap'n Proto text) is written
// into a temp dir (test/support/workerd.ts); the Worker's outbound fetch goes through a `network` service that allows
// local addresses (workerd's default "internet" service allows public ones only). workerd
// refuses code generation (no eval, no new Function), as Cloudflare does.

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as esbuild from "esbuild";
import { buildPackage, ROOT } from "../../scripts/bundle-sizes.ts";
import { bundleForBrowser, MISMATCHED_RESULT } from "../support/browser-page.ts";
import { freePort, startEverything, stop } from "../support/everything-http.ts";
import { type RunningWorkerd, startWorkerd, workerdSkip } from "../support/workerd.ts";

/** The Worker: on a fetch, a Client of env.MCP_URL; its report as JSON. */
const WORKER = `import * as mcpwire from "mcpwire";
import { Client, StreamableHttpTransport } from "mcpwire";

${MISMATCHED_RESULT}

const errorOf = (error) => ({ name: error?.name, code: error?.code, message: String(error?.message ?? error), stack: String(error?.stack ?? "") });
const textOf = (content) => content.filter((block) => block.type === "text").map((block) => block.text).join("\\n");

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === "/ready") return new Response("ready");
    const found = {};
    try {
      new Function("return 1")();
      found.evalRefused = false;
    } catch (error) {
      found.evalRefused = errorOf(error);
    }
    const client = new Client({ name: "worker", version: "1.0.0" });
    const problems = [];
    client.on("problem", ({ message }) => problems.push(message));
    try {
      await client.connect(new StreamableHttpTransport({ url: env.MCP_URL }));
      found.server = client.serverInfo?.name;
      found.tools = (await client.listTools()).map((tool) => tool.name);
      found.echo = textOf((await client.callTool("echo", { message: "from a Worker" })).content);
      const progress = [];
      await client.callTool("trigger-long-running-operation", { duration: 0.3, steps: 2 }, { onProgress: (update) => progress.push(update.progress) });
      found.progress = progress;
      try {
        found.structured = (await client.callTool("get-structured-content", { location: "Chicago" })).structuredContent;
      } catch (error) {
        found.structured = { failed: errorOf(error) };
      }
      found.mismatched = await mismatchedResult(mcpwire);
      found.problems = problems;
      return Response.json(found);
    } catch (error) {
      return Response.json({ failed: errorOf(error), problems }, { status: 500 });
    } finally {
      await client.close();
    }
  },
};
`;

interface WorkerReport {
  failed?: { message: string; stack: string };
  evalRefused: false | { message: string };
  server: string;
  tools: string[];
  echo: string;
  progress: number[];
  structured: unknown;
  mismatched: { accepted?: unknown; rejected?: { code: string }; isOutputValidationError?: boolean; problems: string[] };
  problems: string[];
}

describe("workerd: a Worker that uses the client against a loopback Streamable HTTP server", { skip: workerdSkip() }, () => {
  const scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-workerd-test-"));
  let everything: ChildProcess | undefined;
  let workerd: RunningWorkerd | undefined;

  before(async () => {
    const built = join(scratch, "package");
    mkdirSync(built);
    buildPackage(built);
    const dir = join(scratch, "worker");
    await bundleForBrowser({
      resolveDir: built,
      outdir: dir,
      source: WORKER,
      name: "worker",
      conditions: ["workerd", "worker", "browser"],
      nodePaths: [join(ROOT, "node_modules")],
    });
    await esbuild.stop();
    const mcpPort = await freePort();
    everything = await startEverything(mcpPort);
    workerd = await startWorkerd(dir, "worker.js", { MCP_URL: `http://127.0.0.1:${mcpPort}/mcp` });
  });

  after(async () => {
    await workerd?.stop();
    if (everything) await stop(everything);
    rmSync(scratch, { recursive: true, force: true });
  });

  let report: WorkerReport | undefined;
  async function answer(): Promise<WorkerReport> {
    if (report === undefined) {
      const response = await fetch(`${workerd!.origin}/`, { signal: AbortSignal.timeout(60_000) });
      report = (await response.json()) as WorkerReport;
      assert.equal(report.failed, undefined, `the Worker failed: ${JSON.stringify(report.failed)}\nworkerd:\n${workerd!.output()}`);
      assert.equal(response.status, 200);
    }
    return report;
  }

  test("the Worker connects, lists server-everything's tools, calls echo and gets progress", async () => {
    const found = await answer();
    assert.equal(found.server, "mcp-servers/everything");
    assert.ok(found.tools.includes("echo") && found.tools.includes("get-structured-content"), found.tools.join(", "));
    assert.equal(found.echo, "Echo: from a Worker");
    assert.deepEqual(found.progress, [1, 2]);
    assert.notEqual(found.evalRefused, false, "workerd refuses code generation");
  });

  // workerd refuses code generation; its build (#json-schema under workerd) has the interpreting validator alone.
  test("a structured result is checked against its outputSchema with no eval", async () => {
    const found = await answer();
    assert.deepEqual(found.structured, { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    assert.deepEqual(found.problems, []);
    assert.equal(found.mismatched.isOutputValidationError, true, JSON.stringify(found.mismatched));
    assert.equal(found.mismatched.rejected?.code, "output-mismatch", JSON.stringify(found.mismatched));
    assert.deepEqual(found.mismatched.problems, []);
  });
});
