// Each provider with the tools of real MCP servers (server-everything, server-memory and
// server-filesystem over stdio): every API's fake accepts their converted schemas, and a tool
// call goes through registry.dispatch to the real server and its result back to the model.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, StdioTransport } from "../../../src/mod.ts";
import { registerMcpServer } from "../../../src/registry/mcp-server.ts";
import { ToolRegistry } from "../../../src/registry/tool-registry.ts";
import { EVERYTHING } from "../../support/everything-path.ts";
import type { FakeApiKind } from "../../support/fake-model-apis.ts";
import { historyAfter, providerFor, withApi } from "./provider-cases.ts";

const MEMORY = fileURLToPath(new URL("../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));
const FILESYSTEM = fileURLToPath(new URL("../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));

const MODELS: Record<FakeApiKind, string> = {
  openai: "openai/gpt-test",
  anthropic: "anthropic/claude-test",
  ollama: "ollama:qwen3:8b",
  google: "google/gemini-test",
};

describe("providers with the tools of reference MCP servers", () => {
  const registry = new ToolRegistry();
  const clients: Client[] = [];
  const directory = mkdtempSync(join(tmpdir(), "mcpwire-providers-"));

  before(async () => {
    const servers: [string, string[]][] = [
      ["everything", [EVERYTHING, "stdio"]],
      ["memory", [MEMORY]],
      ["filesystem", [FILESYSTEM, directory]],
    ];
    await Promise.all(servers.map(async ([name, args]) => {
      const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name, requestTimeoutMs: 20_000 });
      clients.push(client);
      await client.connect(new StdioTransport({ command: "node", args, env: { MEMORY_FILE_PATH: join(directory, "memory.jsonl") } }));
      await registerMcpServer(registry, name, client);
    }));
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    rmSync(directory, { recursive: true, force: true });
  });

  for (const kind of Object.keys(MODELS) as FakeApiKind[]) {
    test(`${kind}: all their tools are offered in a form the API accepts`, async () => {
      const tools = registry.list();
      assert.ok(tools.some((tool) => tool.name.startsWith("mcp_filesystem_")) && tools.some((tool) => tool.name.startsWith("mcp_memory_")));
      await withApi(kind, [{ text: "I see the tools." }], async (api) => {
        await providerFor(MODELS[kind], api).chat({ messages: [{ role: "user", content: "what can you do?" }], tools });
        assert.deepEqual(api.rejections, []);
      });
    });

    test(`${kind}: mcp_everything_get-sum round trip through the real server`, async () => {
      const script = [
        { toolCalls: [{ name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } }] },
        (request: { toolResults: { content: string }[] }) => ({ text: `The tool said: ${request.toolResults[0]?.content}` }),
      ];
      await withApi(kind, script, async (api) => {
        const provider = providerFor(MODELS[kind], api);
        const tools = registry.list();
        const prompt = "add 2 and 40 with the tool";
        const first = await provider.chat({ messages: [{ role: "user", content: prompt }], tools });
        const results = await Promise.all(first.toolCalls.map((call) => registry.dispatch(call.name, call.arguments)));
        const second = await provider.chat({ messages: historyAfter(prompt, first, results), tools, onText: () => {} });
        assert.deepEqual(api.rejections, []);
        assert.match(second.text, /The tool said: .*42/);
      });
    });
  }
});
