// `mcpwire trace show FILE` and `mcpwire trace diff A B` (issue 26): traces recorded by the real
// CLI (`call --trace-file`) against a real fixture server, read back: the filters, --explain with
// its spec citations, --full, a half line left by a crash, a hostile trace whose escape sequences
// must reach the terminal as visible text; diff between two recordings of a server that changed.

import assert from "node:assert/strict";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { mcpwire, root, scratchDir, writeConfig } from "../support/cli-runner.ts";

const FIXTURE = join(root, "test/fixtures/versioned-tools-server.mjs");
const scratch = scratchDir("mcpwire-trace-show-");
/** Recordings of the versioned fixture: version 1, version 2, and version 1 again. */
const files = { one: "", two: "", again: "" };

/** Records `call mcp_versioned_echo text=hi` against the fixture at `version` into `name`. */
async function record(name: string, version: string): Promise<string> {
  const config = await writeConfig(scratch.path, `${name}.yaml`, [
    "mcp_servers:",
    "  versioned:",
    "    command: node",
    `    args: [${JSON.stringify(FIXTURE)}]`,
    "    env:",
    `      TOOLS_VERSION: "${version}"`,
  ]);
  const file = join(scratch.path, `${name}.jsonl`);
  const { code, stderr } = await mcpwire(["call", "mcp_versioned_echo", "text=hi", "--trace-file", file, "--config", config]);
  assert.equal(code, 0, stderr);
  return file;
}

/** The trace lines of `show`'s stdout (every line starts with the time column). */
function eventLines(stdout: string): string[] {
  return stdout.split("\n").filter((line) => /^ +[\d.]+ ms /.test(line));
}

before(async () => {
  [files.one, files.two, files.again] = await Promise.all([record("one", "1"), record("two", "2"), record("again", "1")]);
});

