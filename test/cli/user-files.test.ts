// The user's files are the user's, as the CLI runs: writing tool pins beside a project's config
// leaves the project directory's mode as it was (it was chmod'ed to 0700); a `--trace-file` that
// is a FIFO or a character device is written as it is (it was replaced by a regular file); an
// MCPWIRE_LOCK_FILE that is one is refused, with no lock file made beside it.
// Real CLI processes, a real FIFO (mkfifo) and, as root, a real character device (mknod).

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const POSIX = process.platform !== "win32";
const canMkfifo = POSIX && spawnSync("mkfifo", ["--help"]).error === undefined;
const canMknod = POSIX && process.getuid?.() === 0;
const scratch = scratchDir("mcpwire-user-files-");
let count = 0;

/** A project directory of mode 0755 with a config of the echo server; a HOME of its own; pins in the lock file beside the config. */
async function project(): Promise<{ dir: string; env: Record<string, string | undefined> }> {
  const root = join(scratch.path, String(++count));
  const dir = join(root, "project");
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  await writeConfig(dir, "mcpwire.yaml", ["mcp_servers:", "  echo:", "    command: node", `    args: [${JSON.stringify(fixturePath("echo-server.mjs"))}]`]);
  const home = join(root, "home");
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".state") };
  delete env.MCPWIRE_LOCK_FILE;
  return { dir, env };
}

describe("the CLI and the user's files", { skip: !POSIX && "needs POSIX modes" }, () => {
  test("writing tool pins beside a project's config leaves the project directory's mode as it was; the lock file alone is private", async () => {
    const { dir, env } = await project();
    const run = await mcpwire(["tools", "--trust-project"], { cwd: dir, env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(statSync(join(dir, "mcpwire.lock.json")).mode & 0o777, 0o600, "the lock file is private");
    assert.equal(statSync(dir).mode & 0o777, 0o755, "the project directory was not chmod'ed");
    const again = await mcpwire(["tools", "--config", join(dir, "mcpwire.yaml")], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(statSync(dir).mode & 0o777, 0o755, "nor with --config FILE");
  });

  test("--trace-file naming a FIFO: its reader gets the trace, and it stays a FIFO", { skip: !canMkfifo && "needs mkfifo" }, async () => {
    const { dir, env } = await project();
    const fifo = join(dir, "trace.fifo");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    const cat = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "inherit"] });
    let read = "";
    cat.stdout.setEncoding("utf8").on("data", (chunk: string) => (read += chunk));
    const closed = new Promise((resolve) => cat.on("close", resolve));
    const run = await mcpwire(["tools", "--trust-project", "--trace-file", fifo], { cwd: dir, env });
    assert.equal(run.code, 0, run.stderr);
    await hangGuard(closed, 20_000, "the FIFO's reader");
    assert.ok(lstatSync(fifo).isFIFO(), "still a FIFO");
    const events = read.trim().split("\n").map((line) => JSON.parse(line) as { kind?: string });
    assert.ok(events.length > 2 && events.some((event) => event.kind === "message"), read.slice(0, 500));
  });

  test("MCPWIRE_LOCK_FILE naming a FIFO or a device: refused saying why, left as it is, no lock taken beside it", {
    skip: !canMkfifo && "needs mkfifo",
  }, async () => {
    const { dir, env } = await project();
    const paths = [join(dir, "pins.fifo")];
    assert.equal(spawnSync("mkfifo", [paths[0]!]).status, 0);
    if (canMknod) {
      paths.push(join(dir, "pins-device"));
      assert.equal(spawnSync("mknod", [paths[1]!, "c", "1", "3"]).status, 0);
    }
    for (const path of paths) {
      // A lock another process holds beside it: taking one would wait for it (and make one in a directory such as /dev).
      writeFileSync(`${path}.lock`, "held\n");
      const run = await mcpwire(["tools", "--trust-project"], { cwd: dir, env: { ...env, MCPWIRE_LOCK_FILE: path } });
      assert.match(run.stderr, new RegExp(`the tool pins in ${path} cannot be used: ${path} is not a regular file`), run.stderr);
      assert.doesNotMatch(run.stderr, /busy/);
      const info = lstatSync(path);
      assert.ok(path.endsWith("fifo") ? info.isFIFO() : info.isCharacterDevice(), `${path} is as it was`);
      assert.equal(readFileSync(`${path}.lock`, "utf8"), "held\n");
    }
  });

  test("--trace-file naming a character device is written as it is, never replaced by a regular file", {
    skip: !canMknod && "mknod of a character device needs root",
  }, async () => {
    const { dir, env } = await project();
    const device = join(dir, "null-device");
    assert.equal(spawnSync("mknod", [device, "c", "1", "3"]).status, 0);
    const run = await mcpwire(["tools", "--trust-project", "--trace-file", device], { cwd: dir, env });
    assert.equal(run.code, 0, run.stderr);
    const info = lstatSync(device);
    assert.ok(info.isCharacterDevice(), "still a character device");
    assert.equal(info.rdev, statSync("/dev/null").rdev);
    assert.equal(readFileSync(device, "utf8"), "");
  });
});
