// runtime.write and flush: output the CLI writes without waiting for it is all there, in order,
// when the process exits right after a flush — on Node and Deno alike (without the flush, both
// dropped most of it when the reader was slower than the writer: found under load in CI).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("../fixtures/write-then-exit.ts", import.meta.url));
const DENO = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url));

/** stderr of the script under a runtime, read slowly (the pipe fills while the script writes). */
function stderrOf(command: string, args: string[]): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env: process.env });
    const chunks: Uint8Array[] = [];
    child.stderr!.on("data", (chunk: Uint8Array) => {
      chunks.push(chunk);
      child.stderr!.pause();
      setTimeout(() => child.stderr!.resume(), 1); // a slow reader
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, text: Buffer.concat(chunks).toString("utf8") }));
  });
}

for (
  const [name, command, args] of [
    ["Node", process.execPath, ["--import", "tsx", SCRIPT]],
    ["Deno", DENO, ["run", "-A", SCRIPT]],
  ] as const
) {
  test(`${name}: 2,000 writes not waited for reach a slow reader whole and in order when flush() comes before exit()`, async () => {
    const { code, text } = await stderrOf(command, [...args]);
    assert.equal(code, 0);
    const lines = text.split("\n").filter((line) => line !== "");
    assert.equal(lines.length, 2000, `got ${lines.length} lines`);
    for (let i = 0; i < lines.length; i++) assert.ok(lines[i]!.startsWith(`line ${String(i).padStart(4, "0")} `), `line ${i}: ${lines[i]!.slice(0, 20)}`);
  });
}
