// The table `mcpwire trace show --explain` reads (src/cli/trace/method-guide.ts): every entry has a
// sentence and a citation of a spec section, and every method of the spec's own examples
// (test/fixtures/spec-examples) is in it; `--method` patterns.

import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { METHOD_GUIDE, methodGuide } from "../../src/cli/trace/method-guide.ts";
import { methodMatches } from "../../src/cli/verbs/trace-verb.ts";

const EXAMPLES = fileURLToPath(new URL("../fixtures/spec-examples/", import.meta.url));

/** Every `"method"` of the JSON files under `dir`. */
async function exampleMethods(dir: string, into = new Set<string>()): Promise<Set<string>> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await exampleMethods(path, into);
    else if (entry.name.endsWith(".json")) {
      for (const match of (await readFile(path, "utf8")).matchAll(/"method"\s*:\s*"([^"]+)"/g)) into.add(match[1]!);
    }
  }
  return into;
}

describe("method guide", () => {
  test("every entry has a sentence and a spec citation", () => {
    const entries = Object.entries(METHOD_GUIDE);
    assert.ok(entries.length >= 30, `${entries.length} entries`);
    for (const [method, entry] of entries) {
      assert.ok(entry.text.trim().length > 0, `${method}: no text`);
      assert.match(entry.spec, /^spec (2024-11-05|2025-11-25|2026-07-28) [a-z/_-]+$/, method);
    }
  });

  test("covers every method of the spec examples and of both schemas' requests and notifications", async () => {
    const methods = await exampleMethods(EXAMPLES);
    assert.ok(methods.size > 10, [...methods].join(", "));
    for (const method of methods) assert.ok(methodGuide(method) !== undefined, `${method} is not in the guide`);
    // The 2025-11-25 schema's methods that the 2026-07-28 examples do not show.
    const only2025 = [
      "initialize",
      "notifications/initialized",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
      "notifications/roots/list_changed",
      "notifications/elicitation/complete",
      "tasks/get",
      "tasks/result",
      "tasks/list",
      "tasks/cancel",
      "notifications/tasks/status",
    ];
    for (const method of only2025) assert.ok(methodGuide(method) !== undefined, method);
    assert.equal(methodGuide("constructor"), undefined);
    assert.equal(methodGuide("x/custom"), undefined);
  });

  test("--method: exact, a family ending in / or *", () => {
    assert.ok(methodMatches("tools/call", "tools/call"));
    assert.ok(!methodMatches("tools/call", "tools/list"));
    assert.ok(methodMatches("tools/*", "tools/list"));
    assert.ok(methodMatches("tools/", "tools/call"));
    assert.ok(!methodMatches("tools/", "notifications/tools/list_changed"));
    assert.ok(methodMatches("notifications/*", "notifications/progress"));
    assert.ok(!methodMatches("tools/*", undefined));
  });
});
