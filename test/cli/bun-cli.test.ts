// The CLI's `version` and `inspect --stdio` (issue 28: the CLI on Bun). The CLI runs with the
// runtime of the test run (test/support/cli-runner.ts): under `node test/suite.mjs bun` that is
// `bun src/cli/run.ts`, so these are the CLI on Bun; under Node and Deno the same checks run the
// CLI there. The server is a fixture started by the CLI with `node`, as a user's config would.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { isBun, mcpwire, root, runtimeArgs } from "../support/cli-runner.ts";

const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };

describe("the CLI's version and inspect --stdio on the test's runtime (Bun in `node test/suite.mjs bun`)", () => {
  test("under Bun the CLI is `bun src/cli/run.ts`, the TypeScript sources as they are", { skip: isBun ? false : "runs under Bun only" }, () => {
    assert.ok(process.execPath.includes("bun"), process.execPath);
    assert.deepEqual(runtimeArgs, [join(root, "src", "cli", "run.ts")]);
  });

  test("version prints the package's name and version and exits 0", async () => {
    const { code, stdout, stderr } = await mcpwire(["version"], { timeoutMs: 60_000 });
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `mcpwire ${version}\n`);
  });

  test("inspect --stdio starts the server and prints its info and tools", async () => {
    const { code, stdout, stderr } = await mcpwire(["inspect", "--stdio", "node test/fixtures/echo-server.mjs"], { timeoutMs: 60_000 });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^server\s+echo 0\.0\.0$/m);
    assert.match(stdout, /^transport\s+stdio$/m);
    assert.match(stdout, /^tools \(4\)$/m);
    assert.match(stdout, /^ {2}echo\(\) — Returns its text argument$/m);
    assert.match(stdout, /^resources \(0\)$/m);
  });
});
