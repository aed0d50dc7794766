#!/usr/bin/env node
// The `mcpwire` executable for npm: loads the TypeScript sources through tsx.
import { register } from "tsx/esm/api";

register();
await import("./run.ts");
