// What the runner reads back from a conformance suite run, for both sides (run.ts: client
// scenarios; server-side.ts: server scenarios): the per-scenario checks.json files, the
// baseline's entries, and the suite's own baseline report on stdout.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { parse as parseYaml } from "yaml";

export interface Check {
  id: string;
  name?: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  dir: string;
  checks: Check[];
}

export function stripAnsi(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

/** The scenario names listed under a heading of the suite's baseline report, e.g. "Stale baseline entries". */
export function listedUnder(output: string, heading: string): string[] {
  const names: string[] = [];
  let inside = false;
  for (const line of stripAnsi(output).split("\n")) {
    if (line.startsWith(heading)) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    const match = /^ {2}[✓✗~] (.+)$/.exec(line);
    if (match === null) {
      if (line.trim() === "") continue;
      inside = false;
      continue;
    }
    names.push(match[1]!.trim());
  }
  return names;
}

/**
 * results/<run>/<scenario>-<time>/checks.json, one per scenario that ran. The suite names a
 * server scenario's directory `server-<scenario>-<time>`: `prefix` "server-" takes that off.
 */
export function readResults(outDir: string, prefix = ""): ScenarioResult[] {
  if (!existsSync(outDir)) return [];
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(outDir, { recursive: true })) {
    const path = String(entry);
    if (!path.endsWith("checks.json")) continue;
    const dir = dirname(path);
    let scenario = dir.replace(/\\/g, "/").replace(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/, "");
    if (prefix !== "" && scenario.startsWith(prefix)) scenario = scenario.slice(prefix.length);
    try {
      const checks = JSON.parse(readFileSync(join(outDir, path), "utf8")) as Check[];
      results.push({ scenario, dir: join(outDir, dir), checks });
    } catch (error) {
      process.stderr.write(`npm run conformance: cannot read ${join(outDir, path)}: ${String(error)}\n`);
    }
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

export function isFailing(check: Check): boolean {
  return check.status === "FAILURE" || check.status === "WARNING";
}

export function oneLine(text: string, max = 150): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The entries of a baseline file (`client:` or `server: [scenario, scenario:check-id, …]`); the suite validates its shape. */
export function readBaseline(file: string, side: "client" | "server" = "client"): { scenarios: Set<string>; checks: Set<string> } {
  const scenarios = new Set<string>();
  const checks = new Set<string>();
  if (!existsSync(file)) return { scenarios, checks };
  const parsed: unknown = parseYaml(readFileSync(file, "utf8"));
  const listed = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)[side] : undefined;
  if (Array.isArray(listed)) {
    for (const entry of listed) {
      if (typeof entry !== "string") continue;
      (entry.includes(":") ? checks : scenarios).add(entry);
    }
  }
  return { scenarios, checks };
}
