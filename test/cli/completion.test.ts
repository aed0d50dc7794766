// mcpwire completion: the names the scripts ask for (`completion --list`, `completion --words`) —
// verbs as the verb table has them, each verb's options from its own table, option values, server names
// from the config, tool names from the tool-list cache (in a temporary XDG_CACHE_HOME) — never
// starting a server nor reading a project config that was not approved; then the scripts in the
// real shells: bash here (zsh and fish when installed), calling the CLI through a `mcpwire`
// wrapper on PATH, as an installed script calls the program it completes.

import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { before, describe, test } from "node:test";
import { VERBS } from "../../src/cli/verb-table.ts";
import { CALL_OPTIONS } from "../../src/cli/verbs/call-verb.ts";
import { answerFor } from "../../src/cli/verbs/completion-verb.ts";
import { loadConfig } from "../../src/host/config/load.ts";
import { ToolListCache } from "../../src/host/store/tool-list-cache.ts";
import { mcpwire, root, runtimeArgs, scratchDir } from "../support/cli-runner.ts";
import { toolCacheEnv } from "../support/test-env.ts";

const scratch = scratchDir("mcpwire-completion-");
const home = join(scratch.path, "home");
const cache = join(scratch.path, "cache");
const bin = join(scratch.path, "bin");
/** Where a server of the configs below writes if it is ever started. */
const marker = join(scratch.path, "started");
const configFile = join(scratch.path, "servers.yaml");
const project = join(scratch.path, "project");
const env = { ...toolCacheEnv(cache), HOME: home, XDG_CONFIG_HOME: join(home, ".config"), MCPWIRE_TRUST_PROJECT: undefined };

/** A stdio server that, started, writes the marker file. */
function markerServer(name: string, ...more: string[]): string[] {
  const script = "require('node:fs').writeFileSync(process.argv[1], 'started')";
  return [`  ${name}:`, "    command: node", `    args: ${JSON.stringify(["-e", script, marker, ...more])}`];
}

before(async () => {
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(configFile, ["mcp_servers:", ...markerServer("everything"), ...markerServer("memory"), ...markerServer("idle"), ""].join("\n"));
  writeFileSync(join(project, "mcpwire.yaml"), ["mcp_servers:", ...markerServer("projected"), ""].join("\n"));
  // The tools two servers listed the last time they ran, as `call` records them.
  const config = await loadConfig({ path: configFile });
  const toolCache = new ToolListCache(join(cache, "mcpwire", "tools.json"));
  await toolCache.record(config.servers[0]!, [{ name: "echo", title: "Echoes" }, { name: "add" }]);
  await toolCache.record(config.servers[1]!, [{ name: "read_graph" }]);
  // The command the scripts run: this test's CLI, as `mcpwire` on PATH.
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  writeFileSync(join(bin, "mcpwire"), `#!/bin/sh\nexec ${[process.execPath, ...runtimeArgs].map(quote).join(" ")} "$@"\n`);
  chmodSync(join(bin, "mcpwire"), 0o755);
});

/** `mcpwire completion ARGS` in the scratch directory; its stdout lines (exit 0 and an empty stderr asserted). */
async function lines(args: string[], cwd = scratch.path): Promise<string[]> {
  const outcome = await mcpwire(["completion", ...args], { env, cwd });
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.equal(outcome.stderr, "");
  return outcome.stdout.split("\n").filter((line) => line !== "");
}

/** What `completion --words` answers for these words: [kind, ...words]. */
const answer = (...words: string[]) => lines(["--words", "--", ...words]);

/** `lines(args)` run once for the file: tests that ask the same question (nothing changed between) share the run. */
const runs = new Map<string, Promise<string[]>>();
function linesOnce(args: string[]): Promise<string[]> {
  const key = JSON.stringify(args);
  let run = runs.get(key);
  if (run === undefined) {
    run = lines(args);
    runs.set(key, run);
  }
  return run;
}

/** `mcpwire completion SHELL` (env as above), run once for the file. */
const scriptRuns = new Map<string, ReturnType<typeof mcpwire>>();
function scriptOf(shell: string): ReturnType<typeof mcpwire> {
  let run = scriptRuns.get(shell);
  if (run === undefined) {
    run = mcpwire(["completion", shell], { env });
    scriptRuns.set(shell, run);
  }
  return run;
}

/**
 * What `completion --words` answers, computed in this process by the function the verb runs
 * (answerFor, with the verb table the verb is handed), in the same
 * environment and directory as the CLI runs above: each behaviour below keeps one CLI run
 * (answer), the other positions are asked directly, without a process each.
 */
