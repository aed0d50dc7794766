// How plain a plain tool call is (issue 25): the distinct mcpwire functions and files one
// registry.dispatch runs, both directions, against a raw stdio server (no task, no
// outputSchema), measured with V8 precise coverage by bench/plain-path.ts in a fresh process
// per era — the handshake era and the 2026-07-28 wire. Node only: the coverage comes from
// node:inspector's Profiler.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { behaviour, deno } from "../support/behaviour.ts";

const NODE_ONLY = deno === undefined ? false : "V8 precise coverage through node:inspector's Profiler runs under Node only";
const MEASURE = fileURLToPath(new URL("../../bench/plain-path.ts", import.meta.url));

interface Figures {
  functions: number;
  files: number;
  list: string[];
}

/** One era measured in a fresh Node process (no other connection's work in its coverage). */
function measure(era: "legacy" | "modern"): Promise<Figures> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--import", "tsx", MEASURE, "--json", "--era", era], { encoding: "utf8", timeout: 60_000 }, (error, stdout, stderr) => {
      const line = stdout.split("\n").find((text) => text.startsWith("PLAIN-PATH "));
      if (error !== null || line === undefined) reject(new Error(`bench/plain-path.ts --era ${era} failed: ${error?.message ?? "no figures"}\n${stderr}`));
      else resolve(JSON.parse(line.slice("PLAIN-PATH ".length)) as Figures);
    });
  });
}

for (const era of ["legacy", "modern"] as const) {
  const wire = era === "legacy" ? "the handshake era" : "the 2026-07-28 wire";
  behaviour(`a plain tool call on ${wire} runs at most the plain path's functions and files`, async () => {
    const { PLAIN_PATH_CEILING } = await import("../../bench/plain-path.ts");
    const figures = await measure(era);
    const ceiling = PLAIN_PATH_CEILING[era];
    const shown = `${figures.functions} functions in ${figures.files} files:\n  ${figures.list.join("\n  ")}`;
    assert.ok(figures.functions > 0, "the coverage saw the call");
    assert.ok(figures.functions <= ceiling.functions, `at most ${ceiling.functions} functions per plain call; ${shown}`);
    assert.ok(figures.files <= ceiling.files, `at most ${ceiling.files} files per plain call; ${shown}`);
    // No task, skills or apps code runs on a call that is not a task, and no host code.
    const extensions = figures.list.filter((entry) => /^(client\/(tasks?[/.-]|task-|tool-task|skills?[/.-]|skill-|apps)|host\/)/.test(entry));
    assert.deepEqual(extensions, [], `no extension code on the plain path; ${shown}`);
  }, { skip: NODE_ONLY });
}
