// What a broken or hostile server can still do to the `mcpwire` command (issue 13): crash it with
// deep JSON, drive the terminal with escape sequences, pose a link as another site's, or make it
// print the credentials it was given. Each test runs the CLI as a real child process of the
// runtime under test against hand-written servers (stdio, and HTTP on loopback) and looks only
// at what a user would see on stdout and stderr.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkLink } from "../../src/cli/interactive/elicit-prompt.ts";
import { mcpwire as runMcpwire, type Outcome, scratchDir, writeConfig } from "../support/cli-runner.ts";

const hostileServer = fileURLToPath(new URL("../fixtures/hostile-cli-server.mjs", import.meta.url));
const hostileHttpServer = fileURLToPath(new URL("../fixtures/hostile-cli-http-server.mjs", import.meta.url));

/** The credentials in play: an HTTP server's configured headers and a stdio server's env value. */
const TOKEN = "hostile-bearer-token-5f2c9a7e1b";
const API_KEY = "hostile-api-key-93d1e0c4aa";
const ENV_SECRET = "stdio-secret-0123456789abcdef";
/** What must never appear: each secret, and a distinctive part of it (a partial leak is a leak). */
const SECRET_PARTS = [TOKEN, API_KEY, ENV_SECRET, "5f2c9a7e1b", "93d1e0c4aa", "0123456789abcdef"];

/** The escapes the fixture puts in its strings (test/fixtures/hostile-cli-server.mjs), and how the CLI shows them. */
const ESCAPES = "\u001b[31mred\u001b[0m \u001b]8;;https://evil.example/\u0007good.example\u001b]8;;\u0007 bell\u0007 cr\roverwritten \u202eabc";
const SHOWN = String.raw`\x1b[31mred\x1b[0m \x1b]8;;https://evil.example/\x07good.example\x1b]8;;\x07 bell\x07 cr\roverwritten \u202eabc`;
/** Characters a terminal acts on (TAB and LF are ordinary text). */
const hostileCommand = `node ${hostileServer}`;
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * Runs `mcpwire <args>` with the same runtime as this test; `input` is its stdin (a pipe, closed after it).
 * A server that dies at start is tried again at once (MCPWIRE_RECONNECT_DELAY_MS=0), not after 1, 2 and 4 s.
 */
const mcpwire = (args: string[], input = "") =>
  runMcpwire(args, { input, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, MCPWIRE_RECONNECT_DELAY_MS: "0" } });

/**
 * `mcpwire inspect MODE --env HOSTILE_SECRET=… --stdio "<fixture> --on-start"`, run once per mode
 * for the whole file: the three tests that look at this output (the deep log, the escapes, the
 * secret) share one run of each mode instead of running the same command three times.
 */
const onStartRuns = new Map<string, Promise<Outcome>>();
function inspectOnStart(mode: string[]): Promise<Outcome> {
  const key = mode.join(" ");
  let run = onStartRuns.get(key);
  if (run === undefined) {
    run = mcpwire(["inspect", ...mode, "--env", `HOSTILE_SECRET=${ENV_SECRET}`, "--stdio", `${hostileCommand} --on-start`]);
    onStartRuns.set(key, run);
  }
  return run;
}

function assertNoRawControls(outcome: Outcome, what: string): void {
  const found = RAW_CONTROL.exec(outcome.stdout + outcome.stderr);
  assert.equal(
    found,
    null,
    `${what}: a raw U+${found?.[0].charCodeAt(0).toString(16).padStart(4, "0")} reached the terminal\n${outcome.stdout}\n${outcome.stderr}`,
  );
}

function assertNoSecrets(outcome: Outcome, what: string): void {
  for (const part of SECRET_PARTS) {
    assert.ok(!outcome.stdout.includes(part), `${what}: stdout shows "${part}":\n${outcome.stdout}`);
    assert.ok(!outcome.stderr.includes(part), `${what}: stderr shows "${part}":\n${outcome.stderr}`);
  }
}

function longestLine(text: string): number {
  return Math.max(0, ...text.split("\n").map((line) => line.length));
}

