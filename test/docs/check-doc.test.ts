// docs/check.md's table of rules and the code's catalogue (src/check/families.ts checkRules) in
// step: each rule on a row with its level, what holds and its citation; no row for a rule that
// is not there.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { checkRules, citationText } from "../../src/check/mod.ts";

const DOC = readFileSync(new URL("../../docs/check.md", import.meta.url), "utf8");
const ROWS = new Map([...DOC.matchAll(/^\| `([a-z-]+\/[a-z0-9-]+)` \| (MUST|SHOULD|MAY) \| (.*) \| (.*) \|$/gm)].map((match) => [match[1]!, match]));

describe("docs/check.md", () => {
  test("every rule of the catalogue has its row: its level, what holds, its citation", () => {
    for (const rule of checkRules()) {
      const row = ROWS.get(rule.id);
      assert.ok(row !== undefined, `docs/check.md has no row for ${rule.id}`);
      assert.equal(row[2], rule.level, rule.id);
      assert.equal(row[3]!.replaceAll("\\|", "|"), rule.title, rule.id);
      assert.equal(row[4]!.replaceAll("\\|", "|"), citationText(rule.spec), rule.id);
    }
  });

  test("no row names a rule the code does not have; the count it gives is the catalogue's", () => {
    const ids = new Set(checkRules().map((rule) => rule.id));
    assert.deepEqual([...ROWS.keys()].filter((id) => !ids.has(id)), []);
    const rules = checkRules();
    const count = (level: string) => rules.filter((rule) => rule.level === level).length;
    assert.match(DOC, new RegExp(`^${rules.length} rules: ${count("MUST")} MUST, ${count("SHOULD")} SHOULD, ${count("MAY")} MAY\\.$`, "m"));
  });
});
