// The sandbox from the command line (issue 29): `--sandbox[=PROFILE]` on an ad-hoc stdio
// server and `sandbox:` in a config file, as `mcpwire servers` and `mcpwire call` show them;
// where no sandbox can be had (MCPWIRE_BWRAP naming a bwrap that is not there) the server does
// not start and says why, unless `prefer` runs it unsandboxed with a warning.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { sandboxAvailability } from "../../src/host/sandbox/sandbox-availability.ts";
import { mcpwire as runMcpwire, type Outcome, root, scratchDir, startMcpwire, writeConfig } from "../support/cli-runner.ts";
import { waitUntil } from "../support/polling.ts";
import { descendants, isRunning } from "../support/processes.ts";

const availability = await sandboxAvailability();
const skip = availability.available ? false : `no sandbox on this machine: ${availability.reason}`;

const scratch = scratchDir("mcpwire-sandbox-cli-");
const probe = fileURLToPath(new URL("../fixtures/sandbox-probe-server.mjs", import.meta.url));
const probeCommand = `node ${JSON.stringify(probe)}`;
const MISSING_BWRAP = "/nonexistent/mcpwire-test/bwrap";

/** `mcpwire <args>` in the scratch folder, with a scratch HOME: no config file anywhere. */
function mcpwire(args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const env = {
    ...process.env,
    HOME: scratch.path,
    XDG_CONFIG_HOME: join(scratch.path, "config"),
    XDG_CACHE_HOME: join(scratch.path, "cache"),
    // A server refused its sandbox is retried before it is parked: 20 ms between tries, not 1 s doubling.
    MCPWIRE_RECONNECT_DELAY_MS: "20",
    ...extraEnv,
  };
  return runMcpwire(args, { cwd: scratch.path, env, timeoutMs: 60_000 });
}

function secretFile(): string {
  const dir = join(scratch.path, "elsewhere");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "secret.txt");
  writeFileSync(file, "the secret");
  return file;
}

