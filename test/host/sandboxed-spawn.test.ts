// Stdio servers run in their sandbox (issue 29) through the manager, as a config's `sandbox:`
// key asks: a probe server's read, write and loopback connection are refused under the default
// profile and allowed where the profile allows them; server-filesystem works sandboxed and
// cannot read past its sandbox even when its own allowed directory is wider; closing leaves no
// process behind. Skipped only where bubblewrap cannot run at all (the reason is printed).

import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "../../src/client/types.ts";
import type { SandboxSettings, ServerConfig } from "../../src/host/config/types.ts";
import { sandboxAvailability } from "../../src/host/sandbox/sandbox-availability.ts";
import { type ManagerEvents, McpManager } from "../../src/host/servers/manager.ts";
import { StdioTransport } from "../../src/mod.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";
import { descendants, isRunning } from "../support/processes.ts";
import { configOf, serverConfig, stdioServerConfig } from "../support/server-config.ts";

const availability = await sandboxAvailability();
const skip = availability.available ? false : `no sandbox on this machine: ${availability.reason}`;

const REPO = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
const FILESYSTEM_SERVER = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));

/** The default profile, or a mapping's settings over it. */
function profile(fields: Partial<SandboxSettings> = {}): SandboxSettings {
  return { profile: "default", write: [], network: false, env: [], prefer: false, ...fields };
}

function textOf(result: unknown): string {
  const first = (result as CallToolResult).content[0] as { type: string; text: string };
  return first.text;
}

/** A manager running `server`, started; its stderr lines collected. */
async function started(server: ServerConfig): Promise<{ manager: McpManager; stderr: string[] }> {
  const manager = new McpManager(configOf(server), { connectRetries: 0, probeIntervalMs: 600_000 });
  const stderr: string[] = [];
  manager.on("stderr", ({ line }) => stderr.push(line));
  await hangGuard(manager.start(), 20_000, `server "${server.name}" starting`);
  return { manager, stderr };
}

async function call(manager: McpManager, server: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const client = manager.client(server);
  assert.ok(client, `server "${server}" is connected (${JSON.stringify(manager.status())})`);
  return textOf(await hangGuard(client.callTool(tool, args), 15_000, `${tool} on ${server}`));
}

