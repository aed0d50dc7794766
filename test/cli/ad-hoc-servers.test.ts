// Servers given on the command line (--stdio, --http, --sse) on the verbs that start servers:
// real fixture servers and server-everything, the CLI run as a user runs it, in a scratch HOME
// without any config file.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { CALL_USAGE } from "../../src/cli/verbs/call-verb.ts";
import { CHAT_USAGE } from "../../src/cli/verbs/chat-verb.ts";
import { RUN_USAGE } from "../../src/cli/verbs/run-verb.ts";
import { SERVERS_USAGE } from "../../src/cli/verbs/servers-verb.ts";
import { SKILLS_USAGE } from "../../src/cli/verbs/skills-verb.ts";
import { TASK_USAGE } from "../../src/cli/verbs/task-verb.ts";
import { TOOLS_USAGE } from "../../src/cli/verbs/tools-verb.ts";
import { type HttpServerProcess, startEverything, startSseFixture } from "../fixtures/sse-servers.ts";
import { mcpwire as runMcpwire, type Outcome, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { EVERYTHING } from "../support/everything-path.ts";

const scratch = scratchDir("mcpwire-ad-hoc-");
const echoServer = fileURLToPath(new URL("../fixtures/echo-server.mjs", import.meta.url));
const echoCommand = `node ${JSON.stringify(echoServer)}`;

/** `mcpwire <args>` in the scratch folder, with a scratch HOME: no config file anywhere. */
function mcpwire(...args: string[]): Promise<Outcome> {
  const env = {
    ...process.env,
    HOME: scratch.path,
    XDG_CONFIG_HOME: join(scratch.path, "config"),
    XDG_CACHE_HOME: join(scratch.path, "cache"),
    ADHOC_NOT_PASSED: "1",
  };
  return runMcpwire(args, { cwd: scratch.path, env, timeoutMs: 60_000 });
}

describe("servers on the command line, without a config file", () => {
  test("call --stdio takes the tool's own name when its server is the only one", async () => {
    const [own, registered] = await Promise.all([
      mcpwire("call", "--stdio", echoCommand, "echo", "text=hi"),
      mcpwire("call", "--stdio", echoCommand, "mcp_echo-server_echo", "text=there"),
    ]);
    assert.equal(own.code, 0, own.stderr);
    assert.equal(own.stdout, "hi\n");
    assert.equal(registered.code, 0, registered.stderr);
    assert.equal(registered.stdout, "there\n");
  });

  test("server-everything by its entry point: named after its package, its echo called by its own name and its registered one", async () => {
    const command = `node ${JSON.stringify(EVERYTHING)} stdio`;
    const [own, registered] = await Promise.all([
      mcpwire("call", "--stdio", command, "echo", "message=hi"),
      mcpwire("call", "--stdio", command, "mcp_server-everything_get-sum", "a=2", "b=40"),
    ]);
    assert.equal(own.code, 0, own.stderr);
    assert.match(own.stdout, /Echo: hi/);
    assert.equal(registered.code, 0, registered.stderr);
    assert.match(registered.stdout, /42/);
  });

  test("tools --stdio … --stdio …: two servers, named from the program (made unique) and by --name", async () => {
    const [{ code, stdout, stderr }, listed] = await Promise.all([
      mcpwire(
        "tools",
        "--json",
        "--stdio",
        echoCommand,
        "--stdio",
        echoCommand,
        "--stdio",
        echoCommand,
        "--name",
        "third",
      ),
      mcpwire("servers", "--stdio", echoCommand, "--name", "first"),
    ]);
    assert.equal(code, 0, stderr);
    const servers = new Set((JSON.parse(stdout) as { tools: Array<{ server: string }> }).tools.map((tool) => tool.server));
    assert.deepEqual([...servers].sort(), ["echo-server", "echo-server-2", "third"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^first\s+ready\s+stdio\s.*command line/m);
  });

  test("--name before the first server names it; two equal --name values are a usage error", async () => {
    const [named, twice] = await Promise.all([
      mcpwire("call", "--name", "early", "--stdio", echoCommand, "mcp_early_echo", "text=ok"),
      mcpwire("tools", "--stdio", echoCommand, "--name", "same", "--stdio", echoCommand, "--name", "same"),
    ]);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /--name "same" is given to both --stdio .* and --stdio /);
  });

  test("--env reaches the stdio server, beside the safe environment", async () => {
    const { code, stdout, stderr } = await mcpwire("call", "--json", "--stdio", echoCommand, "--env", "ADHOC_MARK=seen-by-server", "env");
    assert.equal(code, 0, stderr);
    const env = JSON.parse((JSON.parse(stdout) as { content: Array<{ text: string }> }).content[0]!.text) as Record<string, string>;
    assert.equal(env.ADHOC_MARK, "seen-by-server");
    assert.ok(env.PATH !== undefined, "the safe baseline is there");
    assert.equal(env.ADHOC_NOT_PASSED, undefined, "only the safe baseline is passed on");
  });

  test("--cwd is the stdio server's working directory (a relative script is found there)", async () => {
    const { code, stdout, stderr } = await mcpwire("call", "--stdio", "node echo-server.mjs", "--cwd", dirname(echoServer), "echo", "text=from-cwd");
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "from-cwd\n");
  });

  test("a bad --stdio quote, an empty one, --header on a stdio server and a bad URL are usage errors (exit 2)", async () => {
    const [quote, empty, header, url, lone] = await Promise.all([
      mcpwire("call", "--stdio", "node 'unterminated", "echo"),
      mcpwire("tools", "--stdio", "  "),
      mcpwire("tools", "--stdio", echoCommand, "--header", "X-A: 1"),
      mcpwire("tools", "--http", "ftp://example.invalid/"),
      mcpwire("tools", "--env", "A=1"),
    ]);
    assert.equal(quote.code, 2);
    assert.match(quote.stderr, /unterminated ' quote in command line/);
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /--stdio was given an empty command line/);
    assert.equal(header.code, 2);
    assert.match(header.stderr, /--header applies to --http and --sse servers/);
    assert.equal(url.code, 2);
    assert.match(url.stderr, /--http needs an http:\/\/ or https:\/\/ URL/);
    assert.equal(lone.code, 2);
    assert.match(lone.stderr, /--env applies to a server given on the command line/);
  });

  test("read, prompt, complete, watch, task and skills show take the only command-line server without its name, as call does", async () => {
    const everything = `node ${JSON.stringify(EVERYTHING)} stdio`;
    const subscriptions = `node ${JSON.stringify(fileURLToPath(new URL("../fixtures/subscriptions-server.mjs", import.meta.url)))}`;
    const tasks = `node ${JSON.stringify(fileURLToPath(new URL("../fixtures/tasks-hostile-server.mjs", import.meta.url)))} --era legacy`;
    const uri = "demo://resource/static/document/architecture.md";
    const skills = `node ${JSON.stringify(fileURLToPath(new URL("../../conformance/fixtures/skills-server.mjs", import.meta.url)))} --stdio`;
    const [read, named, prompt, complete, watch, task, skill, missing] = await Promise.all([
      mcpwire("read", "--stdio", everything, uri),
      mcpwire("read", "--stdio", everything, "server-everything", uri),
      mcpwire("prompt", "--stdio", everything, "args-prompt", "city=Paris"),
      mcpwire("complete", "--stdio", everything, "--prompt", "completable-prompt", "department=Eng"),
      mcpwire("watch", "--stdio", subscriptions, "note://a", "--count", "1"),
      mcpwire("task", "get", "--stdio", tasks, "no-such-task"),
      mcpwire("skills", "show", "--stdio", skills, "git-workflow"),
      mcpwire("read", "--stdio", everything),
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /^# Everything Server/);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(named.stdout, read.stdout);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.match(prompt.stdout, /Paris/);
    assert.equal(complete.code, 0, complete.stderr);
    assert.match(complete.stdout, /^Engineering$/m);
    assert.equal(watch.code, 0, watch.stderr);
    assert.match(watch.stdout, /updated note:\/\/a/);
    // The task id is read as the id, not as a server name: the server is asked, and does not know it.
    assert.equal(task.code, 3, task.stderr);
    assert.match(task.stderr, /server "tasks-hostile-server": task "no-such-task": the server does not know this task/);
    assert.equal(skill.code, 0, skill.stderr);
    assert.match(skill.stdout, /^name: git-workflow$/m);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /read needs a server and a URI: .*SERVER may be left out with one --stdio, --http or --sse/);
  });

  test("a command-line server whose name a config server has is a usage error naming both", async () => {
    const config = await writeConfig(scratch.path, "clash.yaml", [
      "mcp_servers:",
      "  echo-server:",
      `    command: node`,
      `    args: [${JSON.stringify(echoServer)}]`,
    ]);
    const { code, stderr } = await mcpwire("tools", "--config", config, "--stdio", echoCommand);
    assert.equal(code, 2);
    assert.match(stderr, /server "echo-server" of --stdio "node .*echo-server\.mjs" clashes with server "echo-server" in .*clash\.yaml; .*--name/);
    // Named apart, both start: the config's and the command line's.
    const [both, own] = await Promise.all([
      mcpwire("tools", "--json", "--config", config, "--stdio", echoCommand, "--name", "mine"),
      mcpwire("call", "--config", config, "--stdio", echoCommand, "--name", "mine", "echo", "text=x"),
    ]);
    assert.equal(both.code, 0, both.stderr);
    const servers = new Set((JSON.parse(both.stdout) as { tools: Array<{ server: string }> }).tools.map((tool) => tool.server));
    assert.deepEqual([...servers].sort(), ["echo-server", "mine"]);
    // With a config server in play, the tool's own name is not enough.
    assert.equal(own.code, 2);
    assert.match(own.stderr, /no tool "echo" is registered/);
  });

  test("help texts of the host verbs list --stdio, --http, --sse, --name, --env, --cwd and --header", async () => {
    // `mcpwire help VERB` prints the verb's usage text (its row of src/cli/verb-table.ts): one run end to end, the others' texts read directly.
    const { code, stdout } = await mcpwire("help", "servers");
    assert.equal(code, 0, "servers");
    assert.equal(stdout, `${SERVERS_USAGE}\n`);
    const usages = { servers: stdout, tools: TOOLS_USAGE, call: CALL_USAGE, run: RUN_USAGE, chat: CHAT_USAGE, task: TASK_USAGE, skills: SKILLS_USAGE };
    for (const [verb, text] of Object.entries(usages)) {
      for (const flag of ["--stdio", "--http URL", "--sse URL", "--name NAME", "--env NAME=VALUE", "--cwd DIR", "--header"]) {
        assert.ok(text.includes(flag), `${verb} help lacks ${flag}`);
      }
    }
  });
});

describe("servers on the command line over HTTP", () => {
  let streamable: HttpServerProcess;
  let legacy: HttpServerProcess;
  before(async () => {
    [streamable, legacy] = await Promise.all([startEverything("streamableHttp"), startSseFixture("good")]);
  });
  after(async () => {
    await Promise.all([streamable?.stop(), legacy?.stop()]);
  });

  test("--http reaches a Streamable HTTP server on loopback, named by its host", async () => {
    const [{ code, stdout, stderr }, listed] = await Promise.all([
      mcpwire("call", "--http", `${streamable.origin}/mcp`, "echo", "message=hi"),
      mcpwire("servers", "--json", "--http", `${streamable.origin}/mcp`),
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /hi/);
    assert.equal(listed.code, 0, listed.stderr);
    const [status] = JSON.parse(listed.stdout) as Array<{ name: string; transport: string; state: string; commandLine?: boolean }>;
    assert.equal(status?.name, "127-0-0-1");
    assert.equal(status?.state, "ready");
    assert.equal(status?.commandLine, true);
  });

  test("--sse reaches a legacy HTTP+SSE server, with its --header on every request", async () => {
    const { code, stdout, stderr } = await mcpwire("call", "--sse", `${legacy.origin}/sse`, "--header", "X-Team: wire", "--name", "old", "mcp_old_headers");
    assert.equal(code, 0, stderr);
    assert.match(stdout, /x-team.{0,6}wire/i);
  });
});
