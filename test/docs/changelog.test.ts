// CHANGELOG.md (Keep a Changelog 1.1.0) and the version: package.json, deno.json, the CLI's
// VERSION and the host's default clientInfo name one version, and the changelog has a section
// for it, dated, with only the standard kinds of change (plus "Breaking changes").

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { VERSION } from "../../src/cli/version.ts";
import { DEFAULT_MANAGER_CLIENT_INFO } from "../../src/host/servers/manager.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const PACKAGE = JSON.parse(read("package.json")) as { version: string };

test("package.json, deno.json, the CLI and the host's clientInfo name the same version", () => {
  const deno = JSON.parse(read("deno.json")) as { version: string };
  assert.deepEqual(
    { deno: deno.version, cli: VERSION, clientInfo: DEFAULT_MANAGER_CLIENT_INFO.version },
    { deno: PACKAGE.version, cli: PACKAGE.version, clientInfo: PACKAGE.version },
  );
});

test("CHANGELOG.md: Unreleased, then a dated section for the package's version, each of the standard kinds", () => {
  const changelog = read("CHANGELOG.md");
  const versions = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((match) => [match[1], match[2] ?? ""]);
  assert.deepEqual(versions[0], ["Unreleased", ""]);
  assert.equal(versions[1]?.[0], PACKAGE.version, "the newest released section is the package's version: move both together");
  assert.match(versions[1]?.[1] ?? "", /^\d{4}-\d{2}-\d{2}$/);
  const kinds = [...changelog.matchAll(/^### (.+)$/gm)].map((match) => match[1]!);
  const allowed = new Set(["Breaking changes", "Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]);
  assert.deepEqual(kinds.filter((kind) => !allowed.has(kind)), []);
});
