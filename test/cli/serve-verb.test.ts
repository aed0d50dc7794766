// `mcpwire serve` run as a host runs it (issue 40; docs/serve.md): the real CLI in front of a
// real stdio server, reached by our own Client in both eras over the stdio front and the
// Streamable HTTP front; `mcpwire serve` as the backend of another `mcpwire serve`; the HTTP
// front's token (made and printed once, from MCPWIRE_SERVE_TOKEN, from --token-file; 401
// without it; never in a trace file); SIGTERM ends it with 0 and leaves no backend behind.

import "../support/test-env.ts"; // the era cache off, here and in the CLIs started
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import type { ProtocolChoice } from "../../src/client/protocol-version.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/streamable-http.ts";
import { mcpwire, root, type RunningCli, runtimeArgs, scratchDir, startMcpwire } from "../support/cli-runner.ts";
import { until } from "../support/polling.ts";
import { isRunning } from "../support/processes.ts";

const scratch = scratchDir("mcpwire-serve-cli-");
const ECHO = join(root, "examples/servers/echo-server.mjs");
/** A word of a command line, quoted for splitCommandLine when it holds a space. */
const word = (text: string) => (/[\s"'\\]/.test(text) ? JSON.stringify(text) : text);
/** The command line of the CLI as these tests run it. */
const cliLine = (args: string[]) => [process.execPath, ...runtimeArgs, ...args].map(word).join(" ");
/** The environment a CLI child needs beyond the stdio baseline (Deno's cache). */
const childEnv = (): Record<string, string> => (process.env.DENO_DIR === undefined ? {} : { DENO_DIR: process.env.DENO_DIR });
const SECRET_TOKEN = "serve-token-never-print-4711";

/** Our Client through `mcpwire serve <args>` over the stdio front, at `protocol`. */
async function throughStdio(args: string[], protocol: ProtocolChoice): Promise<{ client: Client; pid: number | undefined; stderr: string[] }> {
  const client = new Client({ name: "host", version: "1" }, { protocol, requestTimeoutMs: 30_000, initializeTimeoutMs: 60_000 });
  const stderr: string[] = [];
  const [command, ...rest] = [process.execPath, ...runtimeArgs, "serve", ...args];
  const transport = new StdioTransport({ command: command!, args: rest, env: childEnv(), onStderr: (line) => stderr.push(line) });
  await client.connect(transport);
  return { client, pid: transport.serverProcess?.pid, stderr };
}

/**
 * It stopped on SIGTERM as it should: said so, and exited 0 (Deno's node:child_process reports a
 * child it sent a signal to as ended by that signal, whatever its exit code: there the line is the proof).
 */
async function exitedCleanly(running: RunningCli): Promise<void> {
  const code = await running.code;
  assert.match(running.stderr(), /mcpwire serve: stopped on SIGTERM; every backend closed/);
  if (!("Deno" in globalThis)) assert.equal(code, 0, running.stderr());
}

/** A file's text, or "" while it is not there yet. */
function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

describe("mcpwire serve", () => {
  test("help prints the usage; a bad --listen and the HTTP options without it are usage errors", async () => {
    const [help, badListen, noListen, both] = await Promise.all([
      mcpwire(["help", "serve"]),
      mcpwire(["serve", "--listen", "70000", "--stdio", `node ${word(ECHO)}`]),
      mcpwire(["serve", "--no-auth", "--stdio", `node ${word(ECHO)}`]),
      mcpwire(["serve", "--listen", "0", "--no-auth", "--token-file", "x", "--stdio", `node ${word(ECHO)}`]),
    ]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: mcpwire serve \[SERVER…\]/);
    assert.equal(badListen.code, 2);
    assert.match(badListen.stderr, /--listen takes \[HOST:\]PORT/);
    assert.equal(noListen.code, 2);
    assert.match(noListen.stderr, /--no-auth applies to the HTTP front; add --listen/);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--no-auth and --token-file say opposite things/);
  });

  for (const protocol of ["legacy", "modern"] as const) {
    test(`stdio front, ${protocol} host: tools listed and called through serve; closing stdin ends serve`, async () => {
      const { client, pid, stderr } = await throughStdio(["--stdio", `node ${word(ECHO)}`], protocol);
      try {
        assert.equal(client.era, protocol);
        // One backend: the host sees its identity, as it would directly.
        assert.equal(client.serverInfo?.name, "echo");
        const tools = await client.listTools();
        assert.ok(tools.some((tool) => tool.name === "echo"), JSON.stringify(tools.map((tool) => tool.name)));
        const result = await client.callTool("echo", { text: "through the bridge" });
        assert.deepEqual(result.content, [{ type: "text", text: "through the bridge" }], stderr.join("\n"));
      } finally {
        await client.close();
      }
      await until("serve's exit after its stdin ended", () => (pid === undefined || !isRunning(pid) ? true : undefined), 15_000);
    });
  }

  test("serve as the backend of serve: a 2026-07-28 host through two bridges reaches the server", async () => {
    const inner = cliLine(["serve", "--stdio", `node ${word(ECHO)}`]);
    const { client, stderr } = await throughStdio(["--stdio", inner, "--name", "inner"], "modern");
    try {
      const result = await client.callTool("echo", { text: "twice bridged" });
      assert.deepEqual(result.content, [{ type: "text", text: "twice bridged" }], stderr.join("\n"));
    } finally {
      await client.close();
    }
  });

  test("HTTP front: a token is made and printed once; without it 401; with it both eras; SIGTERM exits 0, the backend gone, no token in the trace file", async () => {
    const traceFile = join(scratch.path, "serve-trace.jsonl");
    const running = startMcpwire(["serve", "--listen", "127.0.0.1:0", "--trace-file", traceFile, "--stdio", `node ${word(ECHO)}`], childEnv());
    const url = await until("serve's URL on stderr", () => /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(running.stderr())?.[1], 60_000);
    const token = await until("the token on stderr", () => /Authorization: Bearer (\S+)/.exec(running.stderr())?.[1], 10_000);
    try {
      const refused = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      await refused.body?.cancel();
      assert.equal(refused.status, 401);
      for (const protocol of ["legacy", "modern"] as const) {
        const client = new Client({ name: "http-host", version: "1" }, { protocol, requestTimeoutMs: 30_000, initializeTimeoutMs: 60_000 });
        await client.connect(new StreamableHttpTransport({ url, headers: { authorization: `Bearer ${token}` } }));
        try {
          assert.equal(client.era, protocol);
          const result = await client.callTool("echo", { text: `over http, ${protocol}` });
          assert.deepEqual(result.content, [{ type: "text", text: `over http, ${protocol}` }]);
        } finally {
          await client.close();
        }
      }
    } finally {
      running.child.kill("SIGTERM");
    }
    await exitedCleanly(running);
    assert.equal(running.stderr().split(token).length - 1, 1, "the token is printed once");
    const trace = await readFile(traceFile, "utf8");
    assert.ok(trace.includes("tools/call"), "the trace holds the calls");
    assert.ok(!trace.includes(token), "the token is not in the trace");
    const pids = [...trace.matchAll(/"pid":(\d+)/g)].map((match) => Number(match[1]));
    assert.ok(pids.length > 0, "the trace names the backend's process");
    for (const pid of pids) await until(`backend ${pid} gone`, () => (isRunning(pid) ? undefined : true), 10_000);
  });

  test("HTTP front: the token from MCPWIRE_SERVE_TOKEN or --token-file is required and never printed", async () => {
    const tokenFile = join(scratch.path, "token");
    await writeFile(tokenFile, `${SECRET_TOKEN}-file\n`);
    for (
      const [args, env, token] of [
        [[], { ...childEnv(), MCPWIRE_SERVE_TOKEN: SECRET_TOKEN }, SECRET_TOKEN],
        [["--token-file", tokenFile], childEnv(), `${SECRET_TOKEN}-file`],
      ] as const
    ) {
      const running = startMcpwire(["serve", "--listen", "0", ...args, "--stdio", `node ${word(ECHO)}`], env);
      const url = await until("serve's URL on stderr", () => /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(running.stderr())?.[1], 60_000);
      try {
        const wrong = new Client({ name: "wrong", version: "1" }, { protocol: "legacy", requestTimeoutMs: 10_000 });
        await assert.rejects(wrong.connect(new StreamableHttpTransport({ url, headers: { authorization: "Bearer nope" } })));
        const client = new Client({ name: "right", version: "1" }, { protocol: "legacy", requestTimeoutMs: 30_000, initializeTimeoutMs: 60_000 });
        await client.connect(new StreamableHttpTransport({ url, headers: { authorization: `Bearer ${token}` } }));
        await client.close();
      } finally {
        running.child.kill("SIGTERM");
      }
      await exitedCleanly(running);
      assert.ok(!running.stderr().includes(SECRET_TOKEN) && !running.stdout().includes(SECRET_TOKEN), running.stderr());
    }
  });

  test("SIGTERM with a backend that ignores the end of its stdin and SIGTERM: serve exits 0, and neither it nor its grandchild is left", async () => {
    const traceFile = join(scratch.path, "stubborn-trace.jsonl");
    const stubborn = join(root, "test/fixtures/stubborn-server.mjs");
    const running = startMcpwire(
      [
        "serve",
        "--listen",
        "0",
        "--no-auth",
        "--trace-file",
        traceFile,
        "--stdio",
        `node ${word(stubborn)}`,
        "--name",
        "stubborn",
        "--stdio",
        `node ${word(ECHO)}`,
      ],
      childEnv(),
    );
    await until("serve's URL on stderr", () => /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(running.stderr())?.[1], 60_000);
    const pids = await until("the stubborn server's pids in the trace", () => {
      const match = /pids (\d+) (\d+)/.exec(readFileSafe(traceFile));
      return match === null ? undefined : [Number(match[1]), Number(match[2])];
    }, 30_000);
    running.child.kill("SIGTERM");
    await exitedCleanly(running);
    for (const pid of pids) await until(`process ${pid} gone`, () => (isRunning(pid) ? undefined : true), 10_000);
  });
});
