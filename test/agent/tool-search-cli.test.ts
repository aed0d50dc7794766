// `mcpwire run` end to end (a real child process, the OpenAI provider against a loopback fake
// OpenAI API, the 200-tool fixture server over stdio): tool search on by default past the budget,
// off with `tool_search: false`; a long result saved under $XDG_CACHE_HOME/mcpwire/results (a
// temporary directory here), or not at all with `results: false`, nor through a symbolic link there.

import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { before, test } from "node:test";
import { mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { type FakeStep, refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";
import { fixturePath } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-search-cli-");
let nowhere = "";
before(async () => {
  nowhere = await refusedOrigin();
});

/** No model key from the environment, no Ollama, and a cache directory of our own. */
function childEnv(cache: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, OLLAMA_HOST: nowhere, XDG_CACHE_HOME: cache };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"]) delete env[name];
  return env;
}

let cases = 0;
async function runWith(steps: FakeStep[], extra: string[], prepare?: (cache: string) => void) {
  const api = await startFakeModelApi("openai", steps);
  const dir = join(scratch.path, `case-${++cases}`);
  prepare?.(dir);
  try {
    const config = await writeConfig(scratch.path, `case-${cases}.yaml`, [
      "providers:",
      "  openai:",
      `    base_url: ${JSON.stringify(api.url)}`,
      ...extra,
      "mcp_servers:",
      "  many:",
      "    command: node",
      `    args: [${JSON.stringify(fixturePath("many-tools-server.mjs"))}]`,
    ]);
    const outcome = await mcpwire(["run", "-p", "open the issue, then export", "--model", "openai/any", "--yes", "--config", config], {
      env: childEnv(dir),
    });
    return { ...outcome, requests: api.requests, cache: join(dir, "mcpwire", "results") };
  } finally {
    await api.close();
  }
}

const names = (body: Record<string, unknown>) => (body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
const lastResult = (request: { toolResults: Array<{ content: string }> }) => request.toolResults.at(-1)?.content ?? "";

test("run: past the budget the model searches, calls what it found, and a long result is saved under XDG_CACHE_HOME", async () => {
  const { code, stdout, stderr, requests, cache } = await runWith([
    { toolCalls: [{ name: "search_tools", arguments: { query: "create issue", limit: 2 } }] },
    { toolCalls: [{ name: "mcp_many_create_issue", arguments: { owner: "octo", repo: "demo", title: "via search" } }] },
    { toolCalls: [{ name: "search_tools", arguments: { query: "export issues" } }] },
    { toolCalls: [{ name: "mcp_many_export_issue", arguments: { owner: "octo", repo: "demo", id: 1 } }] },
    (request) => ({ text: `Done. ${JSON.parse(lastResult(request)).result.split("\n")[0]}` }),
  ], []);
  assert.equal(code, 0, stderr);
  assert.deepEqual(names(requests[0]!.body), ["search_tools"]);
  // The 2 best matches of "create issue", the exact one first (the second matches one word in its name, one in its description).
  assert.deepEqual(names(requests[1]!.body).slice(0, 2), ["search_tools", "mcp_many_create_issue"]);
  assert.equal(names(requests[1]!.body).length, 3);
  assert.match(lastResult(requests[2]!), /created issue #42 in octo\/demo: via search/);
  assert.ok(names(requests[4]!.body).includes("mcp_many_export_issue"));
  assert.match(stderr, /→ search_tools \{"query":"create issue","limit":2\}/);
  assert.match(stderr, /← mcp_many_create_issue \d+ ms/);
  // The long export: the model got the path of the whole, inside the temporary XDG_CACHE_HOME.
  const path = /in the file (\S+);/.exec(stdout)?.[1];
  assert.ok(path !== undefined && path.startsWith(cache + "/"), stdout);
  assert.ok(readFileSync(path, "utf8").endsWith("\nEND EXPORT"));
});

test("run: tool_search: false sends every tool's schema; results: false writes no file", async () => {
  const { code, stderr, requests, cache } = await runWith([
    { toolCalls: [{ name: "mcp_many_export_issue", arguments: { owner: "octo", repo: "demo", id: 1 } }] },
    { text: "done" },
  ], ["tool_search: false", "results: false"]);
  assert.equal(code, 0, stderr);
  assert.equal(names(requests[0]!.body).length, 200);
  assert.ok(!names(requests[0]!.body).includes("search_tools"));
  assert.match(lastResult(requests[1]!), /characters cut/);
  assert.ok(!existsSync(cache) || readdirSync(cache).length === 0);
});

test("run: a $XDG_CACHE_HOME/mcpwire/results that is a symbolic link is refused: not chmod'ed, nothing written, a warning, the cut result", {
  skip: process.platform === "win32",
}, async () => {
  const victim = join(scratch.path, "victim");
  const { code, stderr, requests, cache } = await runWith(
    [
      { toolCalls: [{ name: "mcp_many_export_issue", arguments: { owner: "octo", repo: "demo", id: 1 } }] },
      { text: "done" },
    ],
    ["tool_search: false"],
    (dir) => {
      mkdirSync(victim, { recursive: true });
      chmodSync(victim, 0o755);
      mkdirSync(join(dir, "mcpwire"), { recursive: true });
      symlinkSync(victim, join(dir, "mcpwire", "results"));
    },
  );
  assert.equal(code, 0, stderr);
  assert.equal(statSync(victim).mode & 0o777, 0o755, "the directory the link points to is not chmod'ed");
  assert.deepEqual(readdirSync(victim), [], "nothing is written through the link");
  assert.ok(stderr.includes(`refusing the results directory ${cache}: it is a symbolic link`), stderr);
  assert.match(lastResult(requests[1]!), /characters cut/);
  assert.ok(!lastResult(requests[1]!).includes("in the file"));
});
