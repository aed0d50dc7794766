// A server's settings and command line as a sandbox plan (host/sandbox/sandbox-plan.ts), against real
// files in a temp directory: its program's package, the package runners' caches, what the
// default profile adds and an explicit read list does not, the environment inside.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, describe, test } from "node:test";
import type { SandboxSettings } from "../../src/host/config/types.ts";
import { planSandbox } from "../../src/host/sandbox/sandbox-plan.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpwire-sandbox-plan-")));
after(() => rmSync(dir, { recursive: true, force: true }));

const DEFAULT: SandboxSettings = { profile: "default", write: [], network: false, env: [], prefer: false };

/** A package at `dir/app` with its script in `src/`, its node_modules a link to a shared tree elsewhere, and a data directory. */
function project(): { app: string; script: string; shared: string; data: string } {
  const app = join(dir, "app");
  const shared = join(dir, "shared-modules");
  mkdirSync(join(app, "src"), { recursive: true });
  mkdirSync(shared, { recursive: true });
  writeFileSync(join(app, "package.json"), "{}");
  writeFileSync(join(app, "src", "server.mjs"), "");
  try {
    symlinkSync(shared, join(app, "node_modules"));
  } catch {
    // made by an earlier test
  }
  const data = join(dir, "data");
  mkdirSync(data, { recursive: true });
  return { app, script: join(app, "src", "server.mjs"), shared, data };
}

