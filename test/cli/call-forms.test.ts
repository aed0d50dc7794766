// `mcpwire call` arguments as people write them — key=value typed by the tool's schema, JSON on
// stdin or in a file — and `did you mean` for a misspelt tool, `mcpwire tools SERVER
// --signatures`: the CLI as a child process against the real server-everything (and the example
// config's filesystem server). The runs with the file's config share one server-everything over
// Streamable HTTP, started before the tests (each run its own session; they only call its
// stateless tools), instead of starting one over stdio each (0.35 s of CPU a start); the example
// config's runs start theirs over stdio.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type HttpServerProcess, startEverything } from "../fixtures/sse-servers.ts";
import { mcpwire, type Outcome, root, runtimeArgs, scratchDir, writeConfig } from "../support/cli-runner.ts";

const EXAMPLE = "examples/mcpwire.yaml";
const FILESYSTEM = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));
const scratch = scratchDir("mcpwire-call-forms-");
let config = "";
let everything: HttpServerProcess | undefined;

before(async () => {
  everything = await startEverything("streamableHttp");
  config = await writeConfig(scratch.path, "mcpwire.yaml", ["mcp_servers:", "  everything:", `    url: ${everything.origin}/mcp`]);
});

after(async () => {
  await everything?.stop();
});

describe("mcpwire call with key=value arguments", () => {
  test("get-sum a=2 b=40 with the example config prints 42", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_get-sum", "a=2", "b=40", "--config", EXAMPLE]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /\b42\b/);
  });

  test("an array written [x,y] reaches the server as an array of strings", async () => {
    const { code, stdout, stderr } = await mcpwire([
      "call",
      "mcp_filesystem_read_multiple_files",
      "paths=[mcpwire.yaml, examples/absent.yaml]",
      "--config",
      EXAMPLE,
    ]);
    assert.equal(code, 0, stderr);
    // The filesystem server's root is examples/: one path is read, the other named as missing.
    assert.match(stdout, /mcp_servers:/);
    assert.match(stdout, /examples\/absent\.yaml: Error/);
  });

  test("objects in an array written as a shell leaves them ({k:v} without quotes), and a boolean", async () => {
    // The shell turns edits=[{"oldText":"hello",…}] into edits=[{oldText:hello,…}]; dryRun=true keeps the file.
    const dir = join(scratch.path, "files");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "notes.txt"), "hello world\n");
    const fsConfig = await writeConfig(scratch.path, "fs.yaml", [
      "mcp_servers:",
      "  fs:",
      "    command: node",
      `    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(dir)}]`,
    ]);
    const { code, stdout, stderr } = await mcpwire([
      "call",
      "mcp_fs_edit_file",
      `path=${join(dir, "notes.txt")}`,
      "edits=[{oldText:hello,newText:goodbye}]",
      "dryRun=true",
      "--config",
      fsConfig,
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^-hello world$/m);
    assert.match(stdout, /^\+goodbye world$/m);
    assert.equal(await readFile(join(dir, "notes.txt"), "utf8"), "hello world\n", "dryRun=true was sent as the boolean true");
  });

  test("a string parameter keeps 2 as the text 2", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_echo", "message=2", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "Echo: 2\n");
  });

  test("an enum value with a space, from its list", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_get-structured-content", "location=New York", "--json", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.equal(typeof JSON.parse(stdout).structuredContent.temperature, "number");
  });

  test("a value that does not fit its type exits 2 before the call, naming it", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_get-sum", "a=two", "b=40", "--config", config]);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /server "everything", tool "get-sum": argument a=two does not fit a: number; write a number/);
  });

  test("a value outside an enum exits 2, listing the choices", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_get-structured-content", "location=Paris", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /location=Paris is not one of "New York", "Chicago", "Los Angeles"/);
  });

  test("a missing required argument is named before the call goes out", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_get-sum", "a=2", "--config", config]);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /missing the required argument b \(number: Second number\); add b=…/);
  });

  test("a duplicate key exits 2 before any server starts (the config is not even read)", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_get-sum", "a=1", "a=2", "--config", join(scratch.path, "absent.yaml")]);
    assert.equal(code, 2);
    assert.match(stderr, /argument "a" is given twice/);
    assert.doesNotMatch(stderr, /absent\.yaml/);
  });

  test("a word that is not key=value exits 2", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_get-sum", "a=1", "40", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /argument "40" is not key=value/);
  });
});

