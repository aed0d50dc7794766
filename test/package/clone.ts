// The README's install lines, run as written (issue 37). mcpwire is not on the npm registry yet,
// so the README's Install section says how to set it up from a clone: its ```sh clone blocks
// (`npm ci`, `npm start`, `npm test`; `npm run build && npm link`, `mcpwire version`, `npm pack`,
// `npm install -g ./mcpwire-*.tgz`). This test makes a clone (the checkout's files as git sees
// them, uncommitted changes included, in a scratch directory: no dist/, no node_modules) and runs
// each line of those blocks there with `sh -c`, in order, but `npm test` (the suite this test is
// part of). What the lines write outside the clone goes to the scratch directory: HOME, and npm's
// global prefix (npm link, npm install -g) with its bin first on PATH. npm's cache is the user's,
// read offline first (npm_config_prefer_offline): `npm ci` takes what the cache holds and reads
// the registry for the rest. Then the command the lines installed (the packed bundle) talks to
// the example server the docs use, and the release script (.ci/release) refuses to publish here
// and shows in a dry run what it would publish. About 80 s on two cores.
// Run by `npm run test:package` under Node: `node --import tsx --test test/package/clone.ts`.

import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { blocksOf } from "../support/doc-blocks.ts";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

interface Outcome {
  code: number;
  output: string;
}

