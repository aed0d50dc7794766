// `mcpwire check` (src/cli/verbs/check-verb.ts, docs/check.md): the report as text and as JSON,
// the exit codes (0 no MUST broken, 1 broken or --strict with a SHOULD, 3 unreached), a server's
// text made printable, the configured headers never printed, and --trace-file numbering the
// messages as a finding's #N does. Against test/fixtures/check/dual-era-server.mjs and its
// Streamable HTTP sibling.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { CheckReport } from "../../src/check/report.ts";
import { mcpwire, scratchDir } from "../support/cli-runner.ts";
import { fixturePath, startPortFixture } from "../support/fixture-process.ts";

const DUAL = `node ${fixturePath("check/dual-era-server.mjs")}`;
const QUICK = ["--timeout", "5000"];

interface JsonOutput {
  format: number;
  passed: boolean;
  reports: CheckReport[];
}

describe("mcpwire check", () => {
  const dir = scratchDir("check-verb-");

  test("a conformant server: a report per era, the summary line, exit 0", async () => {
    const run = await mcpwire(["check", "--stdio", DUAL, ...QUICK]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /eras offered: 2026-07-28 \(server\/discover\), handshake \(initialize\)/);
    assert.match(run.stdout, /^2026-07-28 era \(2026-07-28\)/m);
    assert.match(run.stdout, /^handshake era \(2025-11-25\) — dual-era-fixture 1\.0\.0/m);
    assert.match(run.stdout, /^\d+ checks, 0 MUST broken, 0 SHOULD broken/m);
  });

  test("--json: one document, the verdict and a report per server; a MUST broken exits 1", async () => {
    const run = await mcpwire(["check", "--stdio", `${DUAL} --break list-no-cache-fields`, "--era", "modern", "--json", ...QUICK]);
    assert.equal(run.code, 1, run.stderr);
    const output = JSON.parse(run.stdout) as JsonOutput;
    assert.equal(output.format, 1);
    assert.equal(output.passed, false);
    assert.equal(output.reports.length, 1);
    const rule = output.reports[0]!.eras[0]!.rules.find((each) => each.id === "schema/result")!;
    assert.equal(rule.status, "failed");
    assert.equal(rule.findings[0]!.seen?.pointer, "/result");
  });

  test("a SHOULD broken: exit 0, and 1 with --strict; the text names the rule, the place, the spec and the fix", async () => {
    const server = `${DUAL} --break invalid-cursor-accepted`;
    const lenient = await mcpwire(["check", "--stdio", server, "--era", "legacy", ...QUICK]);
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.match(lenient.stdout, /! SHOULD lists\/invalid-cursor: /);
    assert.match(lenient.stdout, /#\d+: tools\/list with cursor "mcpwire-check-invalid-cursor", which it never gave, was answered with a result/);
    assert.match(lenient.stdout, /spec 2025-11-25 server\/utilities\/pagination, "Error Handling"/);
    assert.match(lenient.stdout, /fix: Refuse a cursor/);
    const strict = await mcpwire(["check", "--stdio", server, "--era", "legacy", "--strict", ...QUICK]);
    assert.equal(strict.code, 1);
  });

  test("--call TOOL key=value calls it, arguments typed by its inputSchema, and judges the answer; no other tool is called", async () => {
    const file = join(dir.path, "call.jsonl");
    const run = await mcpwire(["check", "--stdio", DUAL, "--era", "legacy", "--call", "add a=2 b=3", "--json", "--trace-file", file, ...QUICK]);
    assert.equal(run.code, 0, run.stderr);
    const rules = new Map((JSON.parse(run.stdout) as JsonOutput).reports[0]!.eras[0]!.rules.map((rule) => [rule.id, rule.status]));
    assert.equal(rules.get("calls/content-items"), "passed");
    const calls = readFileSync(file, "utf8").trim().split("\n").map((line) =>
      JSON.parse(line) as { kind: string; dir?: string; message?: { method?: string; params?: unknown } }
    )
      .filter((event) => event.kind === "message" && event.dir === "send" && event.message?.method === "tools/call")
      .map((event) => event.message!.params);
    // The JSON-RPC family's call of a tool nobody listed, and the one asked for, its numbers typed.
    assert.deepEqual(calls.filter((params) => (params as { name: string }).name === "add"), [{ name: "add", arguments: { a: 2, b: 3 } }]);
    assert.equal(calls.length, 2);
  });

  test("a server's text reaches the terminal made printable: no escape sequence, no bidi override", async () => {
    const run = await mcpwire(["check", "--stdio", `${DUAL} --break hostile-text`, "--era", "legacy", ...QUICK]);
    assert.equal(run.stdout.includes("\u001b"), false);
    assert.equal(run.stdout.includes("\u202e"), false);
    assert.match(run.stdout, /evil\\x1b\[31m/);
  });

  test("a finding's #N is the N-th message event of the --trace-file", async () => {
    const file = join(dir.path, "check.jsonl");
    const run = await mcpwire(["check", "--stdio", `${DUAL} --break invalid-cursor-accepted`, "--era", "legacy", "--json", "--trace-file", file, ...QUICK]);
    const output = JSON.parse(run.stdout) as JsonOutput;
    const finding = output.reports[0]!.eras[0]!.rules.find((rule) => rule.id === "lists/invalid-cursor")!.findings[0]!;
    const messages = readFileSync(file, "utf8").trim().split("\n").map((line) =>
      JSON.parse(line) as { kind: string; dir?: string; method?: string; message?: unknown }
    )
      .filter((event) => event.kind === "message");
    const traced = messages[finding.seen!.index! - 1]!;
    assert.deepEqual([traced.dir, traced.method], ["receive", "tools/list"]);
    const excerpt = finding.seen!.excerpt!;
    assert.equal(JSON.stringify({ result: (traced.message as { result?: unknown }).result }).slice(0, 100), excerpt.slice(0, 100));
  });

  test("over HTTP a configured header's value is never printed, in text or JSON", async () => {
    const secret = "sk-check-secret-4f1e9a";
    const server = await startPortFixture("check/streamable-http-server.mjs");
    try {
      // echo=1: every error message the server sends quotes the Authorization header it was sent.
      const url = `${server.origin}/mcp?echo=1`;
      // Text on the 2026-07-28 era, JSON on the handshake era: every path, each once.
      for (const format of [["--era", "modern"], ["--json", "--era", "legacy"]]) {
        const run = await mcpwire(["check", "--http", url, "--header", `Authorization: Bearer ${secret}`, ...format, ...QUICK]);
        assert.ok(run.stdout.length > 0, run.stderr);
        assert.equal(run.stdout.includes(secret), false, "stdout");
        assert.equal(run.stderr.includes(secret), false, "stderr");
      }
    } finally {
      await server.stop();
    }
  });

  test("a server that cannot be reached: it says why and exits 3", async () => {
    const run = await mcpwire(["check", "--stdio", `node -e "process.exit(3)"`, ...QUICK]);
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stdout, /could not check it/);
  });
});
