// Test helper: where the reference server @modelcontextprotocol/server-everything lives, and the
// tools it lists for every client (others appear only with client capabilities). Apart from
// everything.ts (which re-exports them) so that a test that only starts the server, as the CLI
// tests do through cli-runner.ts, does not load the client and the registry for it: under Node
// (tsx) that import cost 0.2 s of CPU per test file.

import { fileURLToPath } from "node:url";

export const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

export const ALWAYS_LISTED = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
];
