// checkServer (src/check/check-server.ts, docs/check.md): every family run in each era the
// server offers, one report. Against test/fixtures/check/dual-era-server.mjs: conformant, it
// breaks no rule in either era; broken on purpose, the rule it breaks fails and the verdict with
// it; given a bare transport, what needs the server again is skipped, saying so.

import "../support/test-env.ts";
import assert from "node:assert/strict";
import process from "node:process";
import { describe, test } from "node:test";
import { type CheckReport, checkRules, checkServer, reportPasses, reportText } from "../../src/check/mod.ts";
import { AREAS } from "../../src/check/rule.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import { dualEra } from "../support/dual-era.ts";

const TIMEOUT = 5000;

function failed(report: CheckReport): string[] {
  return report.eras.flatMap((era) => era.rules.filter((rule) => rule.status === "failed").map((rule) => `${era.era} ${rule.id}`));
}

describe("checkServer", () => {
  test("a conformant dual-era server: both eras checked, no rule broken, every family ran", async () => {
    const report = await checkServer(dualEra(), { timeoutMs: TIMEOUT });
    assert.equal(report.error, undefined);
    assert.deepEqual(report.erasOffered, ["modern", "legacy"]);
    assert.deepEqual(report.eras.map((era) => [era.era, era.protocolVersion]), [["modern", "2026-07-28"], ["legacy", "2025-11-25"]]);
    assert.deepEqual(failed(report), []);
    assert.ok(reportPasses(report, true));
    for (const era of report.eras) {
      assert.equal(era.problems, undefined, `${era.era}: ${era.problems?.join("; ")}`);
      // Each area judged something (calls are skipped: no tool is called unless asked).
      const judged = new Set(era.rules.filter((rule) => rule.status === "passed").map((rule) => rule.area));
      assert.deepEqual(AREAS.filter((area) => !judged.has(area)), ["calls"], era.era);
    }
    assert.equal(report.summary.must + report.summary.should + report.summary.may, 0);
    assert.ok(report.summary.checks > 60, String(report.summary.checks));
    assert.match(reportText(report), /^\d+ checks, 0 MUST broken, 0 SHOULD broken \(0 MAY noted, \d+ skipped\) in \d+\.\d s$/m);
  });

  test("a MUST broken in one era fails that rule in that era, and the verdict", async () => {
    const report = await checkServer(dualEra(["list-no-cache-fields"]), { timeoutMs: TIMEOUT });
    assert.deepEqual(failed(report), ["modern schema/result"]);
    assert.equal(report.summary.must, 1);
    assert.equal(reportPasses(report), false);
    const rule = report.eras[0]!.rules.find((each) => each.id === "schema/result")!;
    assert.equal(rule.level, "MUST");
    assert.deepEqual(rule.spec, { source: "2026-07-28", page: "schema" });
    const finding = rule.findings[0]!;
    assert.equal(finding.seen?.pointer, "/result");
    assert.match(finding.detail, /required property '(cacheScope|ttlMs)' \(ListToolsResult/);
    assert.ok(typeof finding.seen?.index === "number" && finding.seen.index > 0);
  });

  test("only SHOULDs broken: passes, and fails with strict", async () => {
    const report = await checkServer(dualEra(["invalid-cursor-accepted"]), { era: "legacy", timeoutMs: TIMEOUT });
    assert.deepEqual(failed(report), ["legacy lists/invalid-cursor"]);
    assert.equal(reportPasses(report), true);
    assert.equal(reportPasses(report, true), false);
  });

  test("a bare transport: one session, in the era a client negotiates; what needs the server again is skipped, saying why", async () => {
    const target = dualEra();
    assert.equal(target.kind, "stdio");
    const transport = new StdioTransport(target.stdio);
    const report = await checkServer(transport, { timeoutMs: TIMEOUT });
    assert.deepEqual(report.erasOffered, []);
    assert.deepEqual(report.eras.map((era) => era.era), ["modern"]);
    assert.deepEqual(failed(report), []);
    const rules = new Map(report.eras[0]!.rules.map((rule) => [rule.id, rule]));
    assert.equal(rules.get("lifecycle/unsupported-version")?.status, "skipped");
    assert.match(rules.get("lifecycle/unsupported-version")?.reason ?? "", /one transport/);
    assert.equal([...rules.keys()].some((id) => id.startsWith("transport/")), false, "no transport probe without a target");
  });

  test("a server that cannot be reached: report.error says why, nothing judged, the verdict fails", async () => {
    const report = await checkServer({ kind: "stdio", stdio: { command: process.execPath, args: ["-e", "process.exit(3)"] } }, { timeoutMs: TIMEOUT });
    assert.match(report.error ?? "", /exited with code 3|exit/);
    assert.deepEqual(report.eras, []);
    assert.equal(reportPasses(report), false);
    assert.match(reportText(report), /could not check it/);
  });

  test("the catalogue: ids unique and well formed, every rule cited with a level and what to change", () => {
    const rules = checkRules();
    const ids = rules.map((rule) => rule.id);
    assert.deepEqual(ids.filter((id, at) => ids.indexOf(id) !== at), []);
    for (const rule of rules) {
      assert.match(rule.id, /^[a-z-]+\/[a-z0-9-]+$/, rule.id);
      assert.ok((AREAS as readonly string[]).includes(rule.area), rule.id);
      assert.ok(["MUST", "SHOULD", "MAY"].includes(rule.level), rule.id);
      assert.ok(rule.title.length > 10 && rule.fix.length > 10, rule.id);
      assert.ok(rule.spec.page.length > 0, rule.id);
    }
  });
});
