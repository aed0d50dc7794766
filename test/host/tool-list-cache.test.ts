// The host's tool-list cache file (src/host/store/tool-list-cache.ts): where it is, what it is keyed by
// (a digest of the server's config: a change is a miss), its mode, its bounds, and what it does
// with a damaged, oversized or symlinked file.

import assert from "node:assert/strict";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import {
  defaultToolListCache,
  defaultToolListCacheFile,
  MAX_CACHED_TITLE,
  MAX_CACHED_TOOLS,
  MAX_TOOL_CACHE_BYTES,
  MAX_TOOL_CACHE_SERVERS,
  readCachedTools,
  serverConfigDigest,
  ToolListCache,
} from "../../src/host/store/tool-list-cache.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { configOf, serverConfig, stdioServerConfig } from "../support/server-config.ts";

function scratch(): { dir: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-tool-cache-"));
  return { dir, file: join(dir, "mcpwire", "tools.json"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const everything = stdioServerConfig("everything", ["server.js", "--token", "s3cret-token"], { env: { API_KEY: "k-123" } });

describe("the tool-list cache file", () => {
  test("$XDG_CACHE_HOME/mcpwire/tools.json, else ~/.cache/mcpwire/tools.json; MCPWIRE_TOOL_CACHE=off turns it off", () => {
    assert.equal(defaultToolListCacheFile({ XDG_CACHE_HOME: "/x/cache/", HOME: "/home/a" }, "linux"), "/x/cache/mcpwire/tools.json");
    assert.equal(defaultToolListCacheFile({ HOME: "/home/a" }, "linux"), "/home/a/.cache/mcpwire/tools.json");
    assert.equal(defaultToolListCacheFile({}, "linux"), undefined);
    const env = (vars: Record<string, string>) => ({ ...runtime, env: () => vars });
    assert.equal(defaultToolListCache(env({ HOME: "/home/a", MCPWIRE_TOOL_CACHE: "off" })), undefined);
    assert.equal(defaultToolListCache(env({ HOME: "/home/a", MCPWIRE_TOOL_CACHE: "0" })), undefined);
    assert.equal(defaultToolListCache(env({ HOME: "/home/a" }))?.path, "/home/a/.cache/mcpwire/tools.json");
  });

  test("a listing recorded is read back by another instance; the file is 0600 and holds digests and tool names, not the config", async () => {
    const { file, remove } = scratch();
    try {
      await new ToolListCache(file).record(everything, [{ name: "echo", title: "Echo" }, { name: "add" }]);
      const listing = await new ToolListCache(file).get(everything);
      assert.deepEqual(listing?.tools, [{ name: "echo", title: "Echo" }, { name: "add" }]);
      assert.ok(typeof listing?.at === "number");
      const text = readFileSync(file, "utf8");
      assert.doesNotMatch(text, /s3cret-token|server\.js|k-123|API_KEY|everything/);
      assert.match(text, /"sha256:[0-9a-f]{64}":\{"tools":\[\{"name":"echo","title":"Echo"\}/);
      if (process.platform !== "win32") assert.equal(statSync(file).mode & 0o777, 0o600);
      await new ToolListCache(file).forget(everything);
      assert.equal(await new ToolListCache(file).get(everything), undefined);
    } finally {
      remove();
    }
  });

  test("a change to what starts the server is a miss; a change to its naming, enabled or env values is not", async () => {
    const { file, remove } = scratch();
    try {
      await new ToolListCache(file).record(everything, [{ name: "echo" }]);
      const missing = [
        { ...everything, args: ["server.js", "--other"] },
        { ...everything, command: "deno" },
        { ...everything, env: { ...everything.env, MORE: "1" } },
        { ...everything, cwd: "/tmp" },
        { ...everything, name: "everything2" },
        { ...everything, tools: { exclude: ["echo"] } },
        { ...everything, protocol: "legacy" as const },
        serverConfig({ name: "everything", transport: "http", url: "http://127.0.0.1:1/mcp" }),
      ];
      for (const changed of missing) assert.equal(await new ToolListCache(file).get(changed), undefined, JSON.stringify(changed));
      for (const same of [{ ...everything, naming: "{server}__{tool}" }, { ...everything, enabled: false }, { ...everything, env: { API_KEY: "other" } }]) {
        assert.deepEqual((await new ToolListCache(file).get(same))?.tools, [{ name: "echo" }]);
      }
      const http = serverConfig({ name: "api", transport: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer a" } });
      assert.equal(await serverConfigDigest(http), await serverConfigDigest({ ...http, headers: { authorization: "Bearer b" } }));
      assert.notEqual(await serverConfigDigest(http), await serverConfigDigest({ ...http, headers: { ...http.headers, "X-More": "1" } }));
    } finally {
      remove();
    }
  });

  test("readCachedTools: per configured server whose digest matches, the tools with their registered names", async () => {
    const { file, remove } = scratch();
    try {
      const cache = new ToolListCache(file);
      const mine = stdioServerConfig("my_srv", ["a.js"], { naming: "{server}__{tool}" });
      await cache.record(everything, [{ name: "echo", title: "Echo" }]);
      await cache.record(mine, [{ name: "get-sum" }]);
      const config = configOf(stdioServerConfig("never-listed", ["b.js"]), mine, { ...everything, args: ["changed.js"] });
      const found = await readCachedTools(config, new ToolListCache(file));
      assert.deepEqual(found.map(({ server, tools }) => ({ server, tools })), [{
        server: "my_srv",
        tools: [{ name: "get-sum", registered: "my_srv__get-sum" }],
      }]);
      const both = await readCachedTools(configOf(everything, mine), new ToolListCache(file));
      assert.deepEqual(both.map((entry) => entry.tools[0]?.registered), ["mcp_everything_echo", "my_srv__get-sum"]);
      assert.deepEqual(await readCachedTools(configOf(everything), new ToolListCache(join(file, "..", "none.json"))), []);
    } finally {
      remove();
    }
  });

  test(`bounded: at most ${MAX_TOOL_CACHE_SERVERS} servers (the oldest dropped), ${MAX_CACHED_TOOLS} tools each, titles cut, long names left out`, async () => {
    const { file, remove } = scratch();
    try {
      const cache = new ToolListCache(file);
      const server = (i: number) => stdioServerConfig(`s${i}`, []);
      for (let i = 0; i <= MAX_TOOL_CACHE_SERVERS; i++) await cache.record(server(i), [{ name: "t" }]);
      const fresh = new ToolListCache(file);
      assert.equal(await fresh.get(server(0)), undefined);
      assert.ok(await fresh.get(server(1)));
      assert.ok(await fresh.get(server(MAX_TOOL_CACHE_SERVERS)));
      const stored = JSON.parse(readFileSync(file, "utf8")) as { servers: Record<string, unknown> };
      assert.equal(Object.keys(stored.servers).length, MAX_TOOL_CACHE_SERVERS);

      const many = Array.from({ length: MAX_CACHED_TOOLS + 5 }, (_, i) => ({ name: `tool-${i}`, title: `${"T".repeat(MAX_CACHED_TITLE * 2)}\nsecond line` }));
      await cache.record(everything, [{ name: "x".repeat(129) }, ...many]);
      const tools = (await new ToolListCache(file).get(everything))?.tools ?? [];
      assert.equal(tools.length, MAX_CACHED_TOOLS);
      assert.equal(tools[0]?.name, "tool-0");
      assert.ok((tools[0]?.title?.length ?? 0) <= MAX_CACHED_TITLE + 1);
      assert.doesNotMatch(tools[0]?.title ?? "", /\n/);
      assert.ok(statSync(file).size <= MAX_TOOL_CACHE_BYTES);
    } finally {
      remove();
    }
  });

  test("a damaged, foreign-version, oversized or symlinked file is ignored and replaced at the next write", async () => {
    const { dir, file, remove } = scratch();
    try {
      await new ToolListCache(file).record(everything, [{ name: "echo" }]);
      const damages = [
        "{not json",
        JSON.stringify({ version: 2, servers: {} }),
        JSON.stringify({ version: 1, servers: { "sha256:zz": { tools: [{ name: "echo" }], at: 1 } } }),
        JSON.stringify({ version: 1, servers: { [await serverConfigDigest(everything)]: { tools: "echo", at: 1 } } }),
        " ".repeat(MAX_TOOL_CACHE_BYTES + 1),
      ];
      for (const damage of damages) {
        writeFileSync(file, damage);
        assert.equal(await new ToolListCache(file).get(everything), undefined, damage.slice(0, 60));
        await new ToolListCache(file).record(everything, [{ name: "add" }]);
        assert.deepEqual((await new ToolListCache(file).get(everything))?.tools, [{ name: "add" }]);
      }
      // A symlink in its place is not read through, and is replaced by a regular file.
      const elsewhere = join(dir, "elsewhere.json");
      writeFileSync(elsewhere, readFileSync(file));
      rmSync(file);
      symlinkSync(elsewhere, file);
      assert.equal(await new ToolListCache(file).get(everything), undefined);
      await new ToolListCache(file).record(everything, [{ name: "echo" }]);
      assert.ok(lstatSync(file).isFile());
    } finally {
      remove();
    }
  });

  test("a file that cannot be written: record rejects (its callers ignore that) and get finds nothing", async () => {
    const { dir, remove } = scratch();
    try {
      mkdirSync(join(dir, "blocked"));
      writeFileSync(join(dir, "blocked", "mcpwire"), "a file where the directory should be");
      const path = join(dir, "blocked", "mcpwire", "tools.json");
      await assert.rejects(new ToolListCache(path).record(everything, [{ name: "echo" }]));
      assert.equal(await new ToolListCache(path).get(everything), undefined);
    } finally {
      remove();
    }
  });
});
