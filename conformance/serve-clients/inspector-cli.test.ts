// The MCP Inspector's CLI (npm `@modelcontextprotocol/inspector-cli` 1.x, the one that runs on
// Node 20; on the SDK v1, the handshake era): one process per request, as CI scripts and agents
// use it (`--method tools/list`, `--method tools/call --tool-name … --tool-arg k=v`), against
// server-everything over stdio and Streamable HTTP, directly and through `mcpwire serve`.
//
// Its build/index.js finds its own package.json by a path relative to the working directory
// ("../package.json") but imports it relative to itself, so it runs with its build/ directory
// as the working directory (from anywhere else it fails before connecting).

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { compiledCli } from "../../test/support/compiled-cli.ts";
import { type Endpoint, everythingStdio, firstText, serveMissing, serveStdio, startEverythingHttp, startServeHttp } from "./serve-front.ts";

const BUILD = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/inspector-cli/build/", import.meta.url));
const RUN_LIMIT_MS = 15_000;

/** `inspector-cli <target…> <request…>`: its stdout parsed as JSON (it prints the result), or the reason it failed. */
function run(target: string[], request: string[]): Promise<unknown> {
  // A stdio target's own arguments go after `--`, so that the CLI does not read `--stdio` as its own.
  const [first, ...rest] = target;
  const args = [`${BUILD}index.js`, first!, ...request, ...(rest.length > 0 ? ["--", ...rest] : [])];
  return new Promise((resolve, reject) => {
    execFile(
      "node",
      args,
      { cwd: BUILD, timeout: RUN_LIMIT_MS, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } },
      (error, stdout, stderr) => {
        if (error !== null) return reject(new Error(`inspector-cli ${request.join(" ")} failed (${error.message}): ${stderr.trim()}`));
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`inspector-cli printed no JSON: ${stdout.slice(0, 500)}`));
        }
      },
    );
  });
}

/**
 * What a script does with the CLI: list the tools, call one with typed arguments (`options` go
 * before each request). Two runs, since each is a process of its own that starts the server too.
 */
async function exercise(target: string[], options: string[] = []): Promise<void> {
  const inspector = (request: string[]) => run(target, [...options, ...request]);
  const listed = await inspector(["--method", "tools/list"]) as { tools: { name: string }[] };
  const names = listed.tools.map((tool) => tool.name);
  assert.ok(names.includes("echo") && names.includes("get-sum"), `tools listed: ${names.join(", ")}`);
  assert.match(firstText(await inspector(["--method", "tools/call", "--tool-name", "get-sum", "--tool-arg", "a=2", "b=3"])), /\b5\b/);
}

async function overHttp(start: () => Promise<Endpoint>): Promise<void> {
  const endpoint = await start();
  try {
    await exercise([endpoint.url], ["--transport", "http"]);
  } finally {
    await endpoint.stop();
  }
}

const command = (server: { command: string; args: string[] }) => [server.command, ...server.args];

describe("Inspector CLI → server-everything", () => {
  test("directly, over stdio", () => exercise(command(everythingStdio)));
  test("directly, over Streamable HTTP", () => overHttp(startEverythingHttp));
  // The Inspector CLI takes options of its own from anywhere on its command line (`--config` is
  // one), so `mcpwire serve` is launched here as the compiled bin under Node, whose only options
  // are serve's, rather than with the test runtime's own (Deno's `run -A --config deno.json`).
  test(
    "through mcpwire serve, stdio front",
    { skip: serveMissing },
    () => exercise(["node", compiledCli(), ...serveStdio().args.slice(serveStdio().args.indexOf("serve"))]),
  );
  test("through mcpwire serve, Streamable HTTP front", { skip: serveMissing }, () => overHttp(startServeHttp));
});
