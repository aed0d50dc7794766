// Tool-definition bytes per model request, before and after tool search (issue 18): the example
// config's three servers (examples/mcpwire.yaml) plus 200 tools from a fixture server
// (test/fixtures/many-tools-server.mjs), one task that needs one of those 200 tools, run through
// the real OpenAI and Anthropic providers against loopback stand-ins of their APIs
// (test/support/fake-model-apis.ts) that record each request body as it went over the wire.
//
//   node --import tsx bench/tool-search-bytes.ts
//
// "tools bytes" is the UTF-8 size of the request's `tools` array as the provider sent it;
// "body bytes" the whole request body (history included).

import { fileURLToPath } from "node:url";
import { createProvider } from "../src/agent/providers/mod.ts";
import { Runner } from "../src/agent/runner.ts";
import { TOOL_SEARCH_NAME, type ToolSearchOptions } from "../src/agent/tool-search.ts";
import { loadConfig } from "../src/host/config/load.ts";
import { McpManager } from "../src/host/servers/manager.ts";
import { type FakeApiKind, startFakeModelApi } from "../test/support/fake-model-apis.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MANY = fileURLToPath(new URL("../test/fixtures/many-tools-server.mjs", import.meta.url));
const ISSUE = { owner: "octo", repo: "demo", title: "Search works" };

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

const config = await loadConfig({ path: "examples/mcpwire.yaml", cwd: ROOT });
config.servers.push({
  name: "many",
  transport: "stdio",
  command: "node",
  args: [MANY],
  env: {},
  headers: {},
  tools: {},
  enabled: true,
  timeoutMs: 30_000,
  connectTimeoutMs: 30_000,
});
const manager = new McpManager(config);
await manager.start();
const total = manager.registry.list().length;
console.log(`registered tools: ${total} (${manager.registry.toolsets().map((set) => `${set.name} ${set.tools}`).join(", ")})`);

const rows: string[] = [];
try {
  for (const kind of ["openai", "anthropic"] as FakeApiKind[]) {
    for (const [label, toolSearch] of [["before (search off)", false], ["after (search auto)", {}]] as Array<[string, ToolSearchOptions | false]>) {
      const searching = toolSearch !== false;
      const api = await startFakeModelApi(kind, [
        ...(searching ? [{ toolCalls: [{ name: TOOL_SEARCH_NAME, arguments: { query: "create issue" } }] }] : []),
        { toolCalls: [{ name: "mcp_many_create_issue", arguments: ISSUE }] },
        { text: "Created issue #42." },
      ]);
      try {
        const provider = createProvider(`${kind}/bench-model`, { baseUrl: api.url, env: { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" } });
        const runner = new Runner({ provider, registry: manager.registry, toolSearch });
        const answer = await runner.run("Open an issue titled 'Search works' in octo/demo.");
        if (!answer.includes("#42")) throw new Error(`${kind} ${label}: the task did not complete: ${answer}`);
        const perRequest = api.requests.map((request) => ({
          tools: bytes(request.body.tools ?? []),
          count: (request.body.tools as unknown[] | undefined)?.length ?? 0,
          body: bytes(request.body),
        }));
        const toolBytes = perRequest.reduce((sum, request) => sum + request.tools, 0);
        rows.push(
          `| ${kind} | ${label} | ${perRequest.length} | ${perRequest.map((request) => `${request.count}`).join(" / ")} | ` +
            `${perRequest.map((request) => request.tools.toLocaleString("en-US")).join(" / ")} | ${toolBytes.toLocaleString("en-US")} | ` +
            `${perRequest.map((request) => request.body.toLocaleString("en-US")).join(" / ")} |`,
        );
      } finally {
        await api.close();
      }
    }
  }
} finally {
  await manager.close();
}
console.log("\n| API | run | requests | tools offered per request | tools bytes per request | tools bytes, whole task | body bytes per request |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);
