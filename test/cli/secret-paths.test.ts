// No secret is ever printed (issue 37, items 8, 10 and 12): known secrets are sent down every
// path a server or a config can put them on — a secret past the first 100,000 characters of a
// result, a password in a URL's userinfo, a `${…TOKEN}` interpolated into a server's arguments,
// a secret a server echoes inside JSON text — and every output is searched for them: stdout,
// stderr, the trace file, --json, and the spans an OTLP collector receives. Real CLI processes,
// a real server that echoes (test/fixtures/secret-echo-server.mjs), real loopback HTTP.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import { TracingTransport } from "../../src/transport/tracing.ts";
import { mcpwire, runtimeArgs, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { refusedOrigin } from "../support/fake-model-apis.ts";
import { fixturePath, type PortFixture, startPortFixture } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-secret-paths-");
const ECHO = fixturePath("secret-echo-server.mjs");
/** The fixture's Basic password over HTTP (its default). */
const PASSWORD = "PASSWORD123";
/** base64("u:PASSWORD123"): what the Authorization header carries. */
const BASIC = btoa(`u:${PASSWORD}`);
/** A token with characters that quoting and JSON escape (a quote, a backslash): found only when matched as given. */
const TOKEN = 'tok"en\\SECRET-5f1e0a9c';
/** The part of TOKEN that gives it away, however it is escaped around it. */
const TOKEN_CORE = "SECRET-5f1e0a9c";
/** A key shaped like one, handed to the echo tool as an argument: known by its field name only (`api_key`). */
const SHAPED = "sk-SECRET-aa77c3d1e2f4";

/** The environment a CLI child needs beyond the stdio baseline (Deno's cache). */
const denoDir = (): Record<string, string> => (process.env.DENO_DIR === undefined ? {} : { DENO_DIR: process.env.DENO_DIR });

/** Fails naming the output that shows any of `secrets`. */
function assertNoSecret(outputs: Record<string, string>, secrets: string[]): void {
  for (const [where, text] of Object.entries(outputs)) {
    for (const secret of secrets) {
      const at = text.indexOf(secret);
      assert.equal(at, -1, `${where} shows ${JSON.stringify(secret)}: …${text.slice(Math.max(0, at - 120), at + 60)}…`);
    }
  }
}

async function traceText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return "";
  }
}

