// `--trace` and `--trace-file` on the config-driven verbs (issue 26): `call … --trace-file t.jsonl`
// writes process, lifecycle and message events, the tools/call answer marked as the answer to
// tools/call, and no secret; `--trace` prints readable lines to stderr. Real CLI, real server.

import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { type HttpServerProcess, startEverything } from "../fixtures/sse-servers.ts";
import { everythingConfig, mcpwire, writeConfig } from "../support/cli-runner.ts";
import { EVERYTHING } from "../support/everything-path.ts";

// A credential-named env value of the server: the host's redactor knows it as a secret.
const SECRET = "sk-trace-secret-5a4b3c2d1e0f";
const scratch = everythingConfig("mcpwire-trace-", ["echo"], () => []);

/**
 * The config with the secret in the server's env (everythingConfig writes no env) and on its
 * command line (node's --title: harmless to the server, shown by a process event's command).
 */
async function configWithSecret(): Promise<string> {
  const text = await readFile(scratch.config, "utf8");
  const file = join(scratch.path, "secret.yaml");
  const withEnv = text.replace("    tools:", `    env:\n      EXAMPLE_API_KEY: ${JSON.stringify(SECRET)}\n    tools:`);
  await writeFile(file, withEnv.replace("    args: [", `    args: [${JSON.stringify(`--title=${SECRET}`)}, `));
  return file;
}

async function readEvents(file: string): Promise<TraceEvent[]> {
  const text = await readFile(file, "utf8");
  assert.ok(text.endsWith("\n"), "the last line is not complete");
  return text.trimEnd().split("\n").map((line) => JSON.parse(line) as TraceEvent);
}

