#!/usr/bin/env node
// Entry point of the `mcpwire` command: run the verb, exit with its code.
//   node --import tsx src/cli/run.ts inspect --stdio "…"     deno run -A src/cli/run.ts inspect --stdio "…"

import { runtime } from "../runtime/mod.ts";
import { main } from "./main.ts";

const code = await main(runtime.args());
await runtime.flush(); // what was written reaches the reader before the process ends
runtime.exit(code);