const scratch = scratchDir("mcpwire-cli-hostile-");
let stdioConfig = "";

before(async () => {
  stdioConfig = await writeConfig(scratch.path, "stdio.yaml", [
    "mcp_servers:",
    "  hostile:",
    "    command: node",
    `    args: [${JSON.stringify(hostileServer)}]`,
    "    env:",
    `      HOSTILE_SECRET: ${JSON.stringify(ENV_SECRET)}`,
  ]);
});

describe("a server cannot crash the CLI with deep JSON", () => {
  test("call: a log message nested 100,000 levels deep is shown as one short, marked line naming the server", async () => {
    const outcome = await mcpwire(["call", "mcp_hostile_deep-log", "--config", stdioConfig]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(outcome.stdout, "logged deep\n");
    assert.match(outcome.stderr, /^\[hostile\] error: hostile: \{"d":\{"d":.*"\[nested deeper than \d+ levels: not shown\]"\}+$/m);
    assert.ok(longestLine(outcome.stderr) < 4_000, `a ${longestLine(outcome.stderr)}-character line`);
    assert.doesNotMatch(outcome.stderr, /RangeError|Maximum call stack/);
  });

  test("call: a result nested 100,000 levels deep prints its text; --json prints it marked, with a warning naming the server and the tool", async () => {
    // People get the text content; the structuredContent 100,000 levels deep is --json's.
    const text = await mcpwire(["call", "mcp_hostile_deep-result", "--config", stdioConfig]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, "deep below\n");
    assert.doesNotMatch(text.stderr, /nested deeper|RangeError|Maximum call stack/);

    const json = await mcpwire(["call", "mcp_hostile_deep-result", "--json", "--config", stdioConfig]);
    assert.equal(json.code, 0, json.stderr);
    assert.match(json.stderr, /mcpwire call: server "hostile", tool "deep-result": the result is nested deeper than 64 levels/);
    const result = JSON.parse(json.stdout) as { content: { text: string }[]; structuredContent: unknown };
    assert.equal(result.content[0]!.text, "deep below");
    let level = result.structuredContent;
    let depth = 0;
    while (typeof level === "object" && level !== null) {
      level = (level as { d: unknown }).d;
      depth++;
    }
    assert.equal(level, "[nested deeper than 64 levels: not shown]");
    assert.ok(depth > 50 && depth < 70, `depth ${depth}`);
  });

  test("inspect: a deep log message at start-up is shown marked in plain, --trace and --json modes", async () => {
    const modes = [[], ["--trace"], ["--trace=full"], ["--json"]];
    const outcomes = await Promise.all(modes.map(inspectOnStart));
    for (const [i, mode] of modes.entries()) {
      const outcome = outcomes[i]!;
      const what = `inspect ${mode.join(" ")}`;
      assert.equal(outcome.code, 1, `${what}: the fixture answers resources/list and prompts/list with an error\n${outcome.stderr}`);
      assert.match(outcome.stderr, /^server log \[error\] hostile: \{"d":\{"d":.*"\[nested deeper than \d+ levels: not shown\]"\}+$/m, what);
      assert.ok(longestLine(outcome.stderr) < 70_000, `${what}: a ${longestLine(outcome.stderr)}-character line`);
      assert.doesNotMatch(outcome.stderr, /RangeError|Maximum call stack/, what);
      if (mode[0] === "--trace") {
        assert.match(
          outcome.stderr,
          /← - {2}notifications\/message {2}\(\d+(\.\d)? K?B\) {2}\{"level":"error","logger":"hostile","data":\{"d":\{"d":.*…$/m,
          what,
        );
      }
      if (mode[0] === "--trace=full") {
        assert.match(outcome.stderr, /← - {2}notifications\/message {2}.*\n(.*\n)*\s+"d": "\[nested deeper than \d+ levels: not shown\]"/, what);
      }
      if (mode[0] === "--json") assert.equal(JSON.parse(outcome.stdout).serverInfo.name, "hostile");
    }
  });
});

describe("server text reaches the terminal with its escapes made visible", () => {
  test("tools and servers: a description and a server version carrying ESC, OSC 8, BEL, CR and U+202E", async () => {
    const tools = await mcpwire(["tools", "--config", stdioConfig]);
    assert.equal(tools.code, 0, tools.stderr);
    assertNoRawControls(tools, "tools");
    assert.ok(tools.stdout.includes(String.raw`Hostile description: \x1b[31mred\x1b[0m \x1b]8;;https://evil.example/\x07good.e`), tools.stdout);

    const servers = await mcpwire(["servers", "--config", stdioConfig]);
    assert.equal(servers.code, 0, servers.stderr);
    assertNoRawControls(servers, "servers");
    assert.match(servers.stdout, /^hostile\s+ready\s+stdio\s+2025-11-25 \(legacy\)\s+hostile 1\.0 \\x1b\[31mred\\x1b\[0m/m);

    const json = await mcpwire(["tools", "--json", "--config", stdioConfig]);
    assert.equal(json.code, 0, json.stderr);
    assertNoRawControls(json, "tools --json");
    const listed = (JSON.parse(json.stdout) as { tools: { tool: string; description: string }[] }).tools;
    assert.equal(listed.find((tool) => tool.tool === "escapes")?.description, `Hostile description: ${ESCAPES}`, "--json carries the text exactly");
  });

  test("call: the tool error, the log line and the progress message show the escapes as text", async () => {
    const outcome = await mcpwire(["call", "mcp_hostile_escapes", "--config", stdioConfig]);
    assert.equal(outcome.code, 1, outcome.stderr);
    assertNoRawControls(outcome, "call");
    assert.equal(outcome.stdout, `tool error: ${SHOWN}\n`);
    assert.ok(outcome.stderr.includes(`[hostile] error: hostile: log line: ${SHOWN}\n`), outcome.stderr);
    assert.ok(outcome.stderr.includes(`progress 50% (1/2) progress: ${SHOWN}\n`), outcome.stderr);
  });

  test("inspect: server version, instructions, a description, an error message and the trace show the escapes as text", async () => {
    // The runs with --on-start (inspectOnStart): its start-up log lines are on stderr, the report is the same.
    const [plain, traced, full, json] = await Promise.all([
      inspectOnStart([]),
      inspectOnStart(["--trace"]),
      inspectOnStart(["--trace=full"]),
      inspectOnStart(["--json"]),
    ]);
    assert.equal(plain.code, 1, plain.stderr);
    assertNoRawControls(plain, "inspect");
    assert.ok(plain.stdout.includes(`server        hostile 1.0 ${SHOWN}\n`), plain.stdout);
    assert.ok(plain.stdout.includes(`  Instructions: ${SHOWN}\n`), plain.stdout);
    assert.ok(plain.stdout.includes(`— Hostile description: ${SHOWN}`.slice(0, 90)), plain.stdout);
    assert.match(plain.stdout, /^resources: failed: .*Method not found: resources\/list \\x1b\[31mred/m);

    assertNoRawControls(traced, "inspect --trace");
    assert.match(traced.stderr, /← - {2}↳ answer to initialize #\d+ {2}/);
    assertNoRawControls(full, "inspect --trace=full");
    assert.match(full.stderr, /← - {2}↳ answer to initialize #\d+ .*\n(.*\n)*\s+"version": "1\.0 \\u001b\[31mred/);

    assertNoRawControls(json, "inspect --json");
    const report = JSON.parse(json.stdout);
    assert.equal(report.serverInfo.version, `1.0 ${ESCAPES}`, "--json carries the text exactly");
    assert.equal(report.instructions, `Instructions: ${ESCAPES}`);
  });
});

describe("a list with entries that are not what they claim", () => {
  test("inspect names an entry that is not an object and shows the rest, instead of failing", async () => {
    const outcome = await mcpwire(["inspect", "--stdio", `${hostileCommand} --odd-lists`]);
    assertNoRawControls(outcome, "inspect --odd-lists");
    assert.doesNotMatch(outcome.stderr, /TypeError|is not a function/);
    assert.match(outcome.stdout, /^prompts \(4\)\n {2}\(not an object: null\)\n {2}\(not an object: a string \\x1b\[31mred/m);
    assert.match(outcome.stdout, /^ {2}odd\(\)$/m);
    assert.match(outcome.stdout, /^ {2}args\(undefined, x\*\)$/m);
  });
});

describe("URL-mode elicitation end to end", () => {
  const link = (url: string, answers: string) =>
    mcpwire(["call", "mcp_hostile_link", JSON.stringify({ url }), "--elicit", "prompt", "--config", stdioConfig], answers);

  test("javascript:, file:, data: and plain http: to another host are declined before asking, saying why", async () => {
    // A scheme that is not a web page and plain http: to another host, each through the CLI;
    // file: and data: take the scheme's path (checkLink, what the CLI asks), checked directly.
    for (
      const [url, why] of [["file:///etc/passwd", /^it is a "file:" URL, not a web page/], [
        "data:text/html,<b>hi</b>",
        /^it is a "data:" URL, not a web page/,
      ]] as const
    ) {
      const check = checkLink(url);
      assert.ok(!check.ok && why.test(check.why), `${url}: ${JSON.stringify(check)}`);
    }
    const cases: [string, RegExp][] = [
      ["javascript:alert(document.domain)", /it is a "javascript:" URL, not a web page/],
      ["http://evil.example/login", /it is plain http: to evil\.example/],
    ];
    const outcomes = await Promise.all(cases.map(([url]) => link(url, "y\n")));
    for (const [i, [url, why]] of cases.entries()) {
      const outcome = outcomes[i]!;
      assert.equal(outcome.code, 0, outcome.stderr);
      assertNoRawControls(outcome, url);
      assert.equal(outcome.stdout, 'answer: {"action":"decline"}\n', url);
      assert.match(outcome.stderr, /server "hostile" asks you to open .*; declined without asking: /, url);
      assert.match(outcome.stderr, why, url);
      assert.doesNotMatch(outcome.stderr, /\[y\]es/, `${url}: the user was asked`);
    }
  });

  test("an https: link is shown with its origin and the message's hyperlink escapes as text; y accepts", async () => {
    const [outcome, loopback] = await Promise.all([link("https://evil.example/login?next=1", "y\n"), link("http://127.0.0.1:8765/callback", "y\n")]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assertNoRawControls(outcome, "https link");
    assert.ok(outcome.stderr.includes(`server "hostile" asks you to open a link: Open this: ${SHOWN}\n`), outcome.stderr);
    assert.match(outcome.stderr, /^ {2}https:\/\/evil\.example\/login\?next=1$/m);
    assert.match(outcome.stderr, /\(origin https:\/\/evil\.example; mcpwire does not open or fetch it/);
    assert.equal(outcome.stdout, 'answer: {"action":"accept"}\n');

    assert.match(loopback.stderr, /\(origin http:\/\/127\.0\.0\.1:8765;/);
    assert.equal(loopback.stdout, 'answer: {"action":"accept"}\n');
  });
});

describe("no credential is printed", () => {
  let http: ChildProcess;
  let origin = "";
  let allConfig = "";
  let okConfig = "";

  before(async () => {
    http = spawn(process.execPath, [hostileHttpServer], { stdio: ["pipe", "pipe", "inherit"] });
    origin = await new Promise<string>((resolve, reject) => {
      let text = "";
      http.stdout!.on("data", (chunk: Uint8Array) => {
        text += new TextDecoder().decode(chunk);
        const port = /PORT (\d+)/.exec(text);
        if (port) resolve(`http://127.0.0.1:${port[1]}`);
      });
      http.on("exit", () => reject(new Error(`the HTTP fixture exited: ${text}`)));
    });
    const httpServer = (name: string, scenario: string) => [
      `  ${name}:`,
      `    url: ${origin}/${scenario}/mcp`,
      "    headers:",
      `      Authorization: "Bearer ${TOKEN}"`,
      `      X-Api-Key: "${API_KEY}"`,
    ];
    const stdioServer = (name: string, extra: string[]) => [
      `  ${name}:`,
      "    command: node",
      `    args: ${JSON.stringify([hostileServer, ...extra])}`,
      "    env:",
      `      HOSTILE_SECRET: ${JSON.stringify(ENV_SECRET)}`,
    ];
    okConfig = join(scratch.path, "ok.yaml");
    await writeFile(okConfig, ["mcp_servers:", ...httpServer("rpc", "rpc"), ...stdioServer("leaky", []), ""].join("\n"));
    allConfig = join(scratch.path, "all.yaml");
    await writeFile(
      allConfig,
      [
        "mcp_servers:",
        ...httpServer("rpc", "rpc"),
        ...httpServer("broken", "500"),
        ...stdioServer("leaky", []),
        ...stdioServer("dying", ["--die-at-start"]),
        "",
      ].join("\n"),
    );
  });

  after(() => {
    http?.stdin?.end(); // the fixture exits when its stdin closes
  });

  const headers = () => ["--header", `Authorization: Bearer ${TOKEN}`, "--header", `X-Api-Key: ${API_KEY}`];
  const MODES = [[], ["--trace"], ["--debug"], ["--json"]];

  test("inspect --url: a 401 body, a 500 body and JSON-RPC errors quoting the request headers, in every mode", async () => {
    // Every mode and scenario is its own run; they run at once.
    const scenarios = [["401", /answered HTTP 401/], ["500", /answered HTTP 500/], ["rpc"]] as const;
    const runs = await Promise.all(
      MODES.map((mode) => Promise.all(scenarios.map(([scenario]) => mcpwire(["inspect", ...mode, ...headers(), "--url", `${origin}/${scenario}/mcp`])))),
    );
    for (const [m, mode] of MODES.entries()) {
      const what = (scenario: string) => `inspect ${mode.join(" ")} ${scenario}`;
      for (const [s, [scenario, status]] of ([scenarios[0], scenarios[1]] as const).entries()) {
        const outcome = runs[m]![s]!;
        assertNoSecrets(outcome, what(scenario));
        assert.equal(outcome.code, 1, what(scenario));
        assert.match(outcome.stderr, status, what(scenario));
        assert.match(
          outcome.stderr,
          /authorization\\?"?:\s*\\?"?\[redacted\].*x-api-key\\?"?:\s*\\?"?\[redacted\]/,
          `${what(scenario)}: the body is quoted, redacted\n${outcome.stderr}`,
        );
        if (mode[0] === "--debug") assert.match(outcome.stderr, /^\s+at /m, `${what(scenario)}: --debug shows the stack`);
      }
      const rpc = runs[m]![2]!;
      assertNoSecrets(rpc, what("rpc"));
      assert.equal(rpc.code, 1, `${what("rpc")}: resources/list and prompts/list failed\n${rpc.stderr}`);
      if (mode[0] === "--json") {
        const report = JSON.parse(rpc.stdout);
        assert.equal(report.serverInfo.name, "echo-headers");
        assert.match(report.errors.resources, /resources\/list refused; the request came with .*"authorization":"\[redacted\]".*"x-api-key":"\[redacted\]"/);
      } else {
        assert.match(rpc.stdout, /^resources: failed: .*resources\/list refused; the request came with .*"authorization":"\[redacted\]"/m, what("rpc"));
      }
      if (mode[0] === "--trace") {
        assert.match(rpc.stderr, /← - {2}↳ answer to resources\/list #\d+ \(error\) {2}.*\{"code":-32603,"message":"resources\/list refused/, what("rpc"));
      }
    }
  });

  test("inspect --stdio: an --env secret echoed into a log message and stderr, in every mode", async () => {
    const outcomes = await Promise.all(MODES.map(inspectOnStart));
    for (const [i, mode] of MODES.entries()) {
      const what = `inspect ${mode.join(" ")} --stdio`;
      const outcome = outcomes[i]!;
      assertNoSecrets(outcome, what);
      assert.match(outcome.stderr, /^server log \[error\] hostile: log has key \[redacted\]$/m, what);
      if (mode[0] === "--trace") {
        assert.match(outcome.stderr, /process stderr: stderr has key \[redacted\]$/m, what);
        assert.match(
          outcome.stderr,
          /← - {2}notifications\/message {2}\(\d+ B\) {2}\{"level":"error","logger":"hostile","data":"log has key \[redacted\]"\}/,
          what,
        );
      }
    }
  });

  test("servers and tools: the last errors quote a 500 body and a stderr tail, redacted", async () => {
    const table = await mcpwire(["servers", "--config", allConfig]);
    assertNoSecrets(table, "servers");
    // broken and dying could not be reached: their rows say why, and the exit code says so.
    assert.equal(table.code, 3, table.stderr);
    assert.match(table.stdout, /^rpc\s+ready\s+/m);
    assert.match(table.stdout, /^broken\s+\S+\s+auto\s+-\s+-\s+0\s+.*answered HTTP 500/m);
    assert.match(table.stdout, /^dying\s+\S+\s+stdio\s+-\s+-\s+0\s+.*exited with code 3; last stderr: starting with key \[redacted\]$/m);

    const json = await mcpwire(["servers", "--json", "--config", allConfig]);
    assertNoSecrets(json, "servers --json");
    const statuses = JSON.parse(json.stdout) as { name: string; lastError?: string }[];
    assert.match(
      statuses.find((status) => status.name === "broken")?.lastError ?? "",
      /answered HTTP 500: .*authorization: \[redacted\] x-api-key: \[redacted\]/,
    );
    assert.match(statuses.find((status) => status.name === "dying")?.lastError ?? "", /last stderr: starting with key \[redacted\]/);

    const tools = await mcpwire(["tools", "--config", allConfig]);
    assertNoSecrets(tools, "tools");
    assert.match(tools.stdout, /^mcp_rpc_leak\s+mcp-rpc\s+Fails quoting the request headers$/m);
    assert.equal(tools.code, 3, tools.stderr);
    assert.match(tools.stderr, /^mcpwire tools: server "broken" could not be reached \(\S+\): .*authorization: \[redacted\]/m);
    assert.match(tools.stderr, /^mcpwire tools: server "dying" could not be reached \(\S+\): .*last stderr: starting with key \[redacted\]$/m);
  });

  test("call --debug: a JSON-RPC error quoting the headers, and a log, a tool error and stderr carrying the env secret", async () => {
    const rpc = await mcpwire(["call", "--debug", "mcp_rpc_leak", "--config", okConfig]);
    assertNoSecrets(rpc, "call --debug mcp_rpc_leak");
    assert.equal(rpc.code, 3, rpc.stderr);
    assert.match(
      rpc.stderr,
      /^mcpwire call: server "rpc", tool "leak": the server answered with JSON-RPC error -32603 .*"authorization":"\[redacted\]","x-api-key":"\[redacted\]"/m,
    );
    assert.match(rpc.stderr, /^\s+at /m, "--debug shows the stack");

    const stdio = await mcpwire(["call", "--debug", "mcp_leaky_secret", "--config", okConfig]);
    assertNoSecrets(stdio, "call --debug mcp_leaky_secret");
    assert.equal(stdio.code, 1, stdio.stderr);
    assert.equal(stdio.stdout, "tool failed with key [redacted]\n");
    assert.match(stdio.stderr, /^\[leaky\] error: hostile: log has key \[redacted\]$/m);
    assert.match(stdio.stderr, /^\[leaky\] warning: hostile: \{"nested":\{"apiKey":"\[redacted\]","note":"value \[redacted\]"\}\}$/m);

    const json = await mcpwire(["call", "--json", "mcp_leaky_secret", "--config", okConfig]);
    assertNoSecrets(json, "call --json mcp_leaky_secret");
    assert.equal((JSON.parse(json.stdout) as { content: { text: string }[] }).content[0]!.text, "tool failed with key [redacted]");
  });
});
