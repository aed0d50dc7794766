#!/usr/bin/env node
// The `mcpwire` command in a checkout (`npm start`): loads the TypeScript sources through tsx.
// The npm package runs the compiled dist/cli/run.js instead.
import { register } from "tsx/esm/api";

register();
await import("./run.ts");