/** Runs `command args` to its end (killed after `timeoutMs`): its exit code, stdout then stderr. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 240_000, killSignal: "SIGKILL", maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, output: `${stdout}${stderr}${error !== null && error.killed ? "\n[killed: no end in time]" : ""}` });
      },
    );
  });
}

/** The README's ```sh clone blocks: each line with its text, comments off, blank lines left out. */
function readmeLines(): { line: number; text: string }[] {
  const blocks = blocksOf("README.md", readFileSync(join(ROOT, "README.md"), "utf8")).filter((block) => block.lang === "sh" && block.flags.includes("clone"));
  return blocks.flatMap((block) =>
    block.body.split("\n").map((text, index) => ({ line: block.line + 1 + index, text: text.replace(/\s+#.*$/, "").trim() })).filter((line) =>
      line.text !== "" && !line.text.startsWith("#")
    )
  );
}

/** The checkout's files as git sees them: tracked and untracked but not ignored, those that exist. */
function checkoutFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
  return [...new Set(listed.split("\0").filter((path) => path !== ""))].filter((path) => lstatSync(join(ROOT, path), { throwIfNoEntry: false })?.isFile());
}

describe("the README's install lines, run as written in a fresh clone", { timeout: 900_000 }, () => {
  const scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-clone-"));
  const clone = join(scratch, "mcpwire");
  const prefix = join(scratch, "global");
  const home = join(scratch, "home");
  const lines = readmeLines();
  /** Each line run, with its outcome, in order. */
  const ran: { line: number; text: string; outcome: Outcome }[] = [];
  let env: NodeJS.ProcessEnv = {};

  before(async () => {
    for (const path of checkoutFiles()) {
      mkdirSync(dirname(join(clone, path)), { recursive: true });
      copyFileSync(join(ROOT, path), join(clone, path));
    }
    mkdirSync(home, { recursive: true });
    // npm's cache where the user's is (npm config get cache), before HOME moves.
    const cache = execFileSync(NPM, ["config", "get", "cache"], { cwd: ROOT, encoding: "utf8" }).trim();
    env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"),
      XDG_STATE_HOME: join(home, ".local", "state"),
      PATH: `${join(prefix, "bin")}${delimiter}${process.env.PATH ?? ""}`,
      npm_config_prefix: prefix,
      npm_config_cache: cache,
      npm_config_prefer_offline: "true",
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
      NO_COLOR: "1",
    };
    for (const { line, text } of lines) {
      if (text === "npm test") continue; // the suite this test is part of
      const outcome = await run("sh", ["-c", text], { cwd: clone, env });
      ran.push({ line, text, outcome });
      if (outcome.code !== 0) break;
    }
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** What the README line `text` printed; fails when it was not run or did not succeed. */
  function printed(text: string): string {
    const found = ran.find((one) => one.text === text);
    assert.ok(
      found,
      `README.md has no line \`${text}\` in its \`\`\`sh clone blocks (or a line before it failed): ${lines.map((one) => one.text).join(" | ")}`,
    );
    assert.equal(found.outcome.code, 0, `README.md:${found.line}: \`${text}\` failed (exit ${found.outcome.code}):\n${found.outcome.output}`);
    return found.outcome.output;
  }

  test("the README names the commands that set up, run and test mcpwire from a clone, and how to install the command", () => {
    const texts = lines.map((line) => line.text);
    for (const needed of ["npm ci", "npm start", "npm test", "npm link", "npm pack"]) {
      assert.ok(texts.some((text) => text.includes(needed)), `README.md's \`\`\`sh clone blocks name \`${needed}\`: ${texts.join(" | ")}`);
    }
    assert.ok(texts.indexOf("npm ci") < texts.indexOf("npm start"), "npm ci comes before npm start");
  });

  test("every line but npm test succeeds, in order", () => {
    for (const one of ran) {
      assert.equal(one.outcome.code, 0, `README.md:${one.line}: \`${one.text}\` failed (exit ${one.outcome.code}):\n${one.outcome.output}`);
    }
    assert.equal(ran.length, lines.filter((line) => line.text !== "npm test").length, "every line ran");
  });

  test("npm start, right after npm ci, lists the example config's tools and calls one (server-everything is a dev dependency: offline)", () => {
    const output = printed("npm start");
    assert.match(output, /^mcp_everything_echo\s/m);
    assert.match(output, /^mcp_filesystem_read_text_file\s/m);
    assert.match(output, /^Echo: hello from mcpwire$/m);
  });

  test("mcpwire version, after npm link, is the clone's command on PATH", () => {
    assert.match(printed("mcpwire version"), new RegExp(`^mcpwire ${PACKAGE.version.replaceAll(".", "\\.")}$`, "m"));
  });

  test("the tarball the lines installed globally holds the bin bundle and the example servers, and its command calls the example server", async () => {
    const installed = join(prefix, "lib", "node_modules", "mcpwire");
    assert.ok(existsSync(installed) && !lstatSync(installed).isSymbolicLink(), "npm install -g of the tarball replaced the link with the package");
    assert.ok(existsSync(join(installed, "examples", "servers", "echo-server.mjs")), "examples/servers/ is in the package");
    const cli = readdirSync(join(installed, "dist", "cli"));
    assert.ok(cli.includes("run.js") && !cli.includes("main.js"), `dist/cli/ is the bundle: ${cli.join(" ")}`);
    const bin = join(prefix, "bin", "mcpwire");
    assert.equal(realpathSync(bin), join(realpathSync(installed), "dist", "cli", "run.js"));
    const server = `node ${join(installed, "examples", "servers", "echo-server.mjs")}`;
    const call = await run("mcpwire", ["call", "--stdio", server, "echo", "text=from the tarball"], { cwd: scratch, env });
    assert.equal(call.code, 0, call.output);
    assert.equal(call.output, "from the tarball\n");
  });

  // The release (docs/releasing.md): .ci/release publishes from GitHub Actions on a tag only; its
  // dry run shows what npm and JSR would be sent. npm 11 drops a bin path written "./dist/…"
  // from what it publishes ("auto-corrected … invalid and removed"): the dry run must not say so.
  test(".ci/release publishes nothing outside GitHub Actions; its dry run packs the bin bundle and the example servers, and JSR's", async () => {
    const outside = { ...env, GITHUB_ACTIONS: "", GITHUB_REF: "" };
    const refused = await run("bash", [".ci/release"], { cwd: clone, env: outside });
    assert.equal(refused.code, 2, refused.output);
    assert.match(refused.output, /^release: publishes only from GitHub Actions/m);
    const dry = await run("bash", [".ci/release", "--dry-run"], { cwd: clone, env: outside });
    assert.equal(dry.code, 0, dry.output);
    assert.match(dry.output, new RegExp(`^\\+ mcpwire@${PACKAGE.version.replaceAll(".", "\\.")}$`, "m"));
    assert.doesNotMatch(dry.output, /auto-corrected|invalid and removed/);
    for (const file of ["dist/cli/run.js", "examples/servers/echo-server.mjs", "dist/host/bridge/bridge-worker.js"]) {
      assert.match(dry.output, new RegExp(`\\b${file}\\b`));
    }
    assert.match(dry.output, /Dry run complete/, "deno publish --dry-run ran");
  });
});