describe("mcpwire trace show", () => {
  test("shows the readable lines of --trace: process, lifecycle, the tools/call and its answer", async () => {
    const { code, stdout, stderr } = await mcpwire(["trace", "show", files.one]);
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    assert.match(stdout, /→ versioned {2}tools\/call #\d+/);
    assert.match(stdout, /← versioned {2}↳ answer to tools\/call #\d+ {2}[\d.]+ ms {2}\(\d+ B\)/);
    assert.match(stdout, /• versioned {2}process started, pid \d+/);
    assert.match(stdout, /• versioned {2}ready/);
  });

  test("--method takes a method, a family (tools/*, tools/) and the answers to it; --server, --kind and --grep filter", async () => {
    const family = await mcpwire(["trace", "show", files.one, "--method", "tools/*"]);
    assert.equal(family.code, 0, family.stderr);
    const lines = eventLines(family.stdout);
    assert.ok(lines.some((line) => /→ versioned {2}tools\/list/.test(line)), family.stdout);
    assert.ok(lines.some((line) => /↳ answer to tools\/call/.test(line)), family.stdout);
    assert.ok(lines.every((line) => /(→|↳ answer to) tools\/(list|call)|→ versioned {2}tools\//.test(line)), family.stdout);
    const slash = await mcpwire(["trace", "show", files.one, "--method", "tools/"]);
    assert.equal(slash.stdout, family.stdout);
    const exact = eventLines((await mcpwire(["trace", "show", files.one, "--method", "tools/call"])).stdout);
    assert.equal(exact.length, 2, exact.join("\n"));
    const none = await mcpwire(["trace", "show", files.one, "--server", "elsewhere"]);
    assert.equal(none.code, 0);
    assert.equal(none.stdout, "");
    const processes = eventLines((await mcpwire(["trace", "show", files.one, "--kind", "process"])).stdout);
    assert.ok(processes.length >= 2 && processes.every((line) => line.includes(" process ")), processes.join("\n"));
    const two = eventLines((await mcpwire(["trace", "show", files.one, "--kind", "process", "--kind", "lifecycle"])).stdout);
    assert.ok(two.length > processes.length && two.every((line) => line.includes(" • ")), two.join("\n"));
    // The argument "hi" is in the tools/call and in its answer: any case.
    const grep = eventLines((await mcpwire(["trace", "show", files.one, "--grep", '"HI"'])).stdout);
    assert.ok(grep.some((line) => line.includes("tools/call #")), grep.join("\n"));
    assert.ok(grep.some((line) => line.includes("↳ answer to tools/call")), grep.join("\n"));
    assert.ok(grep.every((line) => line.includes("tools/call")), grep.join("\n"));
  });

  test("--explain says once, under its first message, what each method is for and its spec section", async () => {
    const { code, stdout, stderr } = await mcpwire(["trace", "show", files.one, "--explain"]);
    assert.equal(code, 0, stderr);
    const explained = stdout.split("\n").filter((line) => line.includes("ⓘ"));
    for (const line of explained) assert.match(line, /^ {13}ⓘ [a-z/_]+: .+ \(spec (2024-11-05|2025-11-25|2026-07-28) [a-z/_-]+\)$/);
    const methods = explained.map((line) => /ⓘ ([a-z/_]+):/.exec(line)?.[1]);
    assert.deepEqual(methods.filter((method) => method === "tools/call"), ["tools/call"], "tools/call explained once");
    for (const method of ["initialize", "notifications/initialized", "tools/list", "tools/call"]) {
      assert.ok(methods.includes(method), `${method} not explained`);
    }
    assert.match(stdout, /tools\/call #\d+[^\n]*\n {13}ⓘ tools\/call: [^\n]+\(spec 2025-11-25 server\/tools\)/);
    // A filter that leaves only an answer: explained under the answer.
    const answers = await mcpwire(["trace", "show", files.one, "--explain", "--kind", "message", "--grep", '"content"']);
    assert.match(answers.stdout, /↳ answer to tools\/call #\d+[^\n]*\n {13}ⓘ tools\/call: /);
  });

  test("--full pretty-prints each message's JSON under its line", async () => {
    const { code, stdout } = await mcpwire(["trace", "show", files.one, "--full", "--method", "tools/call"]);
    assert.equal(code, 0);
    assert.match(stdout, /→ versioned {2}tools\/call #\d+[^\n]*\n {13}\{\n {15}"jsonrpc": "2.0",/);
  });

  test("a half line at the end (a crash) is one warning; the events before it are shown; more problems are counted", async () => {
    const cut = join(scratch.path, "cut.jsonl");
    await writeFile(cut, await readFile(files.one, "utf8") + '{"v":1,"t":99.5,"wall":"2026-');
    const { code, stdout, stderr } = await mcpwire(["trace", "show", cut]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /↳ answer to tools\/call/);
    const warnings = stderr.trimEnd().split("\n");
    assert.equal(warnings.length, 1, stderr);
    assert.match(warnings[0]!, /^mcpwire: warning: .*cut\.jsonl:\d+: skipped: not JSON/);
    const many = join(scratch.path, "many.jsonl");
    await writeFile(many, await readFile(files.one, "utf8"));
    await appendFile(many, ["nope", "[]", "{}", "1", '{"kind":', "x", "y"].join("\n") + "\n");
    const counted = await mcpwire(["trace", "show", many]);
    assert.equal(counted.code, 0, counted.stderr);
    const lines = counted.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 6, counted.stderr);
    assert.match(lines[5]!, /many\.jsonl: 2 more lines skipped$/);
  });

  test("a hostile trace: escape sequences in a method, a server name and a body are shown, never interpreted", async () => {
    const hostile = join(scratch.path, "hostile.jsonl");
    const method = "tools/\u001b[2Jcall";
    const link = "\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007";
    const base = { v: 1, wall: "2026-01-01T00:00:00.000Z", server: "s\u001b[31m", transport: "stdio", kind: "message" };
    const events = [
      { ...base, t: 1, dir: "send", id: 1, method, size: 10, message: { jsonrpc: "2.0", id: 1, method, params: { text: link } } },
      {
        ...base,
        t: 2,
        dir: "receive",
        id: 1,
        method,
        answers: { id: 1, method },
        latencyMs: 1,
        size: 10,
        message: { jsonrpc: "2.0", id: 1, result: { text: link } },
      },
      { ...base, t: 3, kind: "process", phase: "exit", pid: 7, code: null, signal: "\u001b[2JSIGKILL" },
      // Fields of the wrong type: not shown, counted.
      { ...base, t: 4, dir: "receive", id: 2, latencyMs: "soon", answers: { id: 2, method: "x" }, size: "big", message: { jsonrpc: "2.0", id: 2, result: {} } },
    ];
    await writeFile(hostile, events.map((event) => JSON.stringify(event)).join("\n") + "\n");
    for (const extra of [[], ["--full"], ["--explain"]]) {
      const { code, stdout, stderr } = await mcpwire(["trace", "show", hostile, ...extra]);
      assert.equal(code, 0, stderr);
      for (const text of [stdout, stderr]) {
        assert.ok(!text.includes("\u001b") && !text.includes("\u0007"), JSON.stringify(text));
      }
      assert.ok(stdout.includes("tools/\\x1b[2Jcall"), stdout);
      // The body as JSON: its escapes are JSON's, shown as text.
      assert.ok(/\\(x1b|u001b)\]8;;https:\/\/evil\.example\/\\(x07|u0007)click/.test(stdout), stdout);
      assert.ok(stdout.includes("\\x1b[2JSIGKILL"), stdout);
      assert.match(stderr, /1 event with fields of the wrong type not shown/);
    }
  });

  test("usage: a bad --kind, no file, a missing file, an unknown subcommand exit 2; mcpwire help trace", async () => {
    const kind = await mcpwire(["trace", "show", files.one, "--kind", "bogus"]);
    assert.equal(kind.code, 2);
    assert.match(kind.stderr, /--kind takes message, http, process, lifecycle \(got "bogus"\)/);
    assert.equal((await mcpwire(["trace", "show"])).code, 2);
    const missing = await mcpwire(["trace", "show", join(scratch.path, "absent.jsonl")]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /absent\.jsonl: cannot read it/);
    assert.equal((await mcpwire(["trace", "play", files.one])).code, 2);
    const html = await mcpwire(["trace", "html", join(scratch.path, "absent.jsonl"), "-o", join(scratch.path, "absent.html")]);
    assert.equal(html.code, 2, "trace html is wired to the verb and refuses a missing file like show");
    assert.match(html.stderr, /absent\.jsonl: cannot read it/);
    const help = await mcpwire(["help", "trace"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /mcpwire trace show FILE/);
    assert.match(help.stdout, /mcpwire trace diff A B/);
    assert.match(help.stdout, /mcpwire trace html FILE -o OUT\.html/);
  });
});

describe("mcpwire trace diff", () => {
  test("two recordings of a server that changed: capabilities, tools added, removed and changed, a call's result; exit 1", async () => {
    const { code, stdout, stderr } = await mcpwire(["trace", "diff", files.one, files.two]);
    assert.equal(code, 1, stderr);
    assert.match(stdout, /^server: ~ \(the server\)\n {4}capabilities\.tools\.listChanged: \(absent\) → true$/m);
    assert.match(
      stdout,
      /^tools: ~ echo\n {4}description: "Returns its text argument" → "Returns its text argument, upper-cased"\n {4}inputSchema\.properties\.text\.maxLength: \(absent\) → 100$/m,
    );
    assert.match(stdout, /^tools: - old$/m);
    assert.match(stdout, /^tools: \+ fresh$/m);
    assert.match(stdout, /^calls: ~ echo \{"text":"hi"\}\n {4}content\[0\]\.text: "hi" → "HI"$/m);
  });

  test("--json prints the changes; two recordings of the same server are equal (exit 0)", async () => {
    const json = await mcpwire(["trace", "diff", files.one, files.two, "--json"]);
    assert.equal(json.code, 1, json.stderr);
    const diff = JSON.parse(json.stdout) as { changes: { section: string; change: string; name: string }[] };
    const names = diff.changes.map((change) => `${change.section} ${change.change} ${change.name}`);
    for (const expected of ["server changed ", "tools changed echo", "tools removed old", "tools added fresh", 'calls changed echo {"text":"hi"}']) {
      assert.ok(names.includes(expected), names.join("\n"));
    }
    const same = await mcpwire(["trace", "diff", files.one, files.again]);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /^no differences \(server versioned in A, versioned in B\)$/m);
  });

  test("a trace of several servers needs --server; a server it does not hold is a usage error", async () => {
    const both = join(scratch.path, "both.jsonl");
    const other = (await readFile(files.two, "utf8")).replaceAll('"server":"versioned"', '"server":"other"');
    await writeFile(both, await readFile(files.one, "utf8") + other);
    const several = await mcpwire(["trace", "diff", both, files.one]);
    assert.equal(several.code, 2);
    assert.match(several.stderr, /holds several servers \(versioned, other\): choose one with --server NAME/);
    const chosen = await mcpwire(["trace", "diff", both, files.again, "--server", "versioned"]);
    assert.equal(chosen.code, 0, chosen.stdout + chosen.stderr);
    const absent = await mcpwire(["trace", "diff", both, files.one, "--server", "other"]);
    assert.equal(absent.code, 2);
    assert.match(absent.stderr, /one\.jsonl holds no events of server "other" \(it has: versioned\)/);
  });

  test("synthetic 2026-07-28 recordings: server/discover's serverInfo in _meta, tools/list pages joined by their cursors", async () => {
    /** A trace of server/discover and a tools/list in two pages, the server at `version` with `tools`. */
    async function synthetic(name: string, version: string, tools: string[][]): Promise<string> {
      const base = { v: 1, wall: "2026-01-01T00:00:00.000Z", server: "modern", transport: "streamable-http", kind: "message" };
      let t = 0;
      const exchange = (id: number, method: string, params: unknown, result: unknown) => [
        { ...base, t: ++t, dir: "send", id, method, size: 1, message: { jsonrpc: "2.0", id, method, params } },
        { ...base, t: ++t, dir: "receive", id, method, answers: { id, method }, latencyMs: 1, size: 1, message: { jsonrpc: "2.0", id, result } },
      ];
      const tool = (toolName: string) => ({ name: toolName, description: `${toolName} tool`, inputSchema: { type: "object" } });
      const events = [
        ...exchange(1, "server/discover", {}, {
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {} },
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version } },
        }),
        ...exchange(2, "tools/list", {}, { tools: tools[0]!.map(tool), nextCursor: "page-2" }),
        ...exchange(3, "tools/list", { cursor: "page-2" }, { tools: tools[1]!.map(tool) }),
      ];
      const file = join(scratch.path, name);
      await writeFile(file, events.map((event) => JSON.stringify(event)).join("\n") + "\n");
      return file;
    }
    const a = await synthetic("modern-a.jsonl", "1.0.0", [["alpha"], ["beta"]]);
    const b = await synthetic("modern-b.jsonl", "1.1.0", [["alpha"], ["gamma"]]);
    const { code, stdout, stderr } = await mcpwire(["trace", "diff", a, b]);
    assert.equal(code, 1, stderr);
    assert.match(stdout, /^server: ~ \(the server\)\n {4}serverInfo\.version: "1\.0\.0" → "1\.1\.0"$/m);
    assert.match(stdout, /^tools: - beta$/m);
    assert.match(stdout, /^tools: \+ gamma$/m);
    assert.ok(!/alpha/.test(stdout), "alpha (on the first page of both) reported as changed");
  });
});