describe("a secret past the first 100,000 characters of a message (item 8)", () => {
  test("is not in the trace file, whose lines stay bounded: the large message is its envelope with redactedText", async () => {
    const file = join(scratch.path, "huge.jsonl");
    const size = 3_000_000;
    const outcome = await mcpwire(
      ["call", "--stdio", `node ${ECHO}`, "huge", JSON.stringify({ size, secret: SHAPED }), "--trace-file", file],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.ok(outcome.stdout.includes("api_key=[redacted]"), "stdout shows the secret's place redacted");
    const text = await traceText(file);
    assertNoSecret({ stdout: outcome.stdout, stderr: outcome.stderr, "the trace file": text }, [SHAPED]);
    const lines = text.trimEnd().split("\n");
    const longest = Math.max(...lines.map((line) => line.length));
    assert.ok(longest < 120_000, `a trace line of ${longest} characters for a ${size}-character result`);
    const answer = lines.map((line) => JSON.parse(line) as { kind: string; dir?: string; method?: string; message?: Record<string, unknown> })
      .find((event) => event.kind === "message" && event.dir === "receive" && event.method === "tools/call");
    assert.ok(answer?.message !== undefined, "no tools/call answer in the trace");
    assert.equal(answer.message.jsonrpc, "2.0");
    assert.equal(typeof answer.message.redactedText, "string");
    assert.equal(answer.message.result, undefined, "the large answer is written whole");
  });
});

describe("a password in a URL's userinfo (item 10)", () => {
  let http: PortFixture | undefined;
  let nowhere = "";
  before(async () => {
    http = await startPortFixture("secret-echo-server.mjs", { args: ["--http"] });
    nowhere = await refusedOrigin();
  });
  after(async () => {
    await http?.stop();
  });

  test("an unreachable server: the password is in no warning, error or trace event", async () => {
    const file = join(scratch.path, "unreachable.jsonl");
    const url = `${nowhere.replace("http://", `http://u:${PASSWORD}@`)}/mcp`;
    const outcome = await mcpwire(["tools", "--http", url, "--trace-file", file], { env: { ...process.env, MCPWIRE_RECONNECT_DELAY_MS: "10" } });
    const text = await traceText(file);
    assert.ok(text.includes('"kind":"http"'), `no http event in the trace: ${text.slice(0, 400)}`);
    assertNoSecret({ stdout: outcome.stdout, stderr: outcome.stderr, "the trace file": text }, [PASSWORD]);
  });

  test("is sent as Authorization: Basic, the URL without it; printed nowhere, nor its base64", async () => {
    const file = join(scratch.path, "basic.jsonl");
    const url = `http://u:${PASSWORD}@127.0.0.1:${http!.port}/mcp`;
    const outcome = await mcpwire(["call", "--http", url, "whoami", "--trace-file", file]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(outcome.stdout, "u\n", "the server got the URL's user name and password as Basic credentials");
    const text = await traceText(file);
    assert.match(text, new RegExp(`"url":"http://127\\.0\\.0\\.1:${http!.port}/mcp"`));
    const listed = await mcpwire(["servers", "--http", url, "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    assertNoSecret(
      { stdout: outcome.stdout, stderr: outcome.stderr, "the trace file": text, "servers --json": listed.stdout, "servers' stderr": listed.stderr },
      [PASSWORD, BASIC],
    );
  });

  test("from a config's ${VAR}, with a wrong password: refused by the server, and still printed nowhere", async () => {
    const file = join(scratch.path, "wrong.jsonl");
    const config = await writeConfig(scratch.path, "userinfo.yaml", [
      "mcp_servers:",
      "  basic:",
      `    url: "http://u:\${SERVICE_PASSWORD}@127.0.0.1:${http!.port}/mcp"`,
      "    auth: false",
    ]);
    const wrong = "WRONG-PASSWORD-77c1";
    const env = { ...process.env, SERVICE_PASSWORD: wrong, MCPWIRE_RECONNECT_DELAY_MS: "10" };
    const outcome = await mcpwire(["call", "--config", config, "--trust-project", "mcp_basic_whoami", "--trace-file", file], { env });
    assert.notEqual(outcome.code, 0);
    const listed = await mcpwire(["servers", "--config", config, "--trust-project", "--json"], { env });
    assertNoSecret(
      {
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        "the trace file": await traceText(file),
        "servers --json": listed.stdout,
        "servers' stderr": listed.stderr,
      },
      [wrong, btoa(`u:${wrong}`)],
    );
  });

  test("a wrong password with OAuth on: the server's Basic challenge is no OAuth login to ask for", async () => {
    const config = await writeConfig(scratch.path, "userinfo-oauth.yaml", [
      "mcp_servers:",
      "  basic:",
      `    url: "http://u:\${SERVICE_PASSWORD}@127.0.0.1:${http!.port}/mcp"`,
    ]);
    const wrong = "WRONG-PASSWORD-5e0b";
    const env = { ...process.env, SERVICE_PASSWORD: wrong, MCPWIRE_RECONNECT_DELAY_MS: "10" };
    const outcome = await mcpwire(["call", "--config", config, "--trust-project", "mcp_basic_whoami"], { env });
    assert.notEqual(outcome.code, 0);
    assert.doesNotMatch(outcome.stderr, /auth login/, "a Basic challenge is not answered with OAuth");
    assert.match(outcome.stderr, /401/);
    assertNoSecret({ stdout: outcome.stdout, stderr: outcome.stderr }, [wrong, btoa(`u:${wrong}`)]);
  });

  test("with an Authorization header too: refused, saying why, the password not shown", async () => {
    const url = `http://u:${PASSWORD}@127.0.0.1:${http!.port}/mcp`;
    const outcome = await mcpwire(["inspect", "--url", url, "--header", "Authorization: Bearer other-token-1234"]);
    assert.notEqual(outcome.code, 0);
    assert.match(outcome.stderr, /user name and password before the host, and the headers an Authorization header too; keep one/);
    assertNoSecret({ stdout: outcome.stdout, stderr: outcome.stderr }, [PASSWORD]);
  });
});

describe("mcpwire serve (issue 40): the config's secrets reach the backend, never the host, serve's stderr or its trace", () => {
  let http: PortFixture | undefined;
  before(async () => {
    http = await startPortFixture("secret-echo-server.mjs", { args: ["--http"] });
  });
  after(async () => {
    await http?.stop();
  });

  test("a URL password and a header from ${VAR}: used for the backend; a wrong one's refusal reaches the host without them", async () => {
    const file = join(scratch.path, "serve.jsonl");
    const wrong = "WRONG-PASSWORD-51aa";
    const config = await writeConfig(scratch.path, "serve.yaml", [
      "mcp_servers:",
      "  basic:",
      `    url: "http://u:\${SERVICE_PASSWORD}@127.0.0.1:${http!.port}/mcp"`,
      "    auth: false",
      "    headers:",
      '      X-Api-Key: "${API_TOKEN}"',
      "  refused:",
      `    url: "http://u:\${WRONG_PASSWORD}@127.0.0.1:${http!.port}/mcp"`,
      "    auth: false",
    ]);
    const env = { SERVICE_PASSWORD: PASSWORD, API_TOKEN: TOKEN, WRONG_PASSWORD: wrong, MCPWIRE_RECONNECT_DELAY_MS: "10", MCPWIRE_CONNECT_RETRIES: "0" };
    const client = new Client({ name: "host", version: "1" }, { protocol: "legacy", requestTimeoutMs: 30_000, initializeTimeoutMs: 60_000 });
    const [command, ...rest] = [process.execPath, ...runtimeArgs, "serve", "--config", config, "--trust-project", "--trace-file", file];
    const stderr: string[] = [];
    const seen: string[] = [];
    const transport = new StdioTransport({ command: command!, args: rest, env: { ...env, ...denoDir() }, onStderr: (line) => stderr.push(line) });
    const traced = new TracingTransport(transport, (event) => seen.push(JSON.stringify(event)));
    await client.connect(traced);
    try {
      const tools = (await client.listTools()).map((tool) => tool.name);
      assert.ok(tools.includes("mcp_basic_whoami"), JSON.stringify(tools));
      const who = await client.callTool("mcp_basic_whoami", {});
      assert.deepEqual(who.content, [{ type: "text", text: "u" }], "the backend got the URL's password");
      await assert.rejects(client.callTool("mcp_refused_whoami", {}));
    } finally {
      await client.close();
    }
    assertNoSecret(
      { "what the host received": seen.join("\n"), "serve's stderr": stderr.join("\n"), "the trace file": await traceText(file) },
      [PASSWORD, BASIC, TOKEN_CORE, wrong, btoa(`u:${wrong}`)],
    );
  });
});

describe("a ${…TOKEN} interpolated into a server's arguments (item 12)", () => {
  test("is not in the trace's process line, stdout, stderr or servers --json, though quoting escapes it", async () => {
    const file = join(scratch.path, "args.jsonl");
    const config = await writeConfig(scratch.path, "args.yaml", [
      "mcp_servers:",
      "  sec:",
      "    command: node",
      `    args: [${JSON.stringify(ECHO)}, "--token=\${MY_SERVICE_TOKEN}"]`,
      "    env:",
      '      SECRET_ECHO_TOKEN: "${MY_SERVICE_TOKEN}"',
    ]);
    const env = { ...process.env, MY_SERVICE_TOKEN: TOKEN };
    const outcome = await mcpwire(["call", "--config", config, "--trust-project", "mcp_sec_echo_env", "--trace-file", file], { env });
    assert.equal(outcome.code, 0, outcome.stderr);
    const text = await traceText(file);
    assertNoSecret({ "the trace file": text }, [TOKEN_CORE]);
    assert.match(text, /"phase":"spawn","command":"node \S+secret-echo-server\.mjs --token=\[redacted\]"/);
    const json = await mcpwire(["call", "--config", config, "--trust-project", "mcp_sec_echo_env", "--json"], { env });
    assert.equal(json.code, 0, json.stderr);
    const listed = await mcpwire(["servers", "--config", config, "--trust-project", "--json"], { env });
    assertNoSecret(
      {
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        "the trace file": text,
        "call --json": json.stdout,
        "servers --json": listed.stdout,
        "servers' stderr": listed.stderr,
      },
      [TOKEN_CORE],
    );
  });

  test("a server that cannot start: its description is redacted before it is clipped, so no part of the token shows", async () => {
    const config = await writeConfig(scratch.path, "missing.yaml", [
      "mcp_servers:",
      "  gone:",
      "    command: mcpwire-no-such-command-7c1d",
      // The token starts at the 70th character of the command line: the description's clip at 80 cuts it.
      `    args: ["${"x".repeat(40)}", "--token=\${MY_SERVICE_TOKEN}"]`,
    ]);
    const env = { ...process.env, MY_SERVICE_TOKEN: `${TOKEN_CORE}-and-more-of-it`, MCPWIRE_RECONNECT_DELAY_MS: "10" };
    const outcome = await mcpwire(["servers", "--config", config, "--trust-project"], { env });
    assertNoSecret({ stdout: outcome.stdout, stderr: outcome.stderr }, [TOKEN_CORE.slice(0, 8)]);
    assert.match(outcome.stdout, /cannot start stdio "mcpwire-no-such-command-7c1d x+ --token=\[r…"/);
  });
});

/** Whether the OTLP exporter is installed here (a dev dependency). */
const exporterMissing = await (async () => {
  const name = "@opentelemetry/exporter-trace-otlp-http";
  try {
    await import(name);
    return false;
  } catch {
    return `${name} is not installed (a dev dependency: npm ci)`;
  }
})();

/** A loopback OTLP/HTTP collector that keeps every body it gets. */
async function collector(): Promise<{ origin: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      bodies.push(body);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("telemetry capture (item 12)", { skip: exporterMissing }, () => {
  test("gen_ai.tool.call.result is redacted as stdout is: secrets a server echoes inside JSON text do not reach the collector", async () => {
    const receiver = await collector();
    try {
      const config = await writeConfig(scratch.path, "otel.yaml", [
        "mcp_servers:",
        "  sec:",
        "    command: node",
        `    args: [${JSON.stringify(ECHO)}]`,
        "    env:",
        '      SECRET_ECHO_TOKEN: "${MY_SERVICE_TOKEN}"',
        "telemetry:",
        "  capture_results: true",
      ]);
      const env: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("OTEL_")) env[name] = value;
      Object.assign(env, { MY_SERVICE_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin });
      const known = await mcpwire(["call", "--config", config, "--trust-project", "--otel", "mcp_sec_echo_env"], { env });
      assert.equal(known.code, 0, known.stderr);
      const shaped = await mcpwire(["call", "--config", config, "--trust-project", "--otel", "mcp_sec_echo_json", `secret=${SHAPED}`], { env });
      assert.equal(shaped.code, 0, shaped.stderr);
      assert.match(shaped.stdout, /\{"api_key":"\[redacted\]"/);
      const exported = receiver.bodies.join("\n");
      assert.match(exported, /gen_ai\.tool\.call\.result/, "no result was captured");
      assertNoSecret(
        { "the exported spans": exported, "stdout (echo_env)": known.stdout, "stderr (echo_env)": known.stderr, "stderr (echo_json)": shaped.stderr },
        [TOKEN_CORE],
      );
      // The shaped key: redacted in its JSON field, as stdout shows it (the second text quotes it under a plain name, for both).
      const results = [...exported.matchAll(/"gen_ai\.tool\.call\.result","value":\{"stringValue":("(?:[^"\\]|\\.)*")/g)].map((match) =>
        JSON.parse(match[1]!) as string
      );
      const echoed = results.find((result) => result.includes("api_key"));
      assert.ok(echoed !== undefined, `no echo_json result among ${results.length}`);
      assert.ok(!/api_key[^,]*aa77c3d1/.test(echoed), `the api_key field reached the span: ${echoed}`);
    } finally {
      await receiver.close();
    }
  });
});
