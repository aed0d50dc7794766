// Token storage: FileTokenStore's owner-only files (0600, directories 0700) under the user config
// directory, keys by issuer and server URL, corrupt files; MemoryTokenStore — spec 2025-11-25
// basic/authorization ("Token Storage"), SEP-2352.

import assert from "node:assert/strict";
import { chmod, mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { importPublicKey, verifyJwt } from "../../src/auth/jwt.ts";
import type { TokenSet } from "../../src/auth/token-endpoint.ts";
import { defaultAuthDirectory, dpopSignerFor, FileTokenStore, MemoryTokenStore, type TokenStore, TokenStoreError } from "../../src/auth/token-store.ts";
import { rejection } from "../support/rejection.ts";
import { withTempDir } from "./temp-dir.ts";

const posix = (await import("node:process")).default.platform !== "win32";

const TOKENS: TokenSet = {
  accessToken: "at-secret",
  tokenType: "Bearer",
  expiresAt: 1_900_000_000_000,
  refreshToken: "rt-secret",
  scope: "read",
  raw: { access_token: "at-secret", token_type: "Bearer" },
};

async function roundTrips(store: TokenStore): Promise<void> {
  const server = "https://mcp.example.com/mcp";
  assert.equal(await store.getTokens(server), undefined);
  await store.setTokens(server, "https://as.example.com", TOKENS);
  const saved = await store.getTokens(`${server}#fragment`);
  assert.equal(saved?.serverUrl, server);
  assert.equal(saved?.issuer, "https://as.example.com");
  assert.deepEqual(saved?.tokens, TOKENS);
  assert.equal(await store.getTokens(server, "https://other-as.example.com"), undefined, "tokens of another issuer are not offered");
  assert.equal((await store.getTokens(server, "https://as.example.com"))?.tokens.accessToken, "at-secret");
  assert.equal(await store.getTokens("https://mcp.example.com/other"), undefined);

  await store.setClient({ issuer: "https://as.example.com", clientId: "cid", clientSecret: "cs" });
  assert.deepEqual(await store.getClient("https://as.example.com"), { issuer: "https://as.example.com", clientId: "cid", clientSecret: "cs" });
  assert.equal(await store.getClient("https://as.example.com/tenant"), undefined, "a registration is only for its own issuer");

  await store.deleteTokens(server);
  assert.equal(await store.getTokens(server), undefined);
  await store.deleteTokens(server); // deleting what is gone is fine
  await store.deleteClient("https://as.example.com");
  assert.equal(await store.getClient("https://as.example.com"), undefined);
}

test("MemoryTokenStore keeps tokens by server URL and registrations by issuer", async () => {
  await roundTrips(new MemoryTokenStore());
});

test("FileTokenStore keeps tokens by server URL and registrations by issuer", async () => {
  await withTempDir(async (dir) => {
    await roundTrips(new FileTokenStore({ directory: join(dir, "auth") }));
  });
});

test("FileTokenStore writes files only the owner can read (0600) in directories of mode 0700", { skip: !posix }, async () => {
  await withTempDir(async (dir) => {
    const store = new FileTokenStore({ directory: join(dir, "mcpwire", "auth") });
    await store.setTokens("http://127.0.0.1:3000/mcp", "http://127.0.0.1:3001", TOKENS);
    await store.setClient({ issuer: "http://127.0.0.1:3001", clientId: "cid" });
    for (const sub of ["", "/tokens", "/clients"]) {
      const mode = (await stat(join(dir, "mcpwire", "auth") + sub)).mode & 0o777;
      assert.equal(mode.toString(8), "700", `directory auth${sub}`);
    }
    for (const kind of ["tokens", "clients"]) {
      const files = await readdir(join(dir, "mcpwire", "auth", kind));
      assert.equal(files.length, 1, `one ${kind} file, no temporary file left: ${files.join(", ")}`);
      assert.match(files[0]!, /^127\.0\.0\.1_300\d.*-[0-9a-f]{16}\.json$/);
      const mode = (await stat(join(dir, "mcpwire", "auth", kind, files[0]!))).mode & 0o777;
      assert.equal(mode.toString(8), "600", `${kind} file`);
    }
    // Rewriting keeps the mode, even over a file someone widened.
    const tokenFile = join(dir, "mcpwire", "auth", "tokens", (await readdir(join(dir, "mcpwire", "auth", "tokens")))[0]!);
    await chmod(tokenFile, 0o644);
    await store.setTokens("http://127.0.0.1:3000/mcp", "http://127.0.0.1:3001", { ...TOKENS, accessToken: "at-2" });
    assert.equal(((await stat(tokenFile)).mode & 0o777).toString(8), "600");
  });
});

test("directories that already exist with a looser mode (0755) are tightened to 0700 on the next write", { skip: !posix }, async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, "mcpwire", "auth");
    const store = new FileTokenStore({ directory: root });
    await store.setTokens("http://127.0.0.1:3000/mcp", "http://127.0.0.1:3001", TOKENS);
    // Someone (an older version, a backup restore, a umask) left the directories open to all.
    await chmod(root, 0o755);
    await chmod(join(root, "tokens"), 0o755);
    await mkdir(join(root, "clients"), { mode: 0o755 });
    await chmod(join(root, "clients"), 0o755);
    await store.setTokens("http://127.0.0.1:3000/mcp", "http://127.0.0.1:3001", { ...TOKENS, accessToken: "at-3" });
    await store.setClient({ issuer: "http://127.0.0.1:3001", clientId: "cid" });
    for (const sub of ["", "/tokens", "/clients"]) {
      assert.equal(((await stat(root + sub)).mode & 0o777).toString(8), "700", `directory auth${sub}`);
    }
    const [file] = await readdir(join(root, "tokens"));
    assert.equal(((await stat(join(root, "tokens", file!))).mode & 0o777).toString(8), "600", "the token file");
    assert.equal((await store.getTokens("http://127.0.0.1:3000/mcp"))?.tokens.accessToken, "at-3");
  });
});

