// Test helper: the mcpwire CLI built from src/ to JavaScript, for the CLI tests under Node.
// Starting `node --import tsx src/cli/run.ts` costs about a second of CPU per run (tsx
// transpiles the sources again in every process), and a file-per-module build of src/ (tsc's,
// used before) still spent 0.3 s of CPU loading its 200 modules (each one resolved, read and
// compiled) before a verb ran. The build is an esbuild bundle of src/cli/run.ts: the same
// sources in a few files (`--splitting`: each verb's module, which main.ts imports when that verb
// runs, is a chunk of its own, loaded as lazily as before), without type checking (what tsx does
// too), the packages (ajv, yaml, the OpenTelemetry ones) left as imports of node_modules (bundled,
// they would load 50 ms faster, but a split bundle's dynamic import of a CommonJS package such as
// yaml or ajv gives only its default export, where Node gives the named ones too), class
// and function names kept (error names reach the output), syntax as tsconfig.json's ES2022
// target. `tools` against the echo fixture: 0.50 s of CPU with tsc's build, 0.37 s with the
// bundle. It is still a real process (signals, TTY, stdin EOF, exit codes).
// One module is found by a name the code makes: client/telemetry.ts imports
// "./telemetry-layer.ts" from a variable, which TypeScript's rewriteRelativeImportExtensions turns
// into .js when it runs and esbuild leaves alone; so src/client/telemetry-layer.ts is a second
// entry, telemetry-layer.js beside the chunks, and finish() names it so. (The CLI does not start
// the sync bridge, host/sync-bridge.ts, the other module found so.) Made once per content of src/
// (test-build.ts).

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testBuild } from "./test-build.ts";

/** esbuild's arguments besides the output directory (see the header). */
const BUILD = [
  "src/cli/run.ts",
  "src/client/telemetry-layer.ts",
  "--bundle",
  "--splitting",
  "--format=esm",
  "--platform=node",
  "--packages=external",
  "--target=es2022",
  "--keep-names",
  "--entry-names=[name]",
  "--log-level=warning",
];

/** client/telemetry.ts's name of its layer, as TypeScript's build rewrites it when it is imported. */
const LAYER = ['"./telemetry-layer.ts"', '"./telemetry-layer.js"'] as const;

/** The layer's name in the bundle's files as the compiled code would ask for it (see the header). */
function finish(out: string): void {
  let found = 0;
  for (const name of readdirSync(out).filter((file) => file.endsWith(".js"))) {
    const text = readFileSync(join(out, name), "utf8");
    if (!text.includes(LAYER[0])) continue;
    writeFileSync(join(out, name), text.replaceAll(LAYER[0], LAYER[1]));
    found++;
  }
  if (found === 0) throw new Error(`compiled-cli: no ${LAYER[0]} in the bundle: client/telemetry.ts loads its layer by another name; update compiled-cli.ts`);
}

let built: string | undefined;

/** The path of `run.js` bundled from the current src/, built first if need be. */
export function compiledCli(): string {
  built ??= `${
    testBuild("cli", ["src", "tsconfig.json"], BUILD, "src/ for the CLI tests (MCPWIRE_TEST_CLI=source runs the sources through tsx)", finish)
  }/run.js`;
  return built;
}