describe("--sandbox and sandbox: on the command line", { skip }, () => {
  test("servers --stdio … --sandbox: the row says it runs in the default sandbox; call shows the refusal", async () => {
    // One servers run lists the sandboxed and the plain server; the two calls run side by side.
    const [listed, read, unsandboxed] = await Promise.all([
      mcpwire(["servers", "--stdio", probeCommand, "--name", "probe", "--sandbox", "--stdio", probeCommand, "--name", "plain"]),
      mcpwire(["call", "--stdio", probeCommand, "--sandbox", "read_file", `path=${secretFile()}`]),
      mcpwire(["call", "--stdio", probeCommand, "read_file", `path=${secretFile()}`]),
    ]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^SERVER\s+STATE\s+.*\sSANDBOX\s+LAST ERROR/m);
    assert.match(listed.stdout, /^probe\s+ready\s+stdio\s.*command line\s+yes \(default\)/m);
    assert.match(listed.stdout, /^plain\s+ready\s+stdio\s.*command line\s+no\b/m);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^denied: ENOENT/);
    assert.equal(unsandboxed.stdout, "ok: the secret\n");
  });

  test("npx -y of the README's server, sandboxed: from the project that installed it, it runs; elsewhere it fails at once saying why", async () => {
    const npx = "npx -y @modelcontextprotocol/server-everything";
    const env = { ...process.env, HOME: scratch.path, XDG_CONFIG_HOME: join(scratch.path, "config"), XDG_CACHE_HOME: join(scratch.path, "cache") };
    const empty = join(scratch.path, "empty-project");
    mkdirSync(empty, { recursive: true });
    const [project, elsewhere, home] = await Promise.all([
      // The repository's root has server-everything in node_modules; the default profile maps the working directory.
      runMcpwire(["call", "--stdio", npx, "--sandbox", "echo", "message=sandboxed"], { cwd: root, env, timeoutMs: 60_000 }),
      runMcpwire(["servers", "--json", "--stdio", npx, "--sandbox"], { cwd: empty, env, timeoutMs: 60_000 }),
      // Run from the home (the scratch folder is HOME here): not mapped, and the error says so.
      mcpwire(["call", "--stdio", npx, "--sandbox", "echo", "message=sandboxed"]),
    ]);
    assert.equal(project.code, 0, project.stderr);
    assert.equal(project.stdout, "Echo: sandboxed\n");
    const [status] = JSON.parse(elsewhere.stdout) as Array<{ state: string; reason?: string; lastError?: string }>;
    assert.equal(status?.state, "parked", elsewhere.stderr);
    assert.match(status?.reason ?? "", /^could not start: npx runs offline and the package is not where it can run it from, which no retry can change/);
    const error = status?.lastError ?? "";
    assert.match(error, /in its sandbox npx has no network and its cache \(.*\) read-only, so it runs only a package installed in its working directory/);
    assert.ok(error.includes(`${empty} (npm install @modelcontextprotocol/server-everything there)`), error);
    assert.match(error, /sandbox: \{ network: true, write: \[.*\] \} in the server's config/);
    assert.equal(home.code, 3, home.stderr);
    assert.match(
      home.stderr,
      /its working directory .* is, or holds, your home, which the sandbox does not map, so give it a project's directory as cwd \(--cwd DIR\)/,
    );
  });

  test("a config's sandbox: key, with a read path; servers --json carries the profile", async () => {
    const file = secretFile();
    const config = await writeConfig(scratch.path, "sandboxed.yaml", [
      "mcp_servers:",
      "  probe:",
      "    command: node",
      `    args: [${JSON.stringify(probe)}]`,
      "    sandbox:",
      `      read: [${JSON.stringify(join(scratch.path, "elsewhere"))}]`,
    ]);
    const listed = await mcpwire(["servers", "--json", "--config", config]);
    assert.equal(listed.code, 0, listed.stderr);
    const [status] = JSON.parse(listed.stdout) as Array<{ name: string; state: string; sandbox?: unknown }>;
    assert.deepEqual(status?.sandbox, { profile: "custom", sandboxed: true, by: "bubblewrap" });
    const read = await mcpwire(["call", "--config", config, "mcp_probe_read_file", `path=${file}`]);
    assert.equal(read.stdout, "ok: the secret\n", read.stderr);
  });

  test("no sandbox to be had: the server does not start and says why and what to do; prefer runs it with a warning", async () => {
    // One table lists the server that is to run in the sandbox and the one that prefers to; the JSON the first one's error.
    const [table, json] = await Promise.all([
      mcpwire(
        ["servers", "--stdio", probeCommand, "--name", "probe", "--sandbox", "--stdio", probeCommand, "--name", "preferred", "--sandbox=prefer"],
        { MCPWIRE_BWRAP: MISSING_BWRAP },
      ),
      mcpwire(["servers", "--json", "--stdio", probeCommand, "--name", "probe", "--sandbox"], { MCPWIRE_BWRAP: MISSING_BWRAP }),
    ]);
    assert.equal(table.code, 3, table.stderr); // probe could not be started: not reached
    assert.match(table.stdout, /^probe\s+parked\s+stdio\s.*no \(default\)\s.*not started, it is to run in a sandbox/m);
    const [status] = JSON.parse(json.stdout) as Array<{ state: string; lastError?: string }>;
    assert.equal(status?.state, "parked");
    assert.match(status?.lastError ?? "", /bubblewrap \(.*\) is not installed; install it \(Debian\/Ubuntu: apt install bubblewrap/);
    assert.match(status?.lastError ?? "", /or write sandbox: prefer to run it unsandboxed with a warning/);
    assert.match(table.stdout, /^preferred\s+ready\s+stdio\s.*no \(prefer\)/m);
    assert.match(table.stderr, /^warning: server "preferred" runs WITHOUT a sandbox \(sandbox: prefer\): bubblewrap .* is not installed/m);
  });
});

describe("a Deno script where bubblewrap cannot be had: Deno's permission flags instead", () => {
  test("its read outside, write and connection are refused by Deno; servers says so", async () => {
    const deno = fileURLToPath(new URL("../../node_modules/deno/deno", import.meta.url));
    const command = `${JSON.stringify(deno)} run ${JSON.stringify(probe)}`;
    const noBwrap = { MCPWIRE_BWRAP: MISSING_BWRAP };
    const everything = `${JSON.stringify(deno)} run -A ${JSON.stringify(probe)}`;
    const [listed, read, own, write, dropped, unsandboxed] = await Promise.all([
      mcpwire(["servers", "--stdio", command, "--name", "denoprobe", "--sandbox"], noBwrap),
      mcpwire(["call", "--stdio", command, "--sandbox", "read_file", `path=${secretFile()}`], noBwrap),
      mcpwire(["call", "--stdio", command, "--sandbox", "read_file", `path=${probe}`], noBwrap),
      mcpwire(["call", "--stdio", command, "--sandbox", "write_file", `path=${join(scratch.path, "written.txt")}`], noBwrap),
      // The command line's own -A is dropped in the sandbox, and reads everything outside it.
      mcpwire(["call", "--stdio", everything, "--sandbox", "read_file", `path=${secretFile()}`], noBwrap),
      mcpwire(["call", "--stdio", everything, "read_file", `path=${secretFile()}`], noBwrap),
    ]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^denoprobe\s+ready\s+stdio\s.*yes \(default, deno permissions\)/m);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^denied: .*read access/);
    assert.match(own.stdout, /^ok: /);
    assert.match(write.stdout, /^denied: .*write access/);
    assert.match(dropped.stdout, /^denied: .*read access/);
    assert.equal(unsandboxed.stdout, "ok: the secret\n");
  });
});

