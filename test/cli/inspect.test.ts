// The `mcpwire inspect` verb, run as a real child process of the runtime under test.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { modernServerArgs } from "../../conformance/fixtures/modern-server-launch.ts";
import { type HttpServerProcess, startEverything, startSseFixture } from "../fixtures/sse-servers.ts";
import { mcpwire as runMcpwire, type Outcome, root, runtimeArgs } from "../support/cli-runner.ts";
import { EVERYTHING as everything } from "../support/everything-path.ts";
import { once } from "../support/speed-a-once.ts";

/** Runs `mcpwire <args>` with the same runtime as this test (Node via tsx, or Deno). */
const mcpwire = (...args: string[]) => runMcpwire(args, { timeoutMs: 60_000 });
/** The same, run once for the file (speed-a-once.ts): tests that read the same report share its run. */
const shared = once(mcpwire);

const everythingCommand = `node ${everything} stdio`;

describe("mcpwire inspect", () => {
  test("prints the everything server's info, version, tools, resources and prompts", async () => {
    const { code, stdout, stderr } = await shared("inspect", "--stdio", everythingCommand);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^server\s+mcp-servers\/everything /m);
    assert.match(stdout, /^protocol\s+2025-11-25 \(legacy: initialize handshake\)$/m);
    assert.match(stdout, /^capabilities\s+.*tools \(listChanged\)/m);
    assert.match(stdout, /^tools \(\d+\)$/m);
    assert.match(stdout, /^ {2}echo\(message\*: string\)/m);
    assert.match(stdout, /^ {2}get-sum\(a\*: number, b\*: number\)/m);
    assert.match(stdout, /^resources \(\d+\)$/m);
    assert.match(stdout, /^ {2}demo:\/\/resource\/static\/document\//m);
    assert.match(stdout, /^prompts \(\d+\)$/m);
    assert.match(stdout, /^ {2}args-prompt\(city\*, state\)/m);
  });

  test("says which client capabilities it does not declare, by which a server may list more tools (`tools` counts more)", async () => {
    // server-everything lists its sampling, elicitation and roots tools only to a client that
    // declares those capabilities; inspect declares none of them.
    const [{ code, stdout, stderr }, json] = await Promise.all([
      shared("inspect", "--stdio", everythingCommand),
      shared("inspect", "--json", "--stdio", everythingCommand),
    ]);
    assert.equal(code, 0, stderr);
    assert.match(
      stdout,
      /^tools \(\d+\)\n(?: {2}\S.*\n)+ {2}\(inspect declares no sampling, elicitation or roots capability: a server may list more tools to a client that does; `mcpwire tools` declares sampling and elicitation\)$/m,
    );
    assert.doesNotMatch(stdout, /trigger-sampling-request/);
    assert.equal(json.code, 0, json.stderr);
    const declared = JSON.parse(json.stdout).clientCapabilities as Record<string, unknown>;
    for (const name of ["sampling", "elicitation", "roots"]) assert.equal(declared[name], undefined, name);
  });

  test("finds the era by itself: the 2026-07-28 fixture is modern (no initialize sent), and --protocol legacy pins the handshake", async () => {
    const modern = `node ${modernServerArgs("--stdio").join(" ")}`;
    const [found, pinned] = await Promise.all([
      mcpwire("inspect", "--trace", "--stdio", modern),
      mcpwire("inspect", "--protocol", "legacy", "--stdio", modern),
    ]);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /^protocol\s+2026-07-28 \(modern: stateless, found by server\/discover\)$/m);
    assert.match(found.stdout, /^server\s+mcpwire-modern-fixture /m);
    assert.match(found.stderr, /→ - {2}server\/discover #\d+ /);
    assert.match(found.stderr, /• - {2}era modern 2026-07-28 — server\/discover answered/);
    assert.doesNotMatch(found.stderr, /→ - {2}initialize #/, "initialize was sent to a modern server");
    assert.equal(pinned.code, 1);
    assert.match(pinned.stderr, /refused the initialize handshake: it supports 2026-07-28; .*protocol: auto/);
  });

  test("--json prints one JSON document with every field", async () => {
    const { code, stdout, stderr } = await shared("inspect", "--json", "--stdio", everythingCommand);
    assert.equal(code, 0, stderr);
    const report = JSON.parse(stdout);
    assert.equal(report.protocolVersion, "2025-11-25");
    assert.equal(report.era, "legacy");
    assert.equal(report.serverInfo.name, "mcp-servers/everything");
    assert.ok(report.capabilities.tools);
    assert.equal(typeof report.instructions, "string");
    assert.ok(report.tools.some((tool: { name: string }) => tool.name === "echo"));
    assert.ok(report.resources.length > 0);
    assert.ok(report.resourceTemplates.length > 0);
    assert.ok(report.prompts.some((prompt: { name: string }) => prompt.name === "simple-prompt"));
    assert.deepEqual(report.errors, {});
  });

  test("--trace shows every message both ways on stderr, each answer naming its request, with the process and lifecycle", async () => {
    const { code, stderr } = await mcpwire("inspect", "--trace", "--stdio", everythingCommand);
    assert.equal(code, 0, stderr);
    const lines = stderr.split("\n");
    const sent = lines.filter((line) => /^\s*\d+\.\d ms → - {2}/.test(line));
    const received = lines.filter((line) => /^\s*\d+\.\d ms ← - {2}/.test(line));
    assert.ok(sent.some((line) => /→ - {2}initialize #\d+ {2}\(\d+ B\) {2}\{"protocolVersion":/.test(line)), stderr);
    assert.ok(sent.some((line) => line.includes("→ -  notifications/initialized  (")));
    assert.ok(sent.some((line) => /→ - {2}tools\/list #\d+ /.test(line)));
    assert.ok(received.some((line) => /↳ answer to initialize #\d+ {2}\d+\.\d ms {2}.*"protocolVersion":"2025-11-25"/.test(line)), stderr);
    // Every request we sent got an answer in the trace, naming its method and id, with a latency.
    const requests = sent.map((line) => /→ - {2}(\S+) (#\d+) /.exec(line)).filter((match) => match !== null);
    assert.ok(requests.length >= 3, stderr);
    for (const [, method, id] of requests) {
      assert.ok(
        received.some((line) => line.includes(`↳ answer to ${method} ${id}`) && /↳ answer to \S+ #\d+( \(error\))? {2}\d+\.\d ms {2}\(/.test(line)),
        `no answer traced for ${method} ${id}`,
      );
    }
    // Bounded: no line carries a whole message (the preview is cut).
    for (const line of [...sent, ...received]) assert.ok(line.length < 400, line);
    assert.match(stderr, /• - {2}process started, pid \d+: node /);
    assert.match(stderr, /• - {2}era legacy 2025-11-25 — server\/discover .*fell back to the initialize handshake/);
    assert.match(stderr, /• - {2}ready \[stdio\]/);
  });

  test("--trace=full pretty-prints each message's JSON under its line", async () => {
    const [{ code, stderr }, bad] = await Promise.all([
      mcpwire("inspect", "--trace=full", "--stdio", everythingCommand),
      mcpwire("inspect", "--trace=everything", "--stdio", everythingCommand),
    ]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /↳ answer to tools\/list #\d+ .*\n\s+\{\n\s+"result": \{\n\s+"tools": \[\n\s+\{\n\s+"name": "echo",/);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--trace takes no value or =full/);
  });

  test("a missing command exits 1 with a message naming the command", async () => {
    const { code, stderr } = await mcpwire("inspect", "--stdio", "mcpwire-no-such-command --flag");
    assert.equal(code, 1);
    assert.match(stderr, /command "mcpwire-no-such-command" not found/);
  });

  test("a server that exits during the handshake exits 1 and reports its exit code and stderr", async () => {
    const { code, stderr } = await mcpwire("inspect", "--stdio", `node -e "console.error('boom: no config'); process.exit(3)"`);
    assert.equal(code, 1);
    assert.match(stderr, /exited with code 3/);
    assert.match(stderr, /boom: no config/);
  });

  test("--env reaches the server and nothing else of ours does", async () => {
    // server-everything's get-env is not reachable from inspect; a tiny server prints its env on stderr.
    const script = "console.error('SEEN=' + (process.env.MCPWIRE_TEST_VAR ?? '') + ' SECRET=' + (process.env.MCPWIRE_PARENT_ONLY ?? '')); process.exit(4)";
    const outcome = await new Promise<Outcome>((resolve) => {
      execFile(
        process.execPath,
        [...runtimeArgs, "inspect", "--env", "MCPWIRE_TEST_VAR=hello", "--stdio", `node -e "${script}"`],
        { cwd: root, timeout: 60_000, env: { ...process.env, MCPWIRE_PARENT_ONLY: "leaked" } },
        (error, stdout, stderr) => resolve({ code: error && typeof error.code === "number" ? error.code : 0, stdout: String(stdout), stderr: String(stderr) }),
      );
    });
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /SEEN=hello SECRET=$/m);
  });

  test("usage errors exit 2 and say what is wrong", async () => {
    const [unknown, missing, verb] = await Promise.all([
      mcpwire("inspect", "--stdio", everythingCommand, "--bogus"),
      mcpwire("inspect"),
      mcpwire("frobnicate"),
    ]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option --bogus/);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--stdio/);
    assert.equal(verb.code, 2);
    assert.match(verb.stderr, /unknown verb "frobnicate"/);
  });

  test("help and version print and exit 0", async () => {
    const [help, version] = await Promise.all([mcpwire("help"), mcpwire("version")]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /inspect/);
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^mcpwire \d+\.\d+\.\d+/);
  });
});

describe("mcpwire inspect --url", () => {
  let streamable: HttpServerProcess;
  let sse: HttpServerProcess;
  let fixture: HttpServerProcess;

  before(async () => {
    [streamable, sse, fixture] = await Promise.all([startEverything("streamableHttp"), startEverything("sse"), startSseFixture("good")]);
  });

  after(async () => {
    await Promise.all([streamable?.stop(), sse?.stop(), fixture?.stop()]);
  });

  test("a Streamable HTTP server (server-everything streamableHttp): auto uses streamable-http and says so", async () => {
    const { code, stdout, stderr } = await mcpwire("inspect", "--url", `${streamable.origin}/mcp`);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^server\s+mcp-servers\/everything /m);
    assert.match(stdout, /^transport\s+streamable-http \(Streamable HTTP, detected\)$/m);
    assert.match(stdout, /^ {2}echo\(message\*: string\)/m);
    assert.match(stdout, /^prompts \(\d+\)$/m);
  });

  test("--trace over Streamable HTTP: the refused server/discover (400 and its body) before initialize, statuses and the session id", async () => {
    const { code, stderr } = await mcpwire("inspect", "--trace", "--url", `${streamable.origin}/mcp`);
    assert.equal(code, 0, stderr);
    const lines = stderr.split("\n");
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const probe = at(/→ - {2}server\/discover #1 /);
    const refused = at(/⇄ - {2}HTTP POST \S+\/mcp → 400 .*sent MCP-Protocol-Version: 2026-07-28 {2}Mcp-Method: server\/discover/);
    const body = at(/⇄ - {2}HTTP 400 body of POST \S+\/mcp: \{"jsonrpc":"2\.0","error":/);
    const initialize = at(/→ - {2}initialize #2 /);
    const session = at(/⇄ - {2}HTTP POST \S+\/mcp → 200 .*got Mcp-Session-Id: \S+/);
    const answered = at(/← - {2}↳ answer to initialize #2 {2}\d+\.\d ms/);
    assert.ok(probe >= 0 && probe < refused && refused < body && body < initialize && initialize < session && session < answered, stderr);
    assert.match(stderr, /• - {2}era legacy 2025-11-25 — server\/discover was refused with HTTP 400: .*fell back to the initialize handshake/);
    assert.match(stderr, /⇄ - {2}HTTP POST \S+\/mcp → 202 {2}sent Mcp-Session-Id: \S+ {2}MCP-Protocol-Version: 2025-11-25/);
  });

  test("a legacy SSE server (server-everything sse): auto falls back to sse; --json reports it", async () => {
    const { code, stdout, stderr } = await mcpwire("inspect", "--json", "--url", `${sse.origin}/sse`);
    assert.equal(code, 0, stderr);
    const report = JSON.parse(stdout);
    assert.equal(report.transport, "sse");
    assert.equal(report.transportDetected, true);
    assert.equal(report.serverInfo.name, "mcp-servers/everything");
    assert.ok(report.tools.some((tool: { name: string }) => tool.name === "echo"));
    assert.deepEqual(report.errors, {});
  });

  test("--transport sse and --transport http force one; the text report names it", async () => {
    const [forcedSse, forcedHttp] = await Promise.all([
      mcpwire("inspect", "--transport", "sse", "--url", `${sse.origin}/sse`),
      mcpwire("inspect", "--json", "--transport", "http", "--url", `${streamable.origin}/mcp`),
    ]);
    assert.equal(forcedSse.code, 0, forcedSse.stderr);
    assert.match(forcedSse.stdout, /^transport\s+sse \(legacy HTTP\+SSE, 2024-11-05\)$/m);
    assert.equal(forcedHttp.code, 0, forcedHttp.stderr);
    const report = JSON.parse(forcedHttp.stdout);
    assert.equal(report.transport, "streamable-http");
    assert.equal(report.transportDetected, undefined);
  });

  test("--transport http against a legacy server exits 1 with the URL and the status, and does not fall back", async () => {
    const { code, stderr } = await mcpwire("inspect", "--transport", "http", "--url", `${sse.origin}/sse`);
    assert.equal(code, 1);
    assert.ok(stderr.includes(`${sse.origin}/sse`), stderr);
    assert.match(stderr, /404/);
  });

  test("--header goes with every request, the probe and both legacy requests; --trace shows the messages", async () => {
    const { code, stderr } = await mcpwire("inspect", "--trace", "--header", "X-Team: wire", "--header", "X-Run:7", "--url", `${fixture.origin}/sse`);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /→ - {2}initialize #\d+ /);
    // The Streamable HTTP POST refused before the fallback, then the legacy stream: their statuses.
    assert.match(stderr, /⇄ - {2}HTTP POST \S+\/sse → 4\d\d/);
    assert.match(stderr, /⇄ - {2}HTTP GET \S+\/sse → 200/);
    const requests = fixture.output.filter((line) => /^(GET|POST) /.test(line));
    assert.ok(requests.length >= 3, requests.join(" | "));
    for (const line of requests) assert.match(line, / x-run=7 x-team=wire$/);
  });

  test("usage errors exit 2: both --stdio and --url, a bad --transport, --header or --url, --env with --url", async () => {
    const url = `${streamable.origin}/mcp`;
    const cases: [string[], RegExp][] = [
      [["--stdio", everythingCommand, "--url", url], /--stdio or --url, not both/],
      [["--url", url, "--transport", "grpc"], /--transport must be auto, http or sse \(got "grpc"\)/],
      [["--url", url, "--header", "no-colon"], /--header needs NAME:VALUE \(got "no-colon"\)/],
      [["--url", "ftp://example.com/mcp"], /--url needs an http:\/\/ or https:\/\/ URL/],
      [["--url", url, "--env", "A=B"], /--env applies to --stdio servers, not to --url/],
      [["--stdio", everythingCommand, "--transport", "sse"], /--transport applies to --url/],
    ];
    const outcomes = await Promise.all(cases.map(([args]) => mcpwire("inspect", ...args)));
    for (const [i, [args, message]] of cases.entries()) {
      const outcome = outcomes[i]!;
      assert.equal(outcome.code, 2, `${args.join(" ")}: ${outcome.stderr}`);
      assert.match(outcome.stderr, message);
    }
  });
});
