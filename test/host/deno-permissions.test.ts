// A sandbox plan as `deno run`'s permission flags (host/sandbox/deno-permissions.ts), for a Deno script
// where bubblewrap cannot be had. Pure: no process is run (test/cli/sandbox.test.ts runs one).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { denoRunArguments, isDenoRun } from "../../src/host/sandbox/deno-permissions.ts";

const PLAN = { read: ["/srv/app", "/data"], write: ["/data/out"], network: false };

describe("Deno permission flags from a sandbox plan", () => {
  test("only `deno run …` is a Deno script", () => {
    assert.equal(isDenoRun("deno", ["run", "server.ts"]), true);
    assert.equal(isDenoRun("/opt/deno/bin/deno", ["run", "-A", "server.ts"]), true);
    assert.equal(isDenoRun("C:\\deno\\deno.exe", ["run", "server.ts"]), true);
    assert.equal(isDenoRun("deno", ["serve", "server.ts"]), false);
    assert.equal(isDenoRun("node", ["run", "server.ts"]), false);
  });

  test("the plan's reads (writes included), writes and environment after run; no prompt; no network unless allowed", () => {
    assert.deepEqual(denoRunArguments(PLAN, ["run", "server.ts", "--port", "1"]), [
      "run",
      "--no-prompt",
      "--allow-read=/srv/app,/data,/data/out",
      "--allow-write=/data/out",
      "--allow-env",
      "server.ts",
      "--port",
      "1",
    ]);
    assert.ok(denoRunArguments({ ...PLAN, network: true }, ["run", "server.ts"]).includes("--allow-net"));
  });

  test("the command line's own permission flags are dropped; its other flags and the script's arguments are kept", () => {
    const args = denoRunArguments(PLAN, [
      "run",
      "-A",
      "--allow-run",
      "-N",
      "--allow-read=/",
      "--config",
      "deno.json",
      "--quiet",
      "server.ts",
      "-A",
      "--allow-all",
    ]);
    assert.deepEqual(args.slice(args.indexOf("--allow-env") + 1), ["--config", "deno.json", "--quiet", "server.ts", "-A", "--allow-all"]);
    assert.ok(!args.includes("--allow-run") && !args.includes("--allow-read=/"));
  });

  test("a path with a comma cannot be listed: it is left out, allowing less", () => {
    const args = denoRunArguments({ read: ["/a,b", "/c"], write: [], network: false }, ["run", "s.ts"]);
    assert.ok(args.includes("--allow-read=/c"));
  });
});
