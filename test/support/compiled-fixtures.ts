// Test helper: the TypeScript fixtures of conformance/fixtures/ (modern-server.ts, the
// 2026-07-28 reference server; tasks-server.ts) bundled to JavaScript, for the tests that start
// them as child processes under Node or Deno. `node --import tsx modern-server.ts` costs about
// 0.75 s of CPU to answer an initialize (tsx loads @modelcontextprotocol/server's modules through
// its hooks); `node <build>/modern-server.mjs` 0.3 s, and it is the same code. The packages stay
// imports of node_modules. Made once per content of conformance/fixtures/ (test-build.ts).

import { join } from "node:path";
import { testBuild } from "./test-build.ts";

/** esbuild's arguments besides the output directory. */
const BUILD = [
  "conformance/fixtures/modern-server.ts",
  "conformance/fixtures/tasks-server.ts",
  "--bundle",
  "--format=esm",
  "--platform=node",
  "--packages=external",
  "--target=es2022",
  "--keep-names",
  "--out-extension:.js=.mjs",
  "--log-level=warning",
];

let built: string | undefined;

/** The path of the fixture `name` (conformance/fixtures/<name>.ts) as JavaScript, to run with `node`, built first if need be. */
export function compiledFixture(name: "modern-server" | "tasks-server"): string {
  built ??= testBuild("fixtures", ["conformance/fixtures"], BUILD, "the TypeScript fixtures of conformance/fixtures/");
  return join(built, `${name}.mjs`);
}
