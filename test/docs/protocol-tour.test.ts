// docs/protocol-tour.md (made by scripts/protocol-tour.ts, `npm run tour`): regenerated from real
// sessions (server-everything over stdio and Streamable HTTP, the 2026-07-28 fixture over stdio)
// by the script's --check, which fails when the committed page drifts; and the page shows what the
// issue asks of it, with nothing that varies between runs or machines left in.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { behaviour } from "../support/behaviour.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPT = fileURLToPath(new URL("../../scripts/protocol-tour.ts", import.meta.url));
const PAGE = fileURLToPath(new URL("../../docs/protocol-tour.md", import.meta.url));
/** The script under this test's runtime. */
const RUN = "Deno" in globalThis
  ? ["run", "-A", "--config", fileURLToPath(new URL("../../deno.json", import.meta.url)), SCRIPT]
  : ["--import", import.meta.resolve("tsx"), SCRIPT];

behaviour("npm run tour --check: the committed page is what three real sessions make now", async () => {
  const outcome = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [...RUN, "--check"], { cwd: ROOT, encoding: "utf8", timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr });
    });
  });
  assert.equal(outcome.code, 0, `the tour drifted or failed:\n${outcome.stderr}`);
  assert.match(outcome.stdout, /docs\/protocol-tour\.md is up to date/);
});

behaviour("the page walks the handshake, the 2026-07-28 wire and HTTP with its headers, normalised", async () => {
  const page = readFileSync(PAGE, "utf8");
  for (const part of ["## 1. stdio, the 2025-11-25 handshake", "## 2. stdio, the 2026-07-28 wire", "## 3. Streamable HTTP"]) {
    assert.ok(page.includes(part), part);
  }
  for (const line of ["`→ everything  initialize #2`", "`← everything  ↳ answer to tools/call #4`", "`← modern  ↳ answer to server/discover #1`"]) {
    assert.ok(page.includes(line), line);
  }
  assert.doesNotMatch(page.slice(page.indexOf("## 2."), page.indexOf("## 3.")), /initialize #/, "the 2026-07-28 part has no handshake");
  assert.match(page, /⇄ everything-http {2}HTTP POST http:\/\/127\.0\.0\.1:<port>\/mcp → 400 .*Mcp-Method: server\/discover/);
  assert.match(page, /got Mcp-Session-Id: <session-id>/);
  assert.match(page, /HTTP DELETE .* → 200/);
  // Every paragraph of prose that explains a step cites the spec somewhere in its part.
  assert.ok((page.match(/spec 20\d\d-\d\d-\d\d /g) ?? []).length >= 20, "too few spec citations");
  // Nothing that varies: no absolute path, uuid, pid, port or wall time.
  assert.ok(!page.includes(ROOT), "an absolute path");
  assert.doesNotMatch(page, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  assert.doesNotMatch(page, /pid \d|127\.0\.0\.1:\d|\d\d:\d\d:\d\d\.\d+Z|\d+\.\d ms/);
});
