// The host's era cache file (src/host/store/file-era-cache.ts): where it is, what it holds (digests, not
// command lines), its mode, its bound, and what it does with a damaged, oversized or symlinked file.

import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { defaultEraCache, defaultEraCacheFile, FileEraCache, MAX_ERA_CACHE_BYTES, MAX_ERA_CACHE_ENTRIES } from "../../src/host/store/file-era-cache.ts";
import { runtime } from "../../src/runtime/mod.ts";

function scratch(): { dir: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "mcpwire-era-file-"));
  return { dir, file: join(dir, "mcpwire", "eras.json"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe("the era cache file", () => {
  test("$XDG_CACHE_HOME/mcpwire/eras.json, else ~/.cache/mcpwire/eras.json; MCPWIRE_ERA_CACHE=off turns it off", () => {
    assert.equal(defaultEraCacheFile({ XDG_CACHE_HOME: "/x/cache/", HOME: "/home/a" }, "linux"), "/x/cache/mcpwire/eras.json");
    assert.equal(defaultEraCacheFile({ HOME: "/home/a" }, "linux"), "/home/a/.cache/mcpwire/eras.json");
    assert.equal(defaultEraCacheFile({ XDG_CACHE_HOME: "relative", HOME: "/home/a" }, "linux"), "/home/a/.cache/mcpwire/eras.json");
    assert.equal(defaultEraCacheFile({}, "linux"), undefined);
    const env = (vars: Record<string, string>) => ({ ...runtime, env: () => vars });
    assert.equal(defaultEraCache(env({ HOME: "/home/a", MCPWIRE_ERA_CACHE: "off" })), undefined);
    assert.equal(defaultEraCache(env({ HOME: "/home/a" }))?.path, "/home/a/.cache/mcpwire/eras.json");
  });

  test("an era set is read back by another instance; the file is 0600 and holds digests, not the key", async () => {
    const { file, remove } = scratch();
    try {
      const key = JSON.stringify(["stdio", "/work", "node", "server.js", "--token", "s3cret-token"]);
      await new FileEraCache(file).set(key, "legacy");
      assert.equal(await new FileEraCache(file).get(key), "legacy");
      assert.equal(await new FileEraCache(file).get("another server"), undefined);
      const text = readFileSync(file, "utf8");
      assert.doesNotMatch(text, /s3cret-token|server\.js/);
      assert.match(text, /"sha256:[0-9a-f]{64}":\{"era":"legacy","at":\d+\}/);
      if (process.platform !== "win32") assert.equal(statSync(file).mode & 0o777, 0o600);
      await new FileEraCache(file).forget(key);
      assert.equal(await new FileEraCache(file).get(key), undefined);
    } finally {
      remove();
    }
  });

  test(`at most ${MAX_ERA_CACHE_ENTRIES} servers: the one recorded longest ago is dropped`, async () => {
    const { file, remove } = scratch();
    try {
      const cache = new FileEraCache(file);
      for (let i = 0; i <= MAX_ERA_CACHE_ENTRIES; i++) await cache.set(`server ${i}`, "legacy");
      const fresh = new FileEraCache(file);
      assert.equal(await fresh.get("server 0"), undefined);
      assert.equal(await fresh.get("server 1"), "legacy");
      assert.equal(await fresh.get(`server ${MAX_ERA_CACHE_ENTRIES}`), "legacy");
      const stored = JSON.parse(readFileSync(file, "utf8")) as { eras: Record<string, unknown> };
      assert.equal(Object.keys(stored.eras).length, MAX_ERA_CACHE_ENTRIES);
    } finally {
      remove();
    }
  });

  test("a damaged or oversized file is ignored and replaced at the next write", async () => {
    const { dir, file, remove } = scratch();
    try {
      await new FileEraCache(file).set("a", "legacy");
      for (
        const damage of ["{not json", JSON.stringify({ version: 1, eras: { "sha256:zz": { era: "legacy", at: 1 } } }), " ".repeat(MAX_ERA_CACHE_BYTES + 1)]
      ) {
        writeFileSync(file, damage);
        assert.equal(await new FileEraCache(file).get("a"), undefined);
        await new FileEraCache(file).set("b", "modern");
        assert.equal(await new FileEraCache(file).get("b"), "modern");
        assert.equal((JSON.parse(readFileSync(file, "utf8")) as { version: number }).version, 1);
      }
      assert.ok(existsSync(dir));
    } finally {
      remove();
    }
  });

  test("a symlink in the file's place is never followed: not read, and replaced by a file of ours", { skip: process.platform === "win32" }, async () => {
    const { dir, file, remove } = scratch();
    try {
      await new FileEraCache(file).set("a", "legacy"); // makes the directory
      const target = join(dir, "elsewhere.json");
      writeFileSync(target, readFileSync(file, "utf8"));
      rmSync(file);
      symlinkSync(target, file);
      assert.equal(await new FileEraCache(file).get("a"), undefined, "read through the symlink");
      await new FileEraCache(file).set("b", "modern");
      assert.ok(lstatSync(file).isFile(), "the symlink was replaced by a regular file");
      assert.doesNotMatch(readFileSync(target, "utf8"), /modern/, "written through the symlink");
    } finally {
      remove();
    }
  });
});