describe("mcpwire call --trace-file", () => {
  test("writes process, lifecycle and message events, the tools/call answer marked, no secret, mode 0600", async () => {
    const config = await configWithSecret();
    const file = join(scratch.path, "t.jsonl");
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_echo", `message=hi ${SECRET}`, "--trace-file", file, "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Echo: hi \[redacted\]/);
    assert.equal(stderr.includes("→"), false, "--trace-file alone printed trace lines");
    const text = await readFile(file, "utf8");
    assert.ok(!text.includes(SECRET), "the secret appears in the trace file");
    if (process.platform !== "win32") assert.equal((await stat(file)).mode & 0o777, 0o600);
    const events = await readEvents(file);
    for (const event of events) {
      assert.equal(event.v, 1);
      assert.equal(event.server, "everything");
      assert.equal(event.transport, "stdio");
    }
    const kinds = new Set(events.map((event) => event.kind));
    for (const kind of ["process", "lifecycle", "message"]) assert.ok(kinds.has(kind as TraceEvent["kind"]), `no ${kind} event`);
    const phases = events.flatMap((event) => (event.kind === "lifecycle" ? [event.phase] : []));
    assert.deepEqual(phases.filter((phase) => phase !== "failed"), ["connecting", "era", "ready", "close"]);
    const era = events.find((event) => event.kind === "lifecycle" && event.phase === "era");
    assert.ok(era?.kind === "lifecycle" && era.era !== undefined && era.reason !== undefined);
    const spawn = events.find((event) => event.kind === "process" && event.phase === "spawn");
    assert.ok(spawn?.kind === "process" && spawn.phase === "spawn" && spawn.pid > 0, "no spawn");
    assert.match(spawn.command, /^node --title=\[redacted\] /);
    assert.ok(events.some((event) => event.kind === "process" && event.phase === "exit"));
    const call = events.find((event) => event.kind === "message" && event.dir === "send" && event.method === "tools/call");
    assert.ok(call?.kind === "message" && call.id !== undefined, "no tools/call");
    const answer = events.find((event) => event.kind === "message" && event.answers?.method === "tools/call");
    assert.ok(answer?.kind === "message", "no answer marked as the answer to tools/call");
    assert.equal(answer.answers?.id, call.id);
    assert.equal(answer.dir, "receive");
    assert.ok(typeof answer.latencyMs === "number");
    // Times grow (one clock for the session).
    const times = events.map((event) => event.t);
    assert.deepEqual([...times].sort((a, b) => a - b), times);
  });

  test("--trace prints readable lines to stderr: arrows, the answer to tools/call, no secret", async () => {
    const config = await configWithSecret();
    const { code, stderr } = await mcpwire(["call", "mcp_everything_echo", `message=${SECRET}`, "--trace", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /→ everything {2}tools\/call #\d+/);
    assert.match(stderr, /← everything {2}↳ answer to tools\/call #\d+ {2}[\d.]+ ms {2}\(\d+ B\)/);
    assert.match(stderr, /• everything {2}process started, pid \d+/);
    assert.match(stderr, /• everything {2}ready/);
    assert.ok(!stderr.includes(SECRET), "the secret appears on stderr");
  });

  test("--trace=full pretty-prints bodies; --trace=other and an unwritable --trace-file are usage errors", async () => {
    const full = await mcpwire(["tools", "--trace=full", "--config", scratch.config]);
    assert.equal(full.code, 0, full.stderr);
    assert.match(full.stderr, /↳ answer to tools\/list #\d+[^\n]*\n {13}\{\n {15}"(result|jsonrpc)": /);
    const bad = await mcpwire(["servers", "--trace=loud", "--config", scratch.config]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--trace takes no value or =full/);
    // A file under a file: the trace cannot be written, said before any server starts.
    const unwritable = await mcpwire(["servers", "--trace-file", join(scratch.config, "t.jsonl"), "--config", scratch.config]);
    assert.equal(unwritable.code, 2);
    assert.match(unwritable.stderr, /--trace-file .*t\.jsonl: cannot write it \(/);
  });
});

describe("mcpwire inspect --trace-file", () => {
  test("writes the same events as call: process, lifecycle with the era's reason, messages with their answers", async () => {
    const file = join(scratch.path, "inspect.jsonl");
    const { code, stderr } = await mcpwire(["inspect", "--trace-file", file, "--stdio", `node ${EVERYTHING} stdio`]);
    assert.equal(code, 0, stderr);
    const events = await readEvents(file);
    assert.ok(events.some((event) => event.kind === "process" && event.phase === "spawn"));
    const era = events.find((event) => event.kind === "lifecycle" && event.phase === "era");
    assert.ok(era?.kind === "lifecycle" && era.era === "legacy" && /server\/discover answered error -32601/.test(era.reason ?? ""), JSON.stringify(era));
    assert.ok(events.some((event) => event.kind === "message" && event.answers?.method === "tools/list"));
  });
});

describe("mcpwire call --trace-file over Streamable HTTP (server-everything streamableHttp)", () => {
  let server: HttpServerProcess;
  before(async () => {
    server = await startEverything("streamableHttp");
  });
  after(async () => {
    await server?.stop();
  });

  test("adds http events with statuses, Mcp-Session-Id and MCP-Protocol-Version; no header value, token or secret appears", async () => {
    const token = "tok-http-trace-1a2b3c4d5e6f";
    const custom = "custom-http-secret-7a8b9c0d";
    const config = await writeConfig(scratch.path, "http.yaml", [
      "mcp_servers:",
      "  web:",
      `    url: ${server.origin}/mcp`,
      "    headers:",
      `      Authorization: "Bearer ${token}"`,
      `      X-Custom: "${custom}"`,
    ]);
    const file = join(scratch.path, "http.jsonl");
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_web_echo", `message=${token} ${custom}`, "--trace-file", file, "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /Echo: \[redacted\] \[redacted\]/);
    const text = await readFile(file, "utf8");
    for (const secret of [token, custom]) assert.ok(!text.includes(secret), `${secret} appears in the trace file`);
    const events = await readEvents(file);
    const http = events.filter((event) => event.kind === "http");
    const statuses = new Set(http.flatMap((event) => (event.phase === "response" ? [event.status] : [])));
    assert.ok(statuses.has(200), [...statuses].join(", "));
    assert.ok(http.some((event) => event.phase === "response" && event.responseHeaders["Mcp-Session-Id"] !== undefined), "no Mcp-Session-Id");
    assert.ok(http.some((event) => event.phase === "response" && event.requestHeaders["MCP-Protocol-Version"] !== undefined), "no MCP-Protocol-Version");
    const answer = events.find((event) => event.kind === "message" && event.answers?.method === "tools/call");
    assert.ok(answer, "no answer marked as the answer to tools/call");
    assert.ok(events.some((event) => event.kind === "lifecycle" && event.phase === "era" && event.transport === "streamable-http"));
  });
});
