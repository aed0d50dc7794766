// Tool search in the Runner, over a real stdio server with 200 tools (test/fixtures/many-tools-server.mjs)
// and a scripted model: past the budget the model gets search_tools instead of 200 schemas, finds
// the tool it needs, gets its full schema on the next step and calls it — through approval and
// hooks like any tool. Under the budget, or with search off, every tool is offered as before.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { ApproveFunction } from "../../src/agent/approval.ts";
import { Hooks } from "../../src/agent/hooks.ts";
import type { ChatRequest } from "../../src/agent/providers/types.ts";
import { Runner, type RunnerEvent } from "../../src/agent/runner.ts";
import { definitionBytes, TOOL_SEARCH_NAME, ToolSearch } from "../../src/agent/tool-search.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const MANY = fixturePath("many-tools-server.mjs");

function resultOf(content: string): { result?: string; error?: string } {
  return JSON.parse(content) as { result?: string; error?: string };
}

function names(request: ChatRequest): string[] {
  return request.tools.map((tool) => tool.name);
}

describe("tool search past the budget (200 tools of server many)", () => {
  let manager: McpManager;
  before(async () => {
    manager = new McpManager(configOf(stdioServerConfig("many", [MANY]), stdioServerConfig("few", [MANY, "--tools", "3"])));
    await hangGuard(manager.start(), 20_000, "manager.start()");
  });
  after(() => manager.close());

  test("a task needing a tool found by search completes: search, full schema next step, call, answer", async () => {
    const approvals: string[] = [];
    const approve: ApproveFunction = ({ tool }) => (approvals.push(tool.name), true);
    const events: RunnerEvent[] = [];
    const provider = new ScriptedProvider([
      callTools({ name: TOOL_SEARCH_NAME, arguments: { query: "create issue" } }),
      callTools({ name: "mcp_many_create_issue", arguments: { owner: "octo", repo: "demo", title: "Search works" } }),
      answer((request) => `done: ${resultOf(toolResults(request).at(-1)!).result}`),
    ]);
    const runner = new Runner({ provider, registry: manager.registry, approve, onEvent: (event) => events.push(event) });
    const text = await hangGuard(runner.run("open an issue titled 'Search works' in octo/demo"), 20_000, "run()");
    assert.equal(text, "done: created issue #42 in octo/demo: Search works");

    const [first, second, third] = provider.requests;
    // Step 1: 203 tools are past the budget, so every MCP tool waits for search; only search_tools is offered,
    // its description naming the servers (in the order they connected).
    assert.deepEqual(names(first!), [TOOL_SEARCH_NAME]);
    assert.match(first!.tools[0]!.description, /203 more tools .* from the servers (many \(200\), few \(3\)|few \(3\), many \(200\))\./);
    // Step 2: the tools the search found are offered with their full schemas, the search tool still first.
    assert.equal(names(second!)[0], TOOL_SEARCH_NAME);
    assert.ok(names(second!).includes("mcp_many_create_issue"));
    assert.ok(second!.tools.length <= 1 + 8, `at most 8 found: ${names(second!).join(", ")}`);
    const schema = second!.tools.find((tool) => tool.name === "mcp_many_create_issue")!;
    assert.deepEqual((schema.parameters as { required?: string[] }).required, ["owner", "repo", "title"]);
    // Step 3 keeps them (for the rest of the run).
    assert.ok(names(third!).includes("mcp_many_create_issue"));

    const found = resultOf(toolResults(second!).at(-1)!).result!;
    assert.match(found, /^- mcp_many_create_issue \(server many\): Creates an issue/m);
    assert.match(found, /\[parameters: owner, repo, title, body, labels\]/);
    assert.ok(found.indexOf("mcp_many_create_issue") < found.indexOf("mcp_many_update_issue") || !found.includes("update_issue"));
    // The found tool went through approval like any other; the search itself needs none.
    assert.deepEqual(approvals, ["mcp_many_create_issue"]);
    const request = events.find((event) => event.type === "request");
    assert.ok(request?.type === "request" && request.tools === 1 && request.deferredTools === 203);
    assert.ok(events.some((event) => event.type === "tool-result" && event.call.name === TOOL_SEARCH_NAME && !event.isError));
  });

  test("a PreToolUse hook sees and can block a found tool, as any other", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpwire-search-hook-"));
    try {
      const seen = join(dir, "pre.json");
      const hooks = new Hooks({ PreToolUse: [{ matcher: "delete_", command: `cat > '${seen}'; echo "no deleting today" >&2; exit 2` }] });
      const provider = new ScriptedProvider([
        callTools({ name: TOOL_SEARCH_NAME, arguments: { query: "delete repository" } }),
        callTools({ name: "mcp_many_delete_repository", arguments: { owner: "octo", repo: "demo", id: 1, confirm: true } }),
        answer("stopped"),
      ]);
      const runner = new Runner({ provider, registry: manager.registry, hooks });
      await hangGuard(runner.run("delete octo/demo"), 20_000, "run()");
      const blocked = resultOf(toolResults(provider.requests[2]!).at(-1)!);
      assert.match(blocked.error!, /PreToolUse hook blocked this call to "mcp_many_delete_repository": no deleting today/);
      assert.equal((JSON.parse(readFileSync(seen, "utf8")) as { tool_name: string }).tool_name, "mcp_many_delete_repository");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a query that matches nothing says so, suggests broader words and names the servers", async () => {
    const provider = new ScriptedProvider([callTools({ name: TOOL_SEARCH_NAME, arguments: { query: "quantum teleportation" } }), answer("ok")]);
    const runner = new Runner({ provider, registry: manager.registry });
    await hangGuard(runner.run("teleport me"), 20_000, "run()");
    const content = toolResults(provider.requests[1]!).at(-1)!;
    const { result } = resultOf(content);
    assert.match(result!, /^No tool matches "quantum teleportation"\. Try fewer or broader words/);
    assert.match(result!, /Servers: (many \(200 tools\), few \(3 tools\)|few \(3 tools\), many \(200 tools\))\./);
    assert.deepEqual(names(provider.requests[1]!), [TOOL_SEARCH_NAME], "nothing found, nothing more offered");
  });

  for (
    const [what, args, message] of [
      ["no query", {}, /"query" must be a non-empty string of words/],
      ["a blank query", { query: "   " }, /"query" must be a non-empty string/],
      ["a query that is not a string", { query: ["issue"] }, /"query" must be a non-empty string/],
      ["a limit out of range", { query: "issue", limit: 500 }, /"limit" must be a whole number from 1 to 25/],
      ["a limit that is not whole", { query: "issue", limit: 2.5 }, /"limit" must be a whole number/],
      ["arguments that are not JSON", "{query:", /the arguments must be a JSON object/],
    ] as const
  ) {
    test(`the search tool answers ${what} with an error the model can act on`, async () => {
      const provider = new ScriptedProvider([callTools({ name: TOOL_SEARCH_NAME, arguments: args as never }), answer("ok")]);
      const events: RunnerEvent[] = [];
      const runner = new Runner({ provider, registry: manager.registry, onEvent: (event) => events.push(event) });
      await hangGuard(runner.run("find"), 20_000, "run()");
      const { error } = resultOf(toolResults(provider.requests[1]!).at(-1)!);
      assert.match(error!, message);
      assert.match(error!, /^search_tools: /);
      assert.ok(events.some((event) => event.type === "tool-result" && event.isError));
    });
  }

  test("limit and ranking: the exact words rank the matching tool first; a server's name lists its tools", async () => {
    const search = new ToolSearch();
    search.offer(manager.registry);
    const top = resultOf(search.answer({ query: "list pull requests", limit: 3 }, manager.registry).content).result!;
    const lines = top.split("\n").slice(1);
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^- mcp_many_list_pull_request /);
    const byServer = resultOf(search.answer({ query: "few" }, manager.registry).content).result!;
    assert.match(byServer, /^3 tools match "few"/);
    assert.ok(byServer.split("\n").slice(1).every((line) => line.includes("(server few)")));
    const byParameter = resultOf(search.answer({ query: "lock_reason", limit: 1 }, manager.registry).content).result!;
    assert.match(byParameter, /^- mcp_many_lock_/m);
  });

  test("calling a held-back tool without searching: told to call again, and its schema is offered next step", async () => {
    const provider = new ScriptedProvider([
      callTools({ name: "mcp_many_get_issue", arguments: { owner: "octo", repo: "demo", id: 7 } }),
      callTools({ name: "mcp_many_get_issue", arguments: { owner: "octo", repo: "demo", id: 7 } }),
      answer("ok"),
    ]);
    const runner = new Runner({ provider, registry: manager.registry });
    await hangGuard(runner.run("get issue 7"), 20_000, "run()");
    const first = resultOf(toolResults(provider.requests[1]!).at(-1)!);
    assert.match(first.error!, /tool "mcp_many_get_issue" was not loaded yet.*did not run.*call it again/);
    assert.ok(names(provider.requests[1]!).includes("mcp_many_get_issue"));
    const second = resultOf(toolResults(provider.requests[2]!).at(-1)!);
    assert.match(second.result!, /"verb":"get","thing":"issue"/);
  });

  test("found tools stay for the conversation and are forgotten by clearHistory()", async () => {
    const provider = new ScriptedProvider([
      callTools({ name: TOOL_SEARCH_NAME, arguments: { query: "milestone", limit: 2 } }),
      answer("found"),
      answer("still here"),
      answer("cleared"),
    ]);
    const runner = new Runner({ provider, registry: manager.registry });
    await runner.run("find milestones");
    await runner.run("next");
    assert.equal(provider.requests[2]!.tools.length, 3, "the search tool and the 2 found");
    runner.clearHistory();
    await runner.run("again");
    assert.deepEqual(names(provider.requests[3]!), [TOOL_SEARCH_NAME]);
  });

  test("mode off: all 203 schemas on every request (the old behaviour)", async () => {
    const provider = new ScriptedProvider([answer("ok")]);
    const runner = new Runner({ provider, registry: manager.registry, toolSearch: false });
    await runner.run("hi");
    assert.equal(provider.requests[0]!.tools.length, 203);
    assert.ok(!names(provider.requests[0]!).includes(TOOL_SEARCH_NAME));
  });

  test("calling search_tools when it is not offered is an unknown tool", async () => {
    const provider = new ScriptedProvider([callTools({ name: TOOL_SEARCH_NAME, arguments: { query: "issue" } }), answer("ok")]);
    const runner = new Runner({ provider, registry: manager.registry, toolSearch: { mode: "off" } });
    await runner.run("hi");
    assert.match(resultOf(toolResults(provider.requests[1]!).at(-1)!).error!, /unknown tool "search_tools"/);
  });
});

