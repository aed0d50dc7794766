#!/usr/bin/env node
// Entry point of the `mcpwire` command: run the verb, exit with its code.
//   node --import tsx src/cli/run.ts inspect --stdio "…"     deno run -A src/cli/run.ts inspect --stdio "…"
// No top-level await: in the packed bin (scripts/cli-bundle.ts) the verbs' chunks import what
// they share with this module from it, and a module still awaiting at top level would hold
// their import until the verb ended (it never would).

import { runtime } from "../runtime/mod.ts";
import { main } from "./main.ts";

void main(runtime.args()).then(async (code) => {
  await runtime.flush(); // what was written reaches the reader before the process ends
  runtime.exit(code);
});