describe("mcpwire call --args-file", () => {
  test("- reads the JSON object from stdin", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_get-sum", "--args-file", "-", "--config", config], {
      input: '{"a": 2,\n "b": 40}\n',
    });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /\b42\b/);
  });

  test("a file holding the JSON object", async () => {
    const file = join(scratch.path, "args.json");
    await writeFile(file, '{"message": "from a file"}');
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_echo", "--args-file", file, "--config", config]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "Echo: from a file\n");
  });

  test("a file that does not exist exits 2 before any server starts", async () => {
    const { code, stderr } = await mcpwire([
      "call",
      "mcp_everything_echo",
      "--args-file",
      join(scratch.path, "nope.json"),
      "--config",
      join(scratch.path, "absent.yaml"),
    ]);
    assert.equal(code, 2);
    assert.match(stderr, /cannot read --args-file ".*nope\.json": no such file/);
  });

  test("stdin that is not JSON exits 2", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_echo", "--args-file", "-", "--config", config], { input: "message=hi\n" });
    assert.equal(code, 2);
    assert.match(stderr, /stdin \(--args-file -\) is not valid JSON/);
  });

  // `{"message":[[[…]]]}`: deep enough to overflow the stack of JSON.stringify when the request is sent.
  const deepArguments = (levels: number) => `{"message":${"[".repeat(levels)}${"]".repeat(levels)}}`;
  const tooDeep = /is nested deeper than 64 levels, the most mcpwire sends as a tool's arguments; flatten it/;

  test("arguments 100,000 levels deep in a file or on stdin exit 2 naming the depth limit, not a stack overflow", async () => {
    const file = join(scratch.path, "deep.json");
    await writeFile(file, deepArguments(100_000));
    const cases = [[["--args-file", file], undefined, /--args-file ".*deep\.json"/], [
      ["--args-file", "-"],
      deepArguments(100_000),
      /stdin \(--args-file -\)/,
    ]] as const;
    // The two runs at once.
    const outcomes = await Promise.all(
      cases.map(([args, input]) => mcpwire(["call", "mcp_everything_echo", ...args, "--config", config], input === undefined ? {} : { input })),
    );
    for (const [i, [, , source]] of cases.entries()) {
      const { code, stderr } = outcomes[i]!;
      assert.equal(code, 2, stderr);
      assert.match(stderr, source);
      assert.match(stderr, tooDeep);
      assert.doesNotMatch(stderr, /call stack/);
    }
  });

  test("a JSON argument 60,000 levels deep (as much as one argument may hold) exits 2 naming the depth limit", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_echo", deepArguments(60_000), "--config", config]);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /the JSON argument is nested deeper than 64 levels/);
    assert.doesNotMatch(stderr, /call stack/);
  });

  test("stdin longer than the limit is refused, naming the limit", async () => {
    const { code, stderr } = await feeding(
      ["call", "mcp_everything_echo", "--args-file", "-", "--config", config],
      `{"message":"${"x".repeat(17 * 1024 * 1024)}"}`,
    );
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^mcpwire: stdin \(--args-file -\) is longer than 16777216 characters; arguments that large belong in a file the tool reads$/m);
  });

  test("an args file with arguments on the command line exits 2", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_echo", "message=hi", "--args-file", "-", "--config", config], { input: "{}" });
    assert.equal(code, 2);
    assert.match(stderr, /--args-file cannot be combined/);
  });
});

describe("did you mean", () => {
  test("an underscore for the hyphen gets the registered name", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_everything_get_sum", "a=2", "b=40", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /no tool "mcp_everything_get_sum" is registered; did you mean "mcp_everything_get-sum"\?/);
  });

  test("a bare tool name gets the prefixed name", async () => {
    const { code, stderr } = await mcpwire(["call", "get-sum", "a=2", "b=40", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /did you mean "mcp_everything_get-sum"\?/);
  });

  test("a misspelt parameter gets its nearest names, first, in key=value words and in a JSON object alike", async () => {
    for (const args of [["mesage=hi"], ['{"mesage":"hi"}']]) {
      const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_echo", ...args, "--config", EXAMPLE]);
      assert.equal(code, 2, stderr);
      assert.equal(stdout, "");
      assert.match(
        stderr,
        /^mcpwire call: server "everything", tool "echo" has no parameter "mesage" \(did you mean "message"\?\), and misses the required argument message \(string: [^)]*\); add message=…/m,
      );
    }
  });

  test("a misspelt server name for tools SERVER", async () => {
    const { code, stderr } = await mcpwire(["tools", "everythin", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /no server "everythin" is configured; did you mean "everything"\?/);
  });
});

describe("mcpwire tools --signatures", () => {
  test("tools everything --signatures prints each tool as a signature with its description", async () => {
    const { code, stdout, stderr } = await mcpwire(["tools", "everything", "--signatures", "--config", EXAMPLE]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^\/\/ server "everything": \d+ tools$/m);
    assert.match(
      stdout,
      /\/\*\*\n \* Returns the sum of two numbers\n \*\n \* @param a First number\n \* @param b Second number\n \*\/\nmcp_everything_get-sum\(a: number, b: number\)\n/,
    );
    assert.match(stdout, /^mcp_everything_echo\(message: string\)$/m);
    assert.match(stdout, /^mcp_everything_trigger-long-running-operation\(duration\?: number, steps\?: number\)$/m);
    assert.match(stdout, /^ {2}messageType: "error" \| "success" \| "debug",$/m);
    // The outputSchema the server listed is the return type.
    assert.match(stdout, /^\): \{ temperature: number; conditions: string; humidity: number \}$/m);
    assert.doesNotMatch(stdout, /mcp_filesystem_|mcp_memory_/, "only the server asked for");
  });

  test("--signatures with --json is a usage error", async () => {
    const { code, stderr } = await mcpwire(["tools", "--signatures", "--json", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /cannot be combined/);
  });
});

/**
 * Runs `mcpwire <args>` with `input` written to its stdin as it reads it. The CLI may stop
 * reading and exit before all of it is written: the broken pipe that leaves is expected.
 */
function feeding(args: string[], input: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...runtimeArgs, ...args], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
