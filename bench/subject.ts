// What the benchmarks measure: mcpwire as its users run it, the compiled package in dist/
// (`npm run build`, plain tsc output), which bench/run.ts builds first. With
// MCPWIRE_BENCH_SOURCE=1 (`npm run bench -- --source`) the TypeScript sources are measured
// through tsx instead; tsx compiles with esbuild's keepNames, which wraps every named closure
// in a __name() call each time it is made, a cost no user of the package pays.

import process from "node:process";
import type * as HostModule from "../src/host/mod.ts";
import type * as MainModule from "../src/mod.ts";
import type * as RegistryModule from "../src/registry/mod.ts";

export const fromSource = process.env.MCPWIRE_BENCH_SOURCE === "1";

const main = (fromSource ? "../src/mod.ts" : "../dist/mod.js") as string;
const registry = (fromSource ? "../src/registry/mod.ts" : "../dist/registry/mod.js") as string;
const host = (fromSource ? "../src/host/mod.ts" : "../dist/host/mod.js") as string;

export const mcpwire = (await import(main)) as typeof MainModule;
export const mcpwireRegistry = (await import(registry)) as typeof RegistryModule;
export const mcpwireHost = (await import(host)) as typeof HostModule;