describe("a host that dies", { skip }, () => {
  test("mcpwire killed mid-call: bwrap dies with it, and so does every process of the sandbox", async () => {
    const running = startMcpwire(["call", "--stdio", probeCommand, "--sandbox", "hold"], {}, 60_000);
    const cli = running.child.pid!;
    // bwrap, its namespace's init, the server and the server's child, all below the CLI.
    let below: number[] = [];
    await waitUntil(() => (below = descendants(cli)).length >= 4, "the sandboxed server and its child running", 30_000);
    running.child.kill("SIGKILL");
    await running.code;
    await waitUntil(() => below.filter(isRunning).length === 0, `no process left of ${below.join(", ")}`, 10_000);
  });
});

describe("inspect --sandbox", { skip }, () => {
  test("inspects the server in its sandbox; without one it does not connect and says why, or warns with prefer", async () => {
    const [sandboxed, refused, preferred] = await Promise.all([
      mcpwire(["inspect", "--stdio", probeCommand, "--sandbox"]),
      mcpwire(["inspect", "--stdio", probeCommand, "--sandbox"], { MCPWIRE_BWRAP: MISSING_BWRAP }),
      mcpwire(["inspect", "--stdio", probeCommand, "--sandbox=prefer"], { MCPWIRE_BWRAP: MISSING_BWRAP }),
    ]);
    assert.equal(sandboxed.code, 0, sandboxed.stderr);
    assert.match(sandboxed.stdout, /read_file/);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /not started, it is to run in a sandbox \(sandbox: default\) and none can be had: bubblewrap .* is not installed/);
    assert.equal(preferred.code, 0, preferred.stderr);
    assert.match(preferred.stderr, /^warning: server ".*" runs WITHOUT a sandbox \(sandbox: prefer\)/m);
  });
});

describe("sandbox settings that are refused before anything runs", () => {
  test("help config documents the key and each key of its mapping", async () => {
    const { code, stdout } = await mcpwire(["help", "config"]);
    assert.equal(code, 0);
    assert.match(stdout, /^ {2}sandbox: "default", "prefer" or boolean or mapping$/m);
    for (const key of ["read", "write", "network", "env", "prefer"]) assert.match(stdout, new RegExp(`^    sandbox\\.${key}: `, "m"), key);
  });

  test("--sandbox with an unknown profile, or on an --http server, is a usage error", async () => {
    const [bogus, http] = await Promise.all([
      mcpwire(["servers", "--stdio", probeCommand, "--sandbox=strict"]),
      mcpwire(["servers", "--http", "http://127.0.0.1:9/mcp", "--sandbox"]),
    ]);
    assert.equal(bogus.code, 2);
    assert.match(bogus.stderr, /--sandbox=strict for --stdio .*: the profile is default or prefer/);
    assert.equal(http.code, 2);
    assert.match(http.stderr, /--sandbox applies to --stdio servers, not to --http/);
  });

  test("network: a list of hosts is refused with what to write instead; an unknown key is named", async () => {
    const config = await writeConfig(scratch.path, "hosts.yaml", [
      "mcp_servers:",
      "  probe:",
      "    command: node",
      `    args: [${JSON.stringify(probe)}]`,
      "    sandbox:",
      "      network: [example.com]",
      "      wirte: [/tmp]",
    ]);
    const { code, stderr } = await mcpwire(["servers", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /"sandbox.network" lists hosts, which the sandbox cannot enforce .*write network: true to allow every host, or false for none/);
    assert.match(stderr, /unknown key "sandbox.wirte" is ignored; did you mean "sandbox.write"\?/);
  });
});