async function direct(...words: string[]): Promise<string[]> {
  const saved = new Map(Object.keys(env).map((name) => [name, process.env[name]]));
  const cwd = process.cwd();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  process.chdir(scratch.path);
  try {
    const found = await answerFor(words, VERBS);
    return [found.kind, ...found.words];
  } finally {
    process.chdir(cwd);
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe("completion --list", () => {
  test("verbs: the verb table's, help and version included, as `mcpwire help` and the unknown-verb message list them", async () => {
    const [verbs, unknown, help] = await Promise.all([linesOnce(["--list", "verbs"]), mcpwire(["no-such-verb"], { env }), mcpwire(["help"], { env })]);
    const listed = /verbs: (.*)\n/.exec(unknown.stderr)?.[1]?.split(", ");
    assert.deepEqual(verbs, listed);
    const helped = /\nverbs:\n((?: {2}\S.*\n)+)/.exec(help.stdout)?.[1]?.split("\n").filter((line) => line !== "").map((line) => line.trim().split(" ")[0]);
    assert.deepEqual(verbs, helped);
    for (const verb of ["servers", "tools", "call", "read", "watch", "add", "completion", "help", "version"]) assert.ok(verbs.includes(verb), verb);
    assert.deepEqual(verbs, Object.keys(VERBS), "src/cli/verb-table.ts is the one list of verbs");
  });

  test("options VERB: the options of the verb's own table, as --name", async () => {
    const [call, replay, bad] = await Promise.all([
      lines(["--list", "options", "call"]),
      lines(["--list", "options", "replay"]),
      mcpwire(["completion", "--list", "options", "nope"], { env }),
    ]);
    assert.deepEqual(call, Object.keys(CALL_OPTIONS).map((name) => `--${name}`));
    assert.deepEqual(replay, ["--server", "--http", "--help", "--debug"]);
    assert.equal(bad.code, 2);
  });

  test("servers: the config's servers in order; tools: the cached tools as mcp_<server>_<tool>, none for a server never listed", async () => {
    const [servers, tools] = await Promise.all([
      linesOnce(["--list", "servers", "--config", configFile]),
      linesOnce(["--list", "tools", "--config", configFile]),
    ]);
    assert.deepEqual(servers, ["everything", "memory", "idle"]);
    assert.deepEqual(tools, ["mcp_everything_echo", "mcp_everything_add", "mcp_memory_read_graph"]);
  });

  test("tools: what a verb that ran the server listed is offered next (the cache the verbs keep)", async () => {
    const echo = join(scratch.path, "echo.yaml");
    writeFileSync(
      echo,
      ["mcp_servers:", "  echoer:", "    command: node", `    args: [${JSON.stringify(join(root, "test/fixtures/echo-server.mjs"))}]`, ""].join("\n"),
    );
    assert.deepEqual(await lines(["--list", "tools", "--config", echo]), []);
    const listed = await mcpwire(["tools", "--config", echo], { env, cwd: scratch.path });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(await lines(["--list", "tools", "--config", echo]), ["mcp_echoer_echo", "mcp_echoer_progress", "mcp_echoer_big", "mcp_echoer_env"]);
  });

  test("a server whose config changed since its tools were cached offers none", async () => {
    const changed = join(scratch.path, "changed.yaml");
    writeFileSync(changed, ["mcp_servers:", ...markerServer("everything", "--other"), ...markerServer("memory"), ""].join("\n"));
    assert.deepEqual(await lines(["--list", "tools", "--config", changed]), ["mcp_memory_read_graph"]);
  });

  test("completing never starts a server: servers, tools and every position of call and tools", async () => {
    // The --list runs are the ones of the test above (linesOnce); the three positions run here, at once.
    await Promise.all([
      linesOnce(["--list", "servers", "--config", configFile]),
      linesOnce(["--list", "tools", "--config", configFile]),
      answer("call", "--config", configFile, ""),
      answer("tools", "--config", configFile, ""),
      answer("call", "--config", configFile, "mcp_idle_x", ""),
    ]);
    assert.equal(existsSync(marker), false, "a server was started");
  });

  test("an unapproved project config is not read, even with --trust-project or MCPWIRE_TRUST_PROJECT=1, and nothing is asked", async () => {
    const [servers, words, trusting] = await Promise.all([
      lines(["--list", "servers"], project),
      lines(["--words", "--", "tools", "--trust-project", ""], project),
      mcpwire(["completion", "--words", "--", "tools", ""], { env: { ...env, MCPWIRE_TRUST_PROJECT: "1" }, cwd: project }),
    ]);
    assert.deepEqual(servers, []);
    assert.deepEqual(words, ["words"]);
    assert.deepEqual(trusting, { code: 0, stdout: "words\n", stderr: "" });
    assert.equal(existsSync(marker), false);
  });
  test("a server name a shell would read as syntax, or with a space or control character, is left out", async () => {
    const odd = join(scratch.path, "odd.yaml");
    const names = ["plain", "two words", "x;touch y", "$(boom)", "tab\there", "naïve-é"];
    writeFileSync(odd, ["mcp_servers:", ...names.flatMap((name) => markerServer(JSON.stringify(name))), ""].join("\n"));
    assert.deepEqual(await lines(["--list", "servers", "--config", odd]), ["plain", "naïve-é"]);
  });
});

describe("mcpwire completion SHELL", () => {
  test("prints the script; help says how to install each; no shell or another shell is a usage error", async () => {
    const [bash, zsh, fish, help, none, powershell] = await Promise.all([
      scriptOf("bash"),
      scriptOf("zsh"),
      scriptOf("fish"),
      mcpwire(["help", "completion"], { env }),
      mcpwire(["completion"], { env }),
      mcpwire(["completion", "powershell"], { env }),
    ]);
    assert.match(bash.stdout, /^complete -F _mcpwire mcpwire$/m);
    assert.match(zsh.stdout, /^#compdef mcpwire\n/);
    assert.match(fish.stdout, /^complete -c mcpwire /m);
    assert.equal(help.code, 0);
    for (const line of ["completions/mcpwire", "source <(mcpwire completion zsh)", "~/.config/fish/completions/mcpwire.fish"]) {
      assert.ok(help.stdout.includes(line), line);
    }
    assert.equal(none.code, 2);
    assert.match(none.stderr, /completion needs a shell: mcpwire completion bash\|zsh\|fish/);
    assert.equal(powershell.code, 2);
  });
});

// One position per test through the CLI (answer), the others asked of answerFor directly (direct).
describe("completion --words: what each position offers", () => {
  test("verbs for the first word, by prefix; --help and --version for a dash", async () => {
    assert.deepEqual(await answer("re"), ["words", "resources", "read", "replay", "remove"]);
    assert.deepEqual(await direct("-"), ["words", "--help", "--version"]);
    assert.deepEqual(await direct("help", "comp"), ["words", "complete", "completion"]);
    assert.deepEqual(await direct("completion", ""), ["words", "bash", "zsh", "fish"]);
  });

  test("a verb's options after a dash; an enumerated option's values, spaced or after =", async () => {
    assert.deepEqual(await direct("tools", "--tr"), ["words", "--trust-project", "--trace", "--trace-file"]);
    assert.deepEqual(await direct("tools", "--log-level", "e"), ["words", "error", "emergency"]);
    assert.deepEqual(await direct("export", "--to", "c"), ["words", "claude-desktop", "cursor", "claude-code", "codex"]);
    assert.deepEqual(await answer("tools", "--log-level=w"), ["words", "--log-level=warning"]);
    assert.deepEqual(await direct("call", "--elicit", ""), ["words", "prompt", "decline", "accept-defaults"]);
    assert.deepEqual(await direct("inspect", "--transport", ""), ["words", "auto", "http", "sse"]);
    assert.deepEqual(await direct("task", ""), ["words", "get", "wait", "cancel", "list"]);
    assert.deepEqual(await direct("call", "--import", "cursor,c"), ["words", "cursor,claude-desktop", "cursor,claude-code", "cursor,cursor", "cursor,codex"]);
  });

  test("files after --config, --trace-file and --out, and for trace and replay; a directory after --cwd", async () => {
    assert.deepEqual(await answer("call", "--config", ""), ["files"]);
    assert.deepEqual(await direct("servers", "--trace-file=x"), ["files"]);
    assert.deepEqual(await direct("read", "--out", ""), ["files"]);
    assert.deepEqual(await direct("trace", "show", ""), ["files"]);
    assert.deepEqual(await direct("replay", ""), ["files"]);
    assert.deepEqual(await direct("tools", "--stdio", "x", "--cwd", ""), ["directories"]);
  });

  test("a server after tools, resources, read, prompts, prompt, complete and watch; a tool after call; nothing after that", async () => {
    for (const verb of ["tools", "resources", "read", "prompts", "prompt", "complete", "watch"]) {
      const ask = verb === "tools" ? answer : direct;
      assert.deepEqual(await ask(verb, "--config", configFile, ""), ["words", "everything", "memory", "idle"], verb);
    }
    assert.deepEqual(await answer("call", `--config=${configFile}`, "--json", "mcp_e"), ["words", "mcp_everything_echo", "mcp_everything_add"]);
    assert.deepEqual(await direct("read", "--config", configFile, "memory", ""), ["words"]);
    assert.deepEqual(await direct("auth", "login", "--config", configFile, "i"), ["words", "idle"]);
    writeFileSync(join(home, "mine.yaml"), ["mcp_servers:", ...markerServer("homed"), ""].join("\n"));
    assert.deepEqual(await direct("tools", "--config", "~/mine.yaml", ""), ["words", "homed"]);
  });
});

/** Runs `script` in `shell` with the wrapper first on PATH, in the scratch directory; its stdout. */
function inShell(shell: string, args: string[], script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(shell, [...args, script], { cwd: scratch.path, env: { ...env, PATH: `${bin}:${process.env.PATH}` }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${shell}: ${error.message}\n${stderr}`));
      else resolve(String(stdout));
    });
  });
}

/** Where a shell is installed, or undefined. */
function which(shell: string): string | undefined {
  try {
    return execFileSync("sh", ["-c", `command -v ${shell}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

describe("the scripts in real shells", () => {
  const scripts: Record<string, string> = {};
  before(async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const outcome = await scriptOf(shell);
      assert.equal(outcome.code, 0, outcome.stderr);
      scripts[shell] = join(scratch.path, `completion.${shell}`);
      writeFileSync(scripts[shell], outcome.stdout);
    }
  });

  /** COMPREPLY after bash completes the words (the last being the one at the cursor). */
  async function bashReply(...words: string[]): Promise<string[]> {
    const array = ["mcpwire", ...words].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
    const out = await inShell(
      "bash",
      ["--norc", "--noprofile", "-c"],
      `source ${scripts.bash}
COMP_WORDS=(${array}); COMP_CWORD=${words.length}; COMP_LINE="\${COMP_WORDS[*]}"; COMP_POINT=\${#COMP_LINE}
_mcpwire; printf '%s\\n' "\${COMPREPLY[@]}"`,
    );
    return out.split("\n").filter((line) => line !== "");
  }

  test("bash: complete -F registers _mcpwire, which fills COMPREPLY with verbs, options, values, servers, tools and files", async () => {
    // Each reply is its own bash and CLI run; they run at once.
    const [registered, ...replies] = await Promise.all([
      inShell("bash", ["--norc", "--noprofile", "-c"], `source ${scripts.bash}; complete -p mcpwire`),
      bashReply("se"),
      bashReply("call", "--arg"),
      bashReply("tools", "--log-level", "d"),
      // bash splits --log-level=w into three words at "=": the answer replaces only the last.
      bashReply("tools", "--log-level", "=", "w"),
      bashReply("tools", "--log-level", "="),
      bashReply("tools", "--config", configFile, ""),
      bashReply("call", "--config", configFile, "mcp_m"),
      bashReply("call", "--config", "serv"),
      bashReply("call", "--config", "=", "serv"),
    ]);
    assert.equal(registered.trim(), "complete -F _mcpwire mcpwire");
    assert.deepEqual(replies, [
      ["servers", "serve"],
      ["--args-file"],
      ["debug"],
      ["warning"],
      [...["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]].map((v) => `=${v}`),
      ["everything", "memory", "idle"],
      ["mcp_memory_read_graph"],
      ["servers.yaml"],
      ["servers.yaml"],
    ]);
    assert.equal(existsSync(marker), false);
  });

  test("zsh: sourced, compdef registers _mcpwire; autoloaded from $fpath, it completes at once; it offers what mcpwire answers", async (t) => {
    if (which("zsh") === undefined) return t.skip("zsh is not installed");
    const functions = join(scratch.path, "zsh-functions");
    mkdirSync(functions, { recursive: true });
    writeFileSync(join(functions, "_mcpwire"), readFileSync(scripts.zsh!, "utf8"));
    // compadd and _files answer only inside a completion widget: stand-ins print what they are given.
    const standIns = `compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }; _files() { print -r -- "files $*" }`;
    const sourced = await inShell(
      "zsh",
      ["-f", "-c"],
      `autoload -U compinit && compinit -u -D; source ${scripts.zsh}; print -r -- $_comps[mcpwire]
${standIns}
words=(mcpwire tools --config ${configFile} m); CURRENT=5; _mcpwire
words=(mcpwire tools --log-level=w); CURRENT=3; _mcpwire
words=(mcpwire read --out ""); CURRENT=4; _mcpwire`,
    );
    assert.equal(sourced, "_mcpwire\nmemory\n--log-level=warning\nfiles \n");
    const autoloaded = await inShell(
      "zsh",
      ["-f", "-c"],
      `fpath=(${functions} $fpath); autoload -U _mcpwire
${standIns}
words=(mcpwire se); CURRENT=2; _mcpwire`,
    );
    assert.equal(autoloaded, "servers\n");
  });

  test("fish: complete -C offers what mcpwire answers", async (t) => {
    if (which("fish") === undefined) return t.skip("fish is not installed");
    const out = await inShell(
      "fish",
      ["--no-config", "-c"],
      `source ${scripts.fish}; complete -C 'mcpwire se'; complete -C 'mcpwire tools --config ${configFile} m'; complete -C 'mcpwire call --config serv'`,
    );
    assert.deepEqual(out.split("\n").filter((line) => line !== "").map((line) => line.split("\t")[0]), ["servers", "memory", "servers.yaml"]);
  });
});
