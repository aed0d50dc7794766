// mcpwire add, remove and export --write keep the user's bytes: a CRLF file stays CRLF (the added
// lines too); a file that is not UTF-8 (a Latin-1 `é` in a comment) is refused, unchanged, rather
// than rewritten with U+FFFD; a symbolic link is written through to its file and stays a link;
// sixteen `mcpwire add` run at once, as real processes, all land (1 to 3 of 16 were lost).

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { parseDocument } from "yaml";
import { mcpwire, scratchDir } from "../support/cli-runner.ts";

const scratch = scratchDir("mcpwire-config-bytes-");
let count = 0;

function sandbox() {
  const home = join(scratch.path, String(count++));
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const run = (args: string[]) => mcpwire(args, { env, cwd: home });
  // A working directory that is not HOME: there ~/.cursor/mcp.json is Cursor's user-level file, not the project's.
  const project = join(home, "project");
  mkdirSync(project);
  const runIn = (args: string[]) => mcpwire(args, { env, cwd: project });
  return { home, run, runIn };
}

const YAML_CRLF = '# servers, written on Windows\r\nmcp_servers:\r\n  echo:\r\n    command: node   # with node\r\n    args: ["echo.mjs"]\r\n';
const JSON_CRLF = '{\r\n  "mcpServers": {\r\n    "echo": { "command": "node", "args": ["echo.mjs"] }\r\n  }\r\n}\r\n';

/** Whether every line end of `text` is CRLF. */
function allCrlf(text: string): boolean {
  return !/(^|[^\r])\n/.test(text) && text.includes("\r\n");
}

describe("a config edit keeps the user's bytes", () => {
  for (const [name, text] of [["servers.yaml", YAML_CRLF], ["servers.json", JSON_CRLF]] as const) {
    test(`${name} with CRLF line ends: add keeps CRLF, the added lines too; remove gives the file back byte for byte`, async () => {
      const { home, run } = sandbox();
      const file = join(home, name);
      writeFileSync(file, text);
      const added = await run(["add", "fresh", "--file", file, "--env", "A=1", "--", "npx", "-y", "some-server"]);
      assert.equal(added.code, 0, added.stderr);
      const after = readFileSync(file, "utf8");
      assert.ok(allCrlf(after), JSON.stringify(after));
      assert.match(after, /some-server/);
      const removed = await run(["remove", "fresh", "--file", file]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(readFileSync(file, "utf8"), text);
    });
  }

  test("export --write into a CRLF file keeps CRLF", async () => {
    const { home, runIn } = sandbox();
    const config = join(home, "mcpwire.yaml");
    writeFileSync(config, 'mcp_servers:\n  echo:\n    command: node\n    args: ["echo.mjs"]\n');
    const target = join(home, ".cursor", "mcp.json");
    mkdirSync(join(home, ".cursor"));
    writeFileSync(target, '{\r\n  "mcpServers": {\r\n    "other": { "command": "x" }\r\n  }\r\n}\r\n');
    const exported = await runIn(["export", "--to", "cursor", "--write", "--config", config]);
    assert.equal(exported.code, 0, exported.stderr);
    const after = readFileSync(target, "utf8");
    assert.ok(after.includes('"echo"') && after.includes('"other"'), after);
    assert.ok(allCrlf(after), JSON.stringify(after));
  });

  test("a Latin-1 byte in a comment: the edit is refused, naming the byte, its line and what to do; the file is unchanged", async () => {
    const { home, run } = sandbox();
    const file = join(home, "servers.yaml");
    const bytes = Buffer.concat([
      Buffer.from("mcp_servers:\n  echo:\n    command: node\n# caf"),
      Buffer.from([0xe9]), // é in Latin-1: not UTF-8
      Buffer.from(" du coin\n"),
    ]);
    writeFileSync(file, bytes);
    const added = await run(["add", "fresh", "--file", file, "--", "node", "x.mjs"]);
    assert.equal(added.code, 2, added.stderr);
    assert.match(added.stderr, /is not UTF-8: byte 0xE9 at line 4; mcpwire edits only UTF-8 files.*iconv -f latin1 -t utf-8.*the file was not changed/);
    assert.deepEqual(readFileSync(file), bytes, "byte for byte as it was");
  });

  test("a symbolic link is written through: the file it points to gets the server, the link stays", {
    skip: process.platform === "win32" && "needs POSIX links",
  }, async () => {
    const { home, run } = sandbox();
    mkdirSync(join(home, "dotfiles"));
    const real = join(home, "dotfiles", "mcpwire.yaml");
    writeFileSync(real, "mcp_servers:\n  echo:\n    command: node\n");
    const link = join(home, "linked.yaml");
    symlinkSync(real, link);
    const added = await run(["add", "fresh", "--file", link, "--", "node", "x.mjs"]);
    assert.equal(added.code, 0, added.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), "the link stays");
    assert.match(readFileSync(real, "utf8"), /fresh:/);
  });

  test("sixteen mcpwire add at once, as real processes: every one that said it added its server did", async () => {
    const { home, run } = sandbox();
    const file = join(home, "servers.yaml");
    writeFileSync(file, "mcp_servers:\n  echo:\n    command: node\n");
    const names = Array.from({ length: 16 }, (_, index) => `s${index}`);
    const runs = await Promise.all(names.map((name) => run(["add", name, "--file", file, "--", "node", `${name}.mjs`])));
    runs.forEach((outcome, index) => assert.equal(outcome.code, 0, `${names[index]}: ${outcome.stderr}`));
    const servers = parseDocument(readFileSync(file, "utf8")).toJS().mcp_servers as Record<string, unknown>;
    assert.deepEqual(Object.keys(servers).sort(), ["echo", ...names].sort());
  });
});
