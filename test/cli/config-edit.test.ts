// mcpwire add, remove, enable, disable: a commented YAML file and a JSON file keep every byte
// outside the edited entry; a name that exists, or a result the config loader refuses, leaves
// the file as it was (exit 2); the user's file is made when absent; the other verbs then see
// the server. Temporary HOME and XDG_CONFIG_HOME, never the real ones.

import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { type ConfigEdit, editConfigFile } from "../../src/host/config/edit.ts";
import { ConfigError } from "../../src/host/config/types.ts";
import { mcpwire, root, scratchDir } from "../support/cli-runner.ts";

const scratch = scratchDir("mcpwire-config-edit-");
let count = 0;
const ECHO = join(root, "test/fixtures/echo-server.mjs");

/** A fresh HOME (with XDG_CONFIG_HOME under it) and the environment naming it. */
function sandbox() {
  const home = join(scratch.path, String(count++));
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  const run = (args: string[]) => mcpwire(args, { env, cwd: home });
  return { home, env, run };
}

const YAML = `# my servers, by hand
mcp_servers:
  # the one that echoes
  echo:
    command: node   # with node
    args: ["echo.mjs"]

  remote:
    url: https://example.com/mcp
    headers:
      Authorization: "Bearer \${TOKEN}"
# the model
model: ollama/qwen3
`;

/** Indented by four, with a trailing comment and no final newline. */
const YAML_FOUR = `mcp_servers:
    echo:
        command: node     # four spaces
        args: [ "echo.mjs" ]
# the end`;

const JSON_TEXT = `{
    "mcpServers": {
        "echo": { "command": "node", "args": ["echo.mjs"] },
        "remote": {
            "url": "https://example.com/mcp"
        }
    },
    "model": "ollama/qwen3"
}
`;

/**
 * An edit made in this process by editConfigFile, what the CLI's add, remove, enable and disable
 * run once they have read their arguments: exit code 0, or 2 with the ConfigError's message (the
 * CLI prints it with exit 2).
 */
async function direct(file: string, edit: ConfigEdit): Promise<{ code: number; stderr: string }> {
  try {
    await editConfigFile(file, edit);
    return { code: 0, stderr: "" };
  } catch (error) {
    if (error instanceof ConfigError) return { code: 2, stderr: error.message };
    throw error;
  }
}

/** `after` without the lines that are not in `before`, in order: what an edit kept of the file. */
function keptLines(before: string, after: string): string[] {
  const old = before.split("\n");
  const kept: string[] = [];
  let index = 0;
  for (const line of after.split("\n")) {
    if (line === old[index]) {
      kept.push(line);
      index++;
    }
  }
  return kept;
}