describe("a stdio server in its sandbox (bubblewrap)", { skip }, () => {
  let dir = "";
  let listener: Server;
  let port = 0;
  let connections = 0;

  before(async () => {
    // realpath: the test's own paths as the sandbox sees them (a tmpdir behind a link would not match).
    dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpwire-sandbox-")));
    mkdirSync(join(dir, "outside"));
    writeFileSync(join(dir, "outside", "secret.txt"), "the secret");
    mkdirSync(join(dir, "writable"));
    mkdirSync(join(dir, "root"));
    writeFileSync(join(dir, "root", "hello.txt"), "hello from the root");
    listener = createServer((socket) => {
      connections++;
      socket.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as { port: number }).port;
  });

  after(async () => {
    await new Promise<void>((resolve) => listener?.close(() => resolve()));
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  test("sandbox: default refuses reading outside, writing outside and a loopback connection; each refusal is on its stderr", async () => {
    const { manager, stderr } = await started(stdioServerConfig("probe", [fixturePath("sandbox-probe-server.mjs")], { sandbox: profile() }));
    try {
      assert.deepEqual(manager.status()[0]?.sandbox, { profile: "default", sandboxed: true, by: "bubblewrap" });
      assert.match(await call(manager, "probe", "read_file", { path: join(dir, "outside", "secret.txt") }), /^denied: ENOENT/);
      const written = join(dir, "writable", "note.txt");
      assert.match(await call(manager, "probe", "write_file", { path: written }), /^denied: (ENOENT|EROFS|EACCES)/);
      assert.equal(existsSync(written), false);
      // Its own program is readable, not writable.
      assert.match(await call(manager, "probe", "read_file", { path: fixturePath("sandbox-probe-server.mjs") }), /^ok: /);
      assert.match(await call(manager, "probe", "write_file", { path: fixturePath("sandbox-probe-server.mjs") }), /^denied: (EROFS|EACCES)/);
      const before = connections;
      assert.match(await call(manager, "probe", "connect", { port }), /^denied: (ECONNREFUSED|ENETUNREACH|ETIMEDOUT)/);
      assert.equal(connections, before);
      // A private /tmp is writable.
      assert.match(await call(manager, "probe", "write_file", { path: "/tmp/scratch.txt" }), /^ok: written/);
      assert.ok(stderr.some((line) => line.includes(`read ${join(dir, "outside", "secret.txt")}: denied: ENOENT`)), stderr.join("\n"));
      assert.ok(stderr.some((line) => line.includes(`connect 127.0.0.1:${port}: denied`)), stderr.join("\n"));
    } finally {
      await manager.close();
    }
  });

  test("sandbox: default reads its roots and what its arguments name; env passes variables of ours by name", async () => {
    mkdirSync(join(dir, "argument"), { recursive: true });
    writeFileSync(join(dir, "argument", "given.txt"), "given as an argument");
    process.env.MCPWIRE_SANDBOX_PASSED = "passed by name";
    const server = stdioServerConfig("probe", [fixturePath("sandbox-probe-server.mjs"), join(dir, "argument")], {
      roots: [join(dir, "outside")],
      sandbox: profile({ env: ["MCPWIRE_SANDBOX_PASSED"] }),
    });
    const { manager } = await started(server);
    try {
      assert.equal(await call(manager, "probe", "read_file", { path: join(dir, "outside", "secret.txt") }), "ok: the secret");
      assert.equal(await call(manager, "probe", "read_file", { path: join(dir, "argument", "given.txt") }), "ok: given as an argument");
      // Readable, not writable.
      assert.match(await call(manager, "probe", "write_file", { path: join(dir, "argument", "new.txt") }), /^denied: (EROFS|EACCES)/);
      const environment = (await call(manager, "probe", "read_file", { path: "/proc/self/environ" })).replace(/^ok: /, "").split("\0");
      assert.ok(environment.includes("MCPWIRE_SANDBOX_PASSED=passed by name"), environment.join(" "));
      assert.ok(environment.includes("TMPDIR=/tmp"));
    } finally {
      delete process.env.MCPWIRE_SANDBOX_PASSED;
      await manager.close();
    }
  });

  test("a server under a home with a stray package.json reads its own folder, not the home's other files", async () => {
    // ~/mcp/weather/server.mjs with ~/package.json: the nearest package above the script is the home itself.
    const home = join(dir, "home");
    const weather = join(home, "mcp", "weather");
    mkdirSync(join(weather, "lib"), { recursive: true });
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, "package.json"), "{}");
    writeFileSync(join(home, ".ssh", "id_rsa"), "the private key");
    copyFileSync(fixturePath("sandbox-probe-server.mjs"), join(weather, "server.mjs"));
    copyFileSync(fixturePath("lib/server.mjs"), join(weather, "lib", "server.mjs"));
    const { manager } = await started(stdioServerConfig("weather", [join(weather, "server.mjs")], { env: { HOME: home }, sandbox: profile() }));
    try {
      assert.match(await call(manager, "weather", "read_file", { path: join(home, ".ssh", "id_rsa") }), /^denied: ENOENT/);
      assert.match(await call(manager, "weather", "read_file", { path: join(weather, "lib", "server.mjs") }), /^ok: /);
    } finally {
      await manager.close();
    }
  });

  test("a profile that allows them: the read, the write and the connection succeed", async () => {
    const sandbox = profile({ profile: "custom", read: [join(dir, "outside")], write: [join(dir, "writable")], network: true });
    const { manager } = await started(stdioServerConfig("probe", [fixturePath("sandbox-probe-server.mjs")], { sandbox }));
    try {
      assert.deepEqual(manager.status()[0]?.sandbox, { profile: "custom", sandboxed: true, by: "bubblewrap" });
      assert.equal(await call(manager, "probe", "read_file", { path: join(dir, "outside", "secret.txt") }), "ok: the secret");
      const written = join(dir, "writable", "note.txt");
      assert.equal(await call(manager, "probe", "write_file", { path: written, text: "kept" }), "ok: written");
      assert.equal(readFileSync(written, "utf8"), "kept");
      // Readable is not writable.
      assert.match(await call(manager, "probe", "write_file", { path: join(dir, "outside", "secret.txt") }), /^denied: (EROFS|EACCES)/);
      assert.equal(readFileSync(join(dir, "outside", "secret.txt"), "utf8"), "the secret");
      const before = connections;
      assert.equal(await call(manager, "probe", "connect", { port }), "ok: connected");
      await waitUntil(() => connections === before + 1, "the listener seeing the sandboxed server's connection");
    } finally {
      await manager.close();
    }
  });

  test("server-filesystem rooted at a directory works sandboxed; past the sandbox it cannot read even where its own check allows", async () => {
    const rooted = await started(
      stdioServerConfig("files", [FILESYSTEM_SERVER, join(dir, "root")], { sandbox: profile() }),
    );
    try {
      const listing = await call(rooted.manager, "files", "list_directory", { path: join(dir, "root") });
      assert.match(listing, /hello\.txt/);
      assert.match(await call(rooted.manager, "files", "read_text_file", { path: join(dir, "root", "hello.txt") }), /hello from the root/);
    } finally {
      await rooted.manager.close();
    }
    // Its allowed directory is all of `dir`, the sandbox's only `root`: its own check lets the read through, the sandbox does not.
    const wide = await started(
      stdioServerConfig("files", [FILESYSTEM_SERVER, dir], { sandbox: profile({ profile: "custom", read: [join(dir, "root")] }) }),
    );
    try {
      assert.match(await call(wide.manager, "files", "read_text_file", { path: join(dir, "root", "hello.txt") }), /hello from the root/);
      const refused = await call(wide.manager, "files", "read_text_file", { path: join(dir, "outside", "secret.txt") });
      assert.doesNotMatch(refused, /the secret/);
      assert.match(refused, /ENOENT|no such file|not found/i);
    } finally {
      await wide.manager.close();
    }
  });

  test("npx runs a package the project has installed, sandboxed: npm's cache and the project are readable", async () => {
    const { manager } = await started(
      serverConfig({
        name: "npx-files",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", join(dir, "root")],
        cwd: REPO,
        sandbox: profile(),
      }),
    );
    try {
      assert.match(await call(manager, "npx-files", "read_text_file", { path: join(dir, "root", "hello.txt") }), /hello from the root/);
    } finally {
      await manager.close();
    }
  });

  test("npx of a package that is not installed, without network: it fails at once, not retried, saying what the sandbox withholds", async () => {
    const failed: ManagerEvents["connectfailed"][] = [];
    const manager = new McpManager(
      configOf(serverConfig({
        name: "missing",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@mcpwire-test/not-installed-anywhere"],
        cwd: join(dir, "root"),
        // Longer than npm's retries of a registry it cannot reach (10 s, then 60 s): offline, npx does not wait for them.
        connectTimeoutMs: 120_000,
        sandbox: profile(),
      })),
      { connectRetries: 3, reconnectDelay: { initialMs: 20 }, probeIntervalMs: 600_000 },
    );
    manager.on("connectfailed", (event) => failed.push(event));
    try {
      await hangGuard(manager.start(), 60_000, "npx failing");
      const [status] = manager.status();
      assert.equal(status?.state, "parked");
      assert.deepEqual(failed.map((event) => event.final), ["npx runs offline and the package is not where it can run it from"]);
      const error = status?.lastError ?? "";
      assert.match(error, /in its sandbox npx has no network and its cache \(.*\.npm\) read-only/);
      assert.ok(error.includes(`installed in its working directory ${join(dir, "root")} (npm install @mcpwire-test/not-installed-anywhere there)`), error);
      assert.match(error, /sandbox: \{ network: true, write: \[".*\.npm"\] \} in the server's config/);
      assert.match(error, /ENOTCACHED/);
    } finally {
      await manager.close();
    }
  });

  test("npx run from the project's directory, which the default profile maps, finds the package installed there", async () => {
    // No cwd configured: mcpwire's own, the repository's root (where the tests run), with server-everything in its node_modules.
    const { manager } = await started(
      serverConfig({ name: "everything", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], sandbox: profile() }),
    );
    try {
      assert.equal(await call(manager, "everything", "echo", { message: "sandboxed" }), "Echo: sandboxed");
    } finally {
      await manager.close();
    }
  });

  test("a trace of a sandboxed server says it started in bubblewrap, and shows the server's own command", async () => {
    const events: TraceEvent[] = [];
    const manager = new McpManager(configOf(stdioServerConfig("probe", [fixturePath("sandbox-probe-server.mjs")], { sandbox: profile() })), {
      connectRetries: 0,
      probeIntervalMs: 600_000,
      trace: (event) => events.push(event),
    });
    try {
      await hangGuard(manager.start(), 20_000, "probe starting");
      const spawn = events.find((event) => event.kind === "process" && event.phase === "spawn");
      assert.ok(spawn?.kind === "process" && spawn.phase === "spawn", JSON.stringify(events.slice(0, 3)));
      assert.equal(spawn.wrapper, "bubblewrap");
      assert.match(spawn.command, /^node .*sandbox-probe-server\.mjs$/);
    } finally {
      await manager.close();
    }
  });

  test("closing leaves no process behind: the server, bwrap, and a child the server started", async () => {
    const { manager } = await started(stdioServerConfig("probe", [fixturePath("sandbox-probe-server.mjs")], { sandbox: profile() }));
    let below: number[] = [];
    try {
      assert.match(await call(manager, "probe", "start_child", {}), /^ok: \d+/);
      const transport = manager.client("probe")?.transport;
      assert.ok(transport instanceof StdioTransport && transport.pid !== undefined);
      below = [transport.pid, ...descendants(transport.pid)];
      // bwrap, its namespace's init, the server and the server's child.
      assert.ok(below.length >= 3, `processes under bwrap: ${below.join(", ")}`);
    } finally {
      await manager.close();
    }
    assert.deepEqual(below.filter(isRunning), []);
  });
});
