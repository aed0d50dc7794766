// `mcpwire replay FILE` (issue 26): a session of server-everything recorded with --trace-file,
// served again by the real CLI: `inspect --json` against the replay prints what it printed live;
// an unmatched request names the closest recorded one; a tools/call's recorded progress comes
// again; --http serves the same over Streamable HTTP to our Client, and the process stops on
// SIGTERM leaving nothing behind. Real server, real CLI processes, loopback HTTP.

import "../support/test-env.ts"; // the era cache off, here and in the CLIs started
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { before, describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/streamable-http.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { TracingTransport } from "../../src/transport/tracing.ts";
import { mcpwire, runtimeArgs, scratchDir, startMcpwire } from "../support/cli-runner.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { until } from "../support/polling.ts";

const scratch = scratchDir("mcpwire-replay-");
const session = join(scratch.path, "session.jsonl");
let live = "";

/** A word of a command line, quoted for splitCommandLine when it holds a space. */
const word = (text: string) => (/[\s"'\\]/.test(text) ? JSON.stringify(text) : text);
/** The command line that runs `mcpwire replay <file>` as the CLI tests run the CLI. */
const replayCommand = (file: string) => [process.execPath, ...runtimeArgs, "replay", file].map(word).join(" ");
/** The environment a replay child needs beyond the stdio baseline (Deno's cache). */
const childEnv = (): Record<string, string> => (process.env.DENO_DIR === undefined ? {} : { DENO_DIR: process.env.DENO_DIR });

before(async () => {
  const recorded = await mcpwire(["inspect", "--json", "--trace-file", session, "--stdio", `node ${word(EVERYTHING)} stdio`], { timeoutMs: 60_000 });
  assert.equal(recorded.code, 0, recorded.stderr);
  live = recorded.stdout;
});

/** Runs `mcpwire replay <file>` with these lines on its stdin; its stdout as messages. */
async function replayLines(file: string, lines: unknown[]): Promise<{ code: number; messages: Record<string, unknown>[]; stderr: string }> {
  const outcome = await mcpwire(["replay", file], { input: lines.map((line) => JSON.stringify(line) + "\n").join(""), timeoutMs: 60_000 });
  const messages = outcome.stdout.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code: outcome.code, messages, stderr: outcome.stderr };
}

describe("mcpwire replay", () => {
  test("inspect --json against the replay of a recorded session prints what the live server printed", async () => {
    const replayed = await mcpwire(["inspect", "--json", "--stdio", replayCommand(session)], { timeoutMs: 60_000 });
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.ok(live.length > 1000, "the live output is too short");
    assert.deepEqual(JSON.parse(replayed.stdout), JSON.parse(live));
    assert.equal(replayed.stdout, live);
  });

  test("an unmatched request gets an error naming the closest recorded one; ping gets {}; ids are the client's; exits 0 at the end of stdin", async () => {
    const { code, messages, stderr } = await replayLines(session, [
      {
        jsonrpc: "2.0",
        id: "a",
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "other", version: "9" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 7, method: "tools/lis" },
      { jsonrpc: "2.0", id: 8, method: "prompts/list", params: { cursor: "nowhere" } },
      { jsonrpc: "2.0", id: 9, method: "ping" },
      { jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: { progressToken: 99 } } },
    ]);
    assert.equal(code, 0, stderr);
    const byId = new Map(messages.filter((message) => "id" in message).map((message) => [message.id, message]));
    const init = byId.get("a")?.result as { serverInfo?: { name?: string } } | undefined;
    assert.equal(init?.serverInfo?.name, JSON.parse(live).serverInfo.name);
    const unknown = byId.get(7)?.error as { code: number; message: string; data?: unknown } | undefined;
    assert.equal(unknown?.code, -32601);
    assert.match(unknown?.message ?? "", /tools\/lis was never asked in the recording; the closest recorded request: tools\/list$/);
    assert.deepEqual(unknown?.data, { closest: { method: "tools/list" } });
    const params = byId.get(8)?.error as { code: number; message: string } | undefined;
    assert.equal(params?.code, -32602);
    assert.match(params?.message ?? "", /no recorded answer to prompts\/list \{"cursor":"nowhere"\}; the closest recorded request: prompts\/list/);
    assert.deepEqual(byId.get(9)?.result, {});
    const tools = byId.get(10)?.result as { tools?: { name: string }[] } | undefined;
    assert.deepEqual(tools?.tools?.map((tool) => tool.name), JSON.parse(live).tools.map((tool: { name: string }) => tool.name));
    assert.match(stderr, /mcpwire replay: .*tools\/lis was never asked/);
  });

  test("a tools/call with recorded progress notifications replays them, with the new request's token", async () => {
    const file = join(scratch.path, "progress.jsonl");
    const lines: string[] = [];
    const sink = (event: TraceEvent) => lines.push(JSON.stringify(event));
    const recorder = new Client({ name: "recorder", version: "1" }, { protocol: "legacy", requestTimeoutMs: 30_000 });
    const inner = new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: () => {} });
    await recorder.connect(new TracingTransport(inner, undefined, { sink, server: "everything" }));
    const seenLive: number[] = [];
    const args = { duration: 0.3, steps: 3 };
    const liveResult = await recorder.callTool("trigger-long-running-operation", args, { onProgress: (progress) => seenLive.push(progress.progress) });
    await recorder.close();
    await writeFile(file, lines.join("\n") + "\n");
    assert.equal(seenLive.length, 3);

    const client = new Client({ name: "replayer", version: "1" }, { protocol: "legacy", requestTimeoutMs: 30_000 });
    const [command, ...rest] = [process.execPath, ...runtimeArgs, "replay", file];
    const stderr: string[] = [];
    await client.connect(new StdioTransport({ command: command!, args: rest, env: childEnv(), onStderr: (line) => stderr.push(line) }));
    try {
      const seen: number[] = [];
      const result = await client.callTool("trigger-long-running-operation", args, { onProgress: (progress) => seen.push(progress.progress) });
      assert.deepEqual(seen, seenLive, stderr.join("\n"));
      assert.deepEqual(result, liveResult);
    } finally {
      await client.close();
    }
  });

  test("--http serves the recording over Streamable HTTP on 127.0.0.1 to our Client; SIGTERM stops it, the port is closed", async () => {
    const running = startMcpwire(["replay", session, "--http", "0"], childEnv());
    const url = await until("the replay's URL on stderr", () => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(running.stderr())?.[1], 60_000);
    try {
      const client = new Client({ name: "http", version: "1" }, { requestTimeoutMs: 20_000 });
      await client.connect(new StreamableHttpTransport({ url }));
      try {
        const tools = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name), JSON.parse(live).tools.map((tool: { name: string }) => tool.name));
        assert.equal(client.serverInfo?.name, JSON.parse(live).serverInfo.name);
      } finally {
        await client.close();
      }
      const get = await fetch(url, { headers: { accept: "text/event-stream" } });
      await get.body?.cancel();
      assert.equal(get.status, 405);
    } finally {
      running.child.kill("SIGTERM");
    }
    const code = await running.code;
    // Deno's node:child_process reports a child it sent a signal to as ended by that signal,
    // even when it exited 0 (a shell that traps TERM and exits 0 shows the same): the code is checked on Node.
    if (!("Deno" in globalThis)) assert.equal(code, 0, running.stderr());
    await assert.rejects(fetch(url, { method: "POST", body: "{}" }), "the port still answers after the replay ended");
  });

  test("usage: no file, an unknown --server (with the names held), help replay", async () => {
    const none = await mcpwire(["replay"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /replay needs a trace file/);
    const wrong = await mcpwire(["replay", session, "--server", "evrything"]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /holds no server "evrything"; it holds "" \(a server given on the command line\)/);
    const help = await mcpwire(["help", "replay"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: mcpwire replay FILE/);
    assert.ok((await readFile(session, "utf8")).length > 0);
  });
});
