// The Client against the reference server @modelcontextprotocol/server-memory over stdio,
// its storage file in a temp dir given through the environment (StdioTransport passes env
// exactly as given, so the test adds the default variables to it).

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, type ClientEvents, StdioTransport } from "../../src/mod.ts";
import { defaultChildEnv } from "../../src/transport/stdio.ts";

const MEMORY = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

const ENTITIES: Entity[] = [
  { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
  { name: "Analytical Engine", entityType: "machine", observations: ["never finished"] },
];

describe("server-memory over stdio, storing in a temp file", () => {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "memory", requestTimeoutMs: 20_000 });
  const problems: string[] = [];
  let dir = "";
  let storage = "";

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpwire-memory-"));
    storage = join(dir, "memory.jsonl");
    client.on("problem", ({ message }) => problems.push(message));
    await client.connect(
      new StdioTransport({ command: "node", args: [MEMORY], env: { ...defaultChildEnv(), MEMORY_FILE_PATH: storage } }),
    );
  });

  after(async () => {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("listTools lists the knowledge-graph tools", async () => {
    const names = (await client.listTools()).map((tool) => tool.name);
    for (const name of ["create_entities", "create_relations", "add_observations", "read_graph", "search_nodes", "open_nodes"]) {
      assert.ok(names.includes(name), `${name} not listed; got ${names.join(", ")}`);
    }
    assert.ok(client.knownTools.get("read_graph")?.outputSchema, "read_graph has no outputSchema");
  });

  test("create_entities returns the created entities as validated structuredContent", async () => {
    const result = await client.callTool("create_entities", { entities: ENTITIES });
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.structuredContent, { entities: ENTITIES });
  });

  test("the entities went to the file named by MEMORY_FILE_PATH", async () => {
    const stored = await readFile(storage, "utf8");
    assert.match(stored, /"name":"Ada"/);
    assert.match(stored, /"name":"Analytical Engine"/);
  });

  test("create_relations, then read_graph returns entities and relations", async () => {
    await client.callTool("create_relations", { relations: [{ from: "Ada", to: "Analytical Engine", relationType: "programmed" }] });
    const graph = (await client.callTool("read_graph")).structuredContent as
      | { entities: Entity[]; relations: { from: string; to: string; relationType: string }[] }
      | undefined;
    assert.deepEqual(graph?.entities.map((entity) => entity.name).sort(), ["Ada", "Analytical Engine"]);
    assert.deepEqual(graph?.relations, [{ from: "Ada", to: "Analytical Engine", relationType: "programmed" }]);
  });

  test("search_nodes finds an entity by an observation", async () => {
    const found = (await client.callTool("search_nodes", { query: "first program" })).structuredContent as
      | { entities: Entity[] }
      | undefined;
    assert.deepEqual(found?.entities.map((entity) => entity.name), ["Ada"]);
  });

  test('a change to the subscribed knowledge-graph resource arrives as "resourceupdated"', async () => {
    const uri = "memory://knowledge-graph";
    assert.ok((await client.listResources()).some((resource) => resource.uri === uri));
    await client.subscribeResource(uri);
    const updates: ClientEvents["resourceupdated"][] = [];
    const off = client.on("resourceupdated", (update) => updates.push(update));
    try {
      await client.callTool("add_observations", { observations: [{ entityName: "Ada", contents: ["was a countess"] }] });
      await client.ping(); // the notification was sent before the result; one round trip more settles it
      assert.deepEqual(updates, [{ uri }]);
      const read = await client.readResource(uri);
      const contents = read.contents[0];
      assert.ok(contents && "text" in contents);
      assert.match(contents.text, /was a countess/);
    } finally {
      off();
      await client.unsubscribeResource(uri);
    }
  });

  test("no problems were reported", () => {
    assert.deepEqual(problems, []);
  });
});