describe("mcpwire add / remove / enable / disable", () => {
  for (
    const [format, text, name] of [["YAML", YAML, "config.yaml"], ["YAML indented by four", YAML_FOUR, "four.yml"], ["JSON", JSON_TEXT, "config.json"]] as const
  ) {
    /**
     * The steps after each test's first: through the CLI for YAML; for the other two formats the
     * same edit through editConfigFile (direct), the first step of each test being a CLI run.
     */
    const step = (run: (args: string[]) => ReturnType<typeof mcpwire>, args: string[], file: string, edit: ConfigEdit) =>
      format === "YAML" ? run(args) : direct(file, edit);
    test(`${format}: add then remove keeps every byte outside the entry`, async () => {
      const { home, run } = sandbox();
      const file = join(home, name);
      writeFileSync(file, text);
      const added = await run(["add", "fresh", "--file", file, "--env", "A=1", "--", "npx", "-y", "some-server", "--flag"]);
      assert.equal(added.code, 0, added.stderr);
      const after = readFileSync(file, "utf8");
      // Every line of the file is still there, in order; the new lines are the entry's.
      assert.deepEqual(keptLines(text, after), text.split("\n"));
      const newLines = after.split("\n").length - text.split("\n").length;
      assert.ok(newLines > 0);
      assert.match(after, /"?fresh"?:/);
      assert.match(after, /some-server/);
      const http = await step(run, ["add", "web", "--file", file, "--http", "https://example.org/mcp", "--header", "X-Key=${KEY}"], file, {
        kind: "add",
        name: "web",
        server: { url: "https://example.org/mcp", transport: "http", headers: { "X-Key": "${KEY}" } },
      });
      assert.equal(http.code, 0, http.stderr);
      for (const gone of ["fresh", "web"]) {
        const removed = await step(run, ["remove", gone, "--file", file], file, { kind: "remove", name: gone });
        assert.equal(removed.code, 0, removed.stderr);
      }
      assert.equal(readFileSync(file, "utf8"), text);
    });

    test(`${format}: add of an existing name fails without --force and leaves the file; --force replaces it`, async () => {
      const { home, run } = sandbox();
      const file = join(home, name);
      writeFileSync(file, text);
      const refused = await run(["add", "echo", "--file", file, "--", "node", "other.mjs"]);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /"echo" exists already; pass --force/);
      assert.equal(readFileSync(file, "utf8"), text);
      const forced = await step(run, ["add", "echo", "--force", "--file", file, "--", "node", "other.mjs"], file, {
        kind: "add",
        name: "echo",
        server: { command: "node", args: ["other.mjs"] },
        force: true,
      });
      assert.equal(forced.code, 0, forced.stderr);
      const after = readFileSync(file, "utf8");
      assert.match(after, /other\.mjs/);
      assert.doesNotMatch(after, /echo\.mjs/);
      assert.equal(after.startsWith(text.slice(0, text.indexOf("echo"))), true);
    });

    test(`${format}: an invalid result (--http notaurl) leaves the file unchanged and says why`, async () => {
      const { home, run } = sandbox();
      const file = join(home, name);
      writeFileSync(file, text);
      chmodSync(file, 0o644);
      const bad = await run(["add", "bad", "--file", file, "--http", "notaurl"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /"url" must be an http:\/\/ or https:\/\/ URL.*not changed/);
      assert.equal(readFileSync(file, "utf8"), text);
      const missing = await step(run, ["remove", "nobody", "--file", file], file, { kind: "remove", name: "nobody" });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /no server "nobody"; its servers: "echo"/);
      // A successful edit keeps the file's mode.
      assert.equal((await step(run, ["disable", "echo", "--file", file], file, { kind: "disable", name: "echo" })).code, 0);
      if (process.platform !== "win32") assert.equal(statSync(file).mode & 0o777, 0o644);
    });

    test(`${format}: disable writes enabled: false, enable takes it away again`, async () => {
      const { home, run } = sandbox();
      const file = join(home, name);
      writeFileSync(file, text);
      const server = format === "JSON" ? "remote" : "echo";
      const disabled = await run(["disable", server, "--file", file]);
      assert.equal(disabled.code, 0, disabled.stderr);
      const after = readFileSync(file, "utf8");
      assert.match(after, format === "JSON" ? /"enabled": false/ : /echo:\n(?:.*\n)*?\s+enabled: false/);
      // Outside the server's entry, the same bytes.
      const prefix = text.slice(0, text.indexOf(format === "JSON" ? `        "remote"` : "  echo:"));
      const suffix = text.slice(text.indexOf(format === "JSON" ? "\n    }," : format === "YAML" ? "\n  remote:" : "# the end"));
      assert.ok(after.startsWith(prefix) && after.endsWith(suffix), after);
      const enabled = await step(run, ["enable", server, "--file", file], file, { kind: "enable", name: server });
      assert.equal(enabled.code, 0, enabled.stderr);
      assert.equal(readFileSync(file, "utf8"), text);
    });
  }

  test("without --file: the user's config is made (owner-only) and the other verbs see the server", async () => {
    const { home, run, env } = sandbox();
    const added = await run(["add", "echo", "--", "node", ECHO]);
    assert.equal(added.code, 0, added.stderr);
    const file = join(home, ".config/mcpwire/config.yaml");
    assert.ok(existsSync(file));
    assert.match(added.stdout, /added server "echo" in .*config\.yaml \(created\)/);
    if (process.platform !== "win32") assert.equal(statSync(file).mode & 0o777, 0o600);
    const [listed, tools] = await Promise.all([mcpwire(["servers", "--config", file], { env, cwd: home }), mcpwire(["tools"], { env, cwd: home })]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /echo/);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /mcp_echo_echo/);
    // Disabled, it is not started.
    assert.equal((await run(["disable", "echo"])).code, 0);
    const after = await mcpwire(["tools"], { env, cwd: home });
    assert.doesNotMatch(after.stdout, /mcp_echo_echo/);
  });

  test("YAML in flow style (mcp_servers: {}) is edited through the yaml Document", async () => {
    const { home, run } = sandbox();
    const file = join(home, "flow.yaml");
    writeFileSync(file, "# flow\nmcp_servers: {}\n");
    const added = await run(["add", "one", "--file", file, "--", "node", "one.mjs"]);
    assert.equal(added.code, 0, added.stderr);
    const after = readFileSync(file, "utf8");
    assert.ok(after.startsWith("# flow\nmcp_servers:"), after);
    assert.match(after, /one\.mjs/);
    assert.equal((await run(["remove", "one", "--file", file])).code, 0);
    assert.doesNotMatch(readFileSync(file, "utf8"), /one/);
  });

  test("an existing ~/.mcp.json is the user's file the CLI reads first: add goes there", async () => {
    const { home, run } = sandbox();
    const file = join(home, ".mcp.json");
    writeFileSync(file, `{ "mcpServers": {} }\n`);
    const added = await run(["add", "web", "--sse", "https://example.com/sse"]);
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { mcpServers: { web: { url: "https://example.com/sse", type: "sse" } } });
    assert.ok(!existsSync(join(home, ".config/mcpwire/config.yaml")));
  });

  test("--project writes ./mcpwire.yaml without trusting it: the other verbs still ask for approval", async () => {
    const { home, env } = sandbox();
    const project = join(home, "project");
    mkdirSync(project);
    const added = await mcpwire(["add", "echo", "--project", "--", "node", ECHO], { env, cwd: project });
    assert.equal(added.code, 0, added.stderr);
    assert.match(readFileSync(join(project, "mcpwire.yaml"), "utf8"), /echo-server\.mjs/);
    assert.ok(!existsSync(join(home, ".config/mcpwire/trusted-projects.json")));
    const tools = await mcpwire(["tools"], { env: { ...env, MCPWIRE_TRUST_PROJECT: undefined }, cwd: project });
    assert.equal(tools.code, 2);
    assert.match(tools.stderr, /mcpwire trust/);
    // Without --project, from there: the user's file, with a note that this directory's is read first.
    const user = await mcpwire(["add", "other", "--", "node", ECHO], { env, cwd: project });
    assert.equal(user.code, 0, user.stderr);
    assert.match(user.stderr, /note: the other verbs read .*mcpwire\.yaml here/);
    assert.match(readFileSync(join(home, ".config/mcpwire/config.yaml"), "utf8"), /other:/);
  });

  test("usage errors: no name, no command or URL, a bad name, help", async () => {
    const { run } = sandbox();
    const cases = [["add"], ["add", "x"], ["add", "bad name", "--", "node"], ["add", "x", "--http", "https://a", "--", "node"], ["remove"]];
    const [help, ...outcomes] = await Promise.all([run(["help", "add"]), ...cases.map(run)]);
    for (const [i, args] of cases.entries()) {
      assert.equal(outcomes[i]!.code, 2, args.join(" "));
      assert.match(outcomes[i]!.stderr, /mcpwire help (add|remove)/);
    }
    assert.equal(help.code, 0);
    assert.match(help.stdout, /usage: mcpwire add NAME/);
  });
});