describe("the budget", () => {
  let manager: McpManager;
  before(async () => {
    manager = new McpManager(configOf(stdioServerConfig("few", [MANY, "--tools", "5"])));
    await hangGuard(manager.start(), 20_000, "manager.start()");
  });
  after(() => manager.close());

  test("under the default budget (5 tools, a few KB) every tool is offered and there is no search tool", async () => {
    const provider = new ScriptedProvider([answer("ok")]);
    await new Runner({ provider, registry: manager.registry }).run("hi");
    assert.equal(provider.requests[0]!.tools.length, 5);
    assert.ok(definitionBytes(provider.requests[0]!.tools) < 40_000);
  });

  test("past the byte budget (max_schema_bytes) even a few tools are searched for", () => {
    const search = new ToolSearch({ maxTools: 100, maxSchemaBytes: 1_000 });
    const offer = search.offer(manager.registry);
    assert.deepEqual(offer.tools.map((tool) => tool.name), [TOOL_SEARCH_NAME]);
    assert.equal(offer.deferred, 5);
  });

  test("past the count budget (max_tools)", () => {
    assert.equal(new ToolSearch({ maxTools: 4 }).offer(manager.registry).deferred, 5);
    assert.equal(new ToolSearch({ maxTools: 5 }).offer(manager.registry).deferred, 0);
  });

  test("mode always: searched for whatever the count; built-in tools stay offered; a taken name gets another", () => {
    const registry = manager.registry;
    registry.register({ name: "search_tools", description: "a built-in of the embedder", handler: () => "mine" });
    try {
      const offer = new ToolSearch({ mode: "always" }).offer(registry);
      assert.deepEqual(offer.tools.map((tool) => tool.name), ["mcpwire_search_tools", "search_tools"]);
    } finally {
      registry.unregister("search_tools");
    }
  });

  for (
    const [what, options, message] of [
      ["an unknown mode", { mode: "sometimes" }, /toolSearch\.mode must be one of auto, always, off/],
      ["a negative max_tools", { maxTools: -1 }, /toolSearch\.maxTools must be a whole number of at least 0/],
      ["a fractional max_schema_bytes", { maxSchemaBytes: 1.5 }, /toolSearch\.maxSchemaBytes must be a whole number/],
      ["max_results 0", { maxResults: 0 }, /toolSearch\.maxResults must be a whole number of at least 1/],
    ] as const
  ) {
    test(`new Runner refuses ${what}`, () => {
      const provider = new ScriptedProvider([]);
      assert.throws(() => new Runner({ provider, registry: manager.registry, toolSearch: options as never }), message);
    });
  }
});
