// The CLI started from its sources, end to end. The other CLI tests run it compiled under Node
// (test/support/compiled-cli.ts); these start `src/cli/run.ts` with the runtime under test
// (Node through tsx, as `npm run inspect` does; Deno as it is) and, under Node,
// `src/cli/bin.js`, the launcher `npm start` runs. The packed bin (dist/cli/run.js) is
// test/package/install.ts's.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { VERSION } from "../../src/cli/version.ts";
import { everythingConfig, type Outcome, root, sourceArgs } from "../support/cli-runner.ts";

const scratch = everythingConfig("mcpwire-cli-source-", ["echo"]);
const BIN = fileURLToPath(new URL("../../src/cli/bin.js", import.meta.url));

/** Runs `process.execPath <args>` in the repository root to its end. */
function run(args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

describe("the CLI from its sources", { timeout: 120_000 }, () => {
  test("src/cli/run.ts lists server-everything's tools and calls one", async () => {
    const tools = await run([...sourceArgs, "tools", "--config", scratch.config]);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^mcp_everything_echo\s+mcp-everything\s+Echoes back/m);
    const call = await run([...sourceArgs, "call", "mcp_everything_echo", "message=from the sources", "--config", scratch.config]);
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout, "Echo: from the sources\n");
  });

  test("src/cli/run.ts exits 2 with a usage error for an unknown verb", async () => {
    const { code, stdout, stderr } = await run([...sourceArgs, "frobnicate"]);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /^mcpwire: /);
  });

  test("src/cli/bin.js (npm start's launcher, Node only) prints the version", { skip: "Deno" in globalThis }, async () => {
    const { code, stdout, stderr } = await run([BIN, "--version"]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `mcpwire ${VERSION}\n`);
  });
});
