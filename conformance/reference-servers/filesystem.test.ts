// The Client against the reference server @modelcontextprotocol/server-filesystem over
// stdio, rooted in a fresh temporary directory: its tools, their validated
// structuredContent, and its refusal to leave the directory.

import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client, StdioTransport, type TextContent } from "../../src/mod.ts";

const FILESYSTEM = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);

function textOf(content: { type: string }[]): string {
  return content.filter((block): block is TextContent => block.type === "text").map((block) => block.text).join("\n");
}

describe("server-filesystem over stdio, rooted in a temp dir", () => {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { name: "filesystem", requestTimeoutMs: 20_000 });
  const problems: string[] = [];
  let root = "";

  before(async () => {
    // realpath: the server resolves symlinks (macOS /var → /private/var) and compares paths.
    root = await realpath(await mkdtemp(join(tmpdir(), "mcpwire-fs-")));
    await writeFile(join(root, "seed.txt"), "planted by the test\n");
    client.on("problem", ({ message }) => problems.push(message));
    await client.connect(new StdioTransport({ command: "node", args: [FILESYSTEM, root] }));
  });

  after(async () => {
    await client.close();
    await rm(root, { recursive: true, force: true });
  });

  test("initialize: the server names itself and declares tools", () => {
    assert.equal(client.state, "ready");
    assert.equal(client.serverInfo?.name, "secure-filesystem-server");
    assert.ok(client.serverCapabilities?.tools !== undefined);
  });

  test("listTools lists the file tools, each with an outputSchema", async () => {
    const tools = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ["read_text_file", "write_file", "list_directory", "create_directory", "list_allowed_directories"]) {
      assert.ok(names.includes(name), `${name} not listed; got ${names.join(", ")}`);
    }
    for (const name of ["read_text_file", "write_file", "list_directory"]) {
      assert.ok(client.knownTools.get(name)?.outputSchema, `${name} has no outputSchema`);
    }
  });

  test("list_allowed_directories names the temp dir", async () => {
    const result = await client.callTool("list_allowed_directories");
    assert.ok(textOf(result.content).includes(root), textOf(result.content));
  });

  test("write_file then read_text_file returns what was written, as text and as validated structuredContent", async () => {
    const path = join(root, "hello.txt");
    const text = "hello from mcpwire\nline 2 ✓\n";
    const written = await client.callTool("write_file", { path, content: text });
    assert.notEqual(written.isError, true, textOf(written.content));
    assert.equal(await readFile(path, "utf8"), text);

    const read = await client.callTool("read_text_file", { path });
    assert.notEqual(read.isError, true, textOf(read.content));
    assert.equal(textOf(read.content), text);
    assert.deepEqual(read.structuredContent, { content: text });
  });

  test("read_text_file with head returns the first lines only", async () => {
    const read = await client.callTool("read_text_file", { path: join(root, "hello.txt"), head: 1 });
    assert.equal(textOf(read.content), "hello from mcpwire");
  });

  test("list_directory shows files and directories with their kinds", async () => {
    await client.callTool("create_directory", { path: join(root, "sub") });
    const listing = await client.callTool("list_directory", { path: root });
    const lines = textOf(listing.content).split("\n").sort();
    assert.deepEqual(lines, ["[DIR] sub", "[FILE] hello.txt", "[FILE] seed.txt"]);
  });

  test("a path outside the root is refused with a tool error result, not a throw", async () => {
    const result = await client.callTool("read_text_file", { path: join(root, "..", "outside.txt") });
    assert.equal(result.isError, true);
    assert.match(textOf(result.content), /denied|outside|not allowed/i);
    assert.equal(client.state, "ready");
  });

  test("no problems were reported (every outputSchema compiled)", () => {
    assert.deepEqual(problems, []);
  });
});