describe("planSandbox", () => {
  test("a script's package is readable, with the node_modules tree its link leads to; the default adds the directories its arguments name", async () => {
    const { app, script, shared, data } = project();
    const { plan } = await planSandbox(DEFAULT, { command: "node", args: [script, data, "--verbose"], env: { PATH: "/usr/bin:/bin" } }, [], {});
    for (const path of [app, shared, data]) assert.ok(plan.read.includes(path), `${path} in ${plan.read.join(", ")}`);
    assert.equal(plan.network, false);
    assert.deepEqual(plan.write, []);
  });

  test("an explicit read list replaces what the default adds, not the server's own program", async () => {
    const { app, script, data } = project();
    const elsewhere = join(dir, "elsewhere");
    const settings: SandboxSettings = { ...DEFAULT, profile: "custom", read: [elsewhere] };
    const { plan } = await planSandbox(settings, { command: "node", args: [script, data], env: { PATH: "/usr/bin:/bin" } }, [join(dir, "root")], {});
    assert.ok(plan.read.includes(app));
    assert.ok(plan.read.includes(elsewhere));
    assert.ok(!plan.read.includes(data), "an argument's directory is not added");
    assert.ok(!plan.read.includes(join(dir, "root")), "a root is not added");
  });

  test("roots (paths and file:// URIs) and a configured cwd are readable under the default profile", async () => {
    const { app } = project();
    const { plan } = await planSandbox(
      DEFAULT,
      { command: "node", args: [], env: {}, cwd: app },
      [join(dir, "root a"), `file://${encodeURI(join(dir, "root b"))}`],
      {},
    );
    for (const path of [app, join(dir, "root a"), join(dir, "root b")]) assert.ok(plan.read.includes(path), `${path} in ${plan.read.join(", ")}`);
    assert.equal(plan.cwd, app);
  });

  test("a stray package.json in the home does not make the home a script's package: its own folder and node_modules are read", async () => {
    const home = join(dir, "home-with-package");
    const weather = join(home, "mcp", "weather");
    mkdirSync(join(home, "node_modules"), { recursive: true });
    mkdirSync(join(home, ".ssh"), { recursive: true });
    mkdirSync(weather, { recursive: true });
    writeFileSync(join(home, "package.json"), "{}");
    writeFileSync(join(weather, "server.mjs"), "");
    writeFileSync(join(home, "top.mjs"), "");
    const exposes = (path: string) => home === path || home.startsWith(`${path}/`);
    const homeOnly: Record<string, string> = { HOME: home };
    // The home as the server's HOME, or as mcpwire's own.
    const cases: [Record<string, string>, Record<string, string>][] = [[homeOnly, {}], [{}, homeOnly]];
    for (const [env, hostEnv] of cases) {
      const { plan } = await planSandbox(DEFAULT, { command: "node", args: [join(weather, "server.mjs")], env }, [], hostEnv);
      assert.ok(!plan.read.some(exposes), `the home or above it in ${plan.read.join(", ")}`);
      assert.ok(plan.read.includes(weather), `${weather} in ${plan.read.join(", ")}`);
      assert.ok(plan.read.includes(join(home, "node_modules")), `its node_modules in ${plan.read.join(", ")}`);
    }
    // A script right in the home: the file itself, not its folder.
    const { plan } = await planSandbox(DEFAULT, { command: "node", args: [join(home, "top.mjs")], env: { HOME: home } }, [], {});
    assert.ok(plan.read.includes(join(home, "top.mjs")), plan.read.join(", "));
    assert.ok(!plan.read.some(exposes), `the home or above it in ${plan.read.join(", ")}`);
  });

  test("the default profile reads the working directory, mcpwire's own when none is configured, but not a home or above it", async () => {
    const { app } = project();
    const elsewhere = join(dir, "elsewhere-home");
    mkdirSync(elsewhere, { recursive: true });
    const cwd = process.cwd();
    const own = await planSandbox(DEFAULT, { command: "node", args: [], env: { HOME: elsewhere } }, [], {});
    assert.ok(own.plan.read.includes(cwd), `${cwd} in ${own.plan.read.join(", ")}`);
    const configured = await planSandbox(DEFAULT, { command: "node", args: [], env: { HOME: elsewhere }, cwd: app }, [], {});
    assert.ok(configured.plan.read.includes(app));
    const home = await planSandbox(DEFAULT, { command: "node", args: [], env: { HOME: app }, cwd: app }, [], {});
    assert.ok(!home.plan.read.includes(app), `the home ${app} in ${home.plan.read.join(", ")}`);
    const root = await planSandbox(DEFAULT, { command: "node", args: [], env: {}, cwd: "/" }, [], {});
    assert.ok(!root.plan.read.includes("/"), root.plan.read.join(", "));
    const custom = await planSandbox({ ...DEFAULT, profile: "custom", read: [] }, { command: "node", args: [], env: {}, cwd: app }, [], {});
    assert.ok(!custom.plan.read.includes(app), "a read list of its own replaces the working directory");
  });

  test("npx without network runs offline, reads npm's cache, and its failure says what the sandbox withholds and what grants it", async () => {
    const { app } = project();
    const home = join(dir, "home");
    const offline = await planSandbox(DEFAULT, { command: "npx", args: ["-y", "@scope/server"], env: { HOME: home }, cwd: app }, [], {});
    assert.ok(offline.plan.read.includes(join(home, ".npm")));
    assert.equal(offline.plan.home, home);
    assert.equal(offline.env.npm_config_offline, "true");
    const note = offline.exitNote ?? "";
    assert.match(note, /in its sandbox npx has no network and its cache \(.*\/home\/\.npm\) read-only/);
    assert.ok(note.includes(`installed in its working directory ${app} (npm install @scope/server there)`), note);
    assert.ok(note.includes("(npm install -g @scope/server)"), note);
    // The package named as the runner's options give it; a registry URL is no package.
    const named = await planSandbox(
      DEFAULT,
      { command: "npx", args: ["--registry", "https://r.example", "-p", "@scope/pkg", "srv"], env: { HOME: home }, cwd: app },
      [],
      {},
    );
    assert.ok((named.exitNote ?? "").includes("npm install @scope/pkg there"), named.exitNote);
    assert.ok(note.includes(`sandbox: { network: true, write: ["${join(home, ".npm")}"] }`), note);
    // The server's own setting stays; with the network it is not offline, but its cache is still read-only.
    const own = await planSandbox(DEFAULT, { command: "npx", args: ["-y", "@scope/server"], env: { HOME: home, NPM_CONFIG_OFFLINE: "false" } }, [], {});
    assert.equal(own.env.NPM_CONFIG_OFFLINE, "false");
    assert.equal(own.env.npm_config_offline, undefined);
    const online = await planSandbox({ ...DEFAULT, network: true }, { command: "npx", args: ["-y", "@scope/server"], env: { HOME: home } }, [], {});
    assert.equal(online.env.npm_config_offline, undefined);
    assert.match(online.exitNote ?? "", /in its sandbox npx has its cache \(.*\) read-only/);
    const granted = await planSandbox(
      { ...DEFAULT, network: true, write: [join(home, ".npm")] },
      {
        command: "npx",
        args: ["-y", "@scope/server"],
        env: { HOME: home },
      },
      [],
      {},
    );
    assert.equal(granted.exitNote, undefined);
    // Run from the home: the note says the working directory is not mapped, and why.
    const fromHome = await planSandbox(DEFAULT, { command: "npx", args: ["-y", "@scope/server"], env: { HOME: home }, cwd: home }, [], {});
    assert.match(fromHome.exitNote ?? "", /its working directory .*\/home is, or holds, your home, which the sandbox does not map/);
  });

  test("uvx reads uv's cache and tools; deno its DENO_DIR", async () => {
    const uv = await planSandbox(DEFAULT, { command: "uvx", args: ["mcp-server-fetch"], env: { HOME: "/home/u", UV_CACHE_DIR: "/var/cache/uv" } }, [], {});
    assert.ok(uv.plan.read.includes("/var/cache/uv"));
    assert.ok(uv.plan.read.includes("/home/u/.local/share/uv"));
    assert.match(uv.exitNote ?? "", /uv tool install mcp-server-fetch\)/);
    assert.equal(uv.env.UV_OFFLINE, "1");
    const deno = await planSandbox(DEFAULT, { command: "deno", args: ["run", "server.ts"], env: { DENO_DIR: "/var/cache/deno" } }, [], {});
    assert.ok(deno.plan.read.includes("/var/cache/deno"));
  });

  test("the environment inside: the child's, the variables settings.env names from ours, TMPDIR the private /tmp", async () => {
    const { env } = await planSandbox(
      { ...DEFAULT, env: ["PASSED", "UNSET"] },
      { command: "node", args: [], env: { PATH: "/usr/bin", TMPDIR: "/var/tmp/mine" } },
      [],
      { PASSED: "yes", NOT_NAMED: "no" },
    );
    assert.deepEqual(env, { PATH: "/usr/bin", TMPDIR: "/tmp", PASSED: "yes" });
  });
});
