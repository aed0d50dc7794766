// Config imports against hostile or unusual files (issue 24 items 7–10): `$` kept literal where
// the app keeps it, servers named like Object.prototype's keys, nesting beyond the limit, and a
// very large ~/.claude.json. Files are written under a temporary HOME and project.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import type { CallToolResult } from "../../src/client/types.ts";
import { withoutComments } from "../../src/host/config/imports.ts";
import { loadConfig } from "../../src/host/config/load.ts";
import { MAX_CONFIG_NESTING } from "../../src/host/config/nesting.ts";
import { ConfigError, type McpwireConfig, type ServerConfig } from "../../src/host/config/types.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const scratch = mkdtempSync(join(tmpdir(), "mcpwire-imports-hostile-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let count = 0;

/** A fresh HOME and project directory, a writer for files under them, and loadConfig there. */
function sandbox() {
  const root = join(scratch, String(count++));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GITHUB_TOKEN: "the-real-token" };
  const write = (base: string, path: string, text: string): string => {
    const file = join(base, ...path.split("/"));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  // The project files here are the test's own: trusted, so that what is tested is the reading (project-trust.test.ts tests the refusal).
  const load = (imports: string[], path?: string) => loadConfig({ cwd: project, env, imports, trust: "all", ...(path ? { path } : {}) });
  return { home, project, env, write, load };
}

function server(config: McpwireConfig, name: string): ServerConfig {
  const found = config.servers.find((candidate) => candidate.name === name);
  assert.ok(found, `server "${name}" in ${config.servers.map((s) => s.name).join(", ")}`);
  return found;
}

const DESKTOP = ".config/Claude/claude_desktop_config.json";
const NAMES_SERVER = fixturePath("names-server.mjs");

describe("$ in Claude Desktop and Codex imports stays literal", () => {
  const desktop = JSON.stringify({
    mcpServers: {
      lit: { command: "node", args: [NAMES_SERVER, "${GITHUB_TOKEN}", "pa$$word", "$${X}", "end$"], env: { TOKEN: "${GITHUB_TOKEN}", PASS: "pa$$word" } },
    },
  });
  const codex = `[mcp_servers.lit]\ncommand = "node"\nargs = [${JSON.stringify(NAMES_SERVER)}, "\${GITHUB_TOKEN}", "pa$$word", "$\${X}", "end$"]\n` +
    `env = { TOKEN = "\${GITHUB_TOKEN}", PASS = "pa$$word" }\n`;

  for (const [app, path, text] of [["claude-desktop", DESKTOP, desktop], ["codex", ".codex/config.toml", codex]] as const) {
    test(`${app}: \${GITHUB_TOKEN} and pa$$word reach the spawned server as written`, async () => {
      const { home, write, load } = sandbox();
      write(home, path, text);
      const config = await load([app]);
      const lit = server(config, "lit");
      assert.equal(lit.enabled, true, lit.error?.message);
      assert.deepEqual(lit.args, [NAMES_SERVER, "${GITHUB_TOKEN}", "pa$$word", "$${X}", "end$"]);
      assert.deepEqual(lit.env, { TOKEN: "${GITHUB_TOKEN}", PASS: "pa$$word" });
      // End to end: what the server process really got in its argv and environment.
      const manager = new McpManager(config, { connectRetries: 0, probeIntervalMs: 600_000 });
      try {
        await hangGuard(manager.start(), 20_000, "start()");
        const result = await manager.registry.call("mcp_lit_argv", {}) as CallToolResult;
        const seen = JSON.parse((result.content[0] as { text: string }).text) as { argv: string[]; env: Record<string, string> };
        assert.deepEqual(seen.argv, ["${GITHUB_TOKEN}", "pa$$word", "$${X}", "end$"]);
        assert.equal(seen.env.TOKEN, "${GITHUB_TOKEN}");
        assert.equal(seen.env.PASS, "pa$$word");
      } finally {
        await manager.close();
      }
    });
  }

  test("a Claude Desktop cwd with ${ is a path as written, under the project", async () => {
    const { home, project, write, load } = sandbox();
    write(home, DESKTOP, JSON.stringify({ mcpServers: { dir: { command: "node", cwd: "work/${GITHUB_TOKEN}" } } }));
    const dir = server(await load(["claude-desktop"]), "dir");
    assert.equal(dir.cwd, join(project, "work", "${GITHUB_TOKEN}"));
  });
});