test("a DPoP key is kept per server in an owner-only file: the next run signs with the same key", async () => {
  await withTempDir(async (dir) => {
    const server = "https://mcp.example.com/mcp";
    const first = await dpopSignerFor(new FileTokenStore({ directory: dir }), server);
    const again = await dpopSignerFor(new FileTokenStore({ directory: dir }), server);
    assert.equal(again.thumbprint, first.thumbprint, "the same key, read back");
    const proof = await again.proof("POST", server);
    assert.ok(await verifyJwt(proof, await importPublicKey(first.publicJwk, "ES256")), "signed by the kept private key");
    const other = await dpopSignerFor(new FileTokenStore({ directory: dir }), "https://other.example.com/mcp");
    assert.notEqual(other.thumbprint, first.thumbprint, "another server, another key");
    const [file] = await readdir(join(dir, "dpop-keys"));
    if (posix) assert.equal(((await stat(join(dir, "dpop-keys", file!))).mode & 0o777).toString(8), "600");
    const store = new FileTokenStore({ directory: dir });
    await store.deleteDpopKey(server);
    assert.equal(await store.getDpopKey(server), undefined);
    const memory = new MemoryTokenStore();
    assert.notEqual(
      (await dpopSignerFor(memory, server)).thumbprint,
      (await dpopSignerFor(memory, server)).thumbprint,
      "a store without DPoP keys: a new key each time",
    );
  });
});

test("a corrupt token file is a TokenStoreError naming the file and how to recover", async () => {
  await withTempDir(async (dir) => {
    const store = new FileTokenStore({ directory: dir });
    await store.setTokens("https://mcp.example.com/mcp", "https://as.example.com", TOKENS);
    const [file] = await readdir(join(dir, "tokens"));
    await writeFile(join(dir, "tokens", file!), "{ not json");
    const error = await rejection(store.getTokens("https://mcp.example.com/mcp"));
    assert.ok(error instanceof TokenStoreError);
    assert.equal(error.path, join(dir, "tokens", file!));
    assert.match(error.message, /is not a stored registration or token set .*delete it .*mcpwire auth logout/);
    await store.deleteTokens("https://mcp.example.com/mcp");
    assert.equal(await store.getTokens("https://mcp.example.com/mcp"), undefined);
  });
});

test("the default directory is $XDG_CONFIG_HOME/mcpwire/auth, else ~/.config/mcpwire/auth", () => {
  assert.equal(defaultAuthDirectory({ XDG_CONFIG_HOME: "/x/cfg/", HOME: "/home/u" }, "linux"), "/x/cfg/mcpwire/auth");
  assert.equal(defaultAuthDirectory({ XDG_CONFIG_HOME: "relative", HOME: "/home/u" }, "linux"), "/home/u/.config/mcpwire/auth");
  assert.equal(defaultAuthDirectory({ HOME: "/home/u" }, "darwin"), "/home/u/.config/mcpwire/auth");
  assert.equal(defaultAuthDirectory({ APPDATA: "C:\\Users\\u\\AppData\\Roaming" }, "windows"), "C:\\Users\\u\\AppData\\Roaming/mcpwire/auth");
  assert.throws(() => defaultAuthDirectory({}, "linux"), /neither XDG_CONFIG_HOME nor HOME is set/);
});
