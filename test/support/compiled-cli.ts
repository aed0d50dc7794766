// Test helper: the mcpwire CLI built from src/ to JavaScript, for the CLI tests under Node and
// Deno (cli-runner.ts says why under Deno): the bundle the package ships as its bin
// (scripts/cli-bundle.ts, which says how it is made), built with the same arguments. Starting `node --import tsx src/cli/run.ts` costs about a second of
// CPU per run (tsx transpiles the sources again in every process), and a file-per-module build
// of src/ (tsc's, used before) still spent 0.3 s of CPU loading its 200 modules before a verb ran:
// `tools` against the echo fixture took 0.50 s of CPU with tsc's build, 0.37 s with the bundle.
// It is still a real process (signals, TTY, stdin EOF, exit codes). Made once per content of
// src/ and of the bundle's script (test-build.ts).

import { CLI_BUNDLE_ARGS, finishCliBundle } from "../../scripts/cli-bundle.ts";
import { testBuild } from "./test-build.ts";

let built: string | undefined;

/** The path of `run.js` bundled from the current src/, built first if need be. */
export function compiledCli(): string {
  built ??= `${
    testBuild(
      "cli",
      ["src", "tsconfig.json", "scripts/cli-bundle.ts"],
      [...CLI_BUNDLE_ARGS],
      "src/ for the CLI tests (MCPWIRE_TEST_CLI=source runs the sources through tsx)",
      finishCliBundle,
    )
  }/run.js`;
  return built;
}
