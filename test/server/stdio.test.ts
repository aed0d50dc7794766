// The server half over a real child process's stdin and stdout (LineStreamTransport in
// test/fixtures/serve/line-server.ts), talked to by our Client's StdioTransport in both eras,
// and by hand for the lines that are not messages — spec 2025-11-25 basic/transports
// ("stdio"); JSON-RPC 2.0 §5.1 (-32700, -32600 with a null id).

import "../support/test-env.ts";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Client } from "../../src/client/client.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import { behaviour } from "../support/behaviour.ts";
import { exited, fixturePath, killed } from "../support/fixture-process.ts";

const DENO = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url));
const LOADER = new URL("../support/ts-loader.mjs", import.meta.url).href;
const SERVER = fixturePath("serve/line-server.ts");

/** The command that runs the fixture under this runtime. */
function command(...extra: string[]): { command: string; args: string[] } {
  return "Deno" in globalThis
    ? { command: DENO, args: ["run", "-A", SERVER, ...extra] }
    : { command: process.execPath, args: ["--import", LOADER, SERVER, ...extra] };
}

for (const protocol of ["auto", "modern", "legacy"] as const) {
  behaviour(`a Client under protocol ${protocol} talks to the server half over a child's stdio`, async () => {
    const client = new Client({ name: "stdio-host", version: "1" }, { protocol, listen: false, initializeTimeoutMs: 30_000 });
    const { command: cmd, args } = command();
    await client.connect(new StdioTransport({ command: cmd, args, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } }));
    try {
      assert.equal(client.era, protocol === "legacy" ? "legacy" : "modern");
      assert.equal(client.serverInfo?.name, "demo");
      const result = await client.callTool("echo", { text: `over stdio, ${protocol}` });
      assert.deepEqual(result.content, [{ type: "text", text: `over stdio, ${protocol}` }]);
    } finally {
      await client.close();
    }
  });
}

behaviour(
  "a line that is not JSON is answered -32700 with a null id, one that is not JSON-RPC -32600 keeping a readable id; the server reads on and exits 0 at the end of its stdin",
  async () => {
    const { command: cmd, args } = command();
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "ignore"], env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
    try {
      const lines: string[] = [];
      let buffered = "";
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => {
        buffered += chunk;
        const parts = buffered.split("\n");
        buffered = parts.pop()!;
        lines.push(...parts);
      });
      child.stdin!.write("this is not json\n");
      child.stdin!.write('{"jsonrpc":"1.0","id":7}\n');
      child.stdin!.write('{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
      for (let i = 0; i < 3000 && lines.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const answers = lines.map((line) => JSON.parse(line) as { id: unknown; error?: { code: number; message: string }; result?: unknown });
      assert.equal(answers.length, 3, `three answers: ${lines.join(" | ")}`);
      assert.equal(answers[0]!.id, null);
      assert.equal(answers[0]!.error?.code, -32700);
      assert.match(answers[0]!.error!.message, /not JSON/);
      assert.equal(answers[1]!.id, 7, "an id that can be read is kept");
      assert.equal(answers[1]!.error?.code, -32600);
      assert.deepEqual(answers[2], { jsonrpc: "2.0", id: 8, result: {} });
      child.stdin!.end();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const code = await Promise.race([
        exited(child).then(() => child.exitCode),
        new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still running"), 20_000))),
      ]);
      clearTimeout(timer);
      assert.equal(code, 0);
    } finally {
      await killed(child);
      child.stdout!.destroy();
    }
  },
);