describe("servers named __proto__, constructor, prototype in an imported file", () => {
  test("are imported as ordinary servers, and the user's own servers still load", async () => {
    const { home, project, write, load } = sandbox();
    // Written as text: a JS object literal would take `__proto__` as its prototype.
    write(
      home,
      DESKTOP,
      `{"mcpServers": {"__proto__": {"command": "node", "args": ["p"]}, "constructor": {"command": "node", "args": ["c"]}, ` +
        `"prototype": {"command": "node", "env": {"__proto__": "x", "constructor": "y"}}, "toString": {"url": "https://x.example/mcp"}}}`,
    );
    const own = write(project, "mcpwire.yaml", "mcp_servers:\n  mine:\n    command: node\n");
    const config = await load(["claude-desktop"], own);
    assert.deepEqual(config.servers.map((s) => [s.name, s.enabled, s.origin?.app]), [
      ["mine", true, undefined],
      ["__proto__", true, "claude-desktop"],
      ["constructor", true, "claude-desktop"],
      ["prototype", true, "claude-desktop"],
      ["toString", true, "claude-desktop"],
    ]);
    assert.deepEqual(server(config, "__proto__").args, ["p"]);
    assert.deepEqual(Object.entries(server(config, "prototype").env), [["__proto__", "x"], ["constructor", "y"]]);
    assert.deepEqual(config.warnings.map((w) => w.message), []);
  });

  test("in Codex TOML too", async () => {
    const { home, load } = sandbox();
    const { write } = sandbox();
    write(
      home,
      ".codex/config.toml",
      `[mcp_servers.__proto__]\ncommand = "node"\n[mcp_servers.constructor]\ncommand = "node"\nenv_vars = ["constructor", "GITHUB_TOKEN"]\n`,
    );
    const config = await load(["codex"]);
    assert.deepEqual(config.servers.map((s) => [s.name, s.enabled]), [["__proto__", true], ["constructor", true]]);
    // env_vars passes on only variables the environment has (as its own keys).
    assert.deepEqual(server(config, "constructor").env, { GITHUB_TOKEN: "the-real-token" });
  });
});

/** Text nested `depth` levels inside a server's entry, as JSON. */
function deepJson(depth: number): string {
  return `{"mcpServers": {"deep": {"command": "node", "x": ${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
}

/** The 1-based column of the bracket that opens level MAX_CONFIG_NESTING + 1 on one line. */
function columnBeyond(text: string, opener = "["): number {
  const enclosing = [...text.slice(0, text.indexOf(opener.repeat(2)))].filter((char) => char === "{" || char === "[").length;
  return text.indexOf(opener.repeat(2)) + (MAX_CONFIG_NESTING - enclosing) + 1;
}

describe("nesting beyond the limit", () => {
  test("a 900-deep .mcp.json given with --config is a ConfigError at file:line:col naming the limit", async () => {
    const { project, write, load } = sandbox();
    const text = deepJson(900);
    write(project, "deep.json", text);
    await assert.rejects(load([], "deep.json"), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message.split(": ")[0], `deep.json:1:${columnBeyond(text)}`);
      assert.match(error.message, new RegExp(`more than ${MAX_CONFIG_NESTING} levels`));
      return true;
    });
  });

  test("a deep YAML file: flow brackets and block indentation", async () => {
    const { project, write, load } = sandbox();
    write(project, "flow.yaml", `mcp_servers:\n  deep:\n    command: node\n    x: ${"[".repeat(900)}${"]".repeat(900)}\n`);
    await assert.rejects(load([], "flow.yaml"), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      // mcp_servers, deep, x: three levels; the 98th bracket opens level 101 (after "    x: ")
      assert.match(error.message, /^flow\.yaml:4:105: invalid YAML: nested more than 100 levels/);
      return true;
    });
    let block = "mcp_servers:\n  deep:\n    command: node\n    x:\n";
    for (let level = 0; level < 300; level++) block += `${" ".repeat(6 + level)}k:\n`;
    write(project, "block.yaml", block);
    // mcp_servers, deep, x: three levels (line 4); level 101 is line 102, indented 103 spaces
    await assert.rejects(load([], "block.yaml"), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /^block\.yaml:102:104: invalid YAML: nested more than 100 levels/);
      return true;
    });
  });

  test("nesting within the limit still loads", async () => {
    const { project, write, load } = sandbox();
    write(project, "ok.json", deepJson(MAX_CONFIG_NESTING - 4));
    const config = await load([], "ok.json");
    assert.equal(server(config, "deep").enabled, true);
  });

  test("as imports (./.mcp.json of claude-code, Codex TOML): a positioned warning, the file's servers skipped, the rest loaded", async () => {
    const { home, project, write, load } = sandbox();
    const text = deepJson(900);
    write(project, ".mcp.json", text);
    write(home, ".codex/config.toml", `[mcp_servers.deep]\ncommand = "node"\nargs = ${"[".repeat(900)}${"]".repeat(900)}\n`);
    const own = write(project, "mcpwire.yaml", "mcp_servers:\n  mine:\n    command: node\n");
    const config = await load(["claude-code", "codex"], own);
    assert.deepEqual(config.servers.map((s) => s.name), ["mine"]);
    const messages = config.warnings.map((w) => w.message);
    assert.ok(
      messages.some((m) => m.startsWith(`./.mcp.json:1:${columnBeyond(text)}: invalid JSON in claude-code's config: nested more than 100 levels`)),
      messages.join("\n"),
    );
    assert.ok(
      messages.some((m) => /^~\/\.codex\/config\.toml:3:\d+: invalid TOML in codex's config: nested more than 100 levels/.test(m)),
      messages.join("\n"),
    );
  });
});

