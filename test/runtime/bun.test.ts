// The root entry on Bun (issue 28): Bun runs a script that imports src/mod.ts, connects a Client
// over StdioTransport to a fixture server (started by Bun itself) and over Streamable HTTP to a
// loopback server, lists the tools and calls one on each. Bun takes node.ts (it has no Deno
// global; in the npm package the `bun` condition names node.js). Run by Node's and Deno's test
// runners, which spawn `bun` from node_modules/.bin; skipped, saying so, when it is not there.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fixturePath, type PortFixture, startPortFixture } from "../support/fixture-process.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUN = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");
const missing = existsSync(BUN) ? false : `bun is not installed (${BUN}); npm install installs it (the "bun" dev dependency)`;

const SCRIPT = `import { Client, StdioTransport, StreamableHttpTransport } from ${JSON.stringify(pathToFileURL(join(ROOT, "src", "mod.ts")).href)};
import { runtime } from ${JSON.stringify(pathToFileURL(join(ROOT, "src", "runtime", "mod.ts")).href)};
const result = { bun: typeof Bun === "object", runtime: runtime.name };
const stdio = new Client({ name: "bun-test", version: "1.0.0" });
await stdio.connect(new StdioTransport({ command: process.execPath, args: [process.env.ECHO_SERVER] }));
result.stdioTools = (await stdio.listTools()).map((tool) => tool.name);
result.stdioEcho = (await stdio.callTool("echo", { text: "hi" })).content;
await stdio.close();
const http = new Client({ name: "bun-test", version: "1.0.0" });
await http.connect(new StreamableHttpTransport({ url: process.env.MCP_URL }));
result.httpTools = (await http.listTools()).map((tool) => tool.name);
result.httpEcho = (await http.callTool("echo", { text: "hi" })).content;
await http.close();
console.log(JSON.stringify(result));
`;

describe("the root entry on Bun", { skip: missing }, () => {
  let scratch = "";
  let server: PortFixture | undefined;

  before(async () => {
    scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-bun-"));
    writeFileSync(join(scratch, "check.mjs"), SCRIPT);
    server = await startPortFixture("http-mcp-server.mjs");
  });

  after(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test("a Client over stdio (a server Bun starts) and over Streamable HTTP lists the tools and calls echo; Bun takes node.ts", async () => {
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? scratch,
      MCPWIRE_ERA_CACHE: "off",
      ECHO_SERVER: fixturePath("echo-server.mjs"),
      MCP_URL: `${server!.origin}/json/bun/mcp`,
    };
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(BUN, [join(scratch, "check.mjs")], { cwd: scratch, env, timeout: 60_000 }, (error, out, err) => {
        if (error !== null) reject(new Error(`bun check.mjs failed: ${error.message}\n${out}\n${err}`));
        else resolve(out);
      });
    });
    const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Record<string, unknown>;
    assert.equal(result.bun, true, "the script ran on Bun");
    assert.equal(result.runtime, "node");
    assert.ok((result.stdioTools as string[]).includes("echo"), JSON.stringify(result.stdioTools));
    assert.deepEqual(result.stdioEcho, [{ type: "text", text: "hi" }]);
    assert.ok((result.httpTools as string[]).includes("echo"), JSON.stringify(result.httpTools));
    assert.deepEqual(result.httpEcho, [{ type: "text", text: "echo: hi" }]);
  });
});
