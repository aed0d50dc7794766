// docs/config.md's reference of every config key (issue 31) against `mcpwire help config`
// (src/cli/verbs/config-verb.ts, written from the schema in src/host/config/schema.ts): every key
// the help lists has a row in the page's reference tables with the help's type and default, and
// the page lists no key the help does not. A key added to the schema without its row fails here.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { configHelp } from "../../src/cli/verbs/config-verb.ts";

const PAGE = "docs/config.md";
const page = readFileSync(new URL("../../docs/config.md", import.meta.url), "utf8");

/** One key of `mcpwire help config`: its name as the page writes it, its type, its default. */
interface HelpKey {
  section: "top" | "server";
  key: string;
  type: string;
  default?: string;
}

/** The keys of the help text: lines `  key: type` (4 spaces for a sub-key) under each heading. */
function helpKeys(): HelpKey[] {
  const keys: HelpKey[] = [];
  let section: HelpKey["section"] | undefined;
  for (const line of configHelp().split("\n")) {
    if (line === "Top level:") section = "top";
    else if (line.startsWith("Each server")) section = "server";
    if (section === undefined) continue;
    const entry = /^(?: {2}| {4})([^ ].*?): (.*)$/.exec(line);
    if (entry !== null && !/^\s+(default|example):/.test(line)) {
      // `mcp_servers (JSON: mcpServers): mapping or null` names its JSON spelling in the key.
      const [key, type] = entry[1]!.startsWith("mcp_servers (") ? ["mcp_servers", entry[2]!.replace(/^mcpServers\): /, "")] : [entry[1]!, entry[2]!];
      keys.push({ section, key, type });
      continue;
    }
    const fallback = /^\s+default: (.*)$/.exec(line);
    const last = keys.at(-1);
    if (fallback !== null && last !== undefined) last.default = fallback[1]!;
  }
  return keys;
}

/** The rows of the page's two reference tables, by section, key → cells. */
function pageRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  const reference = page.slice(page.indexOf("\n## Reference"));
  assert.ok(reference.length > 20, `${PAGE} has no "## Reference" section`);
  let section: HelpKey["section"] | undefined;
  for (const line of reference.split("\n")) {
    if (line.startsWith("### Top level")) section = "top";
    else if (line.startsWith("### Each server")) section = "server";
    else if (line.startsWith("## ") && !line.startsWith("## Reference")) section = undefined;
    const row = /^\| `([^`]+)`/.exec(line);
    if (section === undefined || row === null) continue;
    // Cells split on | not escaped as \|.
    const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
    rows.set(`${section} ${row[1]}`, cells);
  }
  return rows;
}

test("docs/config.md has a row for every key mcpwire help config lists, with its type and default", () => {
  const rows = pageRows();
  const keys = helpKeys();
  assert.ok(keys.length > 60, `mcpwire help config lists ${keys.length} keys; the parser of its text is out of date`);
  const problems: string[] = [];
  for (const { section, key, type, default: fallback } of keys) {
    const cells = rows.get(`${section} ${key}`);
    if (cells === undefined) {
      problems.push(`${section === "top" ? "top-level" : "server"} key ${key} has no row (help: ${type})`);
      continue;
    }
    if (cells[1] !== type) problems.push(`${key}: type "${cells[1]}" on the page, "${type}" in the help`);
    if (fallback !== undefined && cells[2] !== `\`${fallback}\``) problems.push(`${key}: default ${cells[2] || "(none)"} on the page, ${fallback} in the help`);
  }
  assert.deepEqual(problems, [], `${PAGE}'s reference has drifted from mcpwire help config:\n  ${problems.join("\n  ")}`);
});

test("docs/config.md lists no key that mcpwire help config does not", () => {
  const known = new Set(helpKeys().map(({ section, key }) => `${section} ${key}`));
  const extra = [...pageRows().keys()].filter((key) => !known.has(key));
  assert.deepEqual(extra, [], `${PAGE}'s reference lists keys the schema does not have`);
});