/** The old character-array implementation: the reference withoutComments must agree with. */
function reference(text: string): string {
  const out = text.split("");
  let lastComma = -1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      lastComma = -1;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (char === "/" && text[i + 1] === "/") {
      for (; i < text.length && text[i] !== "\n"; i++) out[i] = " ";
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] !== "\n") out[i] = " ";
      i--;
    } else if (char === ",") {
      lastComma = i;
    } else if ((char === "}" || char === "]") && lastComma !== -1) {
      out[lastComma] = " ";
      lastComma = -1;
    } else if (!/\s/.test(char)) {
      lastComma = -1;
    }
  }
  return out.join("");
}

describe("withoutComments", () => {
  test("strings, escapes, // and /* */ comments, trailing commas after comments", () => {
    const cases = [
      `{ "a": "//not a comment", // gone\n  "b": [1, 2, /* gone */ ], }`,
      `{"a": "quote \\" // still a string", "b": 1 /* multi\nline */, }`,
      `[1, // one\n /* two */ ]`,
      `{"a": "\\\\", "b": "/*"} // end`,
      `{"a": 1, /* never closed`,
      `{"a": [1,\n\t2,\r\n ],\u00a0}`,
      `"unterminated , ]`,
    ];
    for (const text of cases) {
      assert.equal(withoutComments(text), reference(text), JSON.stringify(text));
      assert.equal(withoutComments(text).length, text.length);
    }
    assert.deepEqual(JSON.parse(withoutComments(cases[0]!)), { a: "//not a comment", b: [1, 2] });
    assert.deepEqual(JSON.parse(withoutComments(cases[1]!)), { a: 'quote " // still a string', b: 1 });
  });

  test("agrees with the reference on random text of JSON's punctuation, comments and spaces", () => {
    const piece = fc.constantFrom('"', "\\", "/", "*", "//", "/*", "*/", ",", "}", "]", "{", "[", " ", "\n", "\t", "a", "1", ":", "\u00a0", "\u2028");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }).map((parts) => parts.join("")), (text) => {
        assert.equal(withoutComments(text), reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  test("a 20 MB ~/.claude.json-like text is processed in one pass (heap growth reported)", () => {
    const entry = `    "/home/u/project-NNN": { "allowedTools": [], "history": [{"display": "fix // this /* and */ that", "x": 1,}], // note\n },\n`;
    const text = `{\n  "projects": {\n${entry.repeat(Math.ceil(20_000_000 / entry.length))}  }\n}\n`;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const out = withoutComments(text);
    const grown = process.memoryUsage().heapUsed - before;
    assert.equal(out.length, text.length);
    assert.equal(JSON.parse(out).projects["/home/u/project-NNN"].history[0].x, 1);
    console.log(`withoutComments: ${(text.length / 1e6).toFixed(1)} MB in, heap +${(grown / 1e6).toFixed(0)} MB`);
    // A collection in between can only make the growth look smaller; one character per array slot took ~30×.
    assert.ok(grown < 8 * text.length, `heap grew ${grown} bytes for ${text.length} characters`);
  });
});
